package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/postgres"
	"github.com/agentwarden/warden/store/sqlite"
)

// Open opens the store dsn names, bounded by cfg: a PostgreSQL database
// for a postgres:// or postgresql:// URL, else the SQLite file at the
// path dsn (created when missing). Errors say which store could not be
// opened and why: no DSN, an unreachable database, a directory, a file
// that is not a warden store.
func Open(ctx context.Context, dsn string, cfg session.Config) (session.Store, error) {
	switch {
	case strings.TrimSpace(dsn) == "":
		return nil, errors.New("store: no DSN (a file path for SQLite, or postgres://…)")
	case IsPostgres(dsn):
		return postgres.Open(ctx, dsn, cfg)
	}
	return sqlite.Open(ctx, dsn, cfg)
}

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// DefaultPath returns the SQLite file warden keeps its state and audit
// trail in when no store is named: $XDG_STATE_HOME/warden/warden.db, else
// ~/.local/state/warden/warden.db (the XDG base directory specification's
// state directory, which warden's guard protects from agents).
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) { // the specification ignores a relative path
		return filepath.Join(d, "warden", "warden.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return "", errors.New("store: no default store: neither $XDG_STATE_HOME nor $HOME is an absolute path; name one with --store")
	}
	return filepath.Join(home, ".local", "state", "warden", "warden.db"), nil
}

// Audit returns the audit backend of s, the trail kept in the store's
// own database (the SQLite and PostgreSQL stores), or an error when s
// keeps none.
func Audit(s session.Store) (audit.Backend, error) {
	switch st := s.(type) {
	case interface{ Audit() audit.Backend }:
		return st.Audit(), nil
	case *sqlite.Store:
		return st.Audit(), nil
	case *postgres.Store:
		return st.Audit(), nil
	}
	return nil, fmt.Errorf("store: a %T keeps no audit trail", s)
}
