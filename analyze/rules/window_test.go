package rules

import (
	"fmt"
	"math/rand/v2"
	"regexp/syntax"
	"runtime"
	"slices"
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
// keywords, that every built-in pattern rule, gated by the strings its
// pattern requires and run on windows, answers what it answers run on the
// whole text when the text holds one of its keywords (or, for window:
// line, on each line that holds one).
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
	pieces = append(pieces, "\n", " ", "\t", "x", "ſ", "\u212a", ";", "'", "É")
	rng := rand.New(rand.NewPCG(3, 4))
	windowed, gated := 0, 0
	for i := range rules {
		r := &rules[i]
		if r.Pattern == "" || len(r.Keywords) == 0 || r.AtCommand || r.Where != "" || r.Condition != "" {
			continue
		}
		p, err := r.prog.get()
		if err != nil {
			t.Fatal(err)
		}
		if p.mode != wholeText {
			windowed++
		}
		if len(p.gate) > 0 {
			gated++
		}
		hasKeyword := func(s string) bool {
			for _, k := range r.Keywords {
				if strings.Contains(lowerASCII(s), k) {
					return true
				}
			}
			return false
		}
		for n := range 200 {
			var b strings.Builder
			for size := 20 + rng.IntN(100+n*5); b.Len() < size; {
				b.WriteString(pieces[rng.IntN(len(pieces))])
				if rng.IntN(3) == 0 {
					b.WriteString(r.Keywords[rng.IntN(len(r.Keywords))])
				}
			}
			s := b.String()
			want := false
			if r.Window == "" {
				want = hasKeyword(s) && p.m.unanchored().MatchString(s)
			} else {
				for _, line := range strings.Split(s, "\n") {
					want = want || hasKeyword(line) && p.m.unanchored().MatchString(line)
				}
			}
			c := Sample{Text: s}.Call(r)
			c.Work = nil
			idx := index([]*Rule{r})
			st := idx.newScanState()
			got, _, err := r.match(c, st, 0)
			if err != nil {
				t.Fatal(err)
			}
			if texts := st.texts(c, r.tix[0]); len(texts) != 1 || texts[0] != s {
				continue // the sample's tool reads the text otherwise
			}
			if got != want {
				t.Fatalf("%s (mode %d, gate %q) on %q: %v, want %v", r.Name, p.mode, p.gate, s, got, want)
			}
		}
	}
	if windowed < 10 || gated < 10 {
		t.Errorf("only %d built-in patterns run on windows, %d are gated by what they require", windowed, gated)
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

// TestRequiredRemembered holds required, which remembers the literals of
// a tree's nodes, to the same search asking literals afresh each time,
// on every matcher pattern with and without each rule's keywords.
func TestRequiredRemembered(t *testing.T) {
	kwss := [][]string{nil}
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if len(r.Keywords) > 0 {
			kwss = append(kwss, r.Keywords)
		}
	}
	for _, expr := range matcherExprs(t) {
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tree = tree.Simplify()
		for _, kws := range kwss {
			if got, want := required(tree, kws), requiredIn(tree, kws, literals); !slices.Equal(got, want) {
				t.Fatalf("%s %q: required %q, want %q", expr, kws, got, want)
			}
		}
	}
}

// TestFoldedMatches: a match spelled with ſ or K, which (?i) reads as s
// and k but the keyword scan (ASCII case only) does not see, fires a
// gated or windowed rule as the whole text does, when a keyword far from
// it makes the rule run: each built-in rule's samples, their s and k so
// spelled, after a keyword and a few hundred bytes.
func TestFoldedMatches(t *testing.T) {
	rules := packWithSamples(t)
	fold := strings.NewReplacer("s", "\u017f", "S", "\u017f", "k", "\u212a", "K", "\u212a")
	checked := 0
	for i := range rules {
		r := &rules[i]
		if r.Pattern == "" || len(r.Keywords) == 0 || r.AtCommand || r.Where != "" || r.Condition != "" || r.Window != "" {
			continue
		}
		p, err := r.prog.get()
		if err != nil {
			t.Fatal(err)
		}
		if p.mode == wholeText && len(p.gate) == 0 {
			continue
		}
		for _, m := range r.Match {
			folded := fold.Replace(m.Text)
			if m.Action != nil || folded == m.Text || !p.m.unanchored().MatchString(folded) {
				continue
			}
			s := r.Keywords[0] + "\n" + strings.Repeat("x ", 200) + "\n" + folded
			c := Sample{Text: s}.Call(r)
			c.Work = nil
			st := index([]*Rule{r}).newScanState()
			if texts := st.texts(c, r.tix[0]); len(texts) != 1 || texts[0] != s {
				continue // the sample's tool reads the text otherwise
			}
			got, _, err := r.match(c, st, 0)
			if err != nil || !got {
				t.Errorf("%s (mode %d, gate %q) on %q: %v %v, want a match", r.Name, p.mode, p.gate, s, got, err)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d folded samples checked", checked)
	}
}

// TestRequiredLinear checks that reading a pattern's required strings,
// needs, gate and window mode allocates in proportion to its length, on
// patterns built to make it spell out many long strings: runs of groups
// that each spell one or two strings (every run of them, from each group
// on, used to be spelt out in full: cubic), empty groups, a long
// alternation.
func TestRequiredLinear(t *testing.T) {
	kws := []string{"aaaa", "a1", "xxxx"}
	allocated := func(p string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		re := parseFolded(p)
		if re == nil {
			t.Fatalf("%.40s…: does not parse", p)
		}
		needsOf(re)
		required(re, kws)
		gateOf(p, kws)
		windowMode(p, kws)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	alternation := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "|a%d", i)
		}
		return b.String()[1:]
	}
	for _, unit := range []func(n int) string{
		func(n int) string { return strings.Repeat("(a)", n) },
		func(n int) string { return strings.Repeat("()", n) + "a" },
		func(n int) string { return strings.Repeat("([ab])(xxxxxxxxxxxxxxxx)", n/4) },
		func(n int) string { return strings.Repeat("(?:x|y)(aaaa)", n/4) },
		alternation,
	} {
		small, large := allocated(unit(250)), allocated(unit(1000))
		if r := float64(large) / float64(small); r > 6 {
			t.Errorf("%.40s…: 4× the pattern allocates %.1f× (%d / %d bytes), bound 6×", unit(250), r, large, small)
		}
	}
}

// TestCompileSharesRequired checks that what compile reads once from a
// user rule's pattern tree (its required strings, for the window mode and
// the gate) gives what gateOf and windowMode read from the pattern: every
// rule of default.yaml, loaded as a user's rules are, and each with the
// keywords of others.
func TestCompileSharesRequired(t *testing.T) {
	rules := loadYAML(t)
	for i, r := range rules {
		for _, kws := range [][]string{r.Keywords, rules[(i+1)%len(rules)].Keywords, {"a"}} {
			if r.Pattern == "" || r.Window != "" {
				continue
			}
			u := Rule{Name: r.Name, Pattern: r.Pattern, Level: r.Level, Keywords: kws, On: r.On, AtCommand: r.AtCommand, Where: r.Where}
			if err := u.compile(); err != nil {
				t.Fatal(err)
			}
			if want := gateOf(u.Pattern, kws); !slices.Equal(u.prog.gate, want) {
				t.Fatalf("%s %q: gate %q, gateOf %q", r.Name, kws, u.prog.gate, want)
			}
			if want := windowMode(u.Pattern, kws); !u.prog.whole && u.prog.pathGroup < 0 && u.prog.mode != want {
				t.Fatalf("%s %q: mode %d, windowMode %d", r.Name, kws, u.prog.mode, want)
			}
		}
	}
}
