package rules

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// dfaExprs exercise what the automaton reads: every assertion (\b, \B, ^,
// $ and their (?m) forms, \A, \z) at every place, empty matches, case
// folding onto ASCII, classes that split the bytes finely, loops.
var dfaExprs = []string{
	`a`, `ab`, `(?i)ab`, `a*`, `a+b`, `(?:a|b)*c`, `x?`, ``, `^`, `$`, `\b`, `\B`, `^$`, `(?m)^$`,
	`\ba`, `a\b`, `\Ba`, `a\B`, `\b \b`, `\B \B`, `^a`, `a$`, `(?m)^a`, `(?m)a$`, `\Aa`, `a\z`,
	`(?m)^\s*$`, `(?s)a.*b`, `a.*b`, `a[^\n]*\n`, `\n^a`, `(?m)\n^a`, `(?m)a$\n`, `_\b`, `\b_`,
	`(?i)k`, `(?i)s\b`, `[a-c_]+\b`, `(?:\b|x)a`, `a(?:\b|$)`, `(?:^|\n)b`, `\b(?:ab|a)\b`,
	`(?m)(?:^|;)\s*a\s*(?:$|;)`, `(?i)\b(?:sudo|su)\s+-\s*$`,
}

// TestDFAExhaustive holds the automaton to regexp on every text of up to
// five bytes over bytes of every kind (word, other, newline), for patterns
// that exercise each assertion.
func TestDFAExhaustive(t *testing.T) {
	const alphabet = "abK_ \nx;"
	var texts []string
	var gen func(prefix string)
	gen = func(prefix string) {
		texts = append(texts, prefix)
		if len(prefix) == 5 {
			return
		}
		for i := range len(alphabet) {
			gen(prefix + alphabet[i:i+1])
		}
	}
	gen("")
	for _, expr := range dfaExprs {
		m, err := newMatcher(expr)
		if err != nil {
			t.Fatal(err)
		}
		m.analyse()
		re := regexp.MustCompile(expr)
		for _, s := range texts {
			got, sure := m.dfa.match(s)
			if want := re.MatchString(s); !sure || got != want {
				t.Fatalf("%q on %q: %v (sure %v), want %v", expr, s, got, sure, want)
			}
		}
	}
}

// TestDFAGivesUp checks the automaton gives the text back to regexp where
// it cannot answer, and that the matcher then answers as regexp does: a
// byte of a multi-byte character (which (?i) may fold onto an ASCII
// letter), a pattern whose states outgrow maxDFAStates.
func TestDFAGivesUp(t *testing.T) {
	m, err := newMatcher(`(?i)\bk\b`)
	if err != nil {
		t.Fatal(err)
	}
	m.analyse()
	for _, s := range []string{"\u212a", "a \u212a b", "é k", "\xff"} {
		if _, sure := m.dfa.match(s); sure {
			t.Errorf("%q: the automaton answered for a non-ASCII text", s)
		}
		checkMatcher(t, m, s)
	}
	// a b twelve bytes after an a: the automaton remembers the positions
	// of the last twelve a's, 4096 states
	m, err = newMatcher(`(?s)a.{12}b`)
	if err != nil {
		t.Fatal(err)
	}
	m.analyse()
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 20000 {
		b.WriteByte("ac"[rng.IntN(2)])
	}
	s := b.String()
	if _, sure := m.dfa.match(s); sure {
		t.Fatalf("the automaton answered past %d states", maxDFAStates)
	}
	if n := len(m.dfa.states) - startState; n != maxDFAStates {
		t.Errorf("%d states, want %d", n, maxDFAStates)
	}
	checkMatcher(t, m, s)
	checkMatcher(t, m, s+"b")
}

// TestDFAConcurrent builds one automaton from many goroutines at once,
// each reading texts that need states and transitions not made yet: run
// with -race, it checks that a transition is read only once made.
func TestDFAConcurrent(t *testing.T) {
	expr := `(?i)\b(?:curl|wget)\b[^\n]*(?:&&|;|\|\|)\s*(?:sudo\s+)?(?:\./|/tmp/)[^\s;&|]+`
	m, err := newMatcher(expr)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(expr)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 200 {
				var b strings.Builder
				for range rng.IntN(12) {
					b.WriteString([]string{"curl ", "wget", " && ", "./x", "/tmp/", ";", "\n", "sudo ", "a", "|| "}[rng.IntN(10)])
				}
				if s := b.String(); m.MatchString(s) != re.MatchString(s) {
					t.Errorf("%q: MatchString disagrees with regexp", s)
				}
			}
		})
	}
	wg.Wait()
}
