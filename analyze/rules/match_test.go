package rules

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// matcherPatterns are the built-in pack's patterns and a few that
// exercise the matcher's edges: \b, \B, \A, \z, (?m) line anchors,
// characters that fold onto ASCII, non-ASCII starts, newlines.
func matcherPatterns(t testing.TB) []string {
	t.Helper()
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rules {
		if r.Pattern != "" {
			out = append(out, r.Pattern)
		}
	}
	return append(out,
		`\bks\b`, `\Bsk`, `^a|b$`, `(?m)^x\w+$`, `\Aab|cd\z`, `é+x`, `[^a-z]\d`, `(?s)k.*s`, `a\b`, `\bx|y`,
		`(?m)^$x|z`, `;\s*rm\b`, `[ſK]x`, `(?-i:Ab)c`, `\bé`, `x{2,}y`, `(?:)a`, `a*b`)
}

// matcherTexts are the pack's samples, the strings of every corpus in
// testdata and pieces to splice texts from.
func matcherTexts(t *testing.T) (texts, pieces []string) {
	t.Helper()
	for _, r := range packWithSamples(t) {
		for _, s := range append(r.Match, r.NoMatch...) {
			if s.Action == nil {
				texts = append(texts, s.Text)
			} else {
				b, _ := json.Marshal(s.Action.Arguments)
				texts = append(texts, strings.Fields(string(b))...)
			}
		}
		pieces = append(pieces, r.Keywords...)
	}
	files, _ := filepath.Glob("../../testdata/*.jsonl")
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v any
			if json.Unmarshal(sc.Bytes(), &v) == nil {
				texts = appendStrings(texts, v)
			}
		}
		f.Close()
	}
	pieces = append(pieces, texts...)
	pieces = append(pieces, "\n", " ", "\t", "x", "ſ", "\u212a", ";", "'", "\"", "|", "&&", ">", "É", "é", "\xff", "\xc3", "_", "0")
	return texts, pieces
}

func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, x := range v {
			out = appendStrings(out, x)
		}
	case map[string]any:
		for _, x := range v {
			out = appendStrings(out, x)
		}
	}
	return out
}

// TestMatcherExact checks that a matcher answers what regexp answers, for
// every built-in pattern, on the samples and corpora, their pieces, and
// texts spliced from them (long ones too, which exhaust the anchored
// runs' budget).
func TestMatcherExact(t *testing.T) {
	texts, pieces := matcherTexts(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 600 {
		var b strings.Builder
		for size := rng.IntN(400); b.Len() < size; {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for range 3 {
		var b strings.Builder
		for b.Len() < 6000 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	anchored := 0
	for _, pat := range matcherPatterns(t) {
		m, err := newMatcher("(?i)" + pat)
		if err != nil {
			t.Fatal(err)
		}
		if m.starts != nil {
			anchored++
		}
		for _, s := range texts {
			// a text and a part of it, whose edges cut where they fall
			i := rng.IntN(len(s) + 1)
			j := i + rng.IntN(len(s)-i+1)
			for _, s := range []string{s, s[i:j]} {
				if got, want := m.MatchString(s), m.re.MatchString(s); got != want {
					t.Fatalf("%q on %q: %v, want %v", pat, s, got, want)
				}
			}
		}
	}
	if anchored < 50 {
		t.Errorf("only %d patterns run anchored at their possible starts", anchored)
	}
}

// FuzzMatcher checks a matcher against regexp on any text, for every
// built-in pattern.
func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"", "curl x | sh", "a\nb", "\xffſ\u212a", "echo 'x' >> ~/.bashrc", ":(){ :|:& };:"} {
		f.Add(s)
	}
	var ms []*matcher
	for _, pat := range matcherPatterns(f) {
		m, err := newMatcher("(?i)" + pat)
		if err != nil {
			f.Fatal(err)
		}
		ms = append(ms, m)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ms {
			if got, want := m.MatchString(s), m.re.MatchString(s); got != want {
				t.Fatalf("%q on %q: %v, want %v", m.re, s, got, want)
			}
		}
	})
}
