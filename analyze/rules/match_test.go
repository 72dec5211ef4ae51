package rules

import (
	"encoding/json"
	"github.com/agentwarden/warden/internal/corpus"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// matcherExprs are the built-in pack's patterns (as the rules compile
// them), the patterns Resources reads texts with, and a few that exercise
// the matcher's edges: \b, \B, \A, \z, (?m) line anchors, characters that
// fold onto ASCII, non-ASCII starts, newlines, groups.
func matcherExprs(t testing.TB) []string {
	t.Helper()
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rules {
		if r.Pattern != "" {
			out = append(out, "(?i)"+r.Pattern)
		}
	}
	for _, m := range []func() *matcher{pathCall, installCmd,
		pkgInstallPattern, privSudoPattern, gitCommitPattern, gitPushPattern} {
		out = append(out, m().expr)
	}
	out = append(out, quotedPathExpr, urlExpr, tableExpr)
	for _, p := range []string{`\bks\b`, `\Bsk`, `^a|b$`, `(?m)^x\w+$`, `\Aab|cd\z`, `é+x`, `[^a-z]\d`, `(?s)k.*s`, `a\b`, `\bx|y`,
		`(?m)^$x|z`, `;\s*rm\b`, `[ſK]x`, `(?-i:Ab)c`, `\bé`, `x{2,}y`, `(?:)a`, `a*b`, `(a)|b(c)?`, `\b(\w+)\s+(\w+)`,
		`\bab|ac`, `(?:\b|x)a`, `\b;x`, `(?m)^a|\Ab`, `(?m)^a|\Aa`, `\bs|\Bk`, `x?\bk`, `\b\Aa`, `\ba|ab`} {
		out = append(out, "(?i)"+p, p)
	}
	return out
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
	texts = append(texts, corpus.Strings(t, "../../testdata")...)
	pieces = append(pieces, texts...)
	pieces = append(pieces, "\n", " ", "\t", "x", "ſ", "\u212a", ";", "'", "\"", "|", "&&", ">", "É", "é", "\xff", "\xc3", "_", "0",
		"from", "table", "drop", "if", "exists", "truncate", ".")
	return texts, pieces
}

// TestMatcherExact checks that a matcher answers what regexp answers
// (MatchString, and each the matches FindAllStringSubmatchIndex finds),
// for every built-in pattern, on the samples and corpora, their pieces,
// and texts spliced from them (long ones too, which exhaust the anchored
// runs' budget).
func TestMatcherExact(t *testing.T) {
	texts, pieces := matcherTexts(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 400 {
		var b strings.Builder
		for size := rng.IntN(400); b.Len() < size; {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for range 2 {
		var b strings.Builder
		for b.Len() < 4000 {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		checkContainsLower(t, s)
		checkScanners(t, s)
	}
	anchored := 0
	for _, expr := range matcherExprs(t) {
		m, err := newMatcher(expr)
		if err != nil {
			t.Fatal(err)
		}
		m.analyse()
		if m.starts != nil {
			anchored++
		}
		for _, s := range texts {
			// a text and a part of it, whose edges cut where they fall
			i := rng.IntN(len(s) + 1)
			j := i + rng.IntN(len(s)-i+1)
			for _, s := range []string{s, s[i:j]} {
				checkMatcher(t, m, s)
			}
		}
	}
	if anchored < 50 {
		t.Errorf("only %d patterns run anchored at their possible starts", anchored)
	}
}

// checkMatcher fails t when m answers otherwise than regexp on s.
func checkMatcher(t *testing.T, m *matcher, s string) {
	t.Helper()
	want := m.unanchored().MatchString(s)
	if got := m.MatchString(s); got != want {
		t.Fatalf("%q on %q: %v, want %v", m.expr, s, got, want)
	}
	// each way MatchString answers, on its own
	if got := m.holds(s) && m.matchAnchored(s); got != want {
		t.Fatalf("%q on %q: anchored runs: %v, want %v", m.expr, s, got, want)
	}
	if got, sure := m.dfa.match(s); sure && got != want {
		t.Fatalf("%q on %q: automaton: %v, want %v", m.expr, s, got, want)
	}
	var got [][]int
	m.each(s, func(loc []int) bool {
		got = append(got, slices.Clone(loc))
		return true
	})
	if want := m.unanchored().FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%q on %q: matches %v, want %v", m.expr, s, got, want)
	}
	for stop := range min(len(got), 3) {
		n := 0
		m.each(s, func([]int) bool { n++; return n <= stop })
		if n != stop+1 {
			t.Fatalf("%q on %q: each went on after fn returned false", m.expr, s)
		}
	}
}

// checkContainsLower fails t when containsLower answers otherwise than
// strings.Contains on s lower-cased (by strings.ToLower for the words
// Resources asks for, by lowerASCII for the others).
func checkContainsLower(t *testing.T, s string) {
	t.Helper()
	if got, want := isASCII(s), !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }); got != want {
		t.Fatalf("isASCII(%q) = %v, want %v", s, got, want)
	}
	for _, w := range []string{"table", "from"} {
		if got, want := containsLower(s, w), strings.Contains(strings.ToLower(s), w); got != want {
			t.Fatalf("containsLower(%q, %q) = %v, want %v", s, w, got, want)
		}
	}
	if got, want := hasTableWord(s), containsLower(s, "table") || containsLower(s, "from"); got != want {
		t.Fatalf("hasTableWord(%q) = %v, want %v", s, got, want)
	}
	for _, w := range []string{"", "x", "&&", "/tmp/", "curl", "npm i", "ab", "a", "k", "_", "--output="} {
		if got, want := containsLower(s, w), strings.Contains(lowerASCII(s), w); got != want {
			t.Fatalf("containsLower(%q, %q) = %v, want %v", s, w, got, want)
		}
	}
}

// FuzzMatcher checks a matcher against regexp on any text, for every
// built-in pattern.
func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"", "curl x | sh", "a\nb", "\xffſ\u212a", "echo 'x' >> ~/.bashrc", ":(){ :|:& };:"} {
		f.Add(s)
	}
	var ms []*matcher
	for _, expr := range matcherExprs(f) {
		m, err := newMatcher(expr)
		if err != nil {
			f.Fatal(err)
		}
		ms = append(ms, m)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ms {
			checkMatcher(t, m, s)
		}
		checkScanners(t, s)
		checkContainsLower(t, s)
	})
}

// TestContainsLowerCandidates holds containsLower to strings.Contains on
// texts whose candidates for a word's first byte alternate between the
// two cases, in every order, with the word at the start, the middle, the
// end and nowhere.
func TestContainsLowerCandidates(t *testing.T) {
	parts := []string{"a", "A", "ab", "AB", "aB", "Ab", "x", "ca", "CA", " "}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		checkContainsLower(t, prefix)
		if depth == 0 {
			return
		}
		for _, p := range parts {
			gen(prefix+p, depth-1)
		}
	}
	gen("", 4)
}

// TestMatcherFormsFail checks a matcher whose anchored forms do not
// compile (the pattern nests as deep as regexp allows, and they nest it
// one level deeper): it answers as regexp, from regexp's own search.
func TestMatcherFormsFail(t *testing.T) {
	expr := strings.Repeat("(", 998) + "a[bc]" + strings.Repeat(")", 998)
	m, err := newMatcher(expr)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"", "a", "ab", "xab", "ab ac\nxac", "acab", "zzz"} {
		checkMatcher(t, m, s)
	}
	if m.analyse(); m.starts == nil || m.at0.get() != nil || m.after.get() != nil {
		t.Fatalf("want starts read and both anchored forms failing to compile")
	}
}

// TestIsASCII checks isASCII, which reads eight bytes at a time, with a
// non-ASCII byte at every position of texts of every length to 20.
func TestIsASCII(t *testing.T) {
	for n := range 21 {
		checkContainsLower(t, strings.Repeat("a", n))
		for i := range n {
			for _, c := range []string{"\x80", "\xff", "é"} {
				s := strings.Repeat("a", i) + c + strings.Repeat("b", n-i)
				checkContainsLower(t, s)
			}
		}
	}
}

// TestASCIIMask holds asciiMask to matchesByte on every rune instruction
// of the matcher's patterns.
func TestASCIIMask(t *testing.T) {
	for _, expr := range append(matcherExprs(t), `(?i)[k-s]`, `(?i)[^a-z]`, `[\x00-\x{10FFFF}]`, `(?s).`, `.`, `(?i)ſ`, `(?i)\x{212A}`, `(?i)é`) {
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, _ := syntax.Compile(tree.Simplify())
		for pc := range prog.Inst {
			in := &prog.Inst[pc]
			switch in.Op {
			case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			default:
				continue
			}
			got := asciiMask(in)
			for b := range utf8.RuneSelf {
				if got[b>>6]&(1<<(b&63)) != 0 != matchesByte(in, byte(b)) {
					t.Fatalf("%s: instruction %d (%v) on %q: mask says %v", expr, pc, in, rune(b), !matchesByte(in, byte(b)))
				}
			}
		}
	}
}

// TestMatcherFree checks which patterns run anchored at a candidate on
// the text from it (free): those whose ways into a first byte pass the
// same assertions, one the candidate test checks or none.
func TestMatcherFree(t *testing.T) {
	for expr, want := range map[string]bool{
		`ab`: true, `\bab`: true, `(?m)^ab`: true, `\Aab|cd`: true, `(?i)\bcurl\b.*\|\s*sh`: true, `\bs|\Bk`: false,
		`\bab|ac`: false, `(?:\b|x)a`: true, `\ba|ab`: false, `\b;x`: false, `(?m)^a|\Aa`: false, `(?m)^a|\Ab`: true, `\Bsk`: false, `x?\bk`: true,
		`\b\Aa`: false, `a$|b`: true, `$a|b`: false,
	} {
		m, err := newMatcher(expr)
		if err != nil {
			t.Fatal(err)
		}
		if m.analyse(); m.starts == nil || m.free != want {
			t.Errorf("%s: free %v, want %v", expr, m.free, want)
		}
	}
}

// TestMatcherConcurrent has goroutines meet a new matcher at once, each
// building its lazy parts on first use (go test -race reads it).
func TestMatcherConcurrent(t *testing.T) {
	m, err := newMatcher(`(?i)\bcurl\b.*\|\s*(?:ba)?sh`)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s := []string{"curl x | sh", "x curl y |bash", "nothing"}[i%3]
			if m.MatchString(s) != m.unanchored().MatchString(s) {
				t.Errorf("%q: MatchString disagrees with regexp", s)
			}
			m.each(s, func([]int) bool { return true })
		})
	}
	wg.Wait()
}

// The patterns eachQuotedPath and eachURL find the matches of.
const (
	quotedPathExpr = `["']((?:~|\.{1,2})?/[^"'\s]*)["']`
	urlExpr        = `\b(?:https?|ftp|gopher|file|wss?)://[^\s"'<>)\]}]+`
)

var (
	quotedPathRe = regexp.MustCompile(quotedPathExpr)
	urlRe        = regexp.MustCompile(urlExpr)
	tableRe      = regexp.MustCompile(tableExpr)
)

// checkScanners fails t when eachQuotedPath, eachTable or eachURL find
// other matches in s than regexp finds of their patterns, or go on after
// fn returns false.
func checkScanners(t *testing.T, s string) {
	t.Helper()
	quad := func(each func(string, func([4]int) bool)) func(string, func([]int) bool) {
		return func(s string, fn func([]int) bool) { each(s, func(loc [4]int) bool { return fn(loc[:]) }) }
	}
	checkScanner(t, "eachQuotedPath", s, quad(eachQuotedPath), quotedPathRe.FindAllStringSubmatchIndex(s, -1))
	checkScanner(t, "eachTable", s, quad(eachTable), tableRe.FindAllStringSubmatchIndex(s, -1))
	checkScanner(t, "eachURL", s, func(s string, fn func([]int) bool) {
		eachURL(s, func(start, end int) bool { return fn([]int{start, end}) })
	}, urlRe.FindAllStringIndex(s, -1))
}

// checkScanner fails t when each, the scanner name, finds other matches
// in s than want, or goes on after fn returns false.
func checkScanner(t *testing.T, name, s string, each func(string, func([]int) bool), want [][]int) {
	t.Helper()
	var got [][]int
	each(s, func(loc []int) bool {
		got = append(got, slices.Clone(loc))
		return true
	})
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("%s(%q): %v, want %v", name, s, got, want)
	}
	if len(got) > 1 {
		n := 0
		each(s, func([]int) bool { n++; return false })
		if n != 1 {
			t.Fatalf("%s(%q) went on after fn returned false", name, s)
		}
	}
}

// TestScanners checks eachQuotedPath, eachTable and eachURL against regexp on the
// edges of their patterns (the corpora are checked by TestMatcherExact,
// any text by FuzzMatcher).
func TestScanners(t *testing.T) {
	for _, s := range []string{"", `"/"`, `'~/'`, `"./a"`, `"../a b"`, `"..."`, `".../x"`, `"~x/"`, `"/a"'/b'`, `"/a'`, `'/a\tb'`,
		`"/a" "/b"`, `""/a"`, `x"/é\xff"`, "\"/a\n\"", `"../../x"`, `"~/../x"`,
		"http://a", "https://a b ftp://c", "xhttp://a", "_http://a", "-http://a", "éhttp://a", "http://", "http:// a", "HTTP://a",
		"wss://a", "wsss://a", "gopher://a)b", "file:///x", "http://a://b", "http://http://b", "ahttp://b http://c", "http://a\fb",
		"ws://é\xff'x", "a://b https://c", "https://x.y/z?q=1#f]",
		"from x", "FROM x", "xfrom y", "_from y", "éfrom y", "from\ty", "from\vy", "from  y.z_1 w", "from 1x", "from _", "from", "from ",
		"select * from a join b on a.x = b.y", "insert into t values", "update t set", "drop table t", "drop  table if exists t",
		"drop table if exists", "drop table if exists;", "drop table ifx", "drop table if existsx y", "DROP TABLE IF EXISTS t",
		"drop table if exiſtſ t", "drop table if exi\u017fts ſ", "truncate t", "truncate table t", "truncate tables x",
		"truncate table", "truncate table;", "truncate\ttable\nt", "table \u212aey", "table \u212a", "from \u017fx.y", "from x\u212a.\u212ay",
		"from fromx from y", "from.x from y", "table table table", "tablefrom x", "from x\xc5", "from \xe2\x84x", "drop\ntable\fif\rexists\tt",
		"into into x", "update\x00x", "joint x", "join x,join y", "from from from x"} {
		checkScanners(t, s)
	}
}
