package warden_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// linearInputs builds realistic inputs of about size bytes for each kind
// of text warden analyzes whole: a bash script of many lines of ordinary
// commands, a one-line bash script of ;-separated commands, Python code
// and SQL. Every unit is numbered, so no two lines are the same.
var linearInputs = []struct {
	name string
	tool string
	arg  string
	unit func(i int) string
}{
	{"bash-lines", "Bash", "command", bashUnit},
	{"bash-oneline", "Bash", "command", func(i int) string {
		return fmt.Sprintf("git status; ls -la src/dir%d; echo \"step %d of the build\" | tee -a build.log; cd sub%d && make -j2 target%d; cd ..; ", i, i, i, i)
	}},
	{"bash-appends", "Bash", "command", func(i int) string {
		return fmt.Sprintf("echo \"line %d of the generated file\" >> out.txt\n", i)
	}},
	{"bash-mixed", "Bash", "command", mixedUnit},
	{"python", "python", "code", pythonUnit},
	{"sql", "query", "sql", func(i int) string {
		return fmt.Sprintf("SELECT id, name, email FROM users%d WHERE id = %d AND name LIKE 'a%%';\n"+
			"INSERT INTO audit_log (id, message) VALUES (%d, 'row %d; done');\n"+
			"UPDATE accounts SET balance = balance + 1 WHERE id = %d;\n"+
			"WITH t AS (SELECT * FROM orders WHERE total > %d) SELECT count(*) FROM t;\n", i, i, i, i, i, i)
	}},
	// a select list that never ends: each SELECT's was read to the end
	{"sql-selects", "query", "sql", func(i int) string { return fmt.Sprintf("SELECT email%d, ", i) }},
	// a patch adding a file of many lines: each line was appended to a string
	{"patch", "apply_patch", "input", func(i int) string {
		line := fmt.Sprintf("+line %d of the new file\n", i)
		if i == 0 {
			return "*** Begin Patch\n*** Add File: notes.txt\n" + line
		}
		return line
	}},
}

func bashUnit(i int) string {
	return fmt.Sprintf(`git status --short
ls -la src/pkg%[1]d | grep -v '^total' | sort -k5 -n > /tmp/sizes%[1]d.txt
echo "building module %[1]d with 'quotes' and $HOME" | tee -a build.log
NAME%[1]d="value %[1]d"; echo "${NAME%[1]d}" >> names.txt
build%[1]d() { echo "in build%[1]d"; git log --oneline -n 3 "$@"; }
cat <<EOF > conf%[1]d.ini
[section%[1]d]
key = %[1]d
EOF
for f in a%[1]d b%[1]d c%[1]d; do test -f "$f" && cp "$f" "backup/$f"; done
if [ -d build%[1]d ]; then make -C build%[1]d all; else mkdir -p build%[1]d; fi
`, i)
}

// mixedUnit is a unit of a script that does more than read: downloads,
// removes, writes scripts then runs them, and sends files.
func mixedUnit(i int) string {
	return fmt.Sprintf(`curl -fsSL https://example.com/releases/v%[1]d/tool.tar.gz -o /tmp/tool%[1]d.tgz
tar xzf /tmp/tool%[1]d.tgz -C /tmp/tool%[1]d && rm -rf /tmp/tool%[1]d.tgz
printf '#!/bin/sh\necho step %[1]d\n' > step%[1]d.sh && chmod +x step%[1]d.sh && ./step%[1]d.sh
python3 -c "print(%[1]d * 2)"
rm -rf build/cache%[1]d dist/old%[1]d
curl -s -X POST -d @report%[1]d.json https://ci.example.org/api/reports
sed -i 's/version = %[1]d/version = %[2]d/' setup.cfg
`, i, i+1)
}

func pythonUnit(i int) string {
	return fmt.Sprintf(`import os
import json

def load_%[1]d(path):
    """Load record %[1]d."""
    with open(os.path.join("data", path)) as f:
        data = json.load(f)
    total = sum(x["n"] for x in data if x.get("ok"))
    print(f"record %[1]d: {total} items")
    return {"id": %[1]d, "total": total, "name": 'r%[1]d'}

results_%[1]d = [load_%[1]d(p) for p in ["a.json", "b.json"]]
`, i)
}

// build repeats unit until the text holds about size bytes.
func build(unit func(int) string, size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		b.WriteString(unit(i))
	}
	return b.String()
}

// workProbe is an analyzer that notes the work the call has charged
// when it runs (the preparers' and the analyzers' before it): the call
// and its budget are the engine's again once Check returns.
type workProbe struct{ used int64 }

func (*workProbe) Name() string { return "probe" }
func (p *workProbe) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	p.used = c.Work.Used()
	return nil, nil
}

// cpuTime returns the CPU time the process has used (user and system):
// on a shared machine it tells the cost better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLinear measures Engine.Check over inputs of 10 KB, 100 KB and
// 1 MB of each kind (see linearInputs), with the engine's default work
// budget (budget) and with one large enough that the analysis completes
// (full). DESIGN.md §8: a 1 MB script costs ≤ 12× a 100 KB one. Besides
// the wall time it reports the CPU time per op (cpu-ns/op, which a loaded
// machine disturbs less), the work units charged (work/op, which must grow
// linearly too) and stopped=1 when the work budget ran out
// (engine.work_budget: the rest is unknown), so that a ratio that is only
// an early exit shows as such. bench/linear.sh prints the ratios.
func BenchmarkLinear(b *testing.B) {
	ctx := context.Background()
	for _, budget := range []struct {
		name string
		opts []warden.Option
	}{
		{"budget", nil},
		{"full", []warden.Option{warden.WithWork(1 << 40)}},
	} {
		probe := &workProbe{}
		eng, err := warden.New(append([]warden.Option{warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"), warden.WithoutSessions(), warden.WithAnalyzer(probe)}, budget.opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range linearInputs {
			for _, size := range []struct {
				name string
				n    int
			}{{"10KB", 10 << 10}, {"100KB", 100 << 10}, {"1MB", 1 << 20}} {
				text := build(in.unit, size.n)
				a := risk.Action{Tool: in.tool, Arguments: map[string]any{in.arg: text}}
				b.Run(in.name+"/"+size.name+"/"+budget.name, func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(text)))
					stopped, work := 0.0, int64(0)
					cpu := cpuTime()
					for b.Loop() {
						as, _, err := eng.Check(ctx, a)
						if err != nil {
							b.Fatal(err)
						}
						if slices.ContainsFunc(as.Findings, func(f risk.Finding) bool { return f.Rule == "engine.work_budget" }) {
							stopped = 1
						}
						work = probe.used
					}
					b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
					b.ReportMetric(float64(work), "work/op")
					b.ReportMetric(stopped, "stopped")
				})
			}
		}
	}
}

// TestLinearAllocation holds what BenchmarkLinear measures in time to
// the bytes allocated, which do not depend on the machine's load: for
// each kind of input, checking 1 MB allocates at most 14 times what
// checking 100 KB does, with a budget large enough that the analysis
// completes (DESIGN.md §8 bounds the cost at 12×; bytes run a little
// ahead of it: SQL's 12.3–12.6× costs 9–10× the CPU). Work per command that grows with the script
// (a list the size of the script for each of its commands) fails it.
func TestLinearAllocation(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 1 MB inputs")
	}
	ctx := context.Background()
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"), warden.WithoutSessions(), warden.WithWork(1<<40))
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(a risk.Action) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, _, err := eng.Check(ctx, a); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, in := range linearInputs {
		var bytes [2]uint64
		for i, n := range []int{100 << 10, 1 << 20} {
			a := risk.Action{Tool: in.tool, Arguments: map[string]any{in.arg: build(in.unit, n)}}
			allocated(a) // what is compiled on first use
			bytes[i] = allocated(a)
		}
		if r := float64(bytes[1]) / float64(bytes[0]); r > 14 {
			t.Errorf("%s: 1 MB allocates %.1f× what 100 KB does (%d / %d bytes), bound 14×", in.name, r, bytes[1], bytes[0])
		}
	}
}
