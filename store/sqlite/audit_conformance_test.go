package sqlite

import (
	"database/sql"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/audit/audittest"
	"github.com/agentwarden/warden/session"
)

// TestAuditConformance runs the audit backends' suite on a trail in a
// file of its own per test; the tamperer writes that file with SQL of
// its own, on a connection of its own, as anyone who can write it could.
func TestAuditConformance(t *testing.T) {
	var mu sync.Mutex
	paths := map[audit.Backend]string{}
	audittest.Run(t,
		func(t *testing.T) audit.Backend {
			path := filepath.Join(t.TempDir(), "w.db")
			a := open(t, path, session.Config{}).Audit()
			mu.Lock()
			paths[a] = path
			mu.Unlock()
			return a
		},
		func(t *testing.T, b audit.Backend) audittest.Tamperer {
			mu.Lock()
			path := paths[b]
			mu.Unlock()
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return tamperer{db}
		},
		audittest.Reopen(func(t *testing.T, b audit.Backend) audit.Backend {
			mu.Lock()
			path := paths[b]
			mu.Unlock()
			return open(t, path, session.Config{}).Audit()
		}))
}

// tamperer edits the tables of the trail directly.
type tamperer struct{ db *sql.DB }

func (x tamperer) exec(t testing.TB, want int64, query string, args ...any) {
	t.Helper()
	res, err := x.db.Exec(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); want >= 0 && n != want {
		t.Fatalf("%s: %d rows, want %d", query, n, want)
	}
}

func (x tamperer) SetRecord(t testing.TB, seq int64, r audit.Record) {
	x.exec(t, 1, `UPDATE warden_audit SET time = ?, kind = ?, session = ?, agent = ?, tool = ?, verdict = ?, level = ?, data = ?, hash = ? WHERE seq = ?`,
		r.Time.UnixNano(), string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict), int64(r.Level), notNil(r.Data), notNil(r.Hash), seq)
}

func (x tamperer) Delete(t testing.TB, seq int64) {
	x.exec(t, 1, `DELETE FROM warden_audit WHERE seq = ?`, seq)
}

func (x tamperer) Insert(t testing.TB, r audit.Record) {
	x.exec(t, 1, `INSERT INTO warden_audit (`+recordColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Seq, r.Time.UnixNano(), string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict), int64(r.Level), notNil(r.Data), notNil(r.Hash))
}

func (x tamperer) DeleteCheckpoints(t testing.TB, from int64) {
	x.exec(t, -1, `DELETE FROM warden_audit_checkpoints WHERE seq >= ?`, from)
}

func (x tamperer) AddCheckpoint(t testing.TB, c audit.Checkpoint) {
	x.exec(t, 1, `INSERT INTO warden_audit_checkpoints (seq, hash, time, key_id, sig) VALUES (?, ?, ?, ?, ?)`,
		c.Seq, notNil(c.Hash), c.Time.UnixNano(), c.KeyID, notNil(c.Sig))
}
