package audit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
)

func TestVerifyEmpty(t *testing.T) {
	ctx := context.Background()
	k := keysOf(t, 1)
	m := audit.NewMemory()
	rep, err := audit.Verify(ctx, m, k.Public())
	if err != nil || !rep.OK || rep.Events != 0 || !rep.KeyChecked {
		t.Fatalf("an empty chain: %+v %v", rep, err)
	}
	// a chain cut to nothing, its checkpoints left
	audit.MemoryTamperer{M: m}.AddCheckpoint(t, k.Sign(3, make([]byte, 32), time.Now()))
	rep, _ = audit.Verify(ctx, m, k.Public())
	if rep.OK || rep.FirstBad != 1 || !strings.Contains(rep.Problems[0].What, "checkpoint at 3, but the chain ends at 0") {
		t.Fatalf("an empty chain with a checkpoint: %+v", rep)
	}
	if _, err := audit.Verify(ctx, m, make([]byte, 5)); err == nil {
		t.Fatal("verified with a 5-byte key")
	}
	m.Close()
	if _, err := audit.Verify(ctx, m, nil); err == nil {
		t.Fatal("a closed backend verified")
	}
}

// A chain broken at every event lists the first 100 problems and counts
// the others.
func TestVerifyCapsProblems(t *testing.T) {
	ctx := context.Background()
	k := keysOf(t, 1)
	m := audit.NewMemory()
	l := audit.NewLog(m, k)
	for range 150 {
		if _, err := l.Append(ctx, &audit.Event{Kind: audit.KindCheck}); err != nil {
			t.Fatal(err)
		}
	}
	x := audit.MemoryTamperer{M: m}
	x.DeleteCheckpoints(t, 1) // and every one signed by another key instead
	other := keysOf(t, 2)
	for seq := int64(1); seq <= 150; seq++ {
		r, _ := m.Get(ctx, seq)
		x.AddCheckpoint(t, other.Sign(seq, r.Hash, time.Now()))
	}
	rep, err := audit.Verify(ctx, m, k.Public())
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.FirstBad != 1 || len(rep.Problems) != 100 || rep.More != 51 { // 150 keys and the uncovered chain
		t.Fatalf("first bad %d, %d problems and %d more", rep.FirstBad, len(rep.Problems), rep.More)
	}
	for i := 1; i < len(rep.Problems); i++ {
		if rep.Problems[i].Seq < rep.Problems[i-1].Seq {
			t.Fatalf("problems out of order at %d", i)
		}
	}
	if rep.Problems[99].Seq != 99 {
		t.Fatalf("the last problem listed is at %d, want the first 100 by seq", rep.Problems[99].Seq)
	}
}

// An event appended without a checkpoint is named as not covered: a tail
// anyone could have written.
func TestVerifyUncoveredTail(t *testing.T) {
	ctx := context.Background()
	k := keysOf(t, 1)
	m := audit.NewMemory()
	l := audit.NewLog(m, k)
	for range 2 {
		if _, err := l.Append(ctx, &audit.Event{Kind: audit.KindCheck}); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := m.Head(ctx)
	r, err := audit.Seal(&audit.Event{Kind: audit.KindApprove}, h)
	if err != nil {
		t.Fatal(err)
	}
	audit.MemoryTamperer{M: m}.Insert(t, r)
	for _, pub := range [][]byte{nil, k.Public()} {
		rep, _ := audit.Verify(ctx, m, pub)
		if rep.FirstBad != 3 || rep.SignedThrough != 2 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].What, "event 3 is not covered by any ") {
			t.Fatalf("key %v: %+v", pub != nil, rep)
		}
	}
}
