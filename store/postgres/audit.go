package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agentwarden/warden/audit"
)

// auditSchema (migration to version 2) adds the audit trail: its records
// (the canonical JSON and its hash, with the columns lists filter on
// copied out of it; time in Unix nanoseconds), the signed checkpoints
// (id keeps those of one seq in the order they were written), and the
// one-row table whose row every append and prune locks, so that the
// chain has one writer at a time across processes and hosts.
const auditSchema = `CREATE TABLE IF NOT EXISTS warden_audit (
	seq bigint PRIMARY KEY,
	time bigint NOT NULL,
	kind text NOT NULL,
	session text NOT NULL,
	agent text NOT NULL,
	tool text NOT NULL,
	verdict text NOT NULL,
	level smallint NOT NULL,
	data bytea NOT NULL,
	hash bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS warden_audit_time ON warden_audit (time);
CREATE INDEX IF NOT EXISTS warden_audit_session ON warden_audit (session, seq);
CREATE INDEX IF NOT EXISTS warden_audit_agent ON warden_audit (agent, seq);
CREATE INDEX IF NOT EXISTS warden_audit_tool ON warden_audit (tool, seq);
CREATE INDEX IF NOT EXISTS warden_audit_verdict ON warden_audit (verdict, seq);
CREATE INDEX IF NOT EXISTS warden_audit_kind ON warden_audit (kind, seq);
CREATE TABLE IF NOT EXISTS warden_audit_checkpoints (
	id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	seq bigint NOT NULL,
	hash bytea NOT NULL,
	time bigint NOT NULL,
	key_id text NOT NULL,
	sig bytea NOT NULL
);
CREATE INDEX IF NOT EXISTS warden_audit_checkpoints_seq ON warden_audit_checkpoints (seq, id);
CREATE TABLE IF NOT EXISTS warden_audit_head (id integer PRIMARY KEY CHECK (id = 1));
INSERT INTO warden_audit_head (id) VALUES (1) ON CONFLICT (id) DO NOTHING`

// Audit is the audit trail in a Store's database: an audit.Backend on the
// store's connections, whose chain stays one chain whichever processes
// and hosts append to it. Each Append and Prune locks the row of
// warden_audit_head (SELECT … FOR UPDATE, waiting at most LockTimeout)
// for its transaction, reads the head after it holds the lock, and
// writes; the primary key on seq refuses a second record of a seq, should
// anything write past the lock.
//
// An Append whose context carries a transaction of the store (the fn of
// its Update) writes in that transaction, which its owner commits or
// rolls back (Joins reports it), within a savepoint: an append that
// fails is undone, and the transaction stays usable. Update's
// transactions are READ COMMITTED whatever the server's default, as the
// chain's are: in a stricter one the head read after the lock could be
// stale (and the append would fail on the primary key).
type Audit struct {
	s      *Store
	closed atomic.Bool
}

var (
	_ audit.Backend = (*Audit)(nil)
	_ audit.Joiner  = (*Audit)(nil)
)

// Audit returns the audit trail of the store's database, on its
// connections. Closing it leaves the store open; closing the store closes
// it.
func (s *Store) Audit() *Audit { return &Audit{s: s} }

// errAuditClosed is the error of an Audit used after its Close.
var errAuditClosed = errors.New("postgres store: audit trail closed")

func (a *Audit) check() error {
	if a.closed.Load() {
		return errAuditClosed
	}
	return a.s.check()
}

func (a *Audit) errorf(format string, args ...any) error {
	return fmt.Errorf("postgres store %s: audit: "+format, append([]any{a.s.host}, args...)...)
}

// Joins implements audit.Joiner: ctx carries a transaction of the store,
// in which Append writes.
func (a *Audit) Joins(ctx context.Context) bool { return txOf(ctx, a.s) != nil }

// Append implements audit.Backend. Without a transaction in ctx it takes
// two round trips: one begins, locks the head and reads it; the other
// writes the records and the checkpoint and commits (durably:
// synchronous_commit is left on). A pgx.Tx would take four (its Begin
// and Commit alone), and about a third longer for one event at a time.
func (a *Audit) Append(ctx context.Context, seal func(audit.Head) ([]audit.Record, *audit.Checkpoint, error)) error {
	if err := a.check(); err != nil {
		return err
	}
	return a.chain(ctx, func(_ context.Context, _ chainTx, head audit.Head) (*pgx.Batch, error) {
		recs, cp, err := seal(head)
		if err != nil {
			return nil, err
		}
		b := &pgx.Batch{}
		if err := queueRecords(b, head, recs); err != nil {
			return nil, err
		}
		if cp != nil {
			if err := queueCheckpoints(b, []audit.Checkpoint{*cp}); err != nil {
				return nil, err
			}
		}
		return b, nil
	})
}

// chainTx is the transaction a chain is written in.
type chainTx struct {
	q   pgxQuerier
	own bool // begun by chain, which commits it
}

// pgxQuerier is what pgx.Tx and a pool's connection both offer.
type pgxQuerier interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// lockHead locks the chain's head row for the transaction, waiting at
// most LockTimeout; readHead reads the head, in a statement after it, so
// that it sees what the lock's previous holder committed.
const (
	lockHead = `SELECT id FROM warden_audit_head WHERE id = 1 FOR UPDATE`
	readHead = `SELECT l.seq, l.hash, f.seq FROM (SELECT seq, hash FROM warden_audit ORDER BY seq DESC LIMIT 1) l,
	(SELECT seq FROM warden_audit ORDER BY seq LIMIT 1) f`
)

// chain runs write under the chain's lock: in the store's transaction
// ctx carries, or in one of its own, begun with the lock and the head's
// reading in one round trip and committed with the batch write returns in
// another. write must not commit; an error from it rolls back. In the
// store's transaction, what chain does is within a savepoint: when it
// fails, it is undone (the lock released) and the transaction stays
// usable, so that its owner can still save what it decided.
func (a *Audit) chain(ctx context.Context, write func(context.Context, chainTx, audit.Head) (*pgx.Batch, error)) error {
	t := chainTx{q: txOf(ctx, a.s)}
	if t.q == nil {
		conn, err := a.s.pool.Acquire(ctx)
		if err != nil {
			return a.errorf("%w", err)
		}
		// A connection released inside a transaction (an error, a panic
		// in write) is closed by the pool, and the server rolls it back.
		defer conn.Release()
		t = chainTx{q: conn, own: true}
	}
	var head audit.Head
	var lockID int32
	b := &pgx.Batch{}
	if t.own {
		b.Queue(`BEGIN ISOLATION LEVEL READ COMMITTED`)
	} else {
		b.Queue(`SAVEPOINT warden_audit`)
	}
	b.Queue(lockTimeout)
	b.Queue(lockHead).QueryRow(func(r pgx.Row) error {
		if err := r.Scan(&lockID); errors.Is(err, pgx.ErrNoRows) {
			return errors.New("the chain's lock row (warden_audit_head) is missing")
		} else if err != nil {
			return err
		}
		return nil
	})
	b.Queue(readHead).QueryRow(func(r pgx.Row) error {
		err := r.Scan(&head.Seq, &head.Hash, &head.First)
		if errors.Is(err, pgx.ErrNoRows) {
			head = audit.Head{}
			return nil
		}
		return err
	})
	if err := t.q.SendBatch(ctx, b).Close(); err != nil {
		a.rollback(t)
		return a.errorf("locking the chain: %w", err)
	}
	w, err := write(ctx, t, head)
	if err != nil {
		a.rollback(t)
		return err
	}
	if t.own {
		w.Queue(`COMMIT`)
	} else {
		w.Queue(`RELEASE SAVEPOINT warden_audit`)
	}
	if err := t.q.SendBatch(ctx, w).Close(); err != nil {
		a.rollback(t)
		return a.errorf("writing: %w", err)
	}
	return nil
}

// rollback ends a transaction chain began, so that its connection goes
// back to the pool (if that fails, the pool closes the connection, which
// the server rolls back), or undoes chain's work in the store's
// transaction (if that fails, the transaction is unusable, and its
// owner's commit fails).
func (a *Audit) rollback(t chainTx) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if t.own {
		_, _ = t.q.Exec(ctx, `ROLLBACK`)
		return
	}
	// (no arguments: the simple protocol, which needs no statement
	// prepared in the failed transaction)
	_, _ = t.q.Exec(ctx, `ROLLBACK TO SAVEPOINT warden_audit; RELEASE SAVEPOINT warden_audit`)
}
