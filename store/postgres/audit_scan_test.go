package postgres

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// scanBase is the time of the first event of scanChain.
var scanBase = time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)

var (
	scanKinds    = []audit.Kind{audit.KindCheck, audit.KindApprove, audit.KindObserve, audit.KindReject}
	scanVerdicts = []risk.Verdict{"", risk.Allow, risk.Ask, risk.Deny}
	scanNames    = []string{"", "a", "b"}
)

// scanChain appends 60 events of varied columns to a new trail (times a
// second apart, every third one sharing its predecessor's) and returns
// the trail and the records.
func scanChain(t testing.TB) (*Audit, []audit.Record) {
	a := open(t, testDSN(t), session.Config{}).Audit()
	var recs []audit.Record
	err := a.Append(t.Context(), func(head audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		at := scanBase
		for i := range 60 {
			if i%3 != 0 {
				at = at.Add(time.Second)
			}
			ev := &audit.Event{Time: at, Kind: scanKinds[i%len(scanKinds)], Session: scanNames[i%3], Agent: scanNames[i/3%3], Tool: scanNames[i/7%3]}
			if ev.Kind == audit.KindCheck {
				ev.Assessment = &risk.Assessment{Level: risk.Level(i / 4 % 6)}
				ev.Decision = &risk.Decision{Verdict: scanVerdicts[1+i/4%3]}
			}
			r, err := audit.Seal(ev, head)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, r)
			head = audit.Head{Seq: r.Seq, Hash: r.Hash, First: 1}
		}
		return recs, nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, recs
}

// scanFilter builds a filter from small numbers, as the fuzz target
// gives them: each picks a value or none.
func scanFilter(from, to, since, until, sess, agent, tool, kinds, verdict, level, limit uint8, last bool) audit.Filter {
	f := audit.Filter{FromSeq: int64(from % 64), ToSeq: int64(to % 64), Limit: int(limit % 70), Last: last}
	if since%50 != 0 {
		f.Since = scanBase.Add(time.Duration(since%50-1) * time.Second)
	}
	if until%50 != 0 {
		f.Until = scanBase.Add(time.Duration(until%50-1) * time.Second)
	}
	pick := func(n uint8) string {
		if n%4 == 0 {
			return ""
		}
		return []string{"a", "b", "c"}[n%4-1]
	}
	f.Session, f.Agent, f.Tool = pick(sess), pick(agent), pick(tool)
	for i, k := range scanKinds {
		if kinds&(1<<i) != 0 {
			f.Kinds = append(f.Kinds, k)
		}
	}
	f.Verdict = scanVerdicts[verdict%4]
	f.MinLevel = risk.Level(level % 6)
	return f
}

// want is what f selects of recs: Filter.Match, then Limit and Last.
func want(f *audit.Filter, recs []audit.Record) []int64 {
	var seqs []int64
	for i := range recs {
		if f.Match(&recs[i]) {
			seqs = append(seqs, recs[i].Seq)
		}
	}
	if f.Limit > 0 && len(seqs) > f.Limit {
		if f.Last {
			return seqs[len(seqs)-f.Limit:]
		}
		return seqs[:f.Limit]
	}
	return seqs
}

func scanned(t testing.TB, a *Audit, f audit.Filter) []int64 {
	var seqs []int64
	if err := a.Scan(t.Context(), f, func(r *audit.Record) error { seqs = append(seqs, r.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	return seqs
}

// FuzzAuditScan holds the query Scan builds to Filter.Match over a chain
// of varied events.
func FuzzAuditScan(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), false)
	f.Add(uint8(5), uint8(40), uint8(3), uint8(30), uint8(1), uint8(2), uint8(3), uint8(5), uint8(1), uint8(3), uint8(4), true)
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), uint8(2), uint8(0), uint8(1), uint8(1), uint8(3), uint8(4), uint8(3), false)
	f.Add(uint8(10), uint8(5), uint8(20), uint8(10), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), uint8(0), false)
	a, recs := scanChain(f)
	f.Fuzz(func(t *testing.T, from, to, since, until, sess, agent, tool, kinds, verdict, level, limit uint8, last bool) {
		flt := scanFilter(from, to, since, until, sess, agent, tool, kinds, verdict, level, limit, last)
		if got, want := scanned(t, a, flt), want(&flt, recs); !slices.Equal(got, want) {
			t.Fatalf("%+v: %v, want %v", flt, got, want)
		}
	})
}

// TestAuditScanMatchesFilter holds Scan to Filter.Match for two thousand
// filters of random fields (the same on every run), most fields unset.
func TestAuditScanMatchesFilter(t *testing.T) {
	a, recs := scanChain(t)
	rnd := rand.New(rand.NewPCG(16, 2026))
	v := func() uint8 {
		if rnd.IntN(3) > 0 {
			return 0
		}
		return uint8(rnd.IntN(256))
	}
	for range 2000 {
		flt := scanFilter(v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), v(), rnd.IntN(2) == 1)
		if got, want := scanned(t, a, flt), want(&flt, recs); !slices.Equal(got, want) {
			t.Fatalf("%+v: %v, want %v", flt, got, want)
		}
	}
}
