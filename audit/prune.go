package audit

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"
)

// Prune removes the events before before from the start of the chain,
// and records it: a KindPrune event, sealed after the head, says what
// went (Pruned, whose Anchor is the hash of event before-1, which event
// before names as its previous one). The checkpoint over before-1 stays
// as the anchor the chain now starts from, and a new one is signed over
// it and over the prune event, so the chain still verifies with the key.
// before must be within (First, Head.Seq]: at least one event goes and at
// least one stays. It returns the prune event.
func (l *Log) Prune(ctx context.Context, before int64, by, reason string) (*Event, error) {
	var ev *Event
	seal := func(head Head, last Record) ([]Record, []Checkpoint, error) {
		if err := PruneBounds(before, head); err != nil {
			return nil, nil, err
		}
		if last.Seq != before-1 {
			return nil, nil, fmt.Errorf("the backend gave event %d as the last to prune before %d", last.Seq, before)
		}
		now := time.Now()
		ev = &Event{Time: now, Kind: KindPrune, Pruned: &Pruned{First: head.First, Before: before,
			Count: before - head.First, Anchor: hex.EncodeToString(last.Hash), By: by, Reason: reason}}
		r, err := Seal(ev, head)
		if err != nil {
			return nil, nil, err
		}
		return []Record{r}, []Checkpoint{l.k.Sign(last.Seq, last.Hash, now), l.k.Sign(r.Seq, r.Hash, now)}, nil
	}
	if err := safely("prune", func() error { return l.b.Prune(ctx, before, seal) }); err != nil {
		return nil, fmt.Errorf("audit: pruning: %w", err)
	}
	return ev, nil
}

// PruneBounds returns the error of a prune before a seq outside
// (First, Head.Seq] of head, and nil for one within: a Backend's Prune
// checks it before it looks for the record of before-1.
func PruneBounds(before int64, head Head) error {
	if before > head.First && before <= head.Seq {
		return nil
	}
	if head.Seq == 0 {
		return fmt.Errorf("cannot prune before event %d: the chain is empty", before)
	}
	return fmt.Errorf("cannot prune before event %d: the chain holds events %d to %d, and a prune removes at least one and keeps at least one (before must be %d to %d)",
		before, head.First, head.Seq, head.First+1, head.Seq)
}
