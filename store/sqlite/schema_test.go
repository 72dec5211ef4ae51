package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// v1 is the schema of the stores of the release before the audit trail,
// as that release created it (a copy: migrations[0] may not change, and
// this test holds a file of then to what this warden does with it).
const v1 = `CREATE TABLE warden_meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE warden_sessions (
	id TEXT PRIMARY KEY,
	version INTEGER NOT NULL,
	data BLOB NOT NULL,
	updated_at INTEGER NOT NULL -- Unix nanoseconds
);
CREATE INDEX warden_sessions_updated ON warden_sessions (updated_at);`

// TestMigrateV1: a store of schema 1 with a conversation in it becomes a
// store of schema 2 in place: the conversation and the hash key are
// kept, the audit trail is there, and opening it again migrates nothing.
func TestMigrateV1(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "v1.db")
	key := session.NewKey()
	func() {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		st := session.New("conv", session.Config{}.WithDefaults(), key)
		step(ctx, st)
		data, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`PRAGMA journal_mode=WAL`, nil},
			{v1, nil},
			{`INSERT INTO warden_meta (name, value) VALUES ('hash_key', ?)`, []any{key}},
			{`INSERT INTO warden_meta (name, value) VALUES ('schema', '1')`, nil},
			{`INSERT INTO warden_sessions VALUES ('conv', ?, ?, ?)`, []any{session.Version, data, time.Now().UnixNano()}},
		} {
			if _, err := db.Exec(q.sql, q.args...); err != nil {
				t.Fatalf("%s: %v", q.sql, err)
			}
		}
	}()

	s := open(t, path, session.Config{})
	if !bytes.Equal(s.key, key) {
		t.Error("the migration changed the hash key")
	}
	var version string
	if err := s.DB().QueryRow(`SELECT value FROM warden_meta WHERE name = 'schema'`).Scan(&version); err != nil || version != "2" {
		t.Fatalf("schema after the migration: %q, %v", version, err)
	}
	if st, err := s.Get(ctx, "conv"); err != nil || st == nil || st.Steps() != 1 {
		t.Fatalf("the conversation of the v1 store: %v, %v", st, err)
	}
	if err := s.Update(ctx, "conv", step); err != nil {
		t.Fatal(err)
	}
	k := testKeys(t)
	if _, err := audit.NewLog(s.Audit(), k).Append(ctx, event("conv", "", "Bash", risk.Allow, risk.Low)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	again := open(t, path, session.Config{})
	if st, err := again.Get(ctx, "conv"); err != nil || st.Steps() != 2 {
		t.Fatalf("reopened: %v, %v", st, err)
	}
	if h := verify(t, again.Audit(), k.Public()); h.Seq != 1 {
		t.Fatalf("reopened: head %+v", h)
	}
}

// TestOpenRefusesNewerSchema: a store a newer warden migrated is not
// touched by this one.
func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	s := open(t, path, session.Config{})
	if _, err := s.DB().Exec(`UPDATE warden_meta SET value = '3' WHERE name = 'schema'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), path, session.Config{}); err == nil || !strings.Contains(err.Error(), "newer than this warden's (2)") {
		t.Fatalf("opening a store of schema 3: %v", err)
	}
}
