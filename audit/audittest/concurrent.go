package audittest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/agentwarden/warden/audit"
)

// appendMany appends workers × each events through the logs (worker i
// through logs[i%len(logs)]) at once, and checks that every seq
// acknowledged is in the chain exactly once, holding its event.
func appendMany(t *testing.T, b audit.Backend, logs []*audit.Log, workers, each int) {
	ctx := context.Background()
	var mu sync.Mutex
	acked := map[int64]string{}
	var wg sync.WaitGroup
	for w := range workers {
		l := logs[w%len(logs)]
		wg.Go(func() {
			for i := range each {
				session := fmt.Sprintf("w%d-%d", w, i)
				seq, err := l.Append(ctx, &audit.Event{Kind: audit.KindObserve, Session: session})
				if err != nil {
					t.Errorf("worker %d, append %d: %v", w, i, err)
					return
				}
				mu.Lock()
				if other, dup := acked[seq]; dup {
					t.Errorf("seq %d acknowledged to %s and %s", seq, other, session)
				}
				acked[seq] = session
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	n := int64(workers * each)
	if h := head(t, b); h.Seq != n || h.First != 1 {
		t.Fatalf("head %+v after %d appends", h, n)
	}
	for seq := int64(1); seq <= n; seq++ {
		want, ok := acked[seq]
		if !ok {
			t.Fatalf("seq %d was never acknowledged", seq)
		}
		if r := get(t, b, seq); r.Session != want {
			t.Fatalf("event %d holds %q, acknowledged to %q", seq, r.Session, want)
		}
	}
}

// Concurrent appends through one Log: committed in groups, the chain
// still one.
func (s *suite) testGroupCommit(t *testing.T) {
	b := s.backend(t)
	k := keys(t, 1)
	const workers, each = 8, 50
	appendMany(t, b, []*audit.Log{audit.NewLog(b, k)}, workers, each)
	rep := wantOK(t, b, k.Public())
	// How many batches there were depends on timing: no more than one per
	// event, and fewer whenever appends overlapped.
	if rep.Checkpoints > workers*each || rep.Checkpoints < 1 {
		t.Fatalf("%d checkpoints for %d events", rep.Checkpoints, workers*each)
	}
	t.Logf("%d events in %d batches", workers*each, rep.Checkpoints)
}

// Two handles on one database (two processes) appending at once keep one
// chain.
func (s *suite) testTwoHandles(t *testing.T) {
	if s.reopen == nil {
		t.Skip("this backend has no second handle on one chain (audittest.Reopen)")
	}
	b1 := s.backend(t)
	b2 := s.reopen(t, b1)
	t.Cleanup(func() { b2.Close() })
	k := keys(t, 1)
	appendMany(t, b1, []*audit.Log{audit.NewLog(b1, k), audit.NewLog(b2, k)}, 6, 25)
	if h1, h2 := head(t, b1), head(t, b2); h1.Seq != h2.Seq || string(h1.Hash) != string(h2.Hash) {
		t.Fatalf("the handles see two heads: %+v %+v", h1, h2)
	}
	wantOK(t, b1, k.Public())
	wantOK(t, b2, k.Public())
}
