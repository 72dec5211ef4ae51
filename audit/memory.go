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

// Append implements Backend.
func (m *Memory) Append(ctx context.Context, seal func(Head) ([]Record, *Checkpoint, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	head := m.head()
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
	i, _ := slices.BinarySearchFunc(m.cps, c.Seq+1, func(c Checkpoint, seq int64) int { return cmp.Compare(c.Seq, seq) })
	m.cps = slices.Insert(m.cps, i, c)
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
	return slices.BinarySearchFunc(m.recs, seq, func(r Record, seq int64) int { return cmp.Compare(r.Seq, seq) })
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

// Scan implements Backend. It calls fn with copies, outside the lock.
func (m *Memory) Scan(ctx context.Context, f Filter, fn func(*Record) error) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errClosed
	}
	var sel []Record
	for i := range m.recs {
		if f.Match(&m.recs[i]) {
			sel = append(sel, cloneRecord(m.recs[i]))
		}
	}
	m.mu.Unlock()
	if f.Limit > 0 && len(sel) > f.Limit {
		if f.Last {
			sel = sel[len(sel)-f.Limit:]
		} else {
			sel = sel[:f.Limit]
		}
	}
	for i := range sel {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(&sel[i]); err != nil {
			return err
		}
	}
	return nil
}

// Checkpoints implements Backend.
func (m *Memory) Checkpoints(ctx context.Context, from int64, fn func(*Checkpoint) error) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errClosed
	}
	var sel []Checkpoint
	for _, c := range m.cps {
		if c.Seq >= from {
			c.Hash, c.Sig = slices.Clone(c.Hash), slices.Clone(c.Sig)
			sel = append(sel, c)
		}
	}
	m.mu.Unlock()
	for i := range sel {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(&sel[i]); err != nil {
			return err
		}
	}
	return nil
}

// Prune implements Backend.
func (m *Memory) Prune(ctx context.Context, before int64, seal func(head Head, last Record) ([]Record, []Checkpoint, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	head := m.head()
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
	m.recs = slices.Delete(m.recs, 0, i+1)
	m.cps = slices.DeleteFunc(m.cps, func(c Checkpoint) bool { return c.Seq < before-1 })
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
