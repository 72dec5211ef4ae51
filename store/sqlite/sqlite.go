package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/internal/stored"
)

// BusyTimeout is how long a write waits for another process's write
// transaction on the same file before it fails (and the call is denied).
const BusyTimeout = 10_000 // milliseconds

// Store is a session.Store in one SQLite file. It is safe for concurrent
// use, and several processes may use one file at once.
type Store struct {
	db   *sql.DB
	path string
	abs  string // path, absolute
	cfg  session.Config
	key  []byte

	load, upsert, prune, del *sql.Stmt
	// the audit trail's (see Audit)
	auditHead, auditGet, auditInsert, auditCheckpoint *sql.Stmt

	// write serializes this process's write transactions: SQLite has one
	// writer at a time, and waiting here is cheaper than in SQLite's busy
	// handler, which polls. Other processes wait in the busy handler. It
	// is a channel of one token, so that a wait ends with its context
	// (lock): a write that would wait for its own caller's transaction
	// fails when its context ends instead of waiting forever.
	write  chan struct{}
	mu     sync.Mutex
	closed bool
}

var _ session.Store = (*Store)(nil)

// Open opens the store in the SQLite file at path, creating the file
// (mode 0600) and its directory (mode 0700) when missing, and the tables
// when the file is new. It refuses a directory, a file that is not SQLite,
// and an SQLite database that is not a warden store.
//
// The file is in WAL mode; each Update is one write transaction (BEGIN
// IMMEDIATE), so that two processes continuing one conversation are
// serialized and lose nothing, and its commit syncs the WAL
// (synchronous=FULL), so that it survives a power loss too.
func Open(ctx context.Context, path string, cfg session.Config) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite store: no file named")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("sqlite store %s: is a directory, not a file", path)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	// create the file with its mode before SQLite does (SQLite gives the
	// -wal and -shm files the mode of the database file)
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	f.Close()
	if n > 0 && string(head[:n]) != "SQLite format 3\x00"[:n] {
		return nil, fmt.Errorf("sqlite store %s: not a warden store (not an SQLite database)", path)
	}

	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(BusyTimeout)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	// FULL: a commit syncs the WAL, so that a committed state (and audit
	// event) survives a power loss, not only a crash of the process.
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "journal_size_limit(4194304)")
	q.Add("_txlock", "immediate")
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}).String()
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	db := sql.OpenDB(connector{base})
	s := &Store{db: db, path: path, abs: filepath.ToSlash(abs), cfg: cfg.WithDefaults(), write: make(chan struct{}, 1)}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(0)
	if err := retryBusy(ctx, BusyTimeout*time.Millisecond, func() error { return s.init(ctx) }); err != nil {
		db.Close()
		if isNotADB(err) {
			return nil, fmt.Errorf("sqlite store %s: not a warden store (not an SQLite database)", path)
		}
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.load, `SELECT version, CASE WHEN length(data) <= ? THEN data END, length(data), updated_at FROM warden_sessions WHERE id = ?`},
		{&s.upsert, `INSERT INTO warden_sessions (id, version, data, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET version = excluded.version, data = excluded.data, updated_at = excluded.updated_at`},
		{&s.prune, `DELETE FROM warden_sessions WHERE updated_at < ?`},
		{&s.del, `DELETE FROM warden_sessions WHERE id = ?`},
		{&s.auditHead, `SELECT seq, hash, (SELECT min(seq) FROM warden_audit) FROM warden_audit ORDER BY seq DESC LIMIT 1`},
		{&s.auditGet, `SELECT ` + recordColumns + ` FROM warden_audit WHERE seq = ?`},
		{&s.auditInsert, `INSERT INTO warden_audit (` + recordColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&s.auditCheckpoint, `INSERT INTO warden_audit_checkpoints (seq, hash, time, key_id, sig) VALUES (?, ?, ?, ?, ?)`},
	} {
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			db.Close()
			return nil, fmt.Errorf("sqlite store %s: %w", path, err)
		}
	}
	return s, nil
}

// retryBusy runs fn until it returns anything but SQLite's "database is
// locked", for at most wait. Processes that open a new file at once race
// to create its tables and turn on its WAL mode, and SQLite answers some
// of those races with SQLITE_BUSY at once instead of waiting in its busy
// handler (seen under heavy load: one of two processes opening a new
// store failed). A failed attempt did nothing (init writes in one
// transaction), so it is tried again.
func retryBusy(ctx context.Context, wait time.Duration, fn func() error) error {
	deadline := time.Now().Add(wait)
	pause := 5 * time.Millisecond
	for {
		err := fn()
		if !isBusy(err) || time.Now().Add(pause).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause = min(2*pause, 100*time.Millisecond)
	}
}

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

func isNotADB(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB
}

// schema is the version of the tables this warden writes; migrations[v]
// brings a store of version v to v+1.
const schema = 2

var migrations = []string{
	0: `CREATE TABLE warden_meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE warden_sessions (
	id TEXT PRIMARY KEY,
	version INTEGER NOT NULL,
	data BLOB NOT NULL,
	updated_at INTEGER NOT NULL -- Unix nanoseconds
);
CREATE INDEX warden_sessions_updated ON warden_sessions (updated_at);`,
	// the audit trail (see Audit): the records, with the columns lists
	// filter on copied out of data (the canonical JSON the hash covers),
	// and the signed checkpoints. seq is the rowid: the head is the last
	// row, and a range of seqs a range of the table. STRICT: a value of
	// the wrong type is refused, not stored as it came (nor read back
	// converted into one that agrees with data).
	1: `CREATE TABLE warden_audit (
	seq INTEGER PRIMARY KEY,
	time INTEGER NOT NULL, -- Unix nanoseconds
	kind TEXT NOT NULL,
	session TEXT NOT NULL,
	agent TEXT NOT NULL,
	tool TEXT NOT NULL,
	verdict TEXT NOT NULL,
	level INTEGER NOT NULL CHECK (level BETWEEN -128 AND 127), -- risk.Level, an int8
	data BLOB NOT NULL,
	hash BLOB NOT NULL
) STRICT;
CREATE INDEX warden_audit_time ON warden_audit (time);
CREATE INDEX warden_audit_session ON warden_audit (session, seq);
CREATE INDEX warden_audit_tool ON warden_audit (tool, seq);
CREATE TABLE warden_audit_checkpoints (
	seq INTEGER NOT NULL,
	hash BLOB NOT NULL,
	time INTEGER NOT NULL, -- Unix nanoseconds
	key_id TEXT NOT NULL,
	sig BLOB NOT NULL
) STRICT;
CREATE INDEX warden_audit_checkpoints_seq ON warden_audit_checkpoints (seq);`,
}

// init reads the hash key of a store of the current schema; otherwise it
// creates or migrates the tables in one write transaction, so that two
// processes opening a new file at once create it once.
func (s *Store) init(ctx context.Context) error {
	var current string
	var key []byte
	err := s.db.QueryRowContext(ctx, `SELECT s.value, k.value FROM warden_meta s, warden_meta k WHERE s.name = 'schema' AND k.name = 'hash_key'`).Scan(&current, &key)
	if err == nil && current == strconv.Itoa(schema) {
		s.key, err = stored.Key(key)
		return err
	}
	if isNotADB(err) {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	version, err := s.schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if version > schema {
		return fmt.Errorf("the store's schema is version %d, newer than this warden's (%d)", version, schema)
	}
	for v := version; v < schema; v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
	}
	if version == 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO warden_meta (name, value) VALUES ('hash_key', ?)`, session.NewKey()); err != nil {
			return err
		}
	}
	if version < schema {
		if _, err := tx.ExecContext(ctx, `INSERT INTO warden_meta (name, value) VALUES ('schema', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, strconv.Itoa(schema)); err != nil {
			return err
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT value FROM warden_meta WHERE name = 'hash_key'`).Scan(&key); err != nil {
		return fmt.Errorf("reading the hash key: %w", err)
	}
	if s.key, err = stored.Key(key); err != nil {
		return err
	}
	return tx.Commit()
}

// schemaVersion returns the version of the tables, 0 for a new file.
func (s *Store) schemaVersion(ctx context.Context, tx *sql.Tx) (int, error) {
	var tables int
	var meta bool
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table'`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return 0, err
		}
		tables++
		meta = meta || name == "warden_meta"
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	switch {
	case tables == 0:
		return 0, nil
	case !meta:
		return 0, errors.New("not a warden store (an SQLite database without warden's tables)")
	}
	var v string
	if err := tx.QueryRowContext(ctx, `SELECT value FROM warden_meta WHERE name = 'schema'`).Scan(&v); err != nil {
		return 0, fmt.Errorf("not a warden store (no schema version): %w", err)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("not a warden store (schema version %q)", v)
	}
	return n, nil
}

// Path returns the file the store was opened on.
func (s *Store) Path() string { return s.path }

// Files returns the absolute paths of the files the store lives in: the
// database and the journal files SQLite keeps beside it. The engine
// guards them (see warden.WithStore): an agent that could delete or edit
// them could wipe what its conversation is known to have done.
func (s *Store) Files() []string {
	return []string{s.abs, s.abs + "-wal", s.abs + "-shm", s.abs + "-journal"}
}

// lock takes the write token, or fails when ctx ends first.
func (s *Store) lock(ctx context.Context) error {
	select {
	case s.write <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for this process's other write: %w", ctx.Err())
	}
}

func (s *Store) unlock() { <-s.write }

func (s *Store) check() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return session.ErrClosed
	}
	return nil
}

// Update implements session.Store: one write transaction reads the
// state, runs fn, and saves it; a state idle longer than the TTL is new,
// and the expired states of every conversation are deleted in passing.
// fn must not use the store.
func (s *Store) Update(ctx context.Context, id string, fn func(context.Context, *session.State) error) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return s.errorf(id, err)
	}
	defer s.unlock()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return s.errorf(id, err)
	}
	defer tx.Rollback()
	now := s.cfg.Now()
	st, err := s.read(ctx, tx.StmtContext(ctx, s.load), id, now.UnixNano())
	if err != nil {
		return err
	}
	if st == nil {
		st = session.New(id, s.cfg, s.key)
	}
	if err := fn(withTx(ctx, s, tx), st); err != nil {
		return err
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	if _, err := tx.StmtContext(ctx, s.upsert).ExecContext(ctx, id, session.Version, data, now.UnixNano()); err != nil {
		return s.errorf(id, err)
	}
	if _, err := tx.StmtContext(ctx, s.prune).ExecContext(ctx, now.Add(-s.cfg.TTL).UnixNano()); err != nil {
		return s.errorf(id, err)
	}
	if err := tx.Commit(); err != nil {
		return s.errorf(id, err)
	}
	return nil
}

// read reads the state of id with the statement load, nil when there is
// none or it expired.
func (s *Store) read(ctx context.Context, load *sql.Stmt, id string, now int64) (*session.State, error) {
	var (
		version, size, updated int64
		data                   []byte
	)
	err := load.QueryRowContext(ctx, s.cfg.MaxBytes, id).Scan(&version, &data, &size, &updated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, s.errorf(id, err)
	case now-updated > int64(s.cfg.TTL):
		return nil, nil
	}
	st, err := stored.Decode(id, version, data, size, s.cfg, s.key)
	if err != nil {
		return nil, fmt.Errorf("sqlite store %s: %w", s.path, err)
	}
	return st, nil
}

func (s *Store) errorf(id string, err error) error {
	return fmt.Errorf("sqlite store %s: session %q: %w", s.path, id, err)
}

// Get implements session.Store.
func (s *Store) Get(ctx context.Context, id string) (*session.State, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.read(ctx, s.load, id, s.cfg.Now().UnixNano())
}

// Delete implements session.Store.
func (s *Store) Delete(ctx context.Context, id string) error {
	if err := s.check(); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return s.errorf(id, err)
	}
	defer s.unlock()
	if _, err := s.del.ExecContext(ctx, id); err != nil {
		return s.errorf(id, err)
	}
	return nil
}

// Close implements session.Store. Closing twice is no error. When the
// WAL has grown to checkpointAt, Close copies it into the database file
// and empties it first (a checkpoint: about a millisecond of fsync);
// otherwise what was committed stays in the WAL, durable, and the next
// process to open the file reads it.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.checkpoint(context.Background())
	return s.db.Close()
}

// DB returns the store's database, for the audit trail that shares it.
func (s *Store) DB() *sql.DB { return s.db }

// txKey is the context key under which Update hands fn its transaction,
// so that what fn records in the same file (the audit trail) commits with
// the conversation's state, or not at all.
type txKey struct{}

type txValue struct {
	s  *Store
	tx *sql.Tx
}

func withTx(ctx context.Context, s *Store, tx *sql.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, txValue{s, tx})
}

// txOf returns the write transaction of s that ctx carries (inside the fn
// of an Update), or nil.
func txOf(ctx context.Context, s *Store) *sql.Tx {
	if v, ok := ctx.Value(txKey{}).(txValue); ok && v.s == s {
		return v.tx
	}
	return nil
}
