package store

import (
	"context"
	"errors"
	"strings"

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
