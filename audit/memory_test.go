package audit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

func TestFilterMatch(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := audit.Record{Seq: 5, Time: at, Kind: audit.KindCheck, Session: "s", Agent: "a", Tool: "Bash", Verdict: risk.Ask, Level: risk.Medium}
	unknown := r
	unknown.Level = risk.Unknown
	for _, c := range []struct {
		f    audit.Filter
		want bool
	}{
		{audit.Filter{}, true},
		{audit.Filter{FromSeq: 5, ToSeq: 5}, true},
		{audit.Filter{FromSeq: 6}, false},
		{audit.Filter{ToSeq: 4}, false},
		{audit.Filter{Since: at, Until: at.Add(1)}, true},
		{audit.Filter{Since: at.Add(1)}, false},
		{audit.Filter{Until: at}, false}, // Until is exclusive
		{audit.Filter{Session: "s", Agent: "a", Tool: "Bash"}, true},
		{audit.Filter{Session: "t"}, false},
		{audit.Filter{Agent: "b"}, false},
		{audit.Filter{Tool: "Read"}, false},
		{audit.Filter{Kinds: []audit.Kind{audit.KindApprove, audit.KindCheck}}, true},
		{audit.Filter{Kinds: []audit.Kind{audit.KindApprove}}, false},
		{audit.Filter{Verdict: risk.Ask}, true},
		{audit.Filter{Verdict: risk.Deny}, false},
		{audit.Filter{MinLevel: risk.Medium}, true},
		{audit.Filter{MinLevel: risk.High}, false},
		{audit.Filter{Limit: 1, Last: true}, true},
	} {
		if got := c.f.Match(&r); got != c.want {
			t.Errorf("%+v: %v", c.f, got)
		}
	}
	if f := (audit.Filter{MinLevel: risk.Critical}); !f.Match(&unknown) {
		t.Error("MinLevel drops an event without a level")
	}
}

func TestMemoryRefuses(t *testing.T) {
	ctx := context.Background()
	m := audit.NewMemory()
	if _, err := m.Get(ctx, 1); !errors.Is(err, audit.ErrNotFound) {
		t.Fatalf("get of an empty chain: %v", err)
	}
	// records that do not continue the head are not written
	err := m.Append(ctx, func(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		return []audit.Record{{Seq: h.Seq + 2}}, nil, nil
	})
	if err == nil {
		t.Fatal("a record after a gap was written")
	}
	sealErr := errors.New("no")
	if err := m.Append(ctx, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { return nil, nil, sealErr }); err != sealErr {
		t.Fatalf("the seal's error came back as %v", err)
	}
	if h, _ := m.Head(ctx); h.Seq != 0 {
		t.Fatalf("head %+v", h)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Head(ctx); err == nil {
		t.Fatal("a closed memory answers")
	}
}
