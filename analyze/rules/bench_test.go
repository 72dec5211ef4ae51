package rules_test

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/analyze/code"
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

// prepared returns a as the engine prepares it: normalized, its Python
// read and its shell scripts resolved.
func prepared(tb testing.TB, a *risk.Action) *tool.Call {
	tb.Helper()
	c := tool.Normalize(a, rules.SampleCwd, rules.SampleHome)
	ctx := context.Background()
	if _, err := (code.Preparer{}).Prepare(ctx, c); err != nil {
		tb.Fatal(err)
	}
	if _, err := (shell.Preparer{}).Prepare(ctx, c); err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkAnalyzeCorpus measures the rule pack over every action of
// testdata/actions.jsonl, prepared as the engine prepares them, and
// reports the median and p99 time per action, after one pass that
// compiles what the corpus uses (the first use of a pattern compiles it).
func BenchmarkAnalyzeCorpus(b *testing.B) {
	f, err := os.Open("../../testdata/actions.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var actions []*risk.Action
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, err := risk.ParseAction(sc.Bytes(), risk.DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		actions = append(actions, &a)
	}
	a, err := rules.New()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, x := range actions {
		_, _ = a.Analyze(ctx, prepared(b, x))
	}
	var per []time.Duration
	for b.Loop() {
		for _, x := range actions {
			c := prepared(b, x)
			c.Work = nil
			start := time.Now()
			_, _ = a.Analyze(ctx, c)
			per = append(per, time.Since(start))
		}
	}
	slices.Sort(per)
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds())/1e3, "median-µs/action")
	b.ReportMetric(float64(per[len(per)*99/100].Nanoseconds())/1e3, "p99-µs/action")
	var sum time.Duration
	for _, d := range per {
		sum += d
	}
	b.ReportMetric(float64(sum.Nanoseconds())/float64(len(per))/1e3, "mean-µs/action")
	b.ReportMetric(0, "ns/op")
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
// (1 MB ≤ 12 × 100 KB), however many keyword hits the text holds.
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
				b.SetBytes(int64(size))
				for b.Loop() {
					c.Work = nil // unbounded: measure the whole cost
					_, _ = a.Analyze(ctx, c)
				}
			})
		}
	}
}
