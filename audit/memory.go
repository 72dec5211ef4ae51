package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Memory is a Backend in the memory of this process: for tests, and for
// an engine without a store, whose trail then lasts as long as it runs.
// It never joins a transaction.
type Memory struct {
	mu     sync.Mutex
	recs   []Record     // in Seq order
	cps    []Checkpoint // in Seq order
	closed bool
}

var _ Backend = (*Memory)(nil)

// NewMemory returns an empty chain in memory.
func NewMemory() *Memory { return &Memory{} }

// errClosed is the error of a Memory used after Close.
var errClosed = errors.New("audit: the memory backend is closed")

// head returns the end of the chain; m.mu is held.
func (m *Memory) head() Head {
	if len(m.recs) == 0 {
		return Head{}
	}
	last := m.recs[len(m.recs)-1]
	return Head{Seq: last.Seq, Hash: last.Hash, First: m.recs[0].Seq}
}

// writeHead returns the head a write continues (its hash a copy for the
// seal), or why nothing may be written; m.mu is held.
func (m *Memory) writeHead(ctx context.Context) (Head, error) {
	if m.closed {
		return Head{}, errClosed
	}
	if err := ctx.Err(); err != nil {
		return Head{}, err
	}
	h := m.head()
	h.Hash = slices.Clone(h.Hash)
	return h, nil
}

// Append implements Backend.
func (m *Memory) Append(ctx context.Context, seal func(Head) ([]Record, *Checkpoint, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	head, err := m.writeHead(ctx)
	if err != nil {
		return err
	}
	recs, c, err := seal(head)
	if err != nil {
		return err
	}
	if err := continues(head, recs); err != nil {
		return err
	}
	for _, r := range recs {
		m.recs = append(m.recs, cloneRecord(r))
	}
	if c != nil {
		m.addCheckpoint(*c)
	}
	return nil
}

// continues checks that recs number on from head, as a Backend writes
// them.
func continues(head Head, recs []Record) error {
	for i, r := range recs {
		if want := head.Seq + 1 + int64(i); r.Seq != want {
			return fmt.Errorf("audit: sealed record %d where the chain continues with %d", r.Seq, want)
		}
	}
	return nil
}

// addCheckpoint keeps c, after those of its Seq; m.mu is held.
func (m *Memory) addCheckpoint(c Checkpoint) {
	c.Hash = slices.Clone(c.Hash)
	c.Sig = slices.Clone(c.Sig)
	i, _ := slices.BinarySearchFunc(m.cps, c.Seq+1, cpBySeq)
	if i == len(m.cps) {
		m.cps = append(m.cps, c)
		return
	}
	m.cps = slices.Concat(m.cps[:i:i], []Checkpoint{c}, m.cps[i:]) // a new slice: see snapshot
}

// Head implements Backend.
func (m *Memory) Head(context.Context) (Head, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Head{}, errClosed
	}
	h := m.head()
	h.Hash = slices.Clone(h.Hash)
	return h, nil
}

// find returns the index of seq's record; m.mu is held.
func (m *Memory) find(seq int64) (int, bool) {
	return slices.BinarySearchFunc(m.recs, seq, bySeq)
}

// Get implements Backend.
func (m *Memory) Get(_ context.Context, seq int64) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Record{}, errClosed
	}
	i, ok := m.find(seq)
	if !ok {
		return Record{}, ErrNotFound
	}
	return cloneRecord(m.recs[i]), nil
}

// snapshot returns the records and checkpoints as they are. Nothing
// changes an element of m.recs or m.cps in place, and whatever removes or
// inserts one builds new slices (appends only write past a snapshot's
// length), so a snapshot can be read without the lock.
func (m *Memory) snapshot() ([]Record, []Checkpoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, nil, errClosed
	}
	return m.recs, m.cps, nil
}

// Scan implements Backend. It calls fn with a copy of each record.
func (m *Memory) Scan(ctx context.Context, f Filter, fn func(*Record) error) error {
	recs, _, err := m.snapshot()
	if err != nil {
		return err
	}
	i, _ := slices.BinarySearchFunc(recs, f.FromSeq, bySeq)
	recs = recs[i:]
	if f.Last && f.Limit > 0 { // start at the Limit-th from the end
		n := 0
		for i = len(recs); i > 0 && n < f.Limit; i-- {
			if f.Match(&recs[i-1]) {
				n++
			}
		}
		recs = recs[i:]
	}
	n := 0
	for i := range recs {
		if f.Limit > 0 && n == f.Limit {
			break
		}
		if !f.Match(&recs[i]) {
			continue
		}
		n++
		if err := ctx.Err(); err != nil {
			return err
		}
		r := cloneRecord(recs[i])
		if err := fn(&r); err != nil {
			return err
		}
	}
	return nil
}

// bySeq orders records by Seq, for binary searches.
func bySeq(r Record, seq int64) int { return cmp.Compare(r.Seq, seq) }

// cpBySeq orders checkpoints by Seq, for binary searches.
func cpBySeq(c Checkpoint, seq int64) int { return cmp.Compare(c.Seq, seq) }

// Checkpoints implements Backend.
func (m *Memory) Checkpoints(ctx context.Context, from int64, fn func(*Checkpoint) error) error {
	_, cps, err := m.snapshot()
	if err != nil {
		return err
	}
	i, _ := slices.BinarySearchFunc(cps, from, cpBySeq)
	for _, c := range cps[i:] {
		if err := ctx.Err(); err != nil {
			return err
		}
		c.Hash, c.Sig = slices.Clone(c.Hash), slices.Clone(c.Sig)
		if err := fn(&c); err != nil {
			return err
		}
	}
	return nil
}

// Prune implements Backend.
func (m *Memory) Prune(ctx context.Context, before int64, seal func(head Head, last Record) ([]Record, []Checkpoint, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	head, err := m.writeHead(ctx)
	if err != nil {
		return err
	}
	if err := PruneBounds(before, head); err != nil {
		return err
	}
	i, ok := m.find(before - 1)
	if !ok {
		return fmt.Errorf("audit: event %d, the last to prune, is missing", before-1)
	}
	recs, cps, err := seal(head, cloneRecord(m.recs[i]))
	if err != nil {
		return err
	}
	if err := continues(head, recs); err != nil {
		return err
	}
	// New slices, not deletions in place: see snapshot.
	m.recs = slices.Clone(m.recs[i+1:])
	j, _ := slices.BinarySearchFunc(m.cps, before-1, cpBySeq)
	m.cps = slices.Clone(m.cps[j:])
	for _, r := range recs {
		m.recs = append(m.recs, cloneRecord(r))
	}
	for _, c := range cps {
		m.addCheckpoint(c)
	}
	return nil
}

// Close implements Backend: the chain is gone.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.recs, m.cps = nil, nil
	return nil
}

// cloneRecord returns r with its own Data and Hash.
func cloneRecord(r Record) Record {
	r.Data, r.Hash = slices.Clone(r.Data), slices.Clone(r.Hash)
	return r
}
