package warden_test

import (
	"bufio"
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// loadCorpusActions reads testdata/actions.jsonl as actions.
func loadCorpusActions(tb testing.TB) []risk.Action {
	tb.Helper()
	f, err := os.Open("testdata/actions.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []risk.Action
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, err := risk.ParseAction(sc.Bytes(), risk.DefaultLimits)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// BenchmarkCheckCorpus measures Engine.Check (no judge) over the whole
// evaluation corpus and reports the median and p99 time per action
// (budget: median ≤ 20 µs, p99 ≤ 200 µs; DESIGN.md §8).
func BenchmarkCheckCorpus(b *testing.B) {
	actions := loadCorpusActions(b)
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	per := make([]time.Duration, 0, b.N*len(actions))
	b.ResetTimer()
	for b.Loop() {
		for _, a := range actions {
			start := time.Now()
			_, _, _ = eng.Check(ctx, a)
			per = append(per, time.Since(start))
		}
	}
	b.StopTimer()
	slices.Sort(per)
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds())/1e3, "median-µs/action")
	b.ReportMetric(float64(per[len(per)*99/100].Nanoseconds())/1e3, "p99-µs/action")
	b.ReportMetric(0, "ns/op")
}
