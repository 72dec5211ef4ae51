package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/keywords"
)

// sameWindows reports whether every reader of keyword hits the rules have
// (windows in every mode, for every set of keywords; whether a set
// occurs at all) reads the same from FindLines' hits as from Find's.
func sameWindows(t *testing.T, k *keywords.Index, lens []int, s string) {
	t.Helper()
	all := k.Find(s, make([]uint64, k.Words()), nil)
	kept := k.FindLines(s, make([]uint64, k.Words()), nil)
	if len(kept) > len(all) {
		t.Fatalf("%d hits kept of %d", len(kept), len(all))
	}
	n := len(lens)
	for set := uint64(1); set < 1<<n; set++ {
		bits := []uint64{set}
		if anyHit(all, bits) != anyHit(kept, bits) {
			t.Fatalf("set %b on %q: anyHit differs", set, s)
		}
		for _, mode := range []int{lineMode, 1, 7, 40} {
			want := windows(s, all, lens, bits, mode, nil)
			got := windows(s, kept, lens, bits, mode, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("set %b mode %d on %q: windows %v from the lines' hits, %v from all", set, mode, s, got, want)
			}
		}
	}
}

// TestFindLinesWindows: the rules read keyword hits through FindLines,
// which keeps the first and last of each keyword on a line; the windows
// and gates they make of them are those of every hit, on random texts of
// keywords that overlap, long lines that are compacted and short ones.
func TestFindLinesWindows(t *testing.T) {
	words := []string{";;", "; ;", "rm", "rm -", "-rf", "f"}
	k := keywords.New(words)
	lens := make([]int, len(words))
	for i, w := range words {
		lens[i] = len(w)
	}
	pieces := append(slices.Clone(words), "\n", " ", "x", ";", "\n\n", "-")
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 300 {
		var b strings.Builder
		size := 10 + rng.IntN(40)
		if n%10 == 0 {
			size = 3000 + rng.IntN(3000) // lines of hundreds of hits: compacted
		}
		for b.Len() < size {
			p := pieces[rng.IntN(len(pieces))]
			if n%10 == 0 && p[0] == '\n' && rng.IntN(20) != 0 {
				continue
			}
			b.WriteString(p)
		}
		sameWindows(t, k, lens, b.String())
	}
	dense := strings.Repeat(";", 1<<16) + " rm -rf x\n" + strings.Repeat("; ;", 1000) + "\nf"
	sameWindows(t, k, lens, dense)
	if kept, every := k.FindLines(dense, make([]uint64, 1), nil), k.Find(dense, make([]uint64, 1), nil); len(kept) > 1000 || len(every) < 60000 {
		t.Errorf("%d hits kept of %d in a text of three lines and six keywords", len(kept), len(every))
	}
}

// FuzzFindLines holds FindLines' hits to Find's for every reader.
func FuzzFindLines(f *testing.F) {
	for _, s := range []string{";;;;;;", "rm -rf\n;; ; ;", strings.Repeat("rm -rf ;;", 200), "f\nf\nf"} {
		f.Add(s)
	}
	words := []string{";;", "; ;", "rm", "rm -", "-rf", "f"}
	k := keywords.New(words)
	lens := []int{2, 3, 2, 4, 3, 1}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1<<14 {
			return
		}
		sameWindows(t, k, lens, s)
	})
}
