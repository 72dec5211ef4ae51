package audittest

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/audit"
)

// A chain longer than the page Verify reads at a time: the pages join
// without a false problem, and a problem past the first page is named.
func (s *suite) testVerifyPages(t *testing.T) {
	ctx := context.Background()
	b := s.backend(t)
	k := keys(t, 1)
	const batch, batches = 1300, 2
	for i := range batches {
		evs := make([]*audit.Event, batch)
		for j := range evs {
			evs[j] = event(i*batch + j + 1)
		}
		if err := b.Append(ctx, sealer(t, k, head(t, b), true, evs...)); err != nil {
			t.Fatal(err)
		}
	}
	rep := wantOK(t, b, k.Public())
	if rep.Events != batch*batches || rep.Checkpoints != batches || rep.SignedThrough != batch*batches {
		t.Fatalf("report %+v", rep)
	}
	if s.tamper == nil {
		return
	}
	x := s.tamper(t, b)
	for _, seq := range []int64{2100, 1025, 1024} {
		r := get(t, b, seq)
		r.Agent = "someone else"
		x.SetRecord(t, seq, r)
		wantBad(t, b, nil, seq)
		wantBad(t, b, k.Public(), seq)
	}
}
