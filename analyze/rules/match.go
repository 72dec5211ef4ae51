package rules

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A matcher answers what regexp's MatchString answers for a pattern, with
// less work. On an ASCII text a deterministic automaton answers in one
// pass (see dfa). On another, and to find the matches themselves (each),
// it does less work than regexp where few positions can start a match.
// Go's regexp tries every position of the text in turn, paying for each
// the pattern's first instructions (10 to 20 ns each); most of the pack's
// patterns can start only at a few bytes (> or t, c or w at a word's
// start, a quote…). The matcher reads from the pattern's program which bytes may
// start a match, in which context (after a non-word byte for \b, at the
// text's or a line's start for ^), and which bytes may follow them
// (starts); it looks up each position of the text in that table and runs
// the pattern anchored at the candidates only:
//
//   - at position 0, \A(?:pattern) on the text;
//   - at a position p > 0, \A(?s:.)(?:pattern) on the text from p-1: the
//     dot consumes the byte before p, so the pattern starts at p and its
//     assertions (\b, \B, ^ and $ of a line, \A) read the byte before as
//     in the whole text. Candidates are ASCII bytes, never inside a
//     multi-byte character, so the dot consumes exactly that one byte
//     (an invalid sequence decodes as one byte too); its value differs
//     only for a non-ASCII byte, which \b, \B and ^ read as the whole
//     character would be read: not a word character, not a newline.
//
// A match cannot start at a position whose byte cannot start one (the
// pattern never matches the empty string, so a match consumes the byte at
// its start), and Go's search starts only at character boundaries, which
// every ASCII byte is. A pattern that cannot match a newline runs on the
// candidate's line only, the newline kept so that $ and \b read it.
//
// When a text holds a non-ASCII byte and a match may start with one, the
// pattern runs unanchored over the whole text instead; when the anchored
// runs would scan (in all) more than a few times the text, over the rest
// of it, from a position no match starts at: the cost stays linear in the
// text's length.
type matcher struct {
	expr string // the pattern's source

	capNames []string // its groups' names, as regexp's SubexpNames
	// pre is the pattern's shape when it is a built-in pattern's, made by
	// go generate (shape_gen.go): nothing is parsed or analysed
	pre *shape

	treeOnce sync.Once
	tree     *syntax.Regexp // the pattern parsed and simplified (parsed)

	// The pattern unanchored (unanchored), compiled on first use: only
	// where the anchored runs do not serve (non-ASCII starts, budget
	// spent) or a caller asks for it.
	reOnce sync.Once
	re     *regexp.Regexp

	// What the pattern's program says (analyse), read on first use, once:
	// a process runs a rule's pattern on few texts, often on none.
	once   sync.Once
	starts *starts // where a match may start; nil: always run re
	line   bool    // no match holds a newline
	// free: the pattern reads a candidate's context (the byte before it)
	// only through assertions its candidate test checks already, so at0
	// run on the text from the candidate answers as in the whole text
	// and after is never needed (startsOf).
	free bool
	// needs are sets of strings (lower-case ASCII) every match holds one
	// of each, read from the pattern (needsOf): an ASCII text that lacks
	// all the strings of a set, its case aside, has no match.
	needs [][]string
	// dfa answers for ASCII texts in one pass (nil: the program did not
	// compile)
	dfa *dfa

	// The anchored forms, each compiled the first time a text has a
	// candidate it serves: at0 at the text's start, after at a later
	// position. A form that does not compile leaves its texts to re.
	at0, after anchored
}

// A shape is what a pattern says before any text: its groups' names and
// what analyse reads from its program. It is never written once made: a
// built-in pattern's is generated data (shape_gen.go), which
// TestShapesGenerated holds to what shapeOf reads.
type shape struct {
	capNames []string
	needs    [][]string
	starts   *starts
	line     bool
	free     bool
	dfa      *dfaShape // nil: the program did not compile
}

// shapeOf reads expr's shape; an error is syntax.Parse's.
func shapeOf(expr string) (*shape, error) {
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	sh := analyseTree(tree.Simplify())
	sh.capNames = tree.CapNames()
	return sh, nil
}

// analyseTree reads what analyse needs from a pattern's tree, parsed and
// simplified: all of a shape but the groups' names.
func analyseTree(tree *syntax.Regexp) *shape {
	sh := &shape{needs: needsOf(tree)}
	prog, err := syntax.Compile(tree)
	if err != nil {
		return sh
	}
	if st, free, ok := startsOf(prog); ok {
		sh.starts, sh.line, sh.free = st, !matchesNewline(tree), free
	}
	sh.dfa = shapeDFA(prog)
	return sh
}

// A namedShape is a built-in pattern's shape.
type namedShape struct {
	expr  string
	shape *shape
}

// builtinShape returns the generated shape of expr, or nil when expr is
// not a built-in pattern.
func builtinShape(expr string) *shape {
	for i := range builtinShapes {
		if builtinShapes[i].expr == expr {
			return builtinShapes[i].shape
		}
	}
	return nil
}

// anchored is a pattern anchored at a text's start, compiled on first use.
type anchored struct {
	once sync.Once
	expr string
	re   *regexp.Regexp // nil when expr did not compile
}

func (a *anchored) get() *regexp.Regexp {
	a.once.Do(func() { a.re, _ = regexp.Compile(a.expr) })
	return a.re
}

// newMatcher parses expr, a pattern with its flags (as regexp.Compile
// takes it), to a matcher; an error is regexp.Compile's (which is
// syntax.Parse's: syntax.Compile never fails). The rest is prepared, and
// the regexps compiled, on first use. A built-in pattern is not parsed:
// its shape is generated.
func newMatcher(expr string) (*matcher, error) {
	m := &matcher{expr: expr,
		at0:   anchored{expr: `\A(?:` + expr + `)`},
		after: anchored{expr: `\A(?s:.)(?:` + expr + `)`},
	}
	if m.pre = builtinShape(expr); m.pre != nil {
		m.capNames = m.pre.capNames
		return m, nil
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	m.capNames = tree.CapNames()
	tree = tree.Simplify()
	m.treeOnce.Do(func() { m.tree = tree })
	return m, nil
}

// unanchored returns the pattern compiled as regexp.Compile compiles it,
// on the first call.
func (m *matcher) unanchored() *regexp.Regexp {
	m.reOnce.Do(func() { m.re = regexp.MustCompile(m.expr) }) // parsed by newMatcher
	return m.re
}

// subexpIndex returns the index of the first group named name, or -1, as
// regexp's SubexpIndex.
func (m *matcher) subexpIndex(name string) int {
	if name != "" {
		for i, s := range m.capNames {
			if name == s {
				return i
			}
		}
	}
	return -1
}

// parsed returns the pattern's syntax tree, simplified. Callers only
// read it.
func (m *matcher) parsed() *syntax.Regexp {
	m.treeOnce.Do(func() { // a built-in pattern's: newMatcher parsed any other
		if tree, err := syntax.Parse(m.expr, syntax.Perl); err == nil {
			m.tree = tree.Simplify()
		}
	})
	return m.tree
}

// analyse sets m's starts, line and needs, from its shape or read from
// the pattern, and makes its automaton, on its first call; m is safe for
// concurrent use.
func (m *matcher) analyse() {
	m.once.Do(func() {
		sh := m.pre
		if sh == nil {
			tree := m.parsed()
			if tree == nil {
				return
			}
			sh = analyseTree(tree)
		}
		m.needs, m.starts, m.line, m.free = sh.needs, sh.starts, sh.line, sh.free
		if sh.dfa != nil {
			m.dfa = newDFA(sh.dfa, sh.starts)
		}
	})
}

// needsOf returns sets of strings every match of re holds one of each
// (required, each string non-empty and ASCII), one set for each part of
// a concatenation that shows one. Sets of many short strings, which most
// texts hold, are left out.
func needsOf(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return needsOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return needsOf(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		var out [][]string
		for _, sub := range re.Sub {
			out = append(out, needsOf(sub)...)
		}
		return out
	}
	list := required(re, nil)
	if list == nil || len(list) > 16 || shortest(list) < 2 && (len(list) > 3 || slices.ContainsFunc(list, func(s string) bool {
		return strings.TrimSpace(s) == ""
	})) {
		return nil
	}
	return [][]string{list}
}

// holds reports whether s may hold a match as far as m.needs say: a text
// with non-ASCII bytes (which case folding may read as ASCII letters) is
// not checked.
func (m *matcher) holds(s string) bool {
next:
	for _, need := range m.needs {
		for _, w := range need {
			if containsLower(s, w) {
				continue next
			}
		}
		return !isASCII(s)
	}
	return true
}

// anchoredBudget bounds the bytes the anchored runs over one text may
// span, as a multiple of its length (plus a constant for short texts),
// before the matcher runs the pattern unanchored over the rest.
const anchoredBudget = 4

// MatchString reports whether s holds a match of the pattern: the
// automaton answers for an ASCII text, the anchored runs for another.
func (m *matcher) MatchString(s string) bool {
	m.analyse()
	if ok, sure := m.dfa.match(s); sure {
		return ok
	}
	return m.holds(s) && m.matchAnchored(s)
}

// matchAnchored is MatchString by the anchored runs, once m is analysed.
func (m *matcher) matchAnchored(s string) bool {
	st := m.starts
	if st == nil || st.high && !isASCII(s) {
		return m.unanchored().MatchString(s)
	}
	budget := anchoredBudget*len(s) + 256
	clean := -1 // the last position no match can start at, in any context
	for p := 0; p < len(s); p++ {
		if st.first[s[p]] == 0 {
			clean = p
			continue
		}
		if !st.candidate(s, p) {
			continue
		}
		end := m.lineEnd(s, p)
		if budget -= end - p; budget < 0 {
			// the unanchored search from a position no match starts at
			// reads the context of every later one as in s
			return m.unanchored().MatchString(s[max(clean, 0):])
		}
		re, from := m.anchoredAt(p)
		if re == nil {
			return m.unanchored().MatchString(s[max(clean, 0):])
		}
		if re.MatchString(s[from:end]) {
			return true
		}
	}
	return false
}

// each calls fn with the successive matches of the pattern in s, each as
// FindAllStringSubmatchIndex gives it (the pattern's groups numbered as
// in it), until fn returns false or there is none left. At a candidate
// the anchored run gives the match regexp's search finds there: at the
// leftmost start, the one the pattern prefers. When the budget runs out,
// each goes on with regexp's own search, past the matches given already.
func (m *matcher) each(s string, fn func(loc []int) bool) {
	m.analyse()
	if ok, sure := m.dfa.match(s); sure && !ok || !sure && !m.holds(s) {
		return // no match at all
	}
	given := 0
	if st := m.starts; st != nil && !(st.high && !isASCII(s)) {
		budget := anchoredBudget*len(s) + 256
		for p := 0; p < len(s); {
			if !st.candidate(s, p) {
				p++
				continue
			}
			end := m.lineEnd(s, p)
			if budget -= end - p; budget < 0 {
				break
			}
			re, from := m.anchoredAt(p)
			if re == nil {
				budget = -1 // regexp's own search goes on
				break
			}
			loc := re.FindStringSubmatchIndex(s[from:end])
			if loc != nil && p > 0 {
				for i, x := range loc {
					if x >= 0 {
						loc[i] = x + from
					}
				}
				loc[0] = p // after's dot read the byte before
			}
			if loc == nil {
				p++
				continue
			}
			if !fn(loc) {
				return
			}
			given++
			p = loc[1] // > p: no match is empty
		}
		if budget >= 0 {
			return
		}
	}
	for n := 64; ; n *= 2 {
		all := m.unanchored().FindAllStringSubmatchIndex(s, n)
		for _, loc := range all[min(given, len(all)):] {
			if !fn(loc) {
				return
			}
			given++
		}
		if len(all) < n {
			return
		}
	}
}

// anchoredAt returns the pattern anchored at a candidate p, to run on the
// text from the returned position (p, or the byte before it), or nil when
// that form does not compile.
func (m *matcher) anchoredAt(p int) (*regexp.Regexp, int) {
	if p == 0 || m.free {
		return m.at0.get(), p
	}
	return m.after.get(), p - 1
}

// lineEnd returns where the anchored run from p may stop: past the
// newline that ends p's line, for a pattern that holds no newline, or
// the text's end.
func (m *matcher) lineEnd(s string, p int) int {
	if m.line {
		if i := strings.IndexByte(s[p:], '\n'); i >= 0 {
			return p + i + 1
		}
	}
	return len(s)
}

// starts is what a pattern's program says of the bytes a match may start
// with: the first byte, whether it needs a \b before it, and the byte
// after it.
type starts struct {
	first [256]uint8 // the contexts a match may start with the byte in (0: none)
	next  [256]uint8 // for a first byte, its index in masks (0: any byte, or the end, may follow)
	masks [][4]uint64
	high  bool // a match may start with a non-ASCII character
}

// The contexts a first byte may start a match in.
const (
	anyContext   = 1 << iota
	afterNonWord // a \b before a word character: the text's start or a non-word byte before it
	atTextStart  // \A before it
	atLineStart  // (?m)^ before it: the text's start or a newline before it
	otherAssert  // another assertion (\B, $, \z) at the start: only closure notes it
)

// candidate reports whether a match may start at s[p], an ASCII byte.
func (st *starts) candidate(s string, p int) bool {
	b := s[p]
	f := st.first[b]
	if f&anyContext == 0 &&
		!(f&afterNonWord != 0 && (p == 0 || !isWordByte(s[p-1]))) &&
		!(f&atTextStart != 0 && p == 0) &&
		!(f&atLineStart != 0 && (p == 0 || s[p-1] == '\n')) {
		return false
	}
	i := st.next[b]
	if i == 0 {
		return true
	}
	if p+1 == len(s) {
		return false
	}
	n := s[p+1]
	return st.masks[i][n>>6]&(1<<(n&63)) != 0
}

func isWordByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

// startsOf reads prog's starts; ok is false when it may match the empty
// string (a match may start anywhere). free reports that at every first
// byte all the ways into the pattern pass the same assertions, none or
// one that st.candidate checks (\b before a word byte, \A, (?m)^): at a
// candidate they hold in the whole text, and they hold at the start of
// the text from the candidate, so the pattern anchored there answers as
// in the whole text.
func startsOf(prog *syntax.Prog) (st *starts, free, ok bool) {
	st = &starts{masks: make([][4]uint64, 1)}
	first, matchable := closure(prog, uint32(prog.Start))
	if matchable {
		return nil, false, false
	}
	free = true
	var ctxOf [utf8.RuneSelf]uint8 // the assertions on the way to a first byte, +1 (0: none seen yet)
	bytes := asciiMasks{prog: prog, masks: make([][2]uint64, len(prog.Inst)), known: make([]bool, len(prog.Inst))}
	var follow [256][4]uint64 // bytes that may follow a first byte
	var anyNext [256]bool     // a match may end after the first byte
	for _, x := range first {
		in := &prog.Inst[x.pc]
		st.high = st.high || matchesHigh(in)
		var next [4]uint64 // bytes the instructions after in match
		after, afterMatch := closure(prog, in.Out)
		for _, y := range after {
			ascii := bytes.of(y.pc)
			next[0] |= ascii[0]
			next[1] |= ascii[1]
			if matchesHigh(&prog.Inst[y.pc]) {
				next[2], next[3] = ^uint64(0), ^uint64(0)
			}
		}
		ascii := bytes.of(x.pc)
		for b := range utf8.RuneSelf {
			if ascii[b>>6]&(1<<(b&63)) == 0 {
				continue
			}
			if c := ctxOf[b]; c != 0 && c != x.ctx+1 || !checked(x.ctx, byte(b)) {
				free = false
			}
			ctxOf[b] = x.ctx + 1
			switch {
			case x.ctx&atTextStart != 0:
				st.first[b] |= atTextStart
			case x.ctx&atLineStart != 0:
				st.first[b] |= atLineStart
			case x.ctx&afterNonWord != 0 && isWordByte(byte(b)):
				st.first[b] |= afterNonWord
			default:
				st.first[b] |= anyContext
			}
			anyNext[b] = anyNext[b] || afterMatch
			for i := range next {
				follow[b][i] |= next[i]
			}
		}
	}
	for b := range st.first {
		if st.first[b]&anyContext != 0 {
			st.first[b] = anyContext // it holds of the others
		}
		if st.first[b] != 0 && !anyNext[b] {
			st.next[b] = uint8(len(st.masks))
			st.masks = append(st.masks, follow[b])
		}
	}
	if st.high {
		for b := utf8.RuneSelf; b < 256; b++ {
			st.first[b], st.next[b] = anyContext, 0
		}
	}
	return st, free, true
}

// checked reports whether the assertions ctx before a first byte b are
// none or one that starts.candidate checks, and that holds at a text's
// start before b.
func checked(ctx uint8, b byte) bool {
	switch ctx {
	case 0, atTextStart, atLineStart:
		return true
	case afterNonWord:
		return isWordByte(b)
	}
	return false
}

// pos is a rune instruction a match may reach, and the assertions passed
// on the way: afterNonWord for \b, atTextStart for \A, atLineStart for
// (?m)^.
type pos struct {
	pc  uint32
	ctx uint8
}

// closure returns the rune instructions prog reaches from pc without
// consuming input, and whether it reaches a match. Empty-width
// assertions are passed as if they held, those a start position needs
// noted.
func closure(prog *syntax.Prog, pc uint32) (out []pos, match bool) {
	seen := map[pos]bool{}
	var walk func(p pos)
	walk = func(p pos) {
		if seen[p] {
			return
		}
		seen[p] = true
		in := &prog.Inst[p.pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			walk(pos{in.Out, p.ctx})
			walk(pos{in.Arg, p.ctx})
		case syntax.InstCapture, syntax.InstNop:
			walk(pos{in.Out, p.ctx})
		case syntax.InstEmptyWidth:
			ctx, op := p.ctx, syntax.EmptyOp(in.Arg)
			if op&syntax.EmptyWordBoundary != 0 {
				ctx |= afterNonWord
			}
			if op&syntax.EmptyBeginText != 0 {
				ctx |= atTextStart
			}
			if op&syntax.EmptyBeginLine != 0 {
				ctx |= atLineStart
			}
			if op&^(syntax.EmptyWordBoundary|syntax.EmptyBeginText|syntax.EmptyBeginLine) != 0 {
				ctx |= otherAssert
			}
			walk(pos{in.Out, ctx})
		case syntax.InstMatch:
			match = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			out = append(out, p)
		}
	}
	walk(pos{pc, 0})
	return out, match
}

// asciiMasks are the ASCII bytes each rune instruction of prog matches,
// read on first use.
type asciiMasks struct {
	prog  *syntax.Prog
	masks [][2]uint64
	known []bool
}

func (a *asciiMasks) of(pc uint32) [2]uint64 {
	if !a.known[pc] {
		a.masks[pc], a.known[pc] = asciiMask(&a.prog.Inst[pc]), true
	}
	return a.masks[pc]
}

// asciiMask returns the ASCII bytes rune instruction in matches, as
// matchesByte answers for each, read from its ranges (a single rune with
// FoldCase matches its fold orbit, as MatchRunePos reads it).
func asciiMask(in *syntax.Inst) (m [2]uint64) {
	set := func(lo, hi rune) {
		for r := max(lo, 0); r <= min(hi, utf8.RuneSelf-1); r++ {
			m[r>>6] |= 1 << (r & 63)
		}
	}
	switch in.Op {
	case syntax.InstRuneAny:
		set(0, utf8.RuneSelf-1)
	case syntax.InstRuneAnyNotNL:
		set(0, '\n'-1)
		set('\n'+1, utf8.RuneSelf-1)
	default:
		if len(in.Rune) == 1 {
			r0 := in.Rune[0]
			set(r0, r0)
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
					set(r, r)
				}
			}
			return m
		}
		for i := 0; i+1 < len(in.Rune); i += 2 {
			set(in.Rune[i], in.Rune[i+1])
		}
	}
	return m
}

// matchesByte reports whether rune instruction in matches the ASCII byte b.
func matchesByte(in *syntax.Inst, b byte) bool {
	switch in.Op {
	case syntax.InstRuneAny:
		return true
	case syntax.InstRuneAnyNotNL:
		return b != '\n'
	}
	return in.MatchRune(rune(b))
}

// matchesHigh reports whether rune instruction in may match a non-ASCII
// character (or an invalid byte, read as U+FFFD).
func matchesHigh(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	}
	if len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
		for f := unicode.SimpleFold(in.Rune[0]); f != in.Rune[0]; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				return true
			}
		}
	}
	return len(in.Rune) > 0 && in.Rune[len(in.Rune)-1] >= utf8.RuneSelf
}
