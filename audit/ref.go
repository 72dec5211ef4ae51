package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// A reference names one action of the trail, as a person types it
// (warden approve REF, warden explain REF): the start of its keyed action
// hash (Event.ActionHash), shortened as git shortens commit hashes. The
// hash binds the reference to the exact action, secrets included, while
// the trail holds the action masked; without the audit key nobody can
// tell from it what the action held.

// RefLen is the length of a reference ShortRef makes: 12 hex digits (48
// bits), beyond which it grows only to hold a letter.
const RefLen = 12

// MinRefLen is the shortest reference FindAction takes.
const MinRefLen = 8

// ErrUnknownRef is wrapped by the error of FindAction for a reference
// that names no action the trail checked.
var ErrUnknownRef = errors.New("audit: no action of the trail has this reference")

// ShortRef returns the reference of an action hash: its first RefLen hex
// digits, and more, up to its first letter, if they are all decimal
// digits, so that a reference never reads as a sequence number. It
// returns "" for "".
func ShortRef(hash string) string {
	if len(hash) <= RefLen {
		return hash
	}
	n := RefLen
	if strings.Trim(hash[:n], "0123456789") == "" {
		if i := strings.IndexAny(hash, "abcdef"); i >= 0 {
			n = i + 1
		} else {
			n = len(hash)
		}
	}
	return hash[:n]
}

// ParseRef checks that s can be a reference: MinRefLen to 64 hex digits
// (either case), not all of them decimal. It returns s in lower case.
func ParseRef(s string) (string, error) {
	ref := strings.ToLower(s)
	switch {
	case len(ref) < MinRefLen || len(ref) > 64:
		return "", fmt.Errorf("%q is not an action reference: want %d to 64 hex digits, as warden printed it (the start of the action's hash)", s, MinRefLen)
	case strings.Trim(ref, "0123456789abcdef") != "":
		return "", fmt.Errorf("%q is not an action reference: want hex digits (0-9, a-f)", s)
	case strings.Trim(ref, "0123456789") == "":
		return "", fmt.Errorf("%q is not an action reference: it holds no letter, as a reference always does (a sequence number?)", s)
	}
	return ref, nil
}

// Found is what the trail holds of the action a reference names.
type Found struct {
	// Hash is the action's whole keyed hash.
	Hash string
	// Check is the last check of the action (a KindCheck event), as the
	// trail recorded it: the action masked, its assessment, the decision.
	Check *Event
	// Answers are the approvals and refusals of the action (KindApprove,
	// KindDecline events), in order, those before Check included.
	Answers []*Event
}

// FindAction reads the trail of b for the action ref names (ParseRef):
// its last check and the answers people gave about it. A reference that
// starts the hashes of two different checked actions is an error that
// says to give more of it; one that names no checked action wraps
// ErrUnknownRef. It reads the whole trail, looking into an event only
// when its bytes hold the reference.
func FindAction(ctx context.Context, b Backend, ref string) (*Found, error) {
	ref, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	needle := []byte(`"action_hash":"` + ref)
	var found Found
	other := ""
	err = b.Scan(ctx, Filter{Kinds: []Kind{KindCheck, KindApprove, KindDecline}}, func(r *Record) error {
		if !bytes.Contains(r.Data, needle) {
			return nil
		}
		ev, err := Decode(r)
		if err != nil {
			return fmt.Errorf("event %d: %w (warden audit verify checks the whole chain)", r.Seq, err)
		}
		if !strings.HasPrefix(ev.ActionHash, ref) {
			return nil // the bytes were elsewhere in the event
		}
		if ev.Kind != KindCheck {
			found.Answers = append(found.Answers, ev)
			return nil
		}
		switch {
		case found.Hash == "":
			found.Hash = ev.ActionHash
		case ev.ActionHash != found.Hash:
			other = ev.ActionHash
		}
		found.Check = ev
		return nil
	})
	switch {
	case err != nil:
		return nil, fmt.Errorf("audit: reading the trail: %w", err)
	case other != "":
		return nil, fmt.Errorf("audit: the reference %s names more than one action (%s…, %s…): give more of its digits", ref, ShortRef(found.Hash), ShortRef(other))
	case found.Check == nil:
		return nil, fmt.Errorf("%w: %s", ErrUnknownRef, ref)
	}
	answers := found.Answers[:0]
	for _, ev := range found.Answers { // those of the action found
		if ev.ActionHash == found.Hash {
			answers = append(answers, ev)
		}
	}
	found.Answers = answers
	return &found, nil
}
