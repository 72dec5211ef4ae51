package rules

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/keywords"
)

func TestWindowMode(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		kws     []string
		want    int
	}{
		{`169\.254\.169\.254|metadata\.google\.internal`, []string{"169.254.169.254", "metadata.google"}, 24}, // bounded: 24 bytes (folds of k and s count 3 bytes)
		{`/dev/(?:tcp|udp)/[^\s/]+/\d+`, []string{"/dev/tcp", "/dev/udp"}, lineMode},                          // unbounded, never a newline
		{`/dev/(?:tcp|udp)/\s+`, []string{"/dev/tcp", "/dev/udp"}, wholeText},                                 // \s crosses lines
		{`\bfoo|bar`, []string{"foo"}, wholeText},                                                             // bar holds no keyword
		{`^foo`, []string{"foo"}, wholeText},                                                                  // ^ of the whole text
		{`(?m)^foo`, []string{"foo"}, 3},                                                                      // ^ of a line: windows start at lines
		{`git\s+commit`, []string{"git commit"}, wholeText},                                                   // a tab between the words holds no keyword
		{`lib(?:64)?/x`, []string{"lib"}, 7},
	} {
		if got := windowMode(tc.pattern, tc.kws); got != tc.want {
			t.Errorf("windowMode(%q, %q) = %d, want %d", tc.pattern, tc.kws, got, tc.want)
		}
	}
}

// TestWindowsExact checks, on texts built from the pack's samples and
// keywords, that every built-in pattern run on its windows answers what it
// answers on the whole text (for patterns windowed because that is sure),
// or on each line holding a keyword (for window: line).
func TestWindowsExact(t *testing.T) {
	rules := packWithSamples(t)
	var pieces []string
	for _, r := range rules {
		for _, s := range append(r.Match, r.NoMatch...) {
			if s.Action == nil {
				pieces = append(pieces, s.Text)
			}
		}
		pieces = append(pieces, r.Keywords...)
	}
	pieces = append(pieces, "\n", " ", "\t", "x", "ſ", "\u212a", ";", "'")
	rng := rand.New(rand.NewPCG(3, 4))
	windowed := 0
	for i := range rules {
		r := &rules[i]
		if r.Pattern == "" {
			continue
		}
		p, err := r.prog.get()
		if err != nil {
			t.Fatal(err)
		}
		if p.mode == wholeText {
			continue
		}
		windowed++
		idx := index([]*Rule{r})
		k := idx.build()
		for range 300 {
			var b strings.Builder
			for b.Len() < 200+rng.IntN(800) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
				if rng.IntN(3) == 0 {
					b.WriteString(r.Keywords[rng.IntN(len(r.Keywords))])
				}
			}
			s := b.String()
			found := make([]uint64, k.Words())
			hits := k.Find(s, found, nil)
			var want bool
			if r.Window == "" {
				if foldsOntoASCII(s) {
					continue // run whole
				}
				want = p.re.MatchString(s)
			} else {
				for _, line := range strings.Split(s, "\n") {
					if k.Find(line, make([]uint64, k.Words()), nil) != nil && p.re.MatchString(line) {
						want = true
					}
				}
			}
			got := false
			for _, w := range windows(s, hits, idx.lens, r.kwSet, p.mode, nil) {
				got = got || p.re.MatchString(s[w[0]:w[1]])
			}
			if got != want {
				t.Fatalf("%s (mode %d) on %q: windows say %v, the whole text %v", r.Name, p.mode, s, got, want)
			}
		}
	}
	if windowed < 10 {
		t.Errorf("only %d built-in patterns run on windows", windowed)
	}
}

// TestWindowsMerge: windows are merged, in order, disjoint, and cover each
// hit's line.
func TestWindowsMerge(t *testing.T) {
	k := keywords.New([]string{"ab", "cd"})
	s := "xx ab cd\nnone\nzz ab\n\nab"
	hits := k.Find(s, make([]uint64, 1), nil)
	got := windows(s, hits, []int{2, 2}, []uint64{3}, lineMode, nil)
	want := [][2]int{{0, 8}, {14, 19}, {21, 23}}
	if len(got) != len(want) {
		t.Fatalf("windows %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("windows %v, want %v", got, want)
		}
	}
	if got := windows(s, hits, []int{2, 2}, []uint64{3}, 20, nil); len(got) != 1 || got[0] != [2]int{0, len(s)} {
		t.Errorf("span windows %v, want one", got)
	}
}
