package postgres

import (
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// BenchmarkAuditAppend appends events one after another through a Log,
// each committed durably (synchronous_commit on) before the next.
func BenchmarkAuditAppend(b *testing.B) {
	l := audit.NewLog(open(b, testDSN(b), session.Config{}).Audit(), testKeys(b))
	ctx := b.Context()
	for b.Loop() {
		if _, err := l.Append(ctx, checkEvent("s", "Bash", risk.Allow, risk.Safe)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkAuditAppendParallel appends from 16 goroutines per CPU
// through one Log, which commits the events waiting together (one
// checkpoint per commit: events/commit is the mean group).
func BenchmarkAuditAppendParallel(b *testing.B) {
	s := open(b, testDSN(b), session.Config{})
	l := audit.NewLog(s.Audit(), testKeys(b))
	ctx := b.Context()
	b.SetParallelism(16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := l.Append(ctx, checkEvent("s", "Bash", risk.Allow, risk.Safe)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	var commits, events int64
	if err := s.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM warden_audit_checkpoints), (SELECT count(*) FROM warden_audit)`).Scan(&commits, &events); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(events)/float64(commits), "events/commit")
}
