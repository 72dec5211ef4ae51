package audittest

import (
	"context"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/agentwarden/warden/audit"
)

func (s *suite) testPrune(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	k := keys(t, 1)
	l := audit.NewLog(b, k)
	appendEvents(t, l, 1, 21)
	anchor := get(t, b, 7)
	ev, err := l.Prune(ctx, 8, "ops", "kept 30 days")
	if err != nil {
		t.Fatal(err)
	}
	want := audit.Pruned{First: 1, Before: 8, Count: 7, Anchor: hex.EncodeToString(anchor.Hash), By: "ops", Reason: "kept 30 days"}
	if ev.Kind != audit.KindPrune || ev.Seq != 21 || ev.Pruned == nil || *ev.Pruned != want {
		t.Fatalf("prune event %+v", ev)
	}
	if got, err := audit.Decode(&[]audit.Record{get(t, b, 21)}[0]); err != nil || got.Pruned == nil || *got.Pruned != want {
		t.Fatalf("the prune event stored: %+v %v", got, err)
	}
	if h := head(t, b); h.First != 8 || h.Seq != 21 {
		t.Fatalf("head after the prune: %+v", h)
	}
	for _, seq := range []int64{1, 7} {
		if _, err := b.Get(ctx, seq); !errors.Is(err, audit.ErrNotFound) {
			t.Fatalf("event %d after the prune: %v", seq, err)
		}
	}
	cps := checkpoints(t, b, 0)
	if cps[0].Seq != 7 || string(cps[0].Hash) != string(anchor.Hash) || cps[len(cps)-1].Seq != 21 {
		t.Fatalf("checkpoints from %d to %d after the prune, want from the anchor 7 to 21", cps[0].Seq, cps[len(cps)-1].Seq)
	}
	rep := wantOK(t, b, k.Public())
	if !rep.Pruned || rep.Anchor != 7 || rep.First != 8 || rep.Last != 21 || rep.Events != 14 {
		t.Fatalf("report after the prune: %+v", rep)
	}

	// Bounds outside (First, Head.Seq] are refused, by the log and by the
	// backend, and change nothing.
	for _, before := range []int64{-1, 0, 1, 8, 22, 100} {
		if _, err := l.Prune(ctx, before, "ops", ""); err == nil {
			t.Errorf("prune before %d was done", before)
		}
		err := b.Prune(ctx, before, func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error) {
			t.Errorf("the backend sealed a prune before %d", before)
			return nil, nil, errors.New("no")
		})
		if err == nil {
			t.Errorf("the backend pruned before %d", before)
		}
	}
	if h := head(t, b); h.First != 8 || h.Seq != 21 {
		t.Fatalf("refused prunes changed the chain: %+v", h)
	}

	// The chain goes on, and is pruned again, past the first prune event.
	appendEvents(t, l, 21, 26) // 22 to 26
	if _, err := l.Prune(ctx, 20, "ops", ""); err != nil {
		t.Fatal(err)
	}
	wantOK(t, b, k.Public())
	if _, err := l.Prune(ctx, 27, "ops", ""); err != nil { // only the last prune event stays
		t.Fatal(err)
	}
	rep = wantOK(t, b, k.Public())
	if rep.First != 27 || rep.Last != 28 || rep.Events != 2 || rep.Anchor != 26 {
		t.Fatalf("report after three prunes: %+v", rep)
	}
	if _, err := audit.NewLog(s.backend(t), k).Prune(ctx, 1, "ops", ""); err == nil {
		t.Fatal("an empty chain was pruned")
	}
}
