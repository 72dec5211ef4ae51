package audit_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

func TestShortRef(t *testing.T) {
	for _, c := range []struct{ hash, want string }{
		{"", ""},
		{"3f9a1c0d2b7e44aa", "3f9a1c0d2b7e"},
		{"123456789012345a6", "123456789012345a"}, // all digits: grows to its first letter
		{"1234567890123456", "1234567890123456"},
		{"abc", "abc"},
	} {
		if got := audit.ShortRef(c.hash); got != c.want {
			t.Errorf("ShortRef(%q) = %q, want %q", c.hash, got, c.want)
		}
		if ref := audit.ShortRef(c.hash); len(ref) >= audit.MinRefLen && strings.ContainsAny(ref, "abcdef") {
			if _, err := audit.ParseRef(ref); err != nil {
				t.Errorf("ParseRef(ShortRef(%q)): %v", c.hash, err)
			}
		}
	}
	for _, bad := range []string{"", "3f9a1c0", "12345678", "3f9a1c0d2b7g", strings.Repeat("a", 65), "3f9a 1c0d2b7e"} {
		if _, err := audit.ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted it", bad)
		}
	}
	if ref, err := audit.ParseRef("3F9A1C0D2B7E"); err != nil || ref != "3f9a1c0d2b7e" {
		t.Errorf("ParseRef upper case = %q, %v", ref, err)
	}
}

// FindAction finds the last check of the action a reference names and
// the answers about it; a reference that starts two actions' hashes is
// ambiguous; one that starts none is unknown.
func TestFindAction(t *testing.T) {
	ctx := context.Background()
	keys, err := audit.KeysFromSeed(bytes.Repeat([]byte{7}, 32)) // fixed: the hash's first digits hold a letter
	if err != nil {
		t.Fatal(err)
	}
	mem := audit.NewMemory()
	log := audit.NewLog(mem, keys)
	add := func(ev *audit.Event) {
		if _, err := log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	a := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "git push"}}
	ha := keys.ActionHash(a)
	if strings.Trim(ha[:8], "0123456789") == "" {
		t.Fatalf("the test needs a hash whose first 8 digits hold a letter: %s", ha)
	}
	// two hashes that share their first 8 digits, which keys cannot make
	// on demand: written as they are
	hb, hc := ha[:8]+strings.Repeat("0", 56), ha[:8]+strings.Repeat("1", 56)
	add(&audit.Event{Kind: audit.KindCheck, Action: a, ActionHash: ha, Decision: &risk.Decision{Verdict: risk.Ask}})
	add(&audit.Event{Kind: audit.KindApprove, Action: a, ActionHash: ha, Approval: &audit.Approval{Scope: "once", Of: 1}})
	add(&audit.Event{Kind: audit.KindCheck, Action: a, ActionHash: ha, Decision: &risk.Decision{Verdict: risk.Allow}})
	add(&audit.Event{Kind: audit.KindObserve, Action: a, ActionHash: ha})
	add(&audit.Event{Kind: audit.KindCheck, Action: a, ActionHash: hb, Decision: &risk.Decision{Verdict: risk.Deny}})
	add(&audit.Event{Kind: audit.KindApprove, Action: a, ActionHash: hc})

	f, err := audit.FindAction(ctx, mem, audit.ShortRef(ha))
	if err != nil {
		t.Fatal(err)
	}
	if f.Hash != ha || f.Check.Seq != 3 || len(f.Answers) != 1 || f.Answers[0].Seq != 2 {
		t.Errorf("found %s, check %d, %d answers", f.Hash, f.Check.Seq, len(f.Answers))
	}
	if _, err := audit.FindAction(ctx, mem, ha[:8]); err == nil || !strings.Contains(err.Error(), "more than one action") {
		t.Errorf("an ambiguous reference: %v", err)
	}
	if _, err := audit.FindAction(ctx, mem, hc[:12]); !errors.Is(err, audit.ErrUnknownRef) {
		t.Errorf("a reference only an answer holds: %v, want ErrUnknownRef", err)
	}
	if _, err := audit.FindAction(ctx, mem, "12345678"); err == nil || errors.Is(err, audit.ErrUnknownRef) {
		t.Errorf("a sequence number as a reference: %v", err)
	}
}

// FuzzParseRef: whatever a person types, ParseRef accepts only 8 to 64
// hex digits holding a letter, in lower case, and ShortRef of a hash
// is a reference it accepts.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"3f9a1c0d2b7e", "3F9A1C0D2B7E", "12345678", "", "zzzzzzzz", strings.Repeat("a", 64), strings.Repeat("a", 65), "0000000a", "é3f9a1c0d2b7e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := audit.ParseRef(s)
		if err != nil {
			return
		}
		if len(ref) < audit.MinRefLen || len(ref) > 64 || strings.Trim(ref, "0123456789abcdef") != "" || !strings.ContainsAny(ref, "abcdef") || !strings.EqualFold(ref, s) {
			t.Fatalf("ParseRef(%q) = %q", s, ref)
		}
		if len(ref) == 64 {
			if short := audit.ShortRef(ref); !strings.HasPrefix(ref, short) {
				t.Fatalf("ShortRef(%q) = %q", ref, short)
			} else if _, err := audit.ParseRef(short); err != nil {
				t.Fatalf("ParseRef(ShortRef(%q)): %v", ref, err)
			}
		}
	})
}
