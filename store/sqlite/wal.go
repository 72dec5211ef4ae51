package sqlite

import (
	"context"
	"database/sql/driver"
	"os"
	"reflect"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// checkpointAt is the size of the WAL file from which Close copies it
// into the database file and empties it (a checkpoint). A smaller WAL is
// left for the next process to read: a hook's process opens the store,
// commits one transaction (a few pages) and closes it, and a checkpoint
// (two fsyncs and a truncation, about a millisecond) at every close costs
// it more than reading a WAL of this size costs the next one (recovering
// its index, about 7K instructions a page, see BenchmarkOpenWAL). SQLite's own
// checkpoints, after a commit that leaves 1000 pages in the WAL, go on as
// before in a process that keeps the store open.
const checkpointAt = 96 * (4096 + 24) // 96 pages and their frame headers

// connector opens the store's connections: each keeps the WAL file when
// it closes (SQLITE_FCNTL_PERSIST_WAL: deleting it, and making it again in
// the next process, costs more than the call itself on some file
// systems), and does not checkpoint the WAL when it is the last to close
// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE): Close does, when the WAL is large.
type connector struct{ driver.Connector }

func (p connector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := p.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if fc, ok := c.(sqlite.FileControl); ok {
		if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
			c.Close()
			return nil, err
		}
	}
	noCheckpointOnClose(c)
	return c, nil
}

// noCheckpointOnClose sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on c, a
// connection of modernc.org/sqlite, and reports whether it did. The
// driver has no method for sqlite3_db_config; its connection's handle
// (fields db and tls) is read by reflection. A driver whose connection
// no longer has them reports false, and its connections checkpoint when
// they close, as SQLite's do by default (TestNoCheckpointOnClose fails).
func noCheckpointOnClose(c driver.Conn) bool {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	db, tls := v.Elem().FieldByName("db"), v.Elem().FieldByName("tls")
	if db.Kind() != reflect.Uintptr || !tls.IsValid() || tls.Type() != reflect.TypeFor[*libc.TLS]() || db.Uint() == 0 || tls.IsNil() {
		return false
	}
	t := (*libc.TLS)(tls.UnsafePointer())
	va := t.Alloc(16) // the variadic arguments: int 1, int *pRes NULL
	defer t.Free(16)
	rc := sqlite3.Xsqlite3_db_config(t, uintptr(db.Uint()), sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, libc.VaList(va, int32(1), uintptr(0)))
	return rc == sqlite3.SQLITE_OK
}

// checkpoint copies the WAL into the database file and empties it, when
// it has grown to checkpointAt, and when no other connection (of any
// process) is reading or writing: it never waits for one, and a
// checkpoint that cannot be made now is left to the next Close.
func (s *Store) checkpoint(ctx context.Context) {
	if fi, err := os.Stat(s.abs + "-wal"); err != nil || fi.Size() < checkpointAt {
		return
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return
	}
	c.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
}
