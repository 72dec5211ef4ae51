package audit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Log seals events onto a Backend and signs the chain's head with its
// keys. It is safe for concurrent use.
//
// Appends are committed in groups: while one batch is being written, the
// events of other callers queue, and the first of them writes them all at
// once when the batch before is done (one backend Append, one checkpoint,
// one sync). Nobody waits for a timer: a lone caller writes at once, and
// under load each write carries everything that arrived during the last.
type Log struct {
	b      Backend
	k      *Keys
	joiner Joiner // b, when it can join a transaction a context carries

	mu    sync.Mutex
	queue []*pending // events waiting for the next batch
	busy  bool       // a batch is being written; its leader hands over
}

// pending is one caller's event on its way through a batch.
type pending struct {
	ctx context.Context
	ev  *Event
	// done is closed when seq and err are set, or when this caller is to
	// lead the next batch (lead).
	done chan struct{}
	lead bool
	seq  int64
	err  error
}

// NewLog returns a log of b, signed by k.
func NewLog(b Backend, k *Keys) *Log {
	l := &Log{b: b, k: k}
	l.joiner, _ = b.(Joiner)
	return l
}

// Backend returns the backend the log appends to.
func (l *Log) Backend() Backend { return l.b }

// Keys returns the keys the log signs with.
func (l *Log) Keys() *Keys { return l.k }

// Append seals ev after the chain's head (setting its Seq, Prev, and its
// Time to now when zero) and signs a checkpoint over the new head; the
// event is durable when Append returns its Seq. When ctx carries a
// transaction the backend joins (see Joiner), the event is written in it,
// alone; otherwise it is committed with the events of concurrent callers.
//
// An error means the event may not have been written: it was not, unless
// the backend failed after a commit it could not confirm. Once ev is
// queued, Append waits for its batch whatever ctx says (the batch is
// written under a context that ends only when every caller in it gave
// up); ev must not be changed until Append returns.
func (l *Log) Append(ctx context.Context, ev *Event) (int64, error) {
	if ev == nil {
		return 0, errors.New("audit: appending a nil event")
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("audit: appending an event: %w", err)
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	if l.joiner != nil && l.joiner.Joins(ctx) {
		p := &pending{ctx: ctx, ev: ev}
		l.write(ctx, []*pending{p})
		return p.seq, p.err
	}
	p := &pending{ctx: ctx, ev: ev, done: make(chan struct{})}
	l.mu.Lock()
	l.queue = append(l.queue, p)
	if l.busy {
		l.mu.Unlock()
		<-p.done
		if !p.lead {
			return p.seq, p.err
		}
		l.mu.Lock()
	}
	// p leads the next batch: everything queued, p first.
	l.busy = true
	batch := l.queue
	l.queue = nil
	l.mu.Unlock()

	l.writeBatch(batch)

	l.mu.Lock()
	if len(l.queue) > 0 {
		next := l.queue[0]
		next.lead = true
		close(next.done)
	} else {
		l.busy = false
	}
	l.mu.Unlock()
	for _, q := range batch[1:] {
		close(q.done)
	}
	return p.seq, p.err
}

// writeBatch writes a batch under a context that keeps the values of its
// leader's and is cancelled once every caller of the batch gave up.
func (l *Log) writeBatch(batch []*pending) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(batch[0].ctx))
	defer cancel()
	waiting := int64(len(batch))
	for _, p := range batch {
		stop := context.AfterFunc(p.ctx, func() {
			if atomic.AddInt64(&waiting, -1) == 0 {
				cancel()
			}
		})
		defer stop()
	}
	l.write(ctx, batch)
}

// write appends the events of batch in one backend Append, with one
// checkpoint over the last, and sets each one's seq or error. An event
// that cannot be sealed fails alone; a failed or panicking write fails
// them all.
func (l *Log) write(ctx context.Context, batch []*pending) {
	var seqs []int64
	var errs []error
	seal := func(head Head) ([]Record, *Checkpoint, error) {
		// Called again if the backend retries: start afresh.
		seqs, errs = make([]int64, len(batch)), make([]error, len(batch))
		recs := make([]Record, 0, len(batch))
		for i, p := range batch {
			r, err := Seal(p.ev, head)
			if err != nil {
				errs[i] = err
				continue
			}
			recs = append(recs, r)
			seqs[i] = r.Seq
			head = Head{Seq: r.Seq, Hash: r.Hash, First: head.First}
		}
		if len(recs) == 0 {
			return nil, nil, errors.Join(errs...)
		}
		c := l.k.Sign(head.Seq, head.Hash, time.Now())
		return recs, &c, nil
	}
	err := safely("append", func() error { return l.b.Append(ctx, seal) })
	if err == nil && seqs == nil {
		err = errors.New("the backend wrote without sealing")
	}
	for i, p := range batch {
		switch {
		case errs != nil && errs[i] != nil:
			p.err = errs[i]
		case err != nil:
			p.err = fmt.Errorf("audit: appending an event: %w", err)
		default:
			p.seq = seqs[i]
		}
	}
}

// safely calls fn, turning a panic into an error: a broken backend fails
// the appends it was given, not the process.
func safely(what string, fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the backend's %s panicked: %v", what, r)
		}
	}()
	return fn()
}
