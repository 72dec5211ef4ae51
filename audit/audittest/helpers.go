package audittest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// keys returns a fixed key: the warden's (1) or an attacker's (2).
func keys(t testing.TB, which byte) *audit.Keys {
	t.Helper()
	k, err := audit.KeysFromSeed(bytes.Repeat([]byte{which}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// base is the time of the first event the tests build.
var base = time.Date(2026, 11, 25, 1, 0, 0, 123456789, time.UTC)

// event returns the i-th event of the chains the tests build: kinds,
// sessions, agents, tools, verdicts and levels vary with i, and event i
// is at base + i minutes (and some nanoseconds, which stores must keep).
func event(i int) *audit.Event {
	ev := &audit.Event{Time: base.Add(time.Duration(i)*time.Minute + time.Duration(i)), Kind: audit.KindCheck,
		Session: fmt.Sprintf("s%d", i%3), Agent: []string{"claude", "codex"}[i%2], Tool: []string{"Bash", "Read", "Write", "mcp__db__query"}[i%4],
		PolicyHash: "p1", Mode: "default"}
	ev.Action = &risk.Action{Tool: ev.Tool, Arguments: map[string]any{"command": fmt.Sprintf("echo %d", i), "n": float64(i)}}
	switch i % 5 {
	case 0:
		ev.Assessment, ev.Decision = &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow}
	case 1:
		ev.Assessment, ev.Decision = &risk.Assessment{Level: risk.High}, &risk.Decision{Verdict: risk.Ask, Rule: "confirm_risky"}
	case 2:
		ev.Assessment, ev.Decision = &risk.Assessment{Level: risk.Critical}, &risk.Decision{Verdict: risk.Deny}
	case 3:
		ev.Kind, ev.Approval = audit.KindApprove, &audit.Approval{By: "ana", Reason: "needed", Scope: "session"}
	case 4:
		ev.Assessment, ev.Decision = &risk.Assessment{Level: risk.Unknown, Unknown: true}, &risk.Decision{Verdict: risk.Ask}
	}
	return ev
}

// appendEvents appends event(from) to event(to-1) through l, one at a
// time (each with its own checkpoint), and returns the events.
func appendEvents(t testing.TB, l *audit.Log, from, to int) []*audit.Event {
	t.Helper()
	var evs []*audit.Event
	for i := from; i < to; i++ {
		ev := event(i)
		if _, err := l.Append(context.Background(), ev); err != nil {
			t.Fatalf("appending event %d: %v", i, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// get returns the record of seq.
func get(t testing.TB, b audit.Backend, seq int64) audit.Record {
	t.Helper()
	r, err := b.Get(context.Background(), seq)
	if err != nil {
		t.Fatalf("get %d: %v", seq, err)
	}
	return r
}

// head returns b's head.
func head(t testing.TB, b audit.Backend) audit.Head {
	t.Helper()
	h, err := b.Head(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// checkpoints returns the checkpoints of Seq >= from.
func checkpoints(t testing.TB, b audit.Backend, from int64) []audit.Checkpoint {
	t.Helper()
	var cps []audit.Checkpoint
	if err := b.Checkpoints(context.Background(), from, func(c *audit.Checkpoint) error {
		cps = append(cps, *c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return cps
}

// verify returns Verify's report of b with pub.
func verify(t testing.TB, b audit.Backend, pub ed25519.PublicKey) *audit.Report {
	t.Helper()
	rep, err := audit.Verify(context.Background(), b, pub)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return rep
}

// wantOK fails t unless b's chain verifies, with and without pub.
func wantOK(t testing.TB, b audit.Backend, pub ed25519.PublicKey) *audit.Report {
	t.Helper()
	for _, key := range []ed25519.PublicKey{nil, pub} {
		rep := verify(t, b, key)
		if !rep.OK || rep.FirstBad != 0 || len(rep.Problems) != 0 || rep.KeyChecked != (key != nil) {
			t.Fatalf("the chain does not verify (key %v): first bad %d: %v", key != nil, rep.FirstBad, rep.Problems)
		}
	}
	return verify(t, b, pub)
}

// wantBad fails t unless Verify with pub names firstBad as the first bad
// event.
func wantBad(t testing.TB, b audit.Backend, pub ed25519.PublicKey, firstBad int64) *audit.Report {
	t.Helper()
	rep := verify(t, b, pub)
	if rep.OK || rep.FirstBad != firstBad || len(rep.Problems) == 0 || rep.Problems[0].Seq != firstBad {
		t.Fatalf("verify (key %v): OK %v, first bad %d, want %d: %v", pub != nil, rep.OK, rep.FirstBad, firstBad, rep.Problems)
	}
	return rep
}

// mustHex decodes a hex hash.
func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
