package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/internal/stored"
)

// Store is a session.Store in a PostgreSQL database. It is safe for
// concurrent use, by any number of processes and hosts.
type Store struct {
	pool *pgxpool.Pool
	host string // where, for errors (never the password)
	cfg  session.Config
	key  []byte

	mu     sync.Mutex
	closed bool
}

var _ session.Store = (*Store)(nil)

// Open connects to the database at dsn (a postgres:// URL or key=value
// string; a search_path parameter selects the schema) and creates the
// tables in it when missing. It fails when the database cannot be reached
// or holds tables named like warden's that are not a warden store.
func Open(ctx context.Context, dsn string, cfg session.Config) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("postgres store: no database named")
	}
	if i := strings.Index(dsn, "://"); i > 0 {
		dsn = strings.ToLower(dsn[:i]) + dsn[i:] // pgx knows the schemes in lower case only
	}
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors quote the DSN, password and all
		return nil, errors.New("postgres store: the connection string is not valid")
	}
	where := pc.ConnConfig.Host + ":" + strconv.Itoa(int(pc.ConnConfig.Port)) + "/" + pc.ConnConfig.Database
	if pc.MaxConns < 4 {
		pc.MaxConns = 4
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("postgres store %s: %w", where, err)
	}
	s := &Store{pool: pool, host: where, cfg: cfg.WithDefaults()}
	if err := s.init(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres store %s: %w", where, err)
	}
	return s, nil
}

// schema is the version of the tables this warden writes; migrations[v]
// brings a store of version v to v+1.
const schema = 2

var migrations = []string{
	0: `CREATE TABLE IF NOT EXISTS warden_meta (name text PRIMARY KEY, value bytea NOT NULL);
CREATE TABLE IF NOT EXISTS warden_sessions (
	id text PRIMARY KEY,
	version integer NOT NULL,
	data bytea NOT NULL,
	updated_at bigint NOT NULL -- Unix nanoseconds
);
CREATE INDEX IF NOT EXISTS warden_sessions_updated ON warden_sessions (updated_at)`,
	1: auditSchema,
}

// init creates or migrates the tables and reads the hash key, in one
// transaction under an advisory lock of the schema, so that processes
// opening a new database at once create it once.
func (s *Store) init(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('warden store ' || current_schema()))`); err != nil {
		return err
	}
	var meta bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass('warden_meta') IS NOT NULL`).Scan(&meta); err != nil {
		return err
	}
	version := 0
	if meta {
		var v []byte
		if err := tx.QueryRow(ctx, `SELECT value FROM warden_meta WHERE name = 'schema'`).Scan(&v); err != nil {
			return fmt.Errorf("not a warden store (no schema version in warden_meta): %w", err)
		}
		if version, err = strconv.Atoi(string(v)); err != nil || version < 1 {
			return fmt.Errorf("not a warden store (schema version %q)", v)
		}
	}
	if version > schema {
		return fmt.Errorf("the store's schema is version %d, newer than this warden's (%d)", version, schema)
	}
	for v := version; v < schema; v++ {
		if _, err := tx.Exec(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
	}
	if version < schema {
		if _, err := tx.Exec(ctx, `INSERT INTO warden_meta (name, value) VALUES ('hash_key', $1) ON CONFLICT (name) DO NOTHING`, session.NewKey()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO warden_meta (name, value) VALUES ('schema', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, []byte(strconv.Itoa(schema))); err != nil {
			return err
		}
	}
	var key []byte
	if err := tx.QueryRow(ctx, `SELECT value FROM warden_meta WHERE name = 'hash_key'`).Scan(&key); err != nil {
		return fmt.Errorf("reading the hash key: %w", err)
	}
	if s.key, err = stored.Key(key); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (s *Store) check() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return session.ErrClosed
	}
	return nil
}

func (s *Store) errorf(id string, err error) error {
	return fmt.Errorf("postgres store %s: session %q: %w", s.host, id, err)
}

// LockTimeout is how long an Update waits for another process's Update of
// the same conversation, and an audit append or prune for the chain's
// lock, before it fails (and the call is denied).
const LockTimeout = 10 * time.Second

var lockTimeout = fmt.Sprintf("SET LOCAL lock_timeout = %d", LockTimeout.Milliseconds())

// Update implements session.Store: in one transaction, the row of id is
// made if missing and locked (SELECT … FOR UPDATE), so that every other
// Update of id, from any process, waits for this one; fn runs on its
// state, which is saved when fn returns nil. A state idle longer than the
// TTL is new; expired rows nobody holds are deleted in passing. fn must
// not use the store.
func (s *Store) Update(ctx context.Context, id string, fn func(context.Context, *session.State) error) error {
	if err := s.check(); err != nil {
		return err
	}
	// read committed whatever the server's default: the row lock
	// serializes Updates of id, and each statement after it sees what the
	// lock's previous holder committed (a stricter level would fail them
	// instead, as would an audit append here, on a stale head)
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return s.errorf(id, err)
	}
	defer tx.Rollback(ctx)
	var (
		version      int64
		data         []byte
		size, update int64
	)
	// one round trip: the row made if missing, then locked and read,
	// waiting at most LockTimeout for another process's Update of it
	b := &pgx.Batch{}
	b.Queue(lockTimeout)
	b.Queue(`INSERT INTO warden_sessions (id, version, data, updated_at) VALUES ($1, 0, '', 0) ON CONFLICT (id) DO NOTHING`, id)
	b.Queue(`SELECT version, CASE WHEN octet_length(data) <= $2 THEN data END, octet_length(data), updated_at
FROM warden_sessions WHERE id = $1 FOR UPDATE`, id, s.cfg.MaxBytes).QueryRow(func(r pgx.Row) error {
		return r.Scan(&version, &data, &size, &update)
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return s.errorf(id, err)
	}
	now := s.cfg.Now()
	var st *session.State
	if version != 0 && now.UnixNano()-update <= int64(s.cfg.TTL) {
		if st, err = stored.Decode(id, version, data, size, s.cfg, s.key); err != nil {
			return fmt.Errorf("postgres store %s: %w", s.host, err)
		}
	} else {
		st = session.New(id, s.cfg, s.key)
	}
	if err := fn(withTx(ctx, s, tx), st); err != nil {
		return err
	}
	enc, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	b = &pgx.Batch{}
	b.Queue(`UPDATE warden_sessions SET version = $2, data = $3, updated_at = $4 WHERE id = $1`, id, session.Version, enc, now.UnixNano())
	b.Queue(`DELETE FROM warden_sessions WHERE id IN (SELECT id FROM warden_sessions WHERE updated_at < $1 AND version <> 0 LIMIT 64 FOR UPDATE SKIP LOCKED)`,
		now.Add(-s.cfg.TTL).UnixNano())
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return s.errorf(id, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return s.errorf(id, err)
	}
	return nil
}

// Get implements session.Store.
func (s *Store) Get(ctx context.Context, id string) (*session.State, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	var (
		version      int64
		data         []byte
		size, update int64
	)
	err := s.pool.QueryRow(ctx, `SELECT version, CASE WHEN octet_length(data) <= $2 THEN data END, octet_length(data), updated_at
FROM warden_sessions WHERE id = $1`, id, s.cfg.MaxBytes).Scan(&version, &data, &size, &update)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, s.errorf(id, err)
	case s.cfg.Now().UnixNano()-update > int64(s.cfg.TTL):
		return nil, nil
	}
	st, err := stored.Decode(id, version, data, size, s.cfg, s.key)
	if err != nil {
		return nil, fmt.Errorf("postgres store %s: %w", s.host, err)
	}
	return st, nil
}

// Delete implements session.Store.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.check(); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM warden_sessions WHERE id = $1`, id); err != nil {
		return s.errorf(id, err)
	}
	return nil
}

// Close implements session.Store. Closing twice is no error.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.pool.Close()
	}
	return nil
}

// Pool returns the store's connections, for the audit trail that shares
// the database.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// txKey is the context key under which Update hands fn its transaction,
// so that what fn records in the same database (the audit trail) commits
// with the conversation's state, or not at all.
type txKey struct{}

type txValue struct {
	s  *Store
	tx pgx.Tx
}

func withTx(ctx context.Context, s *Store, tx pgx.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, txValue{s, tx})
}

// txOf returns the transaction of s that ctx carries (inside the fn of an
// Update), or nil.
func txOf(ctx context.Context, s *Store) pgx.Tx {
	if v, ok := ctx.Value(txKey{}).(txValue); ok && v.s == s {
		return v.tx
	}
	return nil
}
