package rules_test

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentwarden/warden/internal/corpus"

	"github.com/agentwarden/warden/analyze/rules"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// BenchmarkNew measures rules.New with the default pack, in a process
// that has made one before (the first call of a process: bench/rules.sh).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rules.New(); err != nil {
			b.Fatal(err)
		}
	}
}

// corpusCalls returns every action of testdata/actions.jsonl, prepared as
// the engine prepares them, without a work budget.
func corpusCalls(b *testing.B) []*tool.Call {
	var calls []*tool.Call
	for _, a := range corpus.Actions(b, "../../testdata/actions.jsonl") {
		c := rules.Prepare(b, &a, 0)
		c.Work = nil
		calls = append(calls, c)
	}
	return calls
}

// warmAssessor returns an assessor with the default pack and the corpus
// calls (corpusCalls), after one pass of the pack over them that
// compiles what the corpus uses (the first use of a pattern compiles it).
func warmAssessor(b *testing.B) (*rules.Assessor, []*tool.Call) {
	calls := corpusCalls(b)
	a, err := rules.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range calls {
		_, _ = a.Analyze(context.Background(), c)
	}
	return a, calls
}

// BenchmarkAnalyzeCorpus measures the rule pack over every action of
// testdata/actions.jsonl, prepared as the engine prepares them, after one
// pass that compiles what the corpus uses (the first use of a pattern
// compiles it). It reports the median and p99 wall time per action and
// the mean CPU time of the benchmark's thread per action (cpu-µs/action),
// which other processes on a loaded machine disturb less.
func BenchmarkAnalyzeCorpus(b *testing.B) {
	a, calls := warmAssessor(b)
	ctx := context.Background()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var per []time.Duration
	cpu0 := threadCPU()
	for b.Loop() {
		for _, c := range calls {
			start := time.Now()
			_, _ = a.Analyze(ctx, c)
			per = append(per, time.Since(start))
		}
	}
	cpu := threadCPU() - cpu0
	slices.Sort(per)
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds())/1e3, "median-µs/action")
	b.ReportMetric(float64(per[len(per)*99/100].Nanoseconds())/1e3, "p99-µs/action")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(len(per))/1e3, "cpu-µs/action")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkAnalyzeCalls is BenchmarkAnalyzeCorpus without clocks: one
// op is the pack over every action of the corpus, for bench/instr.sh,
// whose counts the clock reads and the sorting of their times would
// disturb.
func BenchmarkAnalyzeCalls(b *testing.B) {
	a, calls := warmAssessor(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			_, _ = a.Analyze(ctx, c)
		}
	}
}

// threadCPU returns the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// largeLines are lines dense in the pack's keywords (install, add, get,
// curl, commit, push, open, write, drop, delete …) that fire nothing or
// little: each keyword hit makes its rule look.
var largeLines = map[string]string{
	"command": "echo add get install commit push && git status && curl -s localhost:8080/health | grep -c update # drop delete\n",
	"code":    "data = open(name).read(); log.write(f'add get install {x}'); # requests.get(u) drop delete update where\n",
}

// BenchmarkLarge measures the rule pack over one text of 100 KB and of
// 1 MB, as a shell script and as Python: the cost must grow linearly
// (1 MB ≤ 12 × 100 KB), however many keyword hits the text holds. The
// script's commands are resolved first (shell.Facts), as the engine does
// before the analyzers: their cost is the shell's (bench/linear.sh).
func BenchmarkLarge(b *testing.B) {
	a, err := rules.New()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, target := range []string{"command", "code"} {
		for _, size := range []int{100 << 10, 1 << 20} {
			text := strings.Repeat(largeLines[target], size/len(largeLines[target])+1)[:size]
			name := map[int]string{100 << 10: "100KB", 1 << 20: "1MB"}[size]
			b.Run(target+"/"+name, func(b *testing.B) {
				act := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": text}}
				if target == "code" {
					act = &risk.Action{Tool: "python", Arguments: map[string]any{"code": text}}
				}
				c := tool.Normalize(act, rules.SampleCwd, rules.SampleHome)
				c.Work = nil
				shell.Facts(c)
				b.SetBytes(int64(size))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := threadCPU()
				for b.Loop() {
					c.Work = nil // unbounded: measure the whole cost
					_, _ = a.Analyze(ctx, c)
				}
				b.ReportMetric(float64((threadCPU()-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
			})
		}
	}
}

// BenchmarkFirstAnalyze measures the first assessment of one prepared
// action by a new assessor, whose keyword automaton is built on first use
// (the patterns it runs were compiled by earlier iterations: the first of
// a process is measured by bench/rules.sh).
func BenchmarkFirstAnalyze(b *testing.B) {
	c := rules.Prepare(b, &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "cd web && npm install && git commit -am 'deps' && git push"}}, 0)
	b.ReportAllocs()
	for b.Loop() {
		a, err := rules.New()
		if err != nil {
			b.Fatal(err)
		}
		_, _ = a.Analyze(context.Background(), c)
	}
}

// BenchmarkResources measures rules.Resources (which the engine's combine
// calls for every call) over every action of testdata/actions.jsonl,
// prepared as the engine prepares them.
func BenchmarkResources(b *testing.B) {
	calls := corpusCalls(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			rules.Resources(c)
		}
	}
}
