package secrets

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// refEachBlob is eachBlob as first written: every run's bytes read
// backwards and forwards from the byte at i+minBlob-1.
func refEachBlob(text []byte, fn func(s, e int, kind byte) bool) {
	n := len(text)
	for i := 0; i+minBlob <= n; {
		p := i + minBlob - 1
		if !blobByte[text[p]] {
			i = p + 1
			continue
		}
		s := p
		for s > i && blobByte[text[s-1]] {
			s--
		}
		e := p + 1
		for e < n && blobByte[text[e]] {
			e++
		}
		if e-s >= minBlob {
			kind, pct, hexOnly := byte('b'), 0, true
			for _, c := range text[s:e] {
				if c == '%' {
					pct++
				} else if hexOnly && !isHex(c) {
					hexOnly = false
				}
			}
			switch {
			case pct >= 3:
				kind = '%'
			case hexOnly:
				kind = 'h'
			}
			if !fn(s, e, kind) {
				return
			}
		}
		i = e + 1
	}
}

// sameBlobs fails when eachBlob and refEachBlob call their function with
// other runs, or stop elsewhere, on text.
func sameBlobs(t *testing.T, text []byte) {
	t.Helper()
	for stop := 1; stop <= 3; stop++ {
		var got, want []string
		eachBlob(text, func(s, e int, k byte) bool { got = append(got, fmt.Sprint(s, e, k)); return len(got) < stop })
		refEachBlob(text, func(s, e int, k byte) bool { want = append(want, fmt.Sprint(s, e, k)); return len(want) < stop })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("eachBlob(%q) = %v, as first written %v", text, got, want)
		}
	}
}

// TestEachBlob holds eachBlob to refEachBlob on texts of runs of every
// length around minBlob, separated by other bytes.
func TestEachBlob(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alpha := []byte("aZ09+/-_%f=. \n\"")
	for range 20000 {
		var b []byte
		for n := rng.IntN(6); n > 0; n-- {
			run := rng.IntN(2 * minBlob)
			for range run {
				b = append(b, alpha[rng.IntN(8)]) // blob bytes
			}
			for k := rng.IntN(3); k >= 0; k-- {
				b = append(b, alpha[8+rng.IntN(len(alpha)-8)])
			}
		}
		sameBlobs(t, b)
	}
}

// FuzzEachBlob is TestEachBlob on any text.
func FuzzEachBlob(f *testing.F) {
	for _, s := range []string{"QUtJQUlPU0ZPRE5ON0VYQU1QTEUgd0phbHJYVXRuRkVNSQ==", "a b " + string(make([]byte, 40)), "%41%42%43aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameBlobs(t, []byte(s)) })
}
