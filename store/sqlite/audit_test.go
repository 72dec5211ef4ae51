package sqlite

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// testSeed is the seed of the tests' audit key (not a secret).
var testSeed = bytes.Repeat([]byte{7}, ed25519.SeedSize)

func testKeys(t testing.TB) *audit.Keys {
	t.Helper()
	k, err := audit.KeysFromSeed(testSeed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// event returns the event of a checked action; Unknown level and ""
// verdict leave out the assessment and the decision.
func event(session, agent, tool string, v risk.Verdict, l risk.Level) *audit.Event {
	ev := &audit.Event{Kind: audit.KindCheck, Session: session, Agent: agent, Tool: tool,
		Action: &risk.Action{Tool: tool, Arguments: map[string]any{"command": "ls"}}}
	if l != risk.Unknown {
		ev.Assessment = &risk.Assessment{Level: l}
	}
	if v != "" {
		ev.Decision = &risk.Decision{Verdict: v}
	}
	return ev
}

// verify verifies the chain of b with pub (audit.Verify), fails t unless
// it is intact, and returns its head.
func verify(t testing.TB, b audit.Backend, pub ed25519.PublicKey) audit.Head {
	t.Helper()
	rep, err := audit.Verify(context.Background(), b, pub)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || !rep.KeyChecked || rep.SignedThrough != rep.Last {
		t.Fatalf("the chain does not verify: %+v", rep)
	}
	h, err := b.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAuditAppendRead(t *testing.T) {
	ctx := t.Context()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	a := s.Audit()
	k := testKeys(t)
	l := audit.NewLog(a, k)
	if h, err := a.Head(ctx); err != nil || h.Seq != 0 || h.First != 0 || h.Hash != nil {
		t.Fatalf("empty chain: head %+v, %v", h, err)
	}
	var evs []*audit.Event
	for i := range 5 {
		ev := event(fmt.Sprint("s", i%2), "claude", "Bash", risk.Allow, risk.Level(i%3+1))
		ev.Time = time.Date(2026, 11, 25, 1, 2, 3, 123456789+i, time.FixedZone("x", 3600))
		seq, err := l.Append(ctx, ev)
		if err != nil || seq != int64(i+1) {
			t.Fatalf("append %d: %d, %v", i, seq, err)
		}
		evs = append(evs, ev)
	}
	h := verify(t, a, k.Public())
	if h.Seq != 5 || h.First != 1 {
		t.Fatalf("head %+v", h)
	}
	for _, ev := range evs {
		r, err := a.Get(ctx, ev.Seq)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := audit.Seal(ev, audit.Head{Seq: ev.Seq - 1, Hash: mustHex(ev.Prev)})
		if !r.Time.Equal(ev.Time) || r.Time.Location() != time.UTC || !bytes.Equal(r.Data, want.Data) || !bytes.Equal(r.Hash, want.Hash) ||
			r.Session != ev.Session || r.Agent != "claude" || r.Tool != "Bash" || r.Kind != audit.KindCheck || r.Verdict != risk.Allow || r.Level != ev.Assessment.Level {
			t.Errorf("event %d read back as %+v", ev.Seq, r)
		}
	}
	for _, seq := range []int64{0, -1, 6} {
		if _, err := a.Get(ctx, seq); !errors.Is(err, audit.ErrNotFound) {
			t.Errorf("Get(%d): %v, want ErrNotFound", seq, err)
		}
	}
	var cps []int64
	if err := a.Checkpoints(ctx, 3, func(c *audit.Checkpoint) error {
		if !audit.CheckSignature(c, k.Public()) {
			t.Errorf("checkpoint %d does not verify", c.Seq)
		}
		cps = append(cps, c.Seq)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cps, []int64{3, 4, 5}) {
		t.Errorf("checkpoints from 3: %v", cps)
	}
	stop := errors.New("stop")
	n := 0
	if err := a.Scan(ctx, audit.Filter{}, func(*audit.Record) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Scan stopped by fn: %v after %d", err, n)
	}
}

// forked seals two records after h, both numbered h.Seq+1: the first
// continues the chain, the second forks it.
func forked(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
	var recs []audit.Record
	for range 2 {
		ev := event("s", "", "Bash", risk.Allow, risk.Low)
		ev.Time = time.Now()
		r, err := audit.Seal(ev, h)
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	return recs, nil, nil
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestAuditScanFilters holds the query Scan builds to Filter.Match (with
// Limit and Last applied to what it selects) over a chain of varied
// events, filter by filter.
func TestAuditScanFilters(t *testing.T) {
	ctx := t.Context()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	a := s.Audit()
	l := audit.NewLog(a, testKeys(t))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	verdicts := []risk.Verdict{"", risk.Allow, risk.Ask, risk.Deny}
	kinds := []audit.Kind{audit.KindCheck, audit.KindApprove, audit.KindObserve}
	for i := range 60 {
		ev := event(fmt.Sprint("s", i%3), fmt.Sprint("a", i%2), []string{"Bash", "Read", "Write", "Bash'; --"}[i%4], verdicts[i%4], risk.Level(i%6))
		ev.Kind = kinds[i%5%3]
		ev.Time = base.Add(time.Duration(i) * time.Minute)
		if _, err := l.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	var all []audit.Record
	if err := a.Scan(ctx, audit.Filter{}, func(r *audit.Record) error { all = append(all, *r); return nil }); err != nil || len(all) != 60 {
		t.Fatalf("%d records, %v", len(all), err)
	}
	at := func(i int) time.Time { return base.Add(time.Duration(i) * time.Minute) }
	filters := []audit.Filter{
		{},
		{FromSeq: 10}, {ToSeq: 10}, {FromSeq: 10, ToSeq: 20}, {FromSeq: 20, ToSeq: 10},
		{Since: at(30)}, {Until: at(30)}, {Since: at(10), Until: at(11)}, {Since: at(10).Add(1)},
		{Since: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}, {Since: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Until: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}, {Until: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Session: "s1"}, {Session: "nobody"}, {Agent: "a0"}, {Tool: "Read"}, {Tool: "Bash'; --"}, {Tool: "Bash' OR '1'='1"},
		{Kinds: []audit.Kind{audit.KindApprove}}, {Kinds: []audit.Kind{audit.KindCheck, audit.KindObserve}},
		{Verdict: risk.Deny}, {Verdict: risk.Allow, Session: "s2"},
		{MinLevel: risk.Medium}, {MinLevel: risk.Critical}, {MinLevel: risk.Safe},
		{Limit: 7}, {Limit: 7, Last: true}, {Limit: 100, Last: true}, {Last: true},
		{Session: "s0", Tool: "Bash", Limit: 2, Last: true}, {Since: at(5), Until: at(50), MinLevel: risk.High, Limit: 3},
		{Session: "s1", Agent: "a1", Tool: "Write", Kinds: []audit.Kind{audit.KindCheck}, Verdict: risk.Ask, MinLevel: risk.Low, FromSeq: 2, ToSeq: 58},
	}
	for _, f := range filters {
		var want []int64
		for i := range all {
			if f.Match(&all[i]) {
				want = append(want, all[i].Seq)
			}
		}
		if f.Limit > 0 && len(want) > f.Limit {
			if f.Last {
				want = want[len(want)-f.Limit:]
			} else {
				want = want[:f.Limit]
			}
		}
		var got []int64
		if err := a.Scan(ctx, f, func(r *audit.Record) error { got = append(got, r.Seq); return nil }); err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("filter %+v: %v, want %v", f, got, want)
		}
	}
}

// TestAuditPrune: a prune removes the records before and the checkpoints
// before the anchor, in one transaction with the prune event, and the
// chain continues.
func TestAuditPrune(t *testing.T) {
	ctx := t.Context()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	a := s.Audit()
	k := testKeys(t)
	l := audit.NewLog(a, k)
	for range 10 {
		if _, err := l.Append(ctx, event("s", "", "Bash", risk.Allow, risk.Low)); err != nil {
			t.Fatal(err)
		}
	}
	for _, before := range []int64{1, 11, 0} {
		if _, err := l.Prune(ctx, before, "me", "test"); err == nil {
			t.Errorf("prune before %d of 1..10: no error", before)
		}
	}
	ev, err := l.Prune(ctx, 4, "me", "keep it short")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Seq != 11 || ev.Pruned.First != 1 || ev.Pruned.Count != 3 {
		t.Fatalf("prune event %+v", ev)
	}
	h, err := a.Head(ctx)
	if err != nil || h.First != 4 || h.Seq != 11 {
		t.Fatalf("head after the prune: %+v, %v", h, err)
	}
	var cps []int64
	a.Checkpoints(ctx, 0, func(c *audit.Checkpoint) error { cps = append(cps, c.Seq); return nil })
	if !slices.Equal(cps, []int64{3, 3, 4, 5, 6, 7, 8, 9, 10, 11}) {
		t.Errorf("checkpoints after the prune: %v", cps)
	}
	if _, err := a.Get(ctx, 3); !errors.Is(err, audit.ErrNotFound) {
		t.Errorf("a pruned event: %v", err)
	}
	// the first kept names the anchor, whose hash the prune event holds
	r, _ := a.Get(ctx, 4)
	first, err := audit.Decode(&r)
	if err != nil || first.Prev != ev.Pruned.Anchor {
		t.Errorf("event 4 names %q, the anchor is %q (%v)", first.Prev, ev.Pruned.Anchor, err)
	}
	if _, err := l.Append(ctx, event("s", "", "Bash", risk.Allow, risk.Low)); err != nil {
		t.Fatal(err)
	}
	verify(t, a, k.Public())
	// a prune that finds the last to go missing (tampered) fails, and
	// removes nothing
	if _, err := s.DB().Exec(`DELETE FROM warden_audit WHERE seq = 6`); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Prune(ctx, 7, "me", ""); err == nil {
		t.Error("prune with the last to go missing: no error")
	}
	if _, err := a.Get(ctx, 5); err != nil {
		t.Errorf("a failed prune removed event 5: %v", err)
	}
}

// TestAuditSealFailure: when seal fails, or returns records that do not
// continue the chain, nothing is written.
func TestAuditSealFailure(t *testing.T) {
	ctx := t.Context()
	s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
	a := s.Audit()
	k := testKeys(t)
	l := audit.NewLog(a, k)
	if _, err := l.Append(ctx, event("s", "", "Bash", risk.Allow, risk.Low)); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := a.Append(ctx, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { return nil, nil, boom }); !errors.Is(err, boom) {
		t.Errorf("a failing seal: %v", err)
	}
	// two records, the second numbered wrong: the first is not kept
	if err := a.Append(ctx, forked); err == nil {
		t.Error("records that fork the chain: no error")
	}
	// a time the column cannot hold
	far := event("s", "", "Bash", risk.Allow, risk.Low)
	far.Time = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := l.Append(ctx, far); err == nil {
		t.Error("an event of the year 3000: no error")
	}
	if h := verify(t, a, k.Public()); h.Seq != 1 {
		t.Errorf("failed appends wrote: head %+v", h)
	}
}

// TestAuditClosed: after the trail's or the store's Close, every call
// fails.
func TestAuditClosed(t *testing.T) {
	ctx := t.Context()
	for _, closeStore := range []bool{false, true} {
		s := open(t, filepath.Join(t.TempDir(), "w.db"), session.Config{})
		a := s.Audit()
		if _, err := audit.NewLog(a, testKeys(t)).Append(ctx, event("s", "", "Bash", risk.Allow, risk.Low)); err != nil {
			t.Fatal(err)
		}
		if closeStore {
			s.Close()
		} else if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		noop := func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { return nil, nil, nil }
		_, herr := a.Head(ctx)
		_, gerr := a.Get(ctx, 1)
		for i, err := range []error{
			a.Append(ctx, noop), herr, gerr,
			a.Scan(ctx, audit.Filter{}, func(*audit.Record) error { return nil }),
			a.Checkpoints(ctx, 0, func(*audit.Checkpoint) error { return nil }),
			a.Prune(ctx, 1, func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error) { return nil, nil, nil }),
		} {
			if err == nil {
				t.Errorf("closed store %v: call %d: no error", closeStore, i)
			}
		}
	}
}
