package secrets

import (
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestNeedOf: what needOf reads from a pattern, and what it leaves: k and
// s, which (?i) also matches as K (U+212A) and ſ (U+017F).
func TestNeedOf(t *testing.T) {
	for pat, want := range map[string]string{
		`(?i)["']\s+value\s*=`: "value", `<(?P<k>a|b)>x+</`: "</", `(?i)ask`: "a", `(?i)bask-key`: "ba", `ask`: "ask",
		`a|bc`: "", `(?:abc)?d`: "d", `(?:abc)+d`: "abc", `x{2,}yy`: "yy", `x{0,2}`: "", `[ab]cd`: "cd", `(?i)ÄBC`: "bc",
		`AKIA[A-Z]{16}`: "akia",
	} {
		re, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := needOf(re); got != want {
			t.Errorf("needOf(%q) = %q, want %q", pat, got, want)
		}
	}
}

// findInBoth runs rule r over text with its need and without, and
// reports a difference.
func findInBoth(t *testing.T, r *Rule, text string) {
	t.Helper()
	p := r.compiled()
	bare := *p
	bare.need = ""
	b := []byte(text)
	got, want := r.findIn(p, b, 0, len(b), nil), r.findIn(&bare, b, 0, len(b), nil)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rule %s (need %q) over %q: %v, without the need %v", r.ID, p.need, text, got, want)
	}
}

// TestNeedKeepsMatches tries to make a rule's need skip a match: every
// sample of every rule, in other cases, with K and ſ for k and s, and
// with the need's text taken out.
func TestNeedKeepsMatches(t *testing.T) {
	variants := func(s string) []string {
		swap := strings.Map(func(r rune) rune {
			switch {
			case 'a' <= r && r <= 'z':
				return r - 'a' + 'A'
			case 'A' <= r && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
		odd := strings.NewReplacer("k", "\u212a", "K", "\u212a", "s", "\u017f", "S", "\u017f").Replace(s)
		return []string{s, strings.ToUpper(s), strings.ToLower(s), swap, odd, "x " + s + " y"}
	}
	needs := 0
	for _, r := range Default().Rules() {
		if r.scan != nil {
			continue
		}
		p := r.compiled()
		if p.need != "" {
			needs++
		}
		for _, s := range append(append([]string{}, r.Match...), r.NoMatch...) {
			for _, v := range variants(s) {
				findInBoth(t, r, v)
				if p.need != "" {
					findInBoth(t, r, strings.ReplaceAll(strings.ToLower(v), p.need, ""))
				}
			}
			if len(r.Match) > 0 && p.need != "" && len(r.findIn(p, []byte(r.Match[0]), 0, len(r.Match[0]), nil)) == 0 {
				t.Errorf("rule %s finds nothing in its sample with its need %q", r.ID, p.need)
			}
		}
	}
	if needs < 10 {
		t.Errorf("only %d rules have a need", needs)
	}
}

// FuzzNeed: for any text, no rule's need skips a match.
func FuzzNeed(f *testing.F) {
	for _, r := range Default().Rules() {
		for _, s := range r.Match {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Default().Rules() {
			if r.scan == nil {
				findInBoth(t, r, s)
			}
		}
	})
}
