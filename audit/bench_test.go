package audit_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// BenchmarkLogAppend appends checked events to a Memory: what sealing,
// signing and group commit cost without a disk. Parallel appenders share
// batches, so they sign fewer checkpoints per event.
func BenchmarkLogAppend(b *testing.B) {
	ev := func() *audit.Event {
		return &audit.Event{Kind: audit.KindCheck, Session: "s", Tool: "Bash",
			Action:     &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "git status"}},
			Assessment: &risk.Assessment{Level: risk.Low}, Decision: &risk.Decision{Verdict: risk.Allow, Rule: "allow_low"}}
	}
	ctx := context.Background()
	b.Run("serial", func(b *testing.B) {
		l := audit.NewLog(audit.NewMemory(), keysOf(b, 1))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := l.Append(ctx, ev()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("parallel", func(b *testing.B) {
		mem := audit.NewMemory()
		l := audit.NewLog(mem, keysOf(b, 1))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := l.Append(ctx, ev()); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		n := 0
		mem.Checkpoints(ctx, 0, func(*audit.Checkpoint) error { n++; return nil })
		b.ReportMetric(float64(b.N)/float64(max(n, 1)), "events/batch")
	})
}

// BenchmarkVerify verifies a chain of 10,000 events with the public key.
func BenchmarkVerify(b *testing.B) {
	ctx := context.Background()
	k := keysOf(b, 1)
	mem := audit.NewMemory()
	l := audit.NewLog(mem, k)
	const n = 10000
	for range n {
		if _, err := l.Append(ctx, &audit.Event{Kind: audit.KindObserve, Session: "s"}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		rep, err := audit.Verify(ctx, mem, k.Public())
		if err != nil || !rep.OK {
			b.Fatal(err, rep.Problems)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
}
