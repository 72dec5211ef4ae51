package audit_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// checkEvent returns an event of a checked action.
func checkEvent(session, tool string, v risk.Verdict, l risk.Level) *audit.Event {
	return &audit.Event{Kind: audit.KindCheck, Session: session, Tool: tool,
		Action:     &risk.Action{Tool: tool, Arguments: map[string]any{"command": "ls"}},
		Assessment: &risk.Assessment{Level: l}, Decision: &risk.Decision{Verdict: v}}
}

func TestLogAppendChains(t *testing.T) {
	ctx := context.Background()
	k := keysOf(t, 1)
	mem := audit.NewMemory()
	l := audit.NewLog(mem, k)
	if l.Backend() != audit.Backend(mem) || l.Keys() != k {
		t.Fatal("the log does not give back its backend and keys")
	}
	before := time.Now()
	for i := 1; i <= 5; i++ {
		ev := checkEvent("s", "Bash", risk.Allow, risk.Low)
		seq, err := l.Append(ctx, ev)
		if err != nil || seq != int64(i) || ev.Seq != seq {
			t.Fatalf("append %d: %d %v", i, seq, err)
		}
		if ev.Time.Before(before) || ev.Time.Location() != time.UTC {
			t.Fatalf("a zero time became %v", ev.Time)
		}
	}
	h, err := mem.Head(ctx)
	if err != nil || h.Seq != 5 || h.First != 1 {
		t.Fatalf("head %+v %v", h, err)
	}
	var prev []byte
	for s := int64(1); s <= 5; s++ {
		r, err := mem.Get(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := audit.Decode(&r)
		if err != nil || ev.Prev != hex.EncodeToString(prev) || !bytes.Equal(r.Hash, audit.RecordHash(r.Data)) {
			t.Fatalf("event %d: %v, prev %q", s, err, ev.Prev)
		}
		prev = r.Hash
	}
	if !bytes.Equal(prev, h.Hash) {
		t.Fatal("the head's hash is not the last record's")
	}
	n := 0
	mem.Checkpoints(ctx, 0, func(c *audit.Checkpoint) error {
		n++
		if c.Seq != int64(n) || !audit.CheckSignature(c, k.Public()) {
			t.Errorf("checkpoint %+v", c)
		}
		return nil
	})
	if n != 5 {
		t.Fatalf("%d checkpoints for 5 serial appends", n)
	}
}

// An event that cannot be sealed fails alone, and writes nothing.
func TestLogAppendUnsealable(t *testing.T) {
	ctx := context.Background()
	mem := audit.NewMemory()
	l := audit.NewLog(mem, keysOf(t, 1))
	bad := &audit.Event{Kind: audit.KindCheck, Action: &risk.Action{Tool: "x", Arguments: map[string]any{"f": func() {}}}}
	if _, err := l.Append(ctx, bad); err == nil {
		t.Fatal("an event JSON cannot hold was appended")
	}
	if _, err := l.Append(ctx, nil); err == nil {
		t.Fatal("a nil event was appended")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := l.Append(cancelled, checkEvent("s", "Bash", risk.Allow, risk.Low)); err == nil {
		t.Fatal("appended with a cancelled context")
	}
	if h, _ := mem.Head(ctx); h.Seq != 0 {
		t.Fatalf("failed appends wrote: head %d", h.Seq)
	}
	if seq, err := l.Append(ctx, checkEvent("s", "Bash", risk.Allow, risk.Low)); err != nil || seq != 1 {
		t.Fatalf("%d %v", seq, err)
	}
}

// Many appenders: every acknowledged seq is in the chain exactly once.
func TestLogAppendConcurrent(t *testing.T) {
	ctx := context.Background()
	mem := audit.NewMemory()
	l := audit.NewLog(mem, keysOf(t, 1))
	const g, n = 8, 50
	var mu sync.Mutex
	got := map[int64]string{}
	var wg sync.WaitGroup
	for i := range g {
		wg.Go(func() {
			for j := range n {
				session := string(rune('a'+i)) + strings.Repeat("x", j)
				seq, err := l.Append(ctx, &audit.Event{Kind: audit.KindObserve, Session: session})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if _, dup := got[seq]; dup {
					t.Errorf("seq %d acknowledged twice", seq)
				}
				got[seq] = session
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(got) != g*n {
		t.Fatalf("%d seqs acknowledged", len(got))
	}
	for seq, session := range got {
		r, err := mem.Get(ctx, seq)
		if err != nil || r.Session != session {
			t.Fatalf("event %d: %q %v, want %q", seq, r.Session, err, session)
		}
	}
}

func TestLogPrune(t *testing.T) {
	ctx := context.Background()
	k := keysOf(t, 1)
	mem := audit.NewMemory()
	l := audit.NewLog(mem, k)
	for range 10 {
		if _, err := l.Append(ctx, checkEvent("s", "Bash", risk.Allow, risk.Low)); err != nil {
			t.Fatal(err)
		}
	}
	anchor, _ := mem.Get(ctx, 3)
	ev, err := l.Prune(ctx, 4, "ops", "retention")
	if err != nil {
		t.Fatal(err)
	}
	want := audit.Pruned{First: 1, Before: 4, Count: 3, Anchor: hex.EncodeToString(anchor.Hash), By: "ops", Reason: "retention"}
	if ev.Kind != audit.KindPrune || ev.Seq != 11 || *ev.Pruned != want {
		t.Fatalf("prune event %+v %+v", ev, ev.Pruned)
	}
	h, _ := mem.Head(ctx)
	if h.First != 4 || h.Seq != 11 {
		t.Fatalf("head after prune %+v", h)
	}
	if _, err := mem.Get(ctx, 3); err != audit.ErrNotFound {
		t.Fatalf("event 3 after the prune: %v", err)
	}
	var seqs []int64
	mem.Checkpoints(ctx, 0, func(c *audit.Checkpoint) error {
		if !audit.CheckSignature(c, k.Public()) {
			t.Errorf("checkpoint %d does not verify", c.Seq)
		}
		seqs = append(seqs, c.Seq)
		return nil
	})
	if seqs[0] != 3 || seqs[len(seqs)-1] != 11 || len(seqs) != 10 { // 3 (kept and re-signed) ... 10, 11
		t.Fatalf("checkpoints after prune at %v", seqs)
	}
	for _, before := range []int64{0, 3, 4, 12, 100} {
		_, err := l.Prune(ctx, before, "ops", "")
		if err == nil || !strings.Contains(err.Error(), "events 4 to 11") {
			t.Errorf("prune before %d: %v", before, err)
		}
	}
	if _, err := audit.NewLog(audit.NewMemory(), k).Prune(ctx, 2, "", ""); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("prune of an empty chain: %v", err)
	}
}
