package audittest

import (
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// The tamper tests build a chain of ten events, each appended alone (so
// each has its own checkpoint), tamper with it as someone who can write
// the database but has not the audit key, and check the first bad event
// Verify names, without the public key and with it.
func (s *suite) testTamper(t *testing.T) {
	if s.tamper == nil {
		t.Skip("no Tamperer for this backend")
	}
	k := keys(t, 1)
	pub := k.Public()
	attacker := keys(t, 2)
	build := func(t *testing.T) (audit.Backend, Tamperer, []audit.Record) {
		b := s.backend(t)
		appendEvents(t, audit.NewLog(b, k), 1, 11)
		recs := []audit.Record{{}} // recs[seq]
		for seq := int64(1); seq <= 10; seq++ {
			recs = append(recs, get(t, b, seq))
		}
		return b, s.tamper(t, b), recs
	}
	// allow3 turns event 3's denial into an allow.
	allow3 := func(ev *audit.Event) {
		if ev.Seq == 3 {
			ev.Decision = &risk.Decision{Verdict: risk.Allow}
		}
	}
	// bad checks the first bad event without the key and with it.
	bad := func(t *testing.T, b audit.Backend, chainOnly, withKey int64) {
		t.Helper()
		if chainOnly == 0 {
			if rep := verify(t, b, nil); !rep.OK {
				t.Fatalf("the chain alone does not verify: %v", rep.Problems)
			}
		} else {
			wantBad(t, b, nil, chainOnly)
		}
		wantBad(t, b, pub, withKey)
	}

	t.Run("EditData", func(t *testing.T) {
		b, x, recs := build(t)
		r := recs[5]
		r.Data = reseal(t, r, func(ev *audit.Event) { ev.Mode = "bypassPermissions" }).Data // the hash kept
		x.SetRecord(t, 5, r)
		bad(t, b, 5, 5)
	})
	t.Run("EditDataAndHash", func(t *testing.T) {
		b, x, recs := build(t)
		x.SetRecord(t, 5, reseal(t, recs[5], func(ev *audit.Event) { ev.Mode = "bypassPermissions" }))
		bad(t, b, 5, 5) // event 6 names the old hash, and the checkpoint at 5 signs it
	})
	t.Run("EditColumn", func(t *testing.T) {
		b, x, recs := build(t)
		r := recs[5]
		r.Session = "another"
		x.SetRecord(t, 5, r)
		bad(t, b, 5, 5)
	})
	t.Run("EditLevel", func(t *testing.T) {
		b, x, recs := build(t)
		r := recs[2] // critical, denied
		r.Level, r.Verdict = risk.Low, risk.Allow
		x.SetRecord(t, 2, r)
		bad(t, b, 2, 2)
	})
	t.Run("DeleteMiddle", func(t *testing.T) {
		b, x, _ := build(t)
		x.Delete(t, 5)
		bad(t, b, 5, 5)
	})
	t.Run("DeleteFirst", func(t *testing.T) {
		b, x, _ := build(t)
		x.Delete(t, 1)
		x.Delete(t, 2)
		bad(t, b, 1, 1) // a prune that no prune event records, and the checkpoint of 1 is left
	})
	t.Run("Insert", func(t *testing.T) {
		// A forged event at 5: the events from 5 on move up one, and the
		// forged one names event 4 as the one before it.
		b, x, recs := build(t)
		x.Insert(t, withSeq(recs[10], 11))
		for seq := int64(9); seq >= 5; seq-- {
			x.SetRecord(t, seq+1, recs[seq])
		}
		x.SetRecord(t, 5, forge(t, recs[4]))
		bad(t, b, 5, 5) // the checkpoint at 5 signs the old event 5
		x.DeleteCheckpoints(t, 5)
		bad(t, b, 5, 5) // and once it is gone, nothing covers 5 and on
	})
	t.Run("Swap", func(t *testing.T) {
		b, x, recs := build(t)
		x.SetRecord(t, 4, recs[7])
		x.SetRecord(t, 7, recs[4])
		bad(t, b, 4, 4)
	})
	t.Run("RecomputedFromStart", func(t *testing.T) {
		// Event 3's denial becomes an allow, and the chain is sealed again
		// from the start and signed with another key: it is a perfect chain,
		// and only the public key shows it is not warden's.
		b, x, recs := build(t)
		resealChain(t, x, recs, 1, attacker, allow3)
		bad(t, b, 0, 1)
	})
	t.Run("RecomputedFromEdit", func(t *testing.T) {
		// The same from event 3, keeping the genuine checkpoints of 1 and 2.
		b, x, recs := build(t)
		resealChain(t, x, recs, 3, attacker, allow3)
		bad(t, b, 0, 3)
	})
	t.Run("ChangedCheckpoint", func(t *testing.T) {
		b, x, _ := build(t)
		cps := checkpoints(t, b, 5)
		x.DeleteCheckpoints(t, 5)
		for _, c := range cps {
			c.Time = c.Time.Add(-time.Hour)
			x.AddCheckpoint(t, c)
		}
		bad(t, b, 0, 5)
	})
	t.Run("ForgedAppend", func(t *testing.T) {
		b, x, recs := build(t)
		f := forge(t, recs[10])
		x.Insert(t, f)
		bad(t, b, 11, 11) // no checkpoint covers it
		x.AddCheckpoint(t, attacker.Sign(11, f.Hash, time.Now()))
		bad(t, b, 0, 11)
	})
	t.Run("CutTail", func(t *testing.T) {
		b, x, _ := build(t)
		x.Delete(t, 10)
		x.Delete(t, 9)
		bad(t, b, 9, 9) // the checkpoints of 9 and 10 are past the end
	})
	t.Run("CutTailAndCheckpoints", func(t *testing.T) {
		// What Verify cannot see: the end of the chain cut with every
		// checkpoint past the new end reads as a shorter chain. Only a copy
		// of a recent checkpoint kept elsewhere shows it.
		b, x, _ := build(t)
		x.Delete(t, 10)
		x.Delete(t, 9)
		x.DeleteCheckpoints(t, 9)
		if rep := wantOK(t, b, pub); rep.Last != 8 {
			t.Fatalf("report %+v", rep)
		}
	})
}

// reseal returns r's event, edited, sealed again at its place.
func reseal(t testing.TB, r audit.Record, edit func(*audit.Event)) audit.Record {
	t.Helper()
	ev, err := audit.Decode(&r)
	if err != nil {
		t.Fatal(err)
	}
	edit(ev)
	head := audit.Head{Seq: r.Seq - 1}
	if ev.Prev != "" {
		head.Hash = mustHex(t, ev.Prev)
	}
	out, err := audit.Seal(ev, head)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// forge returns a new event sealed after the record after.
func forge(t testing.TB, after audit.Record) audit.Record {
	t.Helper()
	r, err := audit.Seal(&audit.Event{Time: time.Now(), Kind: audit.KindApprove, Approval: &audit.Approval{By: "mallory"}},
		audit.Head{Seq: after.Seq, Hash: after.Hash, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// withSeq returns r moved to seq (its data unchanged).
func withSeq(r audit.Record, seq int64) audit.Record {
	r.Seq = seq
	return r
}

// resealChain edits the events of recs from from on and seals them again
// into a perfect chain, replacing their checkpoints with ones signed by
// k.
func resealChain(t testing.TB, x Tamperer, recs []audit.Record, from int64, k *audit.Keys, edit func(*audit.Event)) {
	t.Helper()
	head := audit.Head{Seq: from - 1, First: 1}
	if from > 1 {
		head.Hash = recs[from-1].Hash
	}
	x.DeleteCheckpoints(t, from)
	for seq := from; seq < int64(len(recs)); seq++ {
		ev, err := audit.Decode(&recs[seq])
		if err != nil {
			t.Fatal(err)
		}
		ev.Seq = seq
		edit(ev)
		r, err := audit.Seal(ev, head)
		if err != nil {
			t.Fatal(err)
		}
		x.SetRecord(t, seq, r)
		x.AddCheckpoint(t, k.Sign(seq, r.Hash, time.Now()))
		head = audit.Head{Seq: r.Seq, Hash: r.Hash, First: 1}
	}
}
