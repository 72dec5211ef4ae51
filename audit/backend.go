package audit

import (
	"context"
	"errors"
	"time"

	"github.com/agentwarden/warden/risk"
)

// Record is an event as a store keeps it: the canonical JSON the hash
// covers (Data), and the fields lists filter on, copied out of it.
// Verify checks that the copies agree with Data.
type Record struct {
	Seq     int64
	Time    time.Time
	Kind    Kind
	Session string
	Agent   string
	Tool    string
	Verdict risk.Verdict // "" for an event without a decision
	Level   risk.Level   // Unknown for an event without an assessment
	// Data is the event's canonical JSON (see Seal); Hash is its
	// RecordHash, 32 bytes.
	Data []byte
	Hash []byte
}

// Head is the end of a chain: the last record's Seq and Hash (0 and nil
// for an empty chain), and the first Seq the store still holds (0 for an
// empty chain; above 1 once pruned).
type Head struct {
	Seq   int64
	Hash  []byte
	First int64
}

// Checkpoint is a signature, by the audit key, over the chain's head at
// Seq: the record of that Seq must have Hash, and nobody without the
// private key can sign a chain recomputed after an edit.
type Checkpoint struct {
	Seq  int64
	Hash []byte
	Time time.Time
	// KeyID names the key that signed (Keys.ID); Sig is the Ed25519
	// signature of CheckpointMessage(Seq, Hash, Time).
	KeyID string
	Sig   []byte
}

// Filter selects records. The zero Filter selects every one.
type Filter struct {
	// FromSeq and ToSeq bound Seq, inclusive (0: unbounded).
	FromSeq, ToSeq int64
	// Since and Until bound Time: Since <= Time < Until (zero: unbounded).
	Since, Until time.Time
	Session      string
	Agent        string
	Tool         string
	Kinds        []Kind
	Verdict      risk.Verdict
	// MinLevel keeps records at this level or above (Unknown records
	// included whenever MinLevel is set); Unknown: no bound.
	MinLevel risk.Level
	// Limit caps the records returned (0: no cap); Last returns the last
	// Limit of those selected instead of the first (still in Seq order).
	Limit int
	Last  bool
}

// ErrNotFound is the error of Get for a Seq the store does not hold.
var ErrNotFound = errors.New("audit: no such event")

// Backend is a store of one audit chain. Implementations are safe for
// concurrent use, and a persistent one by several processes at once: the
// chain stays one chain, without gaps or forks, whoever appends.
type Backend interface {
	// Append calls seal with the chain's head, under a lock that
	// serializes every Append (and Prune) of the chain — across processes
	// for a persistent store — and writes the records seal returns (in
	// order, continuing the head) and its checkpoint (nil: none),
	// atomically and durably (synced to disk) before it returns. When seal
	// fails nothing is written and its error is returned. When ctx
	// carries a transaction of the store's own database (the fn of its
	// session store's Update), Append writes in that transaction, and its
	// owner's commit makes the records durable; such a Backend implements
	// Joiner, so that a Log knows not to commit that append with others.
	// seal may be called more than once (a retried transaction); only
	// what its last call returned is written.
	Append(ctx context.Context, seal func(Head) ([]Record, *Checkpoint, error)) error
	// Head returns the end of the chain.
	Head(ctx context.Context) (Head, error)
	// Get returns the record of seq, or ErrNotFound.
	Get(ctx context.Context, seq int64) (Record, error)
	// Scan calls fn with each record f selects, in Seq order; an error
	// from fn stops the scan and is returned. fn must not use the
	// Backend, and must copy what it keeps of the record.
	Scan(ctx context.Context, f Filter, fn func(*Record) error) error
	// Checkpoints calls fn with each checkpoint of Seq >= from, in Seq
	// order (several may share a Seq).
	Checkpoints(ctx context.Context, from int64, fn func(*Checkpoint) error) error
	// Prune removes the records of Seq < before, under the lock of
	// Append: it calls seal with the head and the record of before-1
	// (the last to go, whose hash the first kept names), and, in one
	// transaction, deletes those records and the checkpoints of Seq <
	// before-1, then writes what seal returns (the prune event's record
	// and the checkpoints: one over before-1, the anchor, and one over the
	// new head). before must be within (First, Head.Seq]: at least one
	// record goes and at least one stays.
	Prune(ctx context.Context, before int64, seal func(head Head, last Record) ([]Record, []Checkpoint, error)) error
	// Close releases the backend (not a database it shares with a
	// session store, which that store's Close releases).
	Close() error
}

// Joiner is implemented by a Backend that can append in a transaction of
// its own database carried by a context (see Backend.Append). Joins
// reports whether ctx carries one: a Log then appends that event alone,
// in that transaction, instead of committing it with the events of other
// callers (which the transaction's owner does not wait for, and which
// could deadlock against its lock).
type Joiner interface {
	Joins(ctx context.Context) bool
}
