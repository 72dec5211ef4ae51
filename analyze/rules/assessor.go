package rules

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/internal/ascii"
	"github.com/agentwarden/warden/internal/keywords"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// CustomFunc assesses a call on its own, bypassing every rule.
type CustomFunc func(*tool.Call) risk.Assessment

// Assessor evaluates calls against a rule set. It is safe for concurrent
// use; rules may be added and removed while it is in use.
type Assessor struct {
	mu     sync.RWMutex
	rules  []*Rule
	idx    *kwIndex
	custom CustomFunc
}

// kwIndex is the keyword prefilter shared by a set of rules.
type kwIndex struct {
	build func() *keywords.Index // built on first use
	lens  []int                  // keyword id → its length
	words []string               // keyword id → keyword
	// rules are, by keyword id, the rules that have it among their
	// keywords, as a bitset of their positions in the set: nil for a
	// keyword no rule has (a gate string).
	rules     [][]uint64
	ruleWords int // the length of those bitsets

	// What a call's candidate rules are made of (scanState.candidates),
	// bitsets of positions as rules are: the rules for every tool class
	// (unclassed) and those for a class (classed), the rules that run
	// whatever keywords the texts hold (always: command rules, conditions
	// and classes alone, patterns and funcs without keywords), and by
	// target the rules gated by keywords (Rule.keyed) that read it (reads;
	// nil: none).
	unclassed []uint64
	classed   []classRules
	always    []uint64
	reads     [len(allTargets)][]uint64
	// commands are the command rules (nil: none), which Analyze may
	// drop from a call's candidates before running any
	// (scanState.dropCommandRules); cmdBits, by the bit of their test
	// (its number), the command rules of each
	commands []uint64
	cmdBits  [8][]uint64

	states sync.Pool // *scanState, reset
}

// classRules are the rules restricted to classes that allow class.
type classRules struct {
	class tool.Class
	rules []uint64
}

// newScanState returns a new per-call state of the prefilter for the rules
// idx was made for.
func (idx *kwIndex) newScanState() *scanState {
	rw := max(idx.ruleWords, 1)
	st := &scanState{kw: idx, idx: idx.build()}
	// one allocation for the keyword bits, every target's rules and the
	// candidates
	buf := make([]uint64, st.idx.Words()+(len(allTargets)+2)*rw)
	st.found, buf = buf[:st.idx.Words()], buf[st.idx.Words():]
	st.ruleBits, buf = buf[:len(allTargets)*rw], buf[len(allTargets)*rw:]
	st.eligible, st.cands = buf[:rw], buf[rw:]
	return st
}

// getState returns a scan state for one call, reused: put it back with
// putState once the call's rules have run.
func (idx *kwIndex) getState() *scanState {
	if st, ok := idx.states.Get().(*scanState); ok {
		return st
	}
	return idx.newScanState()
}

// putState resets st and keeps it for another call.
func (idx *kwIndex) putState(st *scanState) {
	st.reset()
	idx.states.Put(st)
}

// index assigns keyword ids to rules and returns their shared prefilter,
// built on first use. Rules are copies owned by the assessor, so ids can
// be set on them.
func index(rules []*Rule) *kwIndex {
	n := 0
	for _, r := range rules {
		n += len(r.Keywords)
		if r.prog != nil {
			n += len(r.prog.gate)
		}
		if r.cmd != nil {
			n += len(r.cmd.keywords)
		}
		n += len(funcGates[r.FuncName])
	}
	ids := make(map[string]int32, n)
	words := make([]string, 0, n)
	idsOf := func(list []string, out []int32) []int32 {
		for _, k := range list {
			id, ok := ids[k]
			if !ok {
				id = int32(len(words))
				ids[k] = id
				words = append(words, k)
			}
			out = append(out, id)
		}
		return out
	}
	for _, r := range rules {
		r.kw = idsOf(r.Keywords, nil) // not r.kw[:0]: copies of a rule share its array
		r.gw = r.kw
		if r.prog != nil && len(r.prog.gate) > 0 {
			r.gw = idsOf(r.prog.gate, nil)
		}
		if r.cmd != nil {
			r.gw = idsOf(r.cmd.keywords, nil)
		}
		if r.fgate {
			r.gw = idsOf(funcGates[r.FuncName], nil)
		}
	}
	return indexOf(rules, words, n)
}

// indexDefault is index for the default pack (rules: copies of
// defaultRules, in order), whose keyword ids are generated
// (kwindex_gen.go): it looks up no keyword.
func indexDefault(rules []*Rule) *kwIndex {
	n := 0
	for i, r := range rules {
		r.kw, r.gw = defaultKW[i], defaultKW[i]
		if g := defaultGW[i]; g != nil {
			r.gw = g
		}
		n += len(r.kw) + len(r.gw)
	}
	return indexOf(rules, defaultKeywords, n)
}

// indexOf is index once the rules have their keyword ids: words are the
// keywords by id, n at least the number of ids the rules hold.
func indexOf(rules []*Rule, words []string, n int) *kwIndex {
	lens := make([]int, len(words))
	for i, w := range words {
		lens[i] = len(w)
	}
	kwWords := (len(words) + 63) / 64
	sets := make([]uint64, len(rules)*kwWords) // the rules' gwSets, in one allocation
	for i, r := range rules {
		r.gwSet = sets[i*kwWords : (i+1)*kwWords : (i+1)*kwWords]
		for _, id := range r.gw {
			r.gwSet[id>>6] |= 1 << (id & 63)
		}
	}
	byWord := make([][]uint64, len(words))
	ruleWords := (len(rules) + 63) / 64
	block := make([]uint64, 0, n*ruleWords) // the bitsets, in one allocation
	for i, r := range rules {
		for _, id := range r.kw {
			if byWord[id] == nil {
				block = block[:len(block)+ruleWords]
				byWord[id] = block[len(block)-ruleWords:]
			}
			byWord[id][i>>6] |= 1 << (i & 63)
		}
	}
	build := func() *keywords.Index { return keywords.New(words) }
	if len(words) > 0 && slices.Equal(words, defaultKeywords) {
		// The built-in set: its automaton is generated Go data
		// (kwindex_gen.go), so nothing is built.
		build = func() *keywords.Index { return keywords.FromTables(&defaultTables) }
	}
	idx := &kwIndex{build: sync.OnceValue(build), lens: lens, words: words, rules: byWord, ruleWords: ruleWords}
	idx.masks(rules)
	return idx
}

// masks sets idx's bitsets of the rules a call's candidates are made of.
func (idx *kwIndex) masks(rules []*Rule) {
	rw := max(idx.ruleWords, 1)
	set := func(bs *[]uint64, i int) {
		if *bs == nil {
			*bs = make([]uint64, rw)
		}
		(*bs)[i>>6] |= 1 << (i & 63)
	}
	idx.unclassed, idx.always = make([]uint64, rw), make([]uint64, rw)
	for i, r := range rules {
		if len(r.Classes) == 0 {
			set(&idx.unclassed, i)
		}
		if r.cmd != nil {
			set(&idx.commands, i)
			for b := range idx.cmdBits {
				if r.cmd.bit&(1<<b) != 0 {
					set(&idx.cmdBits[b], i)
				}
			}
		}
		for _, cl := range r.Classes {
			k := slices.IndexFunc(idx.classed, func(x classRules) bool { return x.class == cl })
			if k < 0 {
				k = len(idx.classed)
				idx.classed = append(idx.classed, classRules{class: cl})
			}
			set(&idx.classed[k].rules, i)
		}
		if !r.keyed() {
			set(&idx.always, i)
			continue
		}
		for _, ti := range r.tix {
			set(&idx.reads[ti], i)
		}
	}
}

// Option configures an Assessor.
type Option func(*Assessor) error

// WithRules replaces the default rule pack with rules.
func WithRules(rules []Rule) Option {
	return func(a *Assessor) error { return a.setRules(rules) }
}

// WithCustom makes fn assess every call, bypassing the rules entirely.
func WithCustom(fn CustomFunc) Option {
	return func(a *Assessor) error { a.custom = fn; return nil }
}

// New returns an Assessor with the default rule pack, unless an option
// replaces it.
func New(opts ...Option) (*Assessor, error) {
	a := &Assessor{}
	def, err := defaultRules()
	if err != nil {
		return nil, err
	}
	// the built-in rules are checked by the package's tests, not again in
	// every process (see defaultRules): only their index is made
	block := slices.Clone(def) // the assessor's own copies, in one allocation
	rules := make([]*Rule, len(block))
	for i := range block {
		rules[i] = &block[i]
	}
	a.rules, a.idx = rules, indexDefault(rules)
	for _, o := range opts {
		if err := o(a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *Assessor) setRules(rules []Rule) error {
	compiled := make([]*Rule, 0, len(rules))
	seen := make(map[string]bool, len(rules))
	for i := range rules {
		r := rules[i]
		if err := r.compile(); err != nil {
			return err
		}
		if seen[r.Name] {
			return fmt.Errorf("%s: duplicate rule name", r.Name)
		}
		seen[r.Name] = true
		compiled = append(compiled, &r)
	}
	idx := index(compiled)
	a.mu.Lock()
	a.rules, a.idx = compiled, idx
	a.mu.Unlock()
	return nil
}

// SetRules replaces the whole rule set. On error nothing changes.
func (a *Assessor) SetRules(rules []Rule) error { return a.setRules(rules) }

// AddRule adds a rule; a rule with the same name is an error.
func (a *Assessor) AddRule(r Rule) error {
	if err := r.compile(); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, x := range a.rules {
		if x.Name == r.Name {
			return fmt.Errorf("%s: duplicate rule name", r.Name)
		}
	}
	rules := append(copies(a.rules), &r)
	a.idx = index(rules)
	a.rules = rules
	return nil
}

// copies returns copies of rules, for index to number: the rules an
// assessment in flight reads are never written.
func copies(rules []*Rule) []*Rule {
	out := make([]*Rule, len(rules), len(rules)+1)
	for i, r := range rules {
		c := *r
		out[i] = &c
	}
	return out
}

// RemoveRule removes the named rule and reports whether it existed.
func (a *Assessor) RemoveRule(name string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, x := range a.rules {
		if x.Name == name {
			rules := slices.Delete(copies(a.rules), i, i+1)
			a.idx = index(rules)
			a.rules = rules
			return true
		}
	}
	return false
}

// Rules returns a copy of the current rule set.
func (a *Assessor) Rules() []Rule {
	a.mu.RLock()
	defer a.mu.RUnlock()
	out := make([]Rule, len(a.rules))
	for i, r := range a.rules {
		out[i] = *r
	}
	return out
}

// Name identifies the assessor as an analyzer.
func (a *Assessor) Name() string { return "rules" }

// Analyze returns the findings of every rule that fires on c, in the
// rules' order. A rule whose condition fails to evaluate yields an Unknown
// finding, never silence. Only the call's candidate rules run (see
// scanState.candidates): a rule outside them would not fire.
func (a *Assessor) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	a.mu.RLock()
	rules, idx := a.rules, a.idx
	a.mu.RUnlock()
	st := idx.getState()
	defer idx.putState(st)
	cands := st.candidates(c)
	if idx.commands != nil && intersects(idx.commands, cands) {
		st.dropCommandRules(c, cands, idx.commands)
	}
	for w, word := range cands {
		for ; word != 0; word &= word - 1 {
			i := w<<6 + bits.TrailingZeros64(word)
			if ok, res, err := rules[i].run(c, st, i); ok || err != nil {
				st.fired = append(st.fired, fired{pos: i, resource: res, err: err})
			}
		}
	}
	if len(st.fired) == 0 {
		return nil, nil
	}
	out := make([]risk.Finding, len(st.fired)) // one allocation
	for k, f := range st.fired {
		r := rules[f.pos]
		if f.err != nil {
			out[k] = risk.Finding{Analyzer: "rules", Rule: r.Name, Level: risk.Unknown,
				Reason: fmt.Sprintf("rule %s could not be evaluated: %v", r.Name, f.err)}
			continue
		}
		out[k] = risk.Finding{Analyzer: "rules", Rule: r.Name, Level: r.Level,
			Reason: r.Reason, Resource: f.resource, Reversible: r.Reversible, Locked: r.Locked}
	}
	return out, nil
}

// Assess is seed 004's assess: the custom assessor when one is set,
// otherwise the highest level among the rules that fire, their reasons,
// reversibility, the resources the call touches, impact and recommendations.
// A call no rule fires on is Safe.
func (a *Assessor) Assess(c *tool.Call) risk.Assessment {
	if a.custom != nil {
		return a.custom(c)
	}
	f, _ := a.Analyze(context.Background(), c)
	return risk.Combine(f, Resources(c)...)
}

// The pattern Resources reads Path() calls with, compiled on first use.
var pathCall = lazyMatcher(`Path\(\s*["']([^"']+)["']`)

// tableExpr is the pattern of the SQL tables Resources names, which
// eachTable reads without running it.
const tableExpr = `(?i)\b(?:from|into|update|drop\s+table(?:\s+if\s+exists)?|truncate(?:\s+table)?|join|table)\s+([A-Za-z_][A-Za-z0-9_.]*)`

// sqlNoise are words the table pattern picks up that are not tables.
var sqlNoise = map[string]bool{"select": true, "set": true, "where": true, "if": true, "table": true, "only": true, "the": true, "a": true}

// Resources extracts what a call touches, type-prefixed and de-duplicated,
// at most risk.MaxResources: the call's paths and URLs, then quoted paths,
// Path() arguments, URLs and SQL tables found in its command, code and SQL.
func Resources(c *tool.Call) []string {
	var room [risk.MaxResources]string // out's, until it is returned: one allocation, as long as out ends
	out := room[:0]
	// add adds kind+r (kind "file:", "url:" or "table:"), made only when
	// out has room and does not hold it (a script's URLs are the call's
	// too, most of the time)
	add := func(kind, r string) {
		if len(out) < risk.MaxResources && !slices.ContainsFunc(out, func(o string) bool {
			return len(o) == len(kind)+len(r) && o[len(kind):] == r && o[:len(kind)] == kind
		}) {
			out = append(out, kind+r)
		}
	}
	for _, p := range c.Paths {
		add("file:", c.Abs(p))
	}
	for _, u := range c.URLs {
		add("url:", u)
	}
	full := func() bool { return len(out) >= risk.MaxResources }
	scan := func(s string, sql bool) {
		if full() {
			return // add takes no more
		}
		// Each pattern needs a literal; checking for it first skips the
		// scanner on most texts: searches for bytes and strings (in SIMD;
		// strings.ContainsAny would read byte by byte), and for the table
		// words hasTableWord.
		if !sql && strings.IndexByte(s, '/') >= 0 && (strings.IndexByte(s, '"') >= 0 || strings.IndexByte(s, '\'') >= 0) {
			eachQuotedPath(s, func(m [4]int) bool {
				add("file:", c.Abs(s[m[2]:m[3]]))
				return !full()
			})
		}
		if !sql && strings.Contains(s, "Path(") {
			eachMatch(pathCall(), s, full, func(m []int) { add("file:", c.Abs(s[m[2]:m[3]])) })
		}
		if strings.Contains(s, "://") {
			eachURL(s, func(start, end int) bool {
				add("url:", strings.TrimRight(s[start:end], ".,;"))
				return !full()
			})
		}
		if sql || hasTableWord(s) {
			eachTable(s, func(m [4]int) bool {
				if t := s[m[2]:m[3]]; !sqlNoise[strings.ToLower(t)] {
					add("table:", t)
				}
				return !full()
			})
		}
	}
	for _, s := range c.Shell {
		scan(s, false)
	}
	for _, x := range c.Code {
		scan(x.Text, false)
	}
	for _, s := range c.SQL {
		scan(s, true)
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// eachQuotedPath calls fn with the successive matches in s of
// ["']((?:~|\.{1,2})?/[^"'\s]*)["'] (a quoted absolute, home or relative
// path), each as FindAllStringSubmatchIndex gives it, until fn returns
// false. It reads the text as regexp would, without running it: a match
// starts at a quote, its path at the byte after.
func eachQuotedPath(s string, fn func(loc [4]int) bool) {
	// the next quote of each kind at or after p, each searched again
	// only once passed (strings.IndexAny would build its set of bytes at
	// every call, and a loop reads byte by byte): len(s) when none
	dq, sq := -1, -1
	for p := 0; p < len(s); {
		if dq < p {
			dq = nextQuote(s, p, '"')
		}
		if sq < p {
			sq = nextQuote(s, p, '\'')
		}
		q := min(dq, sq)
		if q == len(s) {
			return
		}
		p = q + 1 // the next search, unless a match ends later
		rest := s[q+1:]
		n := 0 // the bytes before the slash
		switch {
		case strings.HasPrefix(rest, "/"):
		case strings.HasPrefix(rest, "~/"), strings.HasPrefix(rest, "./"):
			n = 1
		case strings.HasPrefix(rest, "../"):
			n = 2
		default:
			continue
		}
		j := q + 1 + n + 1
		for j < len(s) && !isQuoteOrSpace(s[j]) {
			j++
		}
		if j == len(s) || s[j] != '"' && s[j] != '\'' {
			continue // white space ends the path before a quote
		}
		if !fn([4]int{q, j + 1, q + 1, j}) {
			return
		}
		p = j + 1
	}
}

// nextQuote returns the position of the first quote q in s at or after
// p, or len(s).
func nextQuote(s string, p int, q byte) int {
	if k := strings.IndexByte(s[p:], q); k >= 0 {
		return p + k
	}
	return len(s)
}

// eachTable calls fn with the successive matches in s of tableExpr, each
// as FindAllStringSubmatchIndex gives it, until fn returns false. It
// reads the text as regexp would, without running it: a match starts at a
// word's start (\b before a keyword's first letter), where at most one
// keyword can begin (their first letters differ, but truncate's and
// table's), and regexp prefers an optional part that matched, unless the
// rest does not match after it (drop table if exists;, truncate tables
// x); the table's name runs as far as its bytes go. Case folding is
// Unicode's: the long s (ſ) is an s and the Kelvin sign (K) a k, in the
// keywords and in the name.
func eachTable(s string, fn func(loc [4]int) bool) { eachAtWord(s, tableAt, fn) }

// tableAt returns the name a match of tableExpr that starts at p (after
// the \b) gives, from start to end, and whether there is one.
func tableAt(s string, p int) (start, end int, ok bool) {
	var k int // the end of the keyword, or -1
	switch ascii.Lower(s[p]) {
	case 'f':
		k = foldWord(s, p, "from")
	case 'i':
		k = foldWord(s, p, "into")
	case 'u':
		k = foldWord(s, p, "update")
	case 'j':
		k = foldWord(s, p, "join")
	case 'd':
		if k = foldWord(s, p, "drop"); k >= 0 {
			k = foldWord(s, k+spaces(s, k, 1), "table")
		}
		if k >= 0 { // (?:\s+if\s+exists)?, taken when the rest follows
			if x := foldWord(s, k+spaces(s, k, 1), "if"); x >= 0 {
				if x = foldWord(s, x+spaces(s, x, 1), "exists"); x >= 0 {
					if start, end, ok := nameAfter(s, x); ok {
						return start, end, true
					}
				}
			}
		}
	case 't':
		if k = foldWord(s, p, "truncate"); k >= 0 { // (?:\s+table)?, as above
			if x := foldWord(s, k+spaces(s, k, 1), "table"); x >= 0 {
				if start, end, ok := nameAfter(s, x); ok {
					return start, end, true
				}
			}
		} else {
			k = foldWord(s, p, "table")
		}
	default:
		return 0, 0, false
	}
	if k < 0 {
		return 0, 0, false
	}
	return nameAfter(s, k)
}

// spaces returns how many bytes \s+ matches at i, at least min, or
// len(s)+1 (past any word) when fewer.
func spaces(s string, i, min int) int {
	n := 0
	for i+n < len(s) && isSpace(s[i+n]) {
		n++
	}
	if n < min {
		return len(s) + 1
	}
	return n
}

// isSpace reports what \s matches: \t \n \f \r and the blank.
func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// foldWord returns where word (lower-case ASCII) ends when s holds it at
// i, in any case (ſ for s and K for k as well), or -1.
func foldWord(s string, i int, word string) int {
	if i > len(s) {
		return -1
	}
	for j := 0; j < len(word); j++ {
		switch {
		case i < len(s) && ascii.Lower(s[i]) == word[j]:
			i++
		case word[j] == 's' && strings.HasPrefix(s[i:], "\u017f"):
			i += len("\u017f")
		case word[j] == 'k' && strings.HasPrefix(s[i:], "\u212a"):
			i += len("\u212a")
		default:
			return -1
		}
	}
	return i
}

// nameAfter reads, at i, \s+ and a table's name ([A-Za-z_][A-Za-z0-9_.]*
// matched case-insensitively: ſ and K are letters too) and returns the
// name's start and end, and whether there is one.
func nameAfter(s string, i int) (start, end int, ok bool) {
	start = i + spaces(s, i, 1)
	end = start
	for end < len(s) {
		switch b := s[end]; {
		case 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b == '_' || end > start && ('0' <= b && b <= '9' || b == '.'):
			end++
		case strings.HasPrefix(s[end:], "\u017f"):
			end += len("\u017f")
		case strings.HasPrefix(s[end:], "\u212a"):
			end += len("\u212a")
		default:
			return start, end, end > start
		}
	}
	return start, end, end > start
}

// isQuoteOrSpace reports a quote or what \s matches.
func isQuoteOrSpace(b byte) bool {
	switch b {
	case '"', '\'', ' ', '\t', '\n', '\f', '\r':
		return true
	}
	return false
}

// urlSchemes are the schemes eachURL finds.
var urlSchemes = [...]string{"http", "https", "ftp", "gopher", "file", "ws", "wss"}

// eachURL calls fn with the start and end of each successive match in s
// of \b(?:https?|ftp|gopher|file|wss?)://[^\s"'<>)\]}]+, as
// FindAllStringIndex gives them, until fn returns false. It reads the
// text as regexp would, without running it: a match's scheme is the
// whole word before a "://" (\b and the word bytes before it leave no
// other start), and its end the first byte of the set after it.
func eachURL(s string, fn func(start, end int) bool) {
	for from := 0; ; {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			return
		}
		i := from + k
		from = i + 3
		w := i
		for w > 0 && isWordByte(s[w-1]) {
			w--
		}
		if !slices.Contains(urlSchemes[:], s[w:i]) {
			continue
		}
		j := i + 3
		for j < len(s) && !isURLEnd(s[j]) {
			j++
		}
		if j == i+3 {
			continue
		}
		if !fn(w, j) {
			return
		}
		from = j
	}
}

// isURLEnd reports a byte a URL match stops at: white space (\s) and
// "'<>)]}.
func isURLEnd(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\f', '\r', '"', '\'', '<', '>', ')', ']', '}':
		return true
	}
	return false
}

// eachMatch calls fn with the matches of m in s, in order, as
// FindAllStringSubmatchIndex(s, -1) gives them, until full reports true.
func eachMatch(m *matcher, s string, full func() bool, fn func(loc []int)) {
	m.each(s, func(loc []int) bool {
		fn(loc)
		return !full()
	})
}

// containsLower reports whether s, its ASCII letters lower-cased
// (lowerASCII), holds word, lower-case, without making the copy. For a
// word without k and i it answers as strings.ToLower(s) would: only the
// upper-case ASCII letters lower to its letters (the Kelvin sign lowers
// to k, İ to i, nothing else to ASCII).
func containsLower(s, word string) bool {
	if word == "" {
		return true
	}
	first, upper := word[0], word[0]
	if 'a' <= first && first <= 'z' {
		upper = first - ('a' - 'A')
	}
	end := len(s) - len(word) + 1 // word can start before end
	// lo and up are the next positions, at or after pos, of the word's
	// first byte in each case: each is searched again only once the
	// search has passed it, so every byte of s is scanned at most once
	// per case (a text of many upper-case candidates and no lower-case
	// one used to be rescanned to its end for each candidate).
	lo, up := nextByte(s, 0, end, first), -1
	if upper != first {
		up = nextByte(s, 0, end, upper)
	}
	for {
		i := lo
		if up >= 0 && (i < 0 || up < i) {
			i = up
		}
		if i < 0 {
			return false
		}
		j := 1
		for j < len(word) && ascii.Lower(s[i+j]) == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
		if i == lo {
			lo = nextByte(s, i+1, end, first)
		} else {
			up = nextByte(s, i+1, end, upper)
		}
	}
}

// hasTableWord reports containsLower(s, "table") || containsLower(s,
// "from"), the gate of the table scanner outside SQL, in one pass: eight
// bytes at a time, it looks for the rarer letters b and f (in either
// case: b|0x20 and B|0x20 are b, and no other byte) and reads the word
// around each. The two calls of containsLower cost four byte searches and
// one per t, common in scripts, on texts of some fifty bytes.
func hasTableWord(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8] // of known length: one load, no bounds checks
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		w |= 0x20 * ones
		// x - ones &^ x has the high bit of every zero byte of x set
		// (and maybe of bytes after one, whose candidates tableWordAt
		// turns down), and none when x has no zero byte; the zero bytes
		// of these are the bytes b and f (in either case) of w
		xb, xf := w^('b'*ones), w^('f'*ones)
		for m := ((xb-ones)&^xb | (xf-ones)&^xf) & highs; m != 0; m &= m - 1 {
			if tableWordAt(s, i+bits.TrailingZeros64(m)>>3) {
				return true
			}
		}
	}
	if i == len(s) {
		return false
	}
	// the last bytes, fewer than eight, read the same way: as the top
	// of the text's last eight bytes, when it has eight, shifted down;
	// the bytes past the text are 0, 0x20 once set, neither b nor f (a
	// candidate there, after a b or an f, is out of the text: none of
	// its words)
	var w uint64
	if len(s) >= 8 {
		b := s[len(s)-8:]
		w = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		w >>= 8 * (8 - (len(s) - i))
	} else {
		for k := 0; i+k < len(s); k++ {
			w |= uint64(s[i+k]) << (8 * k)
		}
	}
	w |= 0x20 * ones
	xb, xf := w^('b'*ones), w^('f'*ones)
	for m := ((xb-ones)&^xb | (xf-ones)&^xf) & highs; m != 0; m &= m - 1 {
		if j := i + bits.TrailingZeros64(m)>>3; j < len(s) && tableWordAt(s, j) {
			return true
		}
	}
	return false
}

// tableWordAt reports whether the byte at j is the b of table or the f
// of from, in any case of their ASCII letters.
func tableWordAt(s string, j int) bool {
	switch s[j] | 0x20 {
	case 'b':
		return j >= 2 && ascii.HasPrefixFold(s[j-2:], "table")
	case 'f':
		return ascii.HasPrefixFold(s[j:], "from")
	}
	return false
}

// nextByte returns the first position of b in s[from:end], or -1.
func nextByte(s string, from, end int, b byte) int {
	if from >= end {
		return -1
	}
	if k := strings.IndexByte(s[from:end], b); k >= 0 {
		return from + k
	}
	return -1
}

// lazyMatcher returns a built-in pattern's matcher, compiled on first use.
func lazyMatcher(expr string) func() *matcher {
	return sync.OnceValue(func() *matcher {
		m, err := newMatcher(expr)
		if err != nil {
			panic(err) // a built-in pattern: its tests compile it
		}
		return m
	})
}
