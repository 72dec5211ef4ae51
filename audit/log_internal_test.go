package audit

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// gate is a Backend that holds its first Append until released, counting
// the Appends it is given.
type gate struct {
	Backend
	entered, release chan struct{}
	mu               sync.Mutex
	appends          int
	fail             func(n int) error // the error of the n-th Append, if any
	panics           bool
}

func newGate(b Backend) *gate {
	return &gate{Backend: b, entered: make(chan struct{}), release: make(chan struct{})}
}

func (g *gate) Append(ctx context.Context, seal func(Head) ([]Record, *Checkpoint, error)) error {
	g.mu.Lock()
	g.appends++
	n := g.appends
	g.mu.Unlock()
	if n == 1 {
		close(g.entered)
		<-g.release
	}
	if g.fail != nil {
		if err := g.fail(n); err != nil {
			return err
		}
	}
	if g.panics && n > 1 {
		panic("backend broke")
	}
	return g.Backend.Append(ctx, seal)
}

// queued waits until n appends wait in l's queue. It counts, never times:
// the appenders are goroutines about to block.
func queued(l *Log, n int) {
	for {
		l.mu.Lock()
		k := len(l.queue)
		l.mu.Unlock()
		if k == n {
			return
		}
		runtime.Gosched()
	}
}

// testKeys returns a fixed key.
func testKeys(t testing.TB) *Keys {
	k, err := KeysFromSeed(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Events that arrive while a batch is written are written together in the
// next: one backend Append and one checkpoint for all of them.
func TestGroupCommit(t *testing.T) {
	mem := NewMemory()
	g := newGate(mem)
	l := NewLog(g, testKeys(t))
	ctx := context.Background()
	first := make(chan int64)
	go func() {
		seq, err := l.Append(ctx, &Event{Kind: KindCheck})
		if err != nil {
			t.Error(err)
		}
		first <- seq
	}()
	<-g.entered
	const n = 10
	seqs := make(chan int64, n)
	for range n {
		go func() {
			seq, err := l.Append(ctx, &Event{Kind: KindCheck})
			if err != nil {
				t.Error(err)
			}
			seqs <- seq
		}()
	}
	queued(l, n)
	close(g.release)
	if seq := <-first; seq != 1 {
		t.Fatalf("the first append got %d", seq)
	}
	seen := map[int64]bool{}
	for range n {
		seen[<-seqs] = true
	}
	for s := int64(2); s <= n+1; s++ {
		if !seen[s] {
			t.Fatalf("no append got seq %d: %v", s, seen)
		}
	}
	if g.appends != 2 {
		t.Fatalf("%d backend appends for two batches", g.appends)
	}
	var cps []Checkpoint
	mem.Checkpoints(ctx, 0, func(c *Checkpoint) error { cps = append(cps, *c); return nil })
	if len(cps) != 2 || cps[0].Seq != 1 || cps[1].Seq != n+1 {
		t.Fatalf("checkpoints %+v", cps)
	}
}

// A failed batch fails every caller in it, and writes nothing; the next
// batch is written.
func TestGroupCommitFails(t *testing.T) {
	for _, panics := range []bool{false, true} {
		mem := NewMemory()
		g := newGate(mem)
		g.panics = panics
		if !panics {
			g.fail = func(n int) error {
				if n == 2 {
					return errors.New("disk full")
				}
				return nil
			}
		}
		l := NewLog(g, testKeys(t))
		ctx := context.Background()
		done := make(chan error)
		go func() { _, err := l.Append(ctx, &Event{Kind: KindCheck}); done <- err }()
		<-g.entered
		const n = 5
		errs := make(chan error, n)
		for range n {
			go func() { _, err := l.Append(ctx, &Event{Kind: KindCheck}); errs <- err }()
		}
		queued(l, n)
		close(g.release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		for range n {
			err := <-errs
			if err == nil || !strings.Contains(err.Error(), map[bool]string{false: "disk full", true: "panicked: backend broke"}[panics]) {
				t.Fatalf("panics %v: a caller of the failed batch got %v", panics, err)
			}
		}
		if h, _ := mem.Head(ctx); h.Seq != 1 {
			t.Fatalf("panics %v: the failed batch wrote: head %d", panics, h.Seq)
		}
		g.panics, g.fail = false, nil
		if seq, err := l.Append(ctx, &Event{Kind: KindCheck}); err != nil || seq != 2 {
			t.Fatalf("panics %v: after a failed batch: %d %v", panics, seq, err)
		}
	}
}

// joining is a Memory that joins the transactions of contexts marked so.
type joining struct{ *gate }

type txKey struct{}

func (joining) Joins(ctx context.Context) bool { return ctx.Value(txKey{}) != nil }

// An append in a transaction goes straight to the backend: it does not
// wait for a batch being written.
func TestJoinedAppendSkipsTheQueue(t *testing.T) {
	mem := NewMemory()
	g := newGate(mem)
	l := NewLog(joining{g}, testKeys(t))
	done := make(chan int64)
	go func() {
		seq, err := l.Append(context.Background(), &Event{Kind: KindCheck})
		if err != nil {
			t.Error(err)
		}
		done <- seq
	}()
	<-g.entered
	seq, err := l.Append(context.WithValue(context.Background(), txKey{}, 1), &Event{Kind: KindApprove})
	if err != nil || seq != 1 {
		t.Fatalf("joined append: %d %v", seq, err)
	}
	close(g.release)
	if seq := <-done; seq != 2 {
		t.Fatalf("the held append got %d", seq)
	}
}
