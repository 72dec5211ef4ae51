package secrets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// badNameRef is badName as first written: the name split into a slice
// of lower-cased words (nameWordsRef), each looked up.
func badNameRef(name string, bad map[string]bool) bool {
	for _, w := range nameWordsRef(name) {
		if bad[w] || strings.HasPrefix(w, "expir") && bad["expir"] {
			return true
		}
	}
	return false
}

func nameWordsRef(name string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(name); i++ {
		end := i == len(name) || !isAlnum(name[i])
		camel := !end && i > 0 && name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z'
		if (end || camel) && start >= 0 {
			out = append(out, strings.ToLower(name[start:i]))
			start = -1
		}
		if !end && start < 0 {
			start = i
		}
	}
	return out
}

// placeholderRef is placeholder as first written: the value lower-cased
// with strings.ToLower.
func placeholderRef(v string) bool {
	if placeholderWord([]byte(strings.ToLower(v))) {
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "{") {
		return true
	}
	if documented[v] {
		return true
	}
	return repeated(v) || sequential(v)
}

// sameChecks fails t unless the checks' helpers that lower-case on the
// stack (badName, inLower, the fixture's prefix, placeholder) decide s
// as their references that lower-case with strings.ToLower do.
func sameChecks(t testing.TB, s string) {
	t.Helper()
	for _, m := range []map[string]bool{passwordNameWords, genericNameWords, fixtureWords} {
		if got, want := badName(s, m), badNameRef(s, m); got != want {
			t.Fatalf("badName(%q) = %v, want %v", s, got, want)
		}
	}
	for _, m := range []map[string]bool{commonPassword, cliPlaceholders, passwordNameWords} {
		if got, want := inLower(m, s), m[strings.ToLower(s)]; got != want {
			t.Fatalf("inLower(%q) = %v, want %v", s, got, want)
		}
	}
	if got, want := placeholder(s), placeholderRef(s); got != want {
		t.Fatalf("placeholder(%q) = %v, want %v", s, got, want)
	}
	if got, want := fixture(candidate{secret: s}), badNameRef(s, fixtureWords) || strings.HasPrefix(strings.ToLower(s), "test"); got != want {
		t.Fatalf("fixture(%q) = %v, want %v", s, got, want)
	}
}

var checkPieces = []string{"password", "Password", "PASSWORD", "test", "Test", "TEST", "tEsT", "min", "Length", "expiry", "Expires", "EXPIR", "expi", "Expect",
	"url", "URL", "Url", "file", "name", "id", "Id", "_", "-", ".", " ", "1", "9", "a", "Z", "changeme", "CHANGEME", "hunter2", "Hunter2",
	"example", "Example", "xxxx", "XXXX", "${", "{{", "%s", "…", "é", "É", "İ", "\u212a", "ſ", "\xff", "\xe2\x84", "mock", "MockToken",
	"aVeryLongWordThatGoesOnAndOnPastThirtyTwoBytes", strings.Repeat("a", 70), strings.Repeat("B", 130)}

// TestChecksLowerOnStack holds the helpers to their references on the
// rule samples and on values spliced from words the checks know, in
// every case, with runes that lower-case to other lengths (İ) or to ASCII
// (the Kelvin sign), invalid UTF-8 and words past the stack buffers.
func TestChecksLowerOnStack(t *testing.T) {
	for _, r := range yamlRules(t) {
		for _, s := range append(append([]string{}, r.Match...), r.NoMatch...) {
			sameChecks(t, s)
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 30000 {
		var b strings.Builder
		for n := 1 + rng.IntN(6); n > 0; n-- {
			b.WriteString(checkPieces[rng.IntN(len(checkPieces))])
		}
		sameChecks(t, b.String())
	}
}

// FuzzChecksLowerOnStack is TestChecksLowerOnStack on any value.
func FuzzChecksLowerOnStack(f *testing.F) {
	for _, s := range checkPieces {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameChecks(t, s) })
}
