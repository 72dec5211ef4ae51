package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// guard is the deadline of the tests that would otherwise wait for a
// lock they hold themselves: an append that did not join the Update's
// transaction fails when it ends (or at the busy timeout) instead of
// passing. Nothing is timed: a correct run never comes near it.
const guard = 20 * time.Second

// TestAuditInUpdate: an append from the fn of an Update writes in its
// transaction: it commits with the state, or not at all.
func TestAuditInUpdate(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	path := filepath.Join(t.TempDir(), "w.db")
	s := open(t, path, session.Config{})
	other := open(t, path, session.Config{}) // another process's view
	a := s.Audit()
	k := testKeys(t)
	l := audit.NewLog(a, k)
	if a.Joins(ctx) {
		t.Fatal("a context without a transaction joins")
	}

	err := s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		if !a.Joins(ctx) || other.Audit().Joins(ctx) {
			t.Error("the Update's context joins no trail, or another store's")
		}
		step(ctx, st)
		seq, err := l.Append(ctx, event("conv", "", "Bash", risk.Allow, risk.Low))
		if err != nil || seq != 1 {
			t.Fatalf("append in the Update: %d, %v", seq, err)
		}
		if h, err := a.Head(ctx); err != nil || h.Seq != 1 {
			t.Errorf("the Update's transaction does not see its event: %+v, %v", h, err)
		}
		if h, err := other.Audit().Head(t.Context()); err != nil || h.Seq != 0 {
			t.Errorf("another store sees the event before the Update commits: %+v, %v", h, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if h := verify(t, other.Audit(), k.Public()); h.Seq != 1 {
		t.Fatalf("after the Update: head %+v", h)
	}

	// fn fails after appending: neither the state nor the event is kept
	fail := errors.New("fn failed")
	err = s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		step(ctx, st)
		if _, err := l.Append(ctx, event("conv", "", "Bash", risk.Deny, risk.High)); err != nil {
			t.Fatal(err)
		}
		return fail
	})
	if !errors.Is(err, fail) {
		t.Fatalf("Update whose fn failed: %v", err)
	}
	if st, err := other.Get(ctx, "conv"); err != nil || st.Steps() != 1 {
		t.Fatalf("the state of a failed Update was kept (%v)", err)
	}
	if _, err := other.Audit().Get(ctx, 2); !errors.Is(err, audit.ErrNotFound) {
		t.Fatalf("the event of a failed Update was kept: %v", err)
	}

	// an append that fails half-way in fn leaves nothing of itself, and
	// the Update still commits its state
	err = s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		step(ctx, st)
		if err := a.Append(ctx, forked); err == nil {
			t.Error("records that fork the chain: no error")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := other.Get(ctx, "conv"); err != nil || st.Steps() != 2 {
		t.Fatalf("the Update after a failed append: state not saved (%v)", err)
	}
	if h := verify(t, other.Audit(), k.Public()); h.Seq != 1 {
		t.Fatalf("a failed append in an Update left records: head %+v", h)
	}
}

// TestAuditInUpdateConcurrent: Updates that append in their transaction,
// and appends outside any (committed in groups), through one log at once:
// none waits for the other's lock forever, and every event is in the
// chain once.
func TestAuditInUpdateConcurrent(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	k := testKeys(t)
	l := audit.NewLog(s.Audit(), k)
	const workers, each = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers)
	seqs := make(chan int64, 2*workers*each)
	for range workers {
		wg.Add(2)
		go func() { // Updates, recording in them
			defer wg.Done()
			for range each {
				err := s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
					step(ctx, st)
					seq, err := l.Append(ctx, event("conv", "", "Bash", risk.Allow, risk.Low))
					seqs <- seq
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() { // appends outside any Update
			defer wg.Done()
			for range each {
				seq, err := l.Append(ctx, event("other", "", "Read", risk.Allow, risk.Safe))
				if err != nil {
					errs <- err
					return
				}
				seqs <- seq
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(seqs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for seq := range seqs {
		if seen[seq] {
			t.Fatalf("seq %d acknowledged twice", seq)
		}
		seen[seq] = true
	}
	if h := verify(t, s.Audit(), k.Public()); h.Seq != 2*workers*each || len(seen) != 2*workers*each {
		t.Fatalf("%d appends: head %+v, %d seqs", 2*workers*each, h, len(seen))
	}
	if st, err := s.Get(ctx, "conv"); err != nil || st.Steps() != workers*each {
		t.Fatalf("%d Updates: state %v, %v", workers*each, st, err)
	}
}

// TestAuditSealPanics: a seal that panics, in a transaction of its own
// or in an Update's, leaves the trail usable: the lock is released, the
// Update goes on and commits, and the chain verifies.
func TestAuditSealPanics(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	a := s.Audit()
	k := testKeys(t)
	l := audit.NewLog(a, k)
	panics := func(ctx context.Context) (recovered any) {
		defer func() { recovered = recover() }()
		a.Append(ctx, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { panic("seal") })
		return nil
	}
	if panics(ctx) == nil {
		t.Fatal("the seal's panic did not reach the caller")
	}
	if _, err := l.Append(ctx, event("s", "", "Bash", risk.Allow, risk.Low)); err != nil {
		t.Fatalf("an append after a panic: %v", err)
	}
	err := s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		step(ctx, st)
		if panics(ctx) == nil {
			t.Error("the seal's panic did not reach the caller")
		}
		_, err := l.Append(ctx, event("conv", "", "Bash", risk.Allow, risk.Low))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if h := verify(t, a, k.Public()); h.Seq != 2 {
		t.Fatalf("head %+v, want 2 events", h)
	}
	if st, err := s.Get(ctx, "conv"); err != nil || st.Steps() != 1 {
		t.Fatalf("the Update's state: %v, %v", st, err)
	}
}
