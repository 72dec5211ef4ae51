package audit

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
)

// Verify checks the chain b holds, and returns what it found; an error
// means b could not be read, not that the chain is bad.
//
// Every record must hash to its stored hash and hold the event its
// columns say; the events must number on from Head.First without gaps or
// repeats, each naming the hash of the one before (the first none, or,
// after a prune, the anchor a checkpoint covers and a prune event
// records); every checkpoint must name an event of the chain (or the
// anchor) by its hash, and none may lie beyond the head (the chain was
// cut); and some checkpoint must cover the head. With pub, checkpoints
// must be signed by it, and only those whose signature verifies cover
// anything: a chain recomputed from the start by someone without the
// private key fails. One valid signature vouches, through the hashes,
// for every event before it, so Verify checks the signatures of the
// anchor and of the last checkpoint of each page of events it reads (and
// of earlier ones while those fail), not every one.
//
// Without pub, Verify finds edited, deleted, inserted and reordered
// events, where the chain breaks: an event edited with its stored hash
// recomputed shows at the next event (which names the old hash), unless a
// checkpoint covers it exactly. What Verify cannot find: a chain cut at
// its end together with every checkpoint past the new end reads as a
// shorter chain that was never longer. Only a copy of a recent checkpoint
// kept elsewhere (its Seq and Hash) shows that.
//
// Verify reads the chain in pages, holding one page of hashes at a time.
func Verify(ctx context.Context, b Backend, pub ed25519.PublicKey) (*Report, error) {
	if pub != nil && len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("audit: verifying with a public key of %d bytes", len(pub))
	}
	head, err := b.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("audit: verifying: %w", err)
	}
	v := &verifier{pub: pub, head: head, expect: head.First,
		rep: &Report{First: head.First, Last: head.Seq, KeyChecked: pub != nil}}
	if head.First > 1 {
		v.rep.Pruned, v.rep.Anchor = true, head.First-1
	}
	if err := v.run(ctx, b); err != nil {
		return nil, fmt.Errorf("audit: verifying: %w", err)
	}
	v.finish()
	v.rep.OK = v.rep.FirstBad == 0
	return v.rep, nil
}

// verifyPage is how many records Verify holds the hashes of at once.
const verifyPage = 1024

// errStop ends a Checkpoints call at the end of a page.
var errStop = errors.New("stop")

// verifier is the state of one Verify.
type verifier struct {
	pub  ed25519.PublicKey
	head Head
	rep  *Report

	expect   int64  // the Seq the next record should have
	prev     []byte // the stored hash of the record before
	lastSeq  int64  // the Seq of the last record read
	gap      bool   // records are missing before the current one
	page     map[int64][]byte
	firstSet bool
	// firstPrev is the Prev of the first record; anchor is it decoded,
	// the hash the checkpoint of the anchor must have.
	firstPrev string
	anchor    []byte
	// anchored: a checkpoint (signed, with a key) covers the anchor;
	// pruneSeen: a prune event records removing what the anchor ends.
	anchored, pruneSeen bool
	beyond              int64 // the highest Seq of a checkpoint past the head
}

// run reads the chain page by page: its records, then the checkpoints of
// those Seqs; then the checkpoints past the last record.
func (v *verifier) run(ctx context.Context, b Backend) error {
	var cpFrom int64 // from 0: a checkpoint before the anchor shows events deleted at the start
	var from int64
	for {
		v.page = make(map[int64][]byte, verifyPage)
		n := 0
		err := b.Scan(ctx, Filter{FromSeq: from, Limit: verifyPage}, func(r *Record) error {
			n++
			v.record(r)
			return nil
		})
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		if err := v.checkpoints(ctx, b, cpFrom, v.lastSeq); err != nil {
			return err
		}
		cpFrom, from = v.lastSeq+1, v.lastSeq+1
		if n < verifyPage {
			break
		}
	}
	v.page = nil
	return v.checkpoints(ctx, b, cpFrom, -1)
}

// record checks one record against itself and the one before.
func (v *verifier) record(r *Record) {
	v.rep.Events++
	v.page[r.Seq] = bytes.Clone(r.Hash)
	switch {
	case r.Seq < v.expect:
		v.rep.add(r.Seq, "event %d comes again after event %d: a copy, or events out of order", r.Seq, v.expect-1)
	case r.Seq > v.expect && r.Seq == v.expect+1:
		v.rep.add(v.expect, "event %d is missing: it was deleted", v.expect)
		v.gap = true
	case r.Seq > v.expect:
		v.rep.add(v.expect, "events %d to %d are missing: they were deleted", v.expect, r.Seq-1)
		v.gap = true
	}
	if !bytes.Equal(r.Hash, RecordHash(r.Data)) {
		v.rep.add(r.Seq, "event %d was changed: its data does not hash to its stored hash", r.Seq)
	}
	ev, err := Decode(r)
	if err != nil {
		v.rep.add(r.Seq, "%v", err)
	}
	if ev != nil {
		v.link(r, ev)
		v.pruned(r, ev)
	}
	v.prev, v.lastSeq = r.Hash, r.Seq
	v.expect = max(v.expect, r.Seq+1)
	v.gap = false
}

// link checks that ev, the event of r, names the record before.
func (v *verifier) link(r *Record, ev *Event) {
	if !v.firstSet {
		v.firstSet, v.firstPrev = true, ev.Prev
		if v.head.First <= 1 {
			if ev.Prev != "" {
				v.rep.add(r.Seq, "event %d, the first of a chain never pruned, names a previous event", r.Seq)
			}
			return
		}
		h, err := hex.DecodeString(ev.Prev)
		if err != nil || len(h) != len(r.Hash) {
			v.rep.add(r.Seq, "event %d, the first after a prune, does not name the hash of the event before it", r.Seq)
			return
		}
		v.anchor = h
		return
	}
	if v.gap {
		return // the gap was the problem
	}
	if ev.Prev != hex.EncodeToString(v.prev) {
		v.rep.add(r.Seq, "event %d does not follow event %d: the hash it names for the event before is not event %d's (one of them was changed, or events were inserted or removed between them)", r.Seq, v.lastSeq, v.lastSeq)
	}
}

// pruned checks a prune event against the chain's start.
func (v *verifier) pruned(r *Record, ev *Event) {
	if ev.Kind != KindPrune {
		return
	}
	p := ev.Pruned
	switch {
	case p == nil:
		v.rep.add(r.Seq, "prune event %d does not say what it removed", r.Seq)
	case p.Before > v.head.First:
		v.rep.add(r.Seq, "prune event %d says the events before %d were removed, but event %d is still here", r.Seq, p.Before, v.head.First)
	case p.Before == v.head.First:
		v.pruneSeen = true
		if p.Anchor != v.firstPrev {
			v.rep.add(r.Seq, "prune event %d says event %d ended the removed events with another hash than the one event %d names", r.Seq, p.Before-1, p.Before)
		}
	}
}

// checkpoints checks the checkpoints of Seq from from to to (-1: to the
// end, all past the head) against the page of hashes just read, and then
// the signatures of those that matter (see signatures).
func (v *verifier) checkpoints(ctx context.Context, b Backend, from, to int64) error {
	var matching []Checkpoint
	err := b.Checkpoints(ctx, from, func(c *Checkpoint) error {
		if to >= 0 && c.Seq > to {
			return errStop
		}
		v.rep.Checkpoints++
		if v.checkpoint(c) {
			cc := *c
			cc.Hash, cc.Sig = bytes.Clone(c.Hash), bytes.Clone(c.Sig)
			matching = append(matching, cc)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		return err
	}
	v.signatures(matching)
	return nil
}

// checkpoint checks one checkpoint against the chain, and reports
// whether it covers an event of the page (or the anchor) by its hash and,
// with a key, names it.
func (v *verifier) checkpoint(c *Checkpoint) bool {
	if v.pub != nil && c.KeyID != PublicKeyID(v.pub) {
		v.rep.add(c.Seq, "the checkpoint at %d was signed by key %s, not by the key given (%s)", c.Seq, c.KeyID, PublicKeyID(v.pub))
		return false
	}
	if c.Seq > v.head.Seq {
		if v.pub == nil || CheckSignature(c, v.pub) {
			v.beyond = max(v.beyond, c.Seq)
		} else {
			v.badSignature(c)
		}
		return false
	}
	want, ok := v.page[c.Seq]
	isAnchor := v.rep.Pruned && c.Seq == v.rep.Anchor
	if isAnchor {
		want, ok = v.anchor, v.anchor != nil
	}
	switch {
	case !ok && isAnchor:
		return false // the first event's problem
	case !ok:
		v.rep.add(c.Seq, "the checkpoint at %d covers event %d, which is missing", c.Seq, c.Seq)
		return false
	case !bytes.Equal(c.Hash, want):
		v.rep.add(c.Seq, "the checkpoint at %d signed a different event %d: the chain was rewritten at or before %d", c.Seq, c.Seq, c.Seq)
		return false
	}
	return true
}

// signatures checks the signatures of the checkpoints of a page that
// match the chain (in Seq order), as far as they matter: one valid
// signature over an event vouches, through the hashes, for every event
// before it, so Verify checks the anchor's, then the last one's, and
// earlier ones only while those fail. A checkpoint whose signature was
// changed below a valid one goes unseen; it vouches for nothing the
// valid one does not. (Checking every signature would make Verify cost
// one Ed25519 verification per event of a chain appended one event at a
// time.)
func (v *verifier) signatures(cps []Checkpoint) {
	if v.pub == nil {
		for _, c := range cps {
			v.signed(&c)
		}
		return
	}
	if v.rep.Pruned {
		for i := range cps {
			if cps[i].Seq != v.rep.Anchor || v.anchored {
				continue
			}
			if CheckSignature(&cps[i], v.pub) {
				v.signed(&cps[i])
			} else {
				v.badSignature(&cps[i])
			}
		}
	}
	for i := len(cps) - 1; i >= 0; i-- {
		c := &cps[i]
		if v.rep.Pruned && c.Seq == v.rep.Anchor {
			break
		}
		if CheckSignature(c, v.pub) {
			v.signed(c)
			return
		}
		v.badSignature(c)
	}
}

// signed notes a checkpoint that matches the chain and is signed.
func (v *verifier) signed(c *Checkpoint) {
	if v.rep.Pruned && c.Seq == v.rep.Anchor {
		v.anchored = true
	}
	v.rep.SignedThrough = max(v.rep.SignedThrough, c.Seq)
}

// badSignature notes a checkpoint whose signature does not verify.
func (v *verifier) badSignature(c *Checkpoint) {
	v.rep.add(c.Seq, "the checkpoint at %d has a signature that does not verify: it was forged or changed", c.Seq)
}

// finish adds what can only be known at the end: whether the checkpoints
// reach the head and the anchor, and whether some went past the head.
func (v *verifier) finish() {
	h, rep := v.head, v.rep
	if rep.Events > 0 && v.lastSeq != h.Seq {
		rep.add(min(v.lastSeq, h.Seq)+1, "the store says the chain ends at %d, but its last event is %d", h.Seq, v.lastSeq)
	}
	if rep.Pruned {
		if !v.pruneSeen {
			rep.add(rep.Anchor, "the events before %d are gone, but no prune event records removing them", h.First)
		}
		if v.anchor != nil && !v.anchored {
			rep.add(h.First, "event %d names as the event before it a hash no %scheckpoint at %d covers", h.First, v.signedWord(), rep.Anchor)
		}
	}
	if v.beyond > 0 {
		rep.add(h.Seq+1, "there is a %scheckpoint at %d, but the chain ends at %d: events were cut from its end", v.signedWord(), v.beyond, h.Seq)
	}
	if h.Seq > 0 && rep.SignedThrough < h.Seq {
		from := max(rep.SignedThrough+1, h.First)
		what := fmt.Sprintf("events %d to %d are", from, h.Seq)
		if from == h.Seq {
			what = fmt.Sprintf("event %d is", from)
		}
		rep.add(from, "%s not covered by any %scheckpoint: a tail could have been rewritten or cut", what, v.signedWord())
	}
}

// signedWord is "signed " when signatures are checked.
func (v *verifier) signedWord() string {
	if v.pub != nil {
		return "signed "
	}
	return ""
}
