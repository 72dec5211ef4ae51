package audittest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

func (s *suite) testAppendReadBack(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	if h := head(t, b); h.Seq != 0 || h.First != 0 || len(h.Hash) != 0 {
		t.Fatalf("the head of an empty chain is %+v", h)
	}
	if _, err := b.Get(ctx, 1); !errors.Is(err, audit.ErrNotFound) {
		t.Fatalf("get of an empty chain: %v", err)
	}
	k := keys(t, 1)
	evs := appendEvents(t, audit.NewLog(b, k), 1, 11)
	for _, ev := range evs {
		r := get(t, b, ev.Seq)
		data, err := audit.Canonical(ev)
		if err != nil {
			t.Fatal(err)
		}
		verdict, level := ev.Verdict(), ev.Level()
		switch {
		case !bytes.Equal(r.Data, data), !bytes.Equal(r.Hash, audit.RecordHash(data)):
			t.Fatalf("event %d: the data or hash read back is not what was sealed", ev.Seq)
		case !r.Time.Equal(ev.Time):
			t.Fatalf("event %d: time %v read back as %v (a store must keep nanoseconds)", ev.Seq, ev.Time, r.Time)
		case r.Seq != ev.Seq, r.Kind != ev.Kind, r.Session != ev.Session, r.Agent != ev.Agent, r.Tool != ev.Tool, r.Verdict != verdict, r.Level != level:
			t.Fatalf("event %d: columns read back as %+v", ev.Seq, r)
		}
		if _, err := audit.Decode(&r); err != nil {
			t.Fatal(err)
		}
	}
	h := head(t, b)
	if h.Seq != 10 || h.First != 1 || !bytes.Equal(h.Hash, get(t, b, 10).Hash) {
		t.Fatalf("head %+v", h)
	}
	for _, seq := range []int64{0, -1, 11} {
		if _, err := b.Get(ctx, seq); !errors.Is(err, audit.ErrNotFound) {
			t.Fatalf("get %d: %v", seq, err)
		}
	}
	rep := wantOK(t, b, k.Public())
	if rep.Events != 10 || rep.First != 1 || rep.Last != 10 || rep.Checkpoints != 10 || rep.SignedThrough != 10 || rep.Pruned {
		t.Fatalf("report %+v", rep)
	}
}

// seqsWhere returns the i in [1, n] for which keep holds.
func seqsWhere(n int, keep func(i int) bool) []int64 {
	var seqs []int64
	for i := 1; i <= n; i++ {
		if keep(i) {
			seqs = append(seqs, int64(i))
		}
	}
	return seqs
}

func (s *suite) testScan(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	const n = 20
	appendEvents(t, audit.NewLog(b, keys(t, 1)), 1, n+1) // event i is seq i
	at := func(i int) time.Time { return event(i).Time }
	all := func(int) bool { return true }
	for _, c := range []struct {
		name string
		f    audit.Filter
		want []int64
	}{
		{"all", audit.Filter{}, seqsWhere(n, all)},
		{"seqs", audit.Filter{FromSeq: 5, ToSeq: 9}, seqsWhere(n, func(i int) bool { return i >= 5 && i <= 9 })},
		{"from", audit.Filter{FromSeq: 18}, []int64{18, 19, 20}},
		{"to", audit.Filter{ToSeq: 2}, []int64{1, 2}},
		{"time", audit.Filter{Since: at(5), Until: at(9)}, seqsWhere(n, func(i int) bool { return i >= 5 && i < 9 })},
		{"since", audit.Filter{Since: at(19).Add(-1)}, []int64{19, 20}},
		{"until", audit.Filter{Until: at(2).Add(1)}, []int64{1, 2}},
		{"session", audit.Filter{Session: "s1"}, seqsWhere(n, func(i int) bool { return i%3 == 1 })},
		{"agent", audit.Filter{Agent: "codex"}, seqsWhere(n, func(i int) bool { return i%2 == 1 })},
		{"tool", audit.Filter{Tool: "mcp__db__query"}, seqsWhere(n, func(i int) bool { return i%4 == 3 })},
		{"kind", audit.Filter{Kinds: []audit.Kind{audit.KindApprove}}, seqsWhere(n, func(i int) bool { return i%5 == 3 })},
		{"kinds", audit.Filter{Kinds: []audit.Kind{audit.KindCheck, audit.KindApprove}}, seqsWhere(n, all)},
		{"nokind", audit.Filter{Kinds: []audit.Kind{audit.KindPrune}}, nil},
		{"verdict", audit.Filter{Verdict: risk.Deny}, seqsWhere(n, func(i int) bool { return i%5 == 2 })},
		// MinLevel keeps events without a level (approvals, unknown)
		{"high", audit.Filter{MinLevel: risk.High}, seqsWhere(n, func(i int) bool { return i%5 != 0 })},
		{"critical", audit.Filter{MinLevel: risk.Critical}, seqsWhere(n, func(i int) bool { return i%5 >= 2 })},
		{"safe", audit.Filter{MinLevel: risk.Safe}, seqsWhere(n, all)},
		{"limit", audit.Filter{Limit: 3}, []int64{1, 2, 3}},
		{"last", audit.Filter{Limit: 3, Last: true}, []int64{18, 19, 20}},
		{"lastall", audit.Filter{Limit: 50, Last: true}, seqsWhere(n, all)},
		{"lastto", audit.Filter{ToSeq: 4, Limit: 10, Last: true}, []int64{1, 2, 3, 4}},
		{"lastsession", audit.Filter{Session: "s1", Limit: 2, Last: true}, []int64{16, 19}},
		{"firstsession", audit.Filter{Session: "s1", Limit: 2}, []int64{1, 4}},
		{"and", audit.Filter{Tool: "Bash", Verdict: risk.Allow}, []int64{20}},
		{"fromsession", audit.Filter{FromSeq: 10, Session: "s0"}, []int64{12, 15, 18}},
		{"none", audit.Filter{Session: "s1", Agent: "claude", Tool: "Read"}, nil},
	} {
		var got []int64
		err := b.Scan(ctx, c.f, func(r *audit.Record) error {
			if !bytes.Equal(r.Data, get(t, b, r.Seq).Data) {
				return fmt.Errorf("scan and get disagree on event %d", r.Seq)
			}
			got = append(got, r.Seq)
			return nil
		})
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %+v selects %v (%v), want %v", c.name, c.f, got, err, c.want)
		}
	}
	stop := errors.New("enough")
	calls := 0
	err := b.Scan(ctx, audit.Filter{}, func(*audit.Record) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("an error from fn: %v after %d calls", err, calls)
	}
}

func (s *suite) testCheckpoints(t *testing.T) {
	b := s.backend(t)
	k := keys(t, 1)
	appendEvents(t, audit.NewLog(b, k), 1, 7)
	var seqs []int64
	for _, c := range checkpoints(t, b, 0) {
		if !audit.CheckSignature(&c, k.Public()) || !bytes.Equal(c.Hash, get(t, b, c.Seq).Hash) {
			t.Fatalf("checkpoint %d does not sign event %d", c.Seq, c.Seq)
		}
		seqs = append(seqs, c.Seq)
	}
	if !slices.Equal(seqs, []int64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("checkpoints at %v", seqs)
	}
	if cps := checkpoints(t, b, 4); len(cps) != 3 || cps[0].Seq != 4 {
		t.Fatalf("checkpoints from 4: %d", len(cps))
	}
	stop := errors.New("enough")
	calls := 0
	err := b.Checkpoints(context.Background(), 0, func(*audit.Checkpoint) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("an error from fn: %v after %d calls", err, calls)
	}
}

// sealer returns a seal for Backend.Append that seals events and signs
// the last with k, checking the head it is given is want.
func sealer(t testing.TB, k *audit.Keys, want audit.Head, sign bool, evs ...*audit.Event) func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
	return func(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		if h.Seq != want.Seq || h.First != want.First || !bytes.Equal(h.Hash, want.Hash) {
			return nil, nil, fmt.Errorf("seal was given head %+v, want %+v", h, want)
		}
		var recs []audit.Record
		for _, ev := range evs {
			r, err := audit.Seal(ev, h)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, r)
			h = audit.Head{Seq: r.Seq, Hash: r.Hash, First: h.First}
		}
		if !sign {
			return recs, nil, nil
		}
		c := k.Sign(h.Seq, h.Hash, base.Add(time.Duration(h.Seq)))
		return recs, &c, nil
	}
}

// Several records and one checkpoint in one Append: what a Log's group
// commit writes.
func (s *suite) testBatch(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	k := keys(t, 1)
	if err := b.Append(ctx, sealer(t, k, audit.Head{}, true, event(1), event(2), event(3), event(4), event(5))); err != nil {
		t.Fatal(err)
	}
	h := head(t, b)
	if h.Seq != 5 || h.First != 1 {
		t.Fatalf("head after a batch of 5: %+v", h)
	}
	cps := checkpoints(t, b, 0)
	want := k.Sign(5, h.Hash, base.Add(5))
	if len(cps) != 1 || cps[0].Seq != 5 || !bytes.Equal(cps[0].Hash, want.Hash) || !cps[0].Time.Equal(want.Time) ||
		cps[0].KeyID != want.KeyID || !bytes.Equal(cps[0].Sig, want.Sig) {
		t.Fatalf("the checkpoint of a batch read back as %+v", cps)
	}
	wantOK(t, b, k.Public())
	if err := b.Append(ctx, sealer(t, k, h, true, event(6), event(7))); err != nil {
		t.Fatal(err)
	}
	rep := wantOK(t, b, k.Public())
	if rep.Events != 7 || rep.Checkpoints != 2 {
		t.Fatalf("report %+v", rep)
	}
	// A batch without a checkpoint is written, and the tail it adds is
	// not covered.
	if err := b.Append(ctx, sealer(t, k, head(t, b), false, event(8))); err != nil {
		t.Fatal(err)
	}
	if n := len(checkpoints(t, b, 0)); n != 2 {
		t.Fatalf("%d checkpoints after a batch without one", n)
	}
	wantBad(t, b, k.Public(), 8)
}

// A seal that fails writes nothing, and its error is returned.
func (s *suite) testSealFailure(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	k := keys(t, 1)
	appendEvents(t, audit.NewLog(b, k), 1, 4)
	before := head(t, b)
	failed := errors.New("the seal failed")
	err := b.Append(ctx, func(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		if _, _, err := sealer(t, k, before, true, event(4))(h); err != nil { // sealed, then failed
			return nil, nil, err
		}
		return nil, nil, failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("a failed seal returned %v", err)
	}
	if h := head(t, b); h.Seq != 3 || !bytes.Equal(h.Hash, before.Hash) || len(checkpoints(t, b, 0)) != 3 {
		t.Fatalf("a failed seal wrote: head %+v", h)
	}
	if _, err := audit.NewLog(b, k).Prune(ctx, 2, "x", "y"); err != nil {
		t.Fatal(err)
	}
	err = b.Prune(ctx, 3, func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error) { return nil, nil, failed })
	if !errors.Is(err, failed) {
		t.Fatalf("a failed prune seal returned %v", err)
	}
	if h := head(t, b); h.First != 2 || h.Seq != 4 {
		t.Fatalf("a failed prune changed the chain: %+v", h)
	}
	wantOK(t, b, k.Public())
}
