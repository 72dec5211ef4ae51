package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// benchLog returns a log on a new store, its file on disk, durable
// (synchronous=FULL: each commit syncs the WAL).
func benchLog(b *testing.B) (*Store, *audit.Log) {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), session.Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, audit.NewLog(s.Audit(), testKeys(b))
}

// reportCommits reports appends per second, and how many events each
// commit carried (one checkpoint is written per commit).
func reportCommits(b *testing.B, s *Store) {
	var events, commits float64
	s.DB().QueryRow(`SELECT (SELECT count(*) FROM warden_audit), (SELECT count(*) FROM warden_audit_checkpoints)`).Scan(&events, &commits)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
	if commits > 0 {
		b.ReportMetric(events/commits, "events/commit")
	}
}

// BenchmarkAuditAppend: one caller appending, each event its own
// durable commit (seal, sign, insert, fsync).
func BenchmarkAuditAppend(b *testing.B) {
	s, l := benchLog(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := l.Append(ctx, event("bench", "agent", "Bash", risk.Allow, risk.Low)); err != nil {
			b.Fatal(err)
		}
	}
	reportCommits(b, s)
}

// BenchmarkAuditAppendParallel: 16 callers per CPU appending at once:
// the log commits the events that wait during one commit together, in
// the next (group commit).
func BenchmarkAuditAppendParallel(b *testing.B) {
	s, l := benchLog(b)
	b.SetParallelism(16)
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			if _, err := l.Append(ctx, event("bench", "agent", "Bash", risk.Allow, risk.Low)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	reportCommits(b, s)
}

// BenchmarkAuditAppendInUpdate: an Update that records its step in its
// own transaction (as the engine does), against the same Update without
// the event: what recording adds to a call on this store.
func BenchmarkAuditAppendInUpdate(b *testing.B) {
	for _, record := range []bool{false, true} {
		name := map[bool]string{false: "state", true: "state+event"}[record]
		b.Run(name, func(b *testing.B) {
			s, l := benchLog(b)
			ctx := context.Background()
			for b.Loop() {
				err := s.Update(ctx, "bench", func(ctx context.Context, st *session.State) error {
					step(ctx, st)
					if !record {
						return nil
					}
					_, err := l.Append(ctx, event("bench", "agent", "Bash", risk.Allow, risk.Low))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
