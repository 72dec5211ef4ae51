package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// Audit is the audit trail kept in the store's file (the tables
// warden_audit and warden_audit_checkpoints): an audit.Backend that
// several processes may append to at once, the chain staying one chain.
//
// Each Append and Prune is one write transaction of the file (BEGIN
// IMMEDIATE, which serializes them with every other process's writes),
// committed with synchronous=FULL: the records are in the synced WAL when
// it returns. Inside the fn of the store's Update (a context that carries
// its transaction) Append writes in that transaction instead, and the
// records commit with the conversation's state, or not at all (Audit is
// an audit.Joiner). Only the Update of the same Store joins: an append
// inside the Update of another Store on the same file waits for that
// Update's lock, and fails at the busy timeout (or its context's end).
type Audit struct {
	s      *Store
	closed atomic.Bool
}

var (
	_ audit.Backend = (*Audit)(nil)
	_ audit.Joiner  = (*Audit)(nil)
)

// Audit returns the audit trail of the store's file. It shares the
// store's database: closing the store ends it too.
func (s *Store) Audit() *Audit { return &Audit{s: s} }

// Files returns the files the trail lives in, the store's (Store.Files):
// an engine given the trail alone (warden.WithAudit), without the store
// for its conversations, guards them from the agent all the same.
func (a *Audit) Files() []string { return a.s.Files() }

// errAuditClosed is the error of an Audit used after its Close.
var errAuditClosed = errors.New("the audit trail is closed")

func (a *Audit) check() error {
	if a.closed.Load() {
		return a.errorf(errAuditClosed)
	}
	if err := a.s.check(); err != nil {
		return a.errorf(err)
	}
	return nil
}

func (a *Audit) errorf(err error) error {
	return fmt.Errorf("sqlite store %s: audit: %w", a.s.path, err)
}

// Joins implements audit.Joiner: ctx carries a transaction of this store
// (it is the context of an Update's fn), which Append writes in.
func (a *Audit) Joins(ctx context.Context) bool { return txOf(ctx, a.s) != nil }

// querier is what Head, Get and Scan read with: the transaction a
// context carries (to see what it wrote), or the database.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (a *Audit) querier(ctx context.Context) querier {
	if tx := txOf(ctx, a.s); tx != nil {
		return tx
	}
	return a.s.db
}

// stmt returns st in the transaction ctx carries, or st itself.
func (a *Audit) stmt(ctx context.Context, st *sql.Stmt) *sql.Stmt {
	if tx := txOf(ctx, a.s); tx != nil {
		return tx.StmtContext(ctx, st)
	}
	return st
}

// write runs fn in a write transaction: the one ctx carries, within a
// savepoint (so that a failed fn leaves it as it was, and its owner may
// still commit what else it wrote), or one of its own, committed when fn
// succeeds.
func (a *Audit) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := a.check(); err != nil {
		return err
	}
	if tx := txOf(ctx, a.s); tx != nil {
		return a.joined(ctx, tx, fn)
	}
	if err := a.s.lock(ctx); err != nil {
		return a.errorf(err)
	}
	defer a.s.unlock()
	tx, err := a.s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return a.errorf(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return a.errorf(err)
	}
	return nil
}

// joined runs fn in tx, the transaction of an Update, within a
// savepoint: when fn fails or panics, what it wrote is undone, and the
// Update may go on (a Log recovers a backend's panic into an error).
func (a *Audit) joined(ctx context.Context, tx *sql.Tx, fn func(tx *sql.Tx) error) (err error) {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT warden_audit`); err != nil {
		return a.errorf(err)
	}
	released := false
	defer func() {
		if released {
			return
		}
		// ROLLBACK TO leaves the savepoint open; RELEASE ends it.
		if _, rerr := tx.ExecContext(context.WithoutCancel(ctx), `ROLLBACK TO warden_audit; RELEASE warden_audit`); rerr != nil {
			err = errors.Join(err, a.errorf(rerr))
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `RELEASE warden_audit`); err != nil {
		return a.errorf(err)
	}
	released = true
	return nil
}

// Append implements audit.Backend.
func (a *Audit) Append(ctx context.Context, seal func(audit.Head) ([]audit.Record, *audit.Checkpoint, error)) error {
	return a.write(ctx, func(tx *sql.Tx) error {
		head, err := a.head(ctx, tx)
		if err != nil {
			return err
		}
		recs, c, err := seal(head)
		if err != nil {
			return err
		}
		if err := a.insert(ctx, tx, head, recs); err != nil {
			return err
		}
		if c != nil {
			return a.checkpoint(ctx, tx, c)
		}
		return nil
	})
}

// Prune implements audit.Backend.
func (a *Audit) Prune(ctx context.Context, before int64, seal func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error)) error {
	return a.write(ctx, func(tx *sql.Tx) error {
		head, err := a.head(ctx, tx)
		if err != nil {
			return err
		}
		if err := audit.PruneBounds(before, head); err != nil {
			return err
		}
		last, err := a.get(ctx, tx.StmtContext(ctx, a.s.auditGet), before-1)
		if errors.Is(err, audit.ErrNotFound) {
			return a.errorf(fmt.Errorf("event %d, the last to prune, is missing", before-1))
		} else if err != nil {
			return err
		}
		recs, cps, err := seal(head, last)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM warden_audit WHERE seq < ?`, before); err != nil {
			return a.errorf(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM warden_audit_checkpoints WHERE seq < ?`, before-1); err != nil {
			return a.errorf(err)
		}
		if err := a.insert(ctx, tx, head, recs); err != nil {
			return err
		}
		for i := range cps {
			if err := a.checkpoint(ctx, tx, &cps[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// head reads the end of the chain in tx.
func (a *Audit) head(ctx context.Context, tx *sql.Tx) (audit.Head, error) {
	return a.readHead(ctx, tx.StmtContext(ctx, a.s.auditHead))
}

func (a *Audit) readHead(ctx context.Context, st *sql.Stmt) (audit.Head, error) {
	var h audit.Head
	err := st.QueryRowContext(ctx).Scan(&h.Seq, &h.Hash, &h.First)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return audit.Head{}, nil
	case err != nil:
		return audit.Head{}, a.errorf(fmt.Errorf("reading the chain's head: %w", err))
	}
	return h, nil
}

// insert writes recs, which must continue head, in tx.
func (a *Audit) insert(ctx context.Context, tx *sql.Tx, head audit.Head, recs []audit.Record) error {
	st := tx.StmtContext(ctx, a.s.auditInsert)
	for i := range recs {
		r := &recs[i]
		if want := head.Seq + 1 + int64(i); r.Seq != want {
			return a.errorf(fmt.Errorf("sealed record %d where the chain continues with %d", r.Seq, want))
		}
		t, ok := nanos(r.Time)
		if !ok {
			return a.errorf(fmt.Errorf("event %d: its time %s is outside the years 1678 to 2262 the store can hold", r.Seq, r.Time))
		}
		if _, err := st.ExecContext(ctx, r.Seq, t, string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict), int64(r.Level), notNil(r.Data), notNil(r.Hash)); err != nil {
			return a.errorf(fmt.Errorf("writing event %d: %w", r.Seq, err))
		}
	}
	return nil
}

// checkpoint writes c in tx.
func (a *Audit) checkpoint(ctx context.Context, tx *sql.Tx, c *audit.Checkpoint) error {
	t, ok := nanos(c.Time)
	if !ok {
		return a.errorf(fmt.Errorf("the checkpoint over event %d: its time %s is outside the years 1678 to 2262 the store can hold", c.Seq, c.Time))
	}
	if _, err := tx.StmtContext(ctx, a.s.auditCheckpoint).ExecContext(ctx, c.Seq, notNil(c.Hash), t, c.KeyID, notNil(c.Sig)); err != nil {
		return a.errorf(fmt.Errorf("writing the checkpoint over event %d: %w", c.Seq, err))
	}
	return nil
}

// notNil returns b, or an empty slice for nil: a nil []byte is NULL to
// SQL, which the NOT NULL columns refuse.
func notNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// nanos returns t in Unix nanoseconds, and whether it fits in an int64
// (the years 1678 to 2262).
func nanos(t time.Time) (int64, bool) {
	n := t.UnixNano()
	return n, time.Unix(0, n).Equal(t)
}

// Head implements audit.Backend.
func (a *Audit) Head(ctx context.Context) (audit.Head, error) {
	if err := a.check(); err != nil {
		return audit.Head{}, err
	}
	return a.readHead(ctx, a.stmt(ctx, a.s.auditHead))
}

// recordColumns are the columns of a record, in the order scanRecord
// reads them.
const recordColumns = `seq, time, kind, session, agent, tool, verdict, level, data, hash`

type scanner interface{ Scan(dest ...any) error }

func scanRecord(row scanner, r *audit.Record) error {
	var (
		t, level      int64
		kind, verdict string
	)
	if err := row.Scan(&r.Seq, &t, &kind, &r.Session, &r.Agent, &r.Tool, &verdict, &level, &r.Data, &r.Hash); err != nil {
		return err
	}
	r.Time = time.Unix(0, t).UTC()
	r.Kind, r.Verdict, r.Level = audit.Kind(kind), risk.Verdict(verdict), risk.Level(level) // level is an int8 (CHECK)
	return nil
}

// Get implements audit.Backend.
func (a *Audit) Get(ctx context.Context, seq int64) (audit.Record, error) {
	if err := a.check(); err != nil {
		return audit.Record{}, err
	}
	return a.get(ctx, a.stmt(ctx, a.s.auditGet), seq)
}

func (a *Audit) get(ctx context.Context, st *sql.Stmt, seq int64) (audit.Record, error) {
	var r audit.Record
	err := scanRecord(st.QueryRowContext(ctx, seq), &r)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return audit.Record{}, audit.ErrNotFound
	case err != nil:
		return audit.Record{}, a.errorf(fmt.Errorf("reading event %d: %w", seq, err))
	}
	return r, nil
}

// Scan implements audit.Backend: one query, whose WHERE is built from f
// with every value a bound parameter.
func (a *Audit) Scan(ctx context.Context, f audit.Filter, fn func(*audit.Record) error) error {
	if err := a.check(); err != nil {
		return err
	}
	query, args := selectQuery(&f)
	rows, err := a.querier(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return a.errorf(fmt.Errorf("listing events: %w", err))
	}
	defer rows.Close()
	var r audit.Record
	for rows.Next() {
		r = audit.Record{}
		if err := scanRecord(rows, &r); err != nil {
			return a.errorf(fmt.Errorf("listing events: %w", err))
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return a.errorf(fmt.Errorf("listing events: %w", err))
	}
	return nil
}

// Checkpoints implements audit.Backend. Checkpoints of one Seq come in
// the order they were written.
func (a *Audit) Checkpoints(ctx context.Context, from int64, fn func(*audit.Checkpoint) error) error {
	if err := a.check(); err != nil {
		return err
	}
	rows, err := a.querier(ctx).QueryContext(ctx, `SELECT seq, hash, time, key_id, sig FROM warden_audit_checkpoints WHERE seq >= ? ORDER BY seq, rowid`, from)
	if err != nil {
		return a.errorf(fmt.Errorf("listing checkpoints: %w", err))
	}
	defer rows.Close()
	for rows.Next() {
		var c audit.Checkpoint
		var t int64
		if err := rows.Scan(&c.Seq, &c.Hash, &t, &c.KeyID, &c.Sig); err != nil {
			return a.errorf(fmt.Errorf("listing checkpoints: %w", err))
		}
		c.Time = time.Unix(0, t).UTC()
		if err := fn(&c); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return a.errorf(fmt.Errorf("listing checkpoints: %w", err))
	}
	return nil
}

// Close implements audit.Backend: the trail is not used after it. The
// database is the store's, which its Close closes.
func (a *Audit) Close() error {
	a.closed.Store(true)
	return nil
}
