package secrets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// samePlaceholder fails when placeholderWord and the search of every
// word differ on low.
func samePlaceholder(t *testing.T, low string) {
	t.Helper()
	want := false
	for _, p := range placeholders {
		want = want || strings.Contains(low, p)
	}
	if got := placeholderWord([]byte(low)); got != want {
		t.Fatalf("placeholderWord(%q) = %v, searching each word: %v", low, got, want)
	}
}

// TestPlaceholderWord holds placeholderWord to the search of each word,
// on texts made of the words, pieces of them and other bytes.
func TestPlaceholderWord(t *testing.T) {
	var parts []string
	for _, p := range placeholders {
		parts = append(parts, p, p[:len(p)/2], p[len(p)/2:])
	}
	parts = append(parts, "a", "z", "0", "9", "_", "-", "é", "\xe2", "\x80", "A1b2C3")
	rng := rand.New(rand.NewPCG(9, 10))
	hits := 0
	for range 50000 {
		var b strings.Builder
		for n := rng.IntN(8); n > 0; n-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		samePlaceholder(t, b.String())
		if placeholderWord([]byte(b.String())) {
			hits++
		}
	}
	if hits < 1000 || hits > 49000 {
		t.Fatalf("%d of 50000 texts hold a word", hits)
	}
}

// FuzzPlaceholderWord is TestPlaceholderWord on any text.
func FuzzPlaceholderWord(f *testing.F) {
	for _, s := range []string{"example", "xxxx", "…", "<", "${x}", "abc", "wjalrxutnfemi/k7mdeng"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { samePlaceholder(t, s) })
}
