package postgres

import (
	"sync"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/audit/audittest"
	"github.com/agentwarden/warden/session"
)

// TestAuditConformance runs the audit backends' conformance and tamper
// suite on trails of schemas of their own.
func TestAuditConformance(t *testing.T) {
	baseDSN(t)
	var dsns sync.Map // *Audit → the DSN of its schema
	audittest.Run(t,
		func(t *testing.T) audit.Backend {
			dsn := testDSN(t)
			a := open(t, dsn, session.Config{}).Audit()
			dsns.Store(a, dsn)
			return a
		},
		func(_ *testing.T, b audit.Backend) audittest.Tamperer { return tamperer{b.(*Audit)} },
		audittest.Reopen(func(t *testing.T, b audit.Backend) audit.Backend {
			dsn, _ := dsns.Load(b.(*Audit))
			return open(t, dsn.(string), session.Config{}).Audit()
		}))
}

// tamperer edits a trail's tables in SQL, as someone who can write the
// database would.
type tamperer struct{ a *Audit }

var _ audittest.Tamperer = tamperer{}

func (x tamperer) exec(t testing.TB, rows int64, sql string, args ...any) {
	t.Helper()
	tag, err := x.a.s.Pool().Exec(t.Context(), sql, args...)
	if err != nil {
		t.Fatalf("tamper: %v", err)
	}
	if rows >= 0 && tag.RowsAffected() != rows {
		t.Fatalf("tamper: %d rows changed, want %d", tag.RowsAffected(), rows)
	}
}

func (x tamperer) SetRecord(t testing.TB, seq int64, r audit.Record) {
	t.Helper()
	x.exec(t, 1, `UPDATE warden_audit SET time = $2, kind = $3, session = $4, agent = $5, tool = $6, verdict = $7, level = $8, data = $9, hash = $10 WHERE seq = $1`,
		seq, r.Time.UnixNano(), string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict), int16(r.Level), r.Data, r.Hash)
}

func (x tamperer) Delete(t testing.TB, seq int64) {
	t.Helper()
	x.exec(t, 1, `DELETE FROM warden_audit WHERE seq = $1`, seq)
}

func (x tamperer) Insert(t testing.TB, r audit.Record) {
	t.Helper()
	x.exec(t, 1, `INSERT INTO warden_audit (seq, time, kind, session, agent, tool, verdict, level, data, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		r.Seq, r.Time.UnixNano(), string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict), int16(r.Level), r.Data, r.Hash)
}

func (x tamperer) DeleteCheckpoints(t testing.TB, from int64) {
	t.Helper()
	x.exec(t, -1, `DELETE FROM warden_audit_checkpoints WHERE seq >= $1`, from)
}

func (x tamperer) AddCheckpoint(t testing.TB, c audit.Checkpoint) {
	t.Helper()
	x.exec(t, 1, `INSERT INTO warden_audit_checkpoints (seq, hash, time, key_id, sig) VALUES ($1, $2, $3, $4, $5)`,
		c.Seq, c.Hash, c.Time.UnixNano(), c.KeyID, c.Sig)
}
