package audit

import (
	"slices"
	"testing"
)

// MemoryTamperer edits a Memory behind its back, as someone who can
// write a database would: the tamper tests of audittest use it. It lives
// in a test file so that no program can tamper with a Memory.
type MemoryTamperer struct{ M *Memory }

// SetRecord overwrites the record of seq with r (keeping seq).
func (x MemoryTamperer) SetRecord(t testing.TB, seq int64, r Record) {
	t.Helper()
	x.M.mu.Lock()
	defer x.M.mu.Unlock()
	i, ok := x.M.find(seq)
	if !ok {
		t.Fatalf("tamper: no record %d to overwrite", seq)
	}
	r = cloneRecord(r)
	r.Seq = seq
	x.M.recs = slices.Clone(x.M.recs) // never in place: see Memory.snapshot
	x.M.recs[i] = r
}

// Delete removes the record of seq.
func (x MemoryTamperer) Delete(t testing.TB, seq int64) {
	t.Helper()
	x.M.mu.Lock()
	defer x.M.mu.Unlock()
	i, ok := x.M.find(seq)
	if !ok {
		t.Fatalf("tamper: no record %d to delete", seq)
	}
	x.M.recs = slices.Concat(x.M.recs[:i:i], x.M.recs[i+1:])
}

// Insert adds r at r.Seq, which no record may hold.
func (x MemoryTamperer) Insert(t testing.TB, r Record) {
	t.Helper()
	x.M.mu.Lock()
	defer x.M.mu.Unlock()
	i, ok := x.M.find(r.Seq)
	if ok {
		t.Fatalf("tamper: record %d is held", r.Seq)
	}
	x.M.recs = slices.Concat(x.M.recs[:i:i], []Record{cloneRecord(r)}, x.M.recs[i:])
}

// DeleteCheckpoints removes the checkpoints of Seq >= from.
func (x MemoryTamperer) DeleteCheckpoints(t testing.TB, from int64) {
	x.M.mu.Lock()
	defer x.M.mu.Unlock()
	i, _ := slices.BinarySearchFunc(x.M.cps, from, cpBySeq)
	x.M.cps = slices.Clone(x.M.cps[:i])
}

// AddCheckpoint adds c.
func (x MemoryTamperer) AddCheckpoint(t testing.TB, c Checkpoint) {
	x.M.mu.Lock()
	defer x.M.mu.Unlock()
	x.M.addCheckpoint(c)
}
