package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/postgres"
	"github.com/agentwarden/warden/store/sqlite"
)

func TestOpenPicksByDSN(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(t.Context(), filepath.Join(dir, "w.db"), session.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*sqlite.Store); !ok {
		t.Errorf("a path opened %T", s)
	}
	s.Close()
	if dsn := os.Getenv("WARDEN_TEST_POSTGRES_DSN"); dsn != "" {
		p, err := Open(t.Context(), dsn, session.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.(*postgres.Store); !ok {
			t.Errorf("%s opened %T", dsn, p)
		}
		p.Close()
	}
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("not a database, just some notes\n"), 0o600)
	for dsn, want := range map[string]string{
		"":    "no DSN",
		"  ":  "no DSN",
		dir:   "is a directory",
		notes: "not a warden store",
		"POSTGRESQL://u:secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=2": "postgres store 127.0.0.1:1/db",
	} {
		_, err := Open(t.Context(), dsn, session.Config{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open(%q): %v, want %q", dsn, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q): the error shows the password: %v", dsn, err)
		}
	}
}
