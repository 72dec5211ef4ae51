package secrets

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// entropyRef is entropy as first written: every one of the 256 counts
// visited, a logarithm per byte value held.
func entropyRef(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// TestEntropy holds entropy to entropyRef to the last bit: rules compare
// it with thresholds, so a value an ulp off could decide a finding.
func TestEntropy(t *testing.T) {
	texts := []string{"", "a", "aa", "ab", "AKIAYPWWS2K2QQDBI6S7", "D2DKsKEJRykWZnvj1NikDJV3xi21Yhu67rawGYLi", "\x00\xff\x80",
		strings.Repeat("ab", 100), strings.Repeat("abcdefgh", 9), strings.Repeat("x", 70) + "yz"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		b := make([]byte, r.IntN(300))
		alpha := 1 + r.IntN(256) // few byte values: high counts; many: counts of one
		for i := range b {
			b[i] = byte(r.IntN(alpha))
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := entropy(s), entropyRef(s); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("entropy(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzEntropy holds entropy to entropyRef on the fuzzer's strings.
func FuzzEntropy(f *testing.F) {
	f.Add("AKIAYPWWS2K2QQDBI6S7")
	f.Add(strings.Repeat("a", 65) + "b")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := entropy(s), entropyRef(s); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("entropy(%q) = %v, want %v", s, got, want)
		}
	})
}
