package rules

import (
	"fmt"
	"math/bits"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/internal/keywords"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Target names a part of a tool call that a rule's pattern reads.
type Target string

// The targets.
const (
	OnCommand Target = "command" // shell scripts
	OnCode    Target = "code"    // program text (python, javascript)
	OnSQL     Target = "sql"     // SQL statements
	OnContent Target = "content" // text written into files
	OnURL     Target = "url"     // URLs fetched or opened
	OnPath    Target = "path"    // file paths, made absolute
	OnText    Target = "text"    // other string arguments
)

// DefaultTargets are read when a rule names none: what will execute.
var DefaultTargets = []Target{OnCommand, OnCode, OnSQL, OnText}

var allTargets = [...]Target{OnCommand, OnCode, OnSQL, OnContent, OnURL, OnPath, OnText}

// Rule is one risk rule. A rule fires when its pattern (or Func) matches
// and its condition holds; a rule with only a condition fires when the
// condition holds.
type Rule struct {
	// Name is the rule's stable ID, dot-namespaced by family
	// (fs.recursive_delete_home). Findings carry it as their rule.
	Name string `yaml:"name"`
	// Pattern is a regular expression (RE2 syntax), matched case-insensitively.
	// A named group "path" makes its text the finding's file resource.
	Pattern string `yaml:"pattern"`
	// Func is a Go predicate over the whole call, used instead of Pattern.
	Func func(*tool.Call) bool `yaml:"-"`
	// FuncName names a predicate in Funcs; a pack uses it to set Func.
	FuncName string `yaml:"func"`
	// Condition is a CEL expression over the call (see Env) that must also hold.
	Condition  string     `yaml:"condition"`
	Level      risk.Level `yaml:"level"`
	Reason     string     `yaml:"reason"`
	Reversible bool       `yaml:"reversible"`
	// Locked marks the rule's findings as ones no allow rule and no
	// permission mode overrides, only a person's approval of that exact
	// action (risk.Finding.Locked).
	Locked bool `yaml:"locked"`
	// Keywords prefilter Pattern: it only runs on text containing one of
	// them (lower-case). A Func with keywords runs only when a text of its
	// targets holds one. Empty means always run.
	Keywords []string `yaml:"keywords"`
	// On lists what the pattern reads; empty means DefaultTargets.
	On []Target `yaml:"on"`
	// Classes restricts the rule to calls of these tool classes; empty means all.
	Classes []tool.Class `yaml:"classes"`
	// AtCommand requires each match to start where a command word starts
	// (see atCommand): "rm" in grep "rm -rf" is not a command.
	AtCommand bool `yaml:"at_command"`
	// Where restricts a pattern's named "path" group: "outside_workspace"
	// fires only when some match's path, resolved against the call's working
	// directory and home, lies outside the working directory and the
	// temporary directories.
	Where string `yaml:"where"`
	// Window "line" declares that the pattern describes one line (a
	// command line): it then runs only on the lines that hold its
	// keywords, whatever the length of the text, and a match across a
	// newline does not count. It needs keywords that every match holds and
	// no ^ or $ of the whole text. Empty: the pattern runs on windows only
	// where that gives the answer the whole text gives (see window.go).
	Window string `yaml:"window"`
	// Match and NoMatch are samples that must and must not fire the rule.
	Match   []Sample `yaml:"match"`
	NoMatch []Sample `yaml:"no_match"`

	prog *program     // Pattern and Condition, compiled once and shared by copies
	cmd  *commandRule // the command rule FuncName names, if it names one
	kw   []int32      // Keywords' ids in the assessor's keyword index
	// fgate: Func has a gate in funcGates, whose ids gw are
	fgate bool
	// gw are the ids of prog.gate, or, for a command rule, of its
	// keywords (which gate its texts), or of its func's gate (fgate), or
	// kw
	gw    []int32
	gwSet []uint64 // gw as a bitset
	tix   []int    // indices of targets() in allTargets
}

// program is a rule's pattern and condition, compiled on first use, once,
// and shared by every copy of the rule.
type program struct {
	pattern, condition string   // what it is compiled from
	keywords           []string // the rule's keywords, lower-case
	whole              bool     // the rule reads each match (at_command, where): no windows
	window             string   // the rule's Window
	// gate, when set, are strings every match holds one of, each holding
	// a keyword (gateOf): a text without any cannot match, so they gate
	// the pattern and place its windows instead of the keywords. Made by
	// go generate for the built-in pack, by get for other rules.
	gate []string
	// known: mode and gate are set already, generated for a built-in
	// rule (whose window and gate the package's tests check); get makes
	// them for any other
	known bool

	once      sync.Once
	m         *matcher // the pattern
	pathGroup int      // index of the "path" group, or -1
	mode      int      // wholeText, lineMode or a span (see window.go)
	err       error

	condOnce sync.Once
	cond     *condition
	condErr  error
}

// newProgram returns r's program, not compiled yet; r's keywords are
// lower-case.
func newProgram(r *Rule) *program {
	return &program{pattern: r.Pattern, condition: r.Condition, keywords: r.Keywords, whole: r.AtCommand || r.Where != "", window: r.Window}
}

// same reports whether p was made for r as it is now.
func (p *program) same(r *Rule) bool {
	return p.pattern == r.Pattern && p.condition == r.Condition && slices.Equal(p.keywords, r.Keywords) &&
		p.whole == (r.AtCommand || r.Where != "") && p.window == r.Window
}

// get compiles p's pattern on its first call and returns p; an error is
// the pattern's.
func (p *program) get() (*program, error) {
	p.once.Do(func() {
		if p.pattern == "" {
			return
		}
		m, err := newMatcher("(?i)" + p.pattern)
		if err != nil {
			p.err = fmt.Errorf("pattern: %w", err)
			return
		}
		p.m, p.pathGroup = m, m.subexpIndex("path")
		if p.known {
			return
		}
		// the tree and what every match holds, read once for the window
		// and the gate (gateOf's), only for a pattern with keywords
		var re *syntax.Regexp
		var req []string
		if len(p.keywords) > 0 {
			if re = m.parsed(); re != nil {
				req = required(re, p.keywords)
				p.gate = gateIn(req, p.keywords)
			}
		}
		switch {
		case p.window == "line":
			if !lineWindowed(re, p.keywords, req) {
				p.err = fmt.Errorf("window: line needs keywords that every match holds and no ^ or $ of the whole text")
				return
			}
			p.mode = lineMode
		case !p.whole && p.pathGroup < 0:
			p.mode = windowModeOf(re, p.keywords, req)
		}
	})
	return p, p.err
}

// getCond compiles p's condition on its first call and returns it; an
// error is the condition's. Apart from the pattern: a condition is only
// evaluated when the pattern fires, and most never are in a process.
func (p *program) getCond() (*condition, error) {
	p.condOnce.Do(func() {
		if p.condition == "" {
			return
		}
		c, err := compileCondition(p.condition)
		if err != nil {
			p.condErr = fmt.Errorf("condition: %w", err)
			return
		}
		p.cond = c
	})
	return p.cond, p.condErr
}

// compile checks the rule and prepares its pattern and condition. A rule
// whose program was made for its pattern and condition already (a copy of
// a built-in rule, whose samples test it, or of a rule compiled before)
// keeps it, compiled on first use; any other rule's pattern and condition
// are compiled now, so that a user's rule that cannot work is an error
// when it is added, not when it first meets a call.
func (r *Rule) compile() error {
	if r.Name == "" {
		return fmt.Errorf("rule has no name")
	}
	if r.Level == risk.Unknown || !r.Level.Valid() {
		return fmt.Errorf("%s: level must be safe, low, medium, high or critical", r.Name)
	}
	if r.FuncName != "" {
		fn, ok := Funcs[r.FuncName]
		if !ok {
			return fmt.Errorf("%s: unknown func %q", r.Name, r.FuncName)
		}
		r.Func = fn
	}
	r.cmd = commandRules[r.FuncName]
	r.fgate = funcGates[r.FuncName] != nil
	if r.Pattern == "" && r.Func == nil && r.Condition == "" && len(r.Classes) == 0 {
		return fmt.Errorf("%s: a rule needs a pattern, a func, a condition or classes", r.Name)
	}
	if r.Pattern != "" && r.Func != nil {
		return fmt.Errorf("%s: a rule has a pattern or a func, not both", r.Name)
	}
	if r.Window != "" && (r.Window != "line" || r.Pattern == "" || r.AtCommand || r.Where != "" || len(r.Keywords) == 0) {
		return fmt.Errorf("%s: window %q: want line, on a pattern with keywords, without at_command or where", r.Name, r.Window)
	}
	switch r.Where {
	case "":
	case "outside_workspace":
		if r.Pattern == "" || !strings.Contains(r.Pattern, "?P<path>") {
			return fmt.Errorf("%s: where: outside_workspace needs a pattern with a (?P<path>…) group", r.Name)
		}
	default:
		return fmt.Errorf("%s: unknown where %q (want outside_workspace)", r.Name, r.Where)
	}
	for _, t := range r.On {
		if !slices.Contains(allTargets[:], t) {
			return fmt.Errorf("%s: unknown target %q", r.Name, t)
		}
	}
	if slices.ContainsFunc(r.Keywords, func(k string) bool { return strings.ToLower(k) != k }) {
		kw := make([]string, len(r.Keywords)) // not the caller's array, which copies of r share
		for i, k := range r.Keywords {
			kw[i] = strings.ToLower(k)
		}
		r.Keywords = kw
	}
	r.tix = r.tix[:0]
	for _, t := range r.targets() {
		r.tix = append(r.tix, targetIndex(t))
	}
	if r.prog != nil && r.prog.same(r) {
		return nil
	}
	r.prog = newProgram(r)
	if _, err := r.prog.get(); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	if _, err := r.prog.getCond(); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	return nil
}

func (r *Rule) targets() []Target {
	if len(r.On) == 0 {
		return DefaultTargets
	}
	return r.On
}

// texts returns the strings of c that a target covers. Paths are absolute.
func texts(c *tool.Call, t Target) []string { return appendTexts(nil, c, targetIndex(t)) }

// The indices of the targets in allTargets.
const (
	tiCommand = iota
	tiCode
	tiSQL
	tiContent
	tiURL
	tiPath
	tiText
)

// appendTexts returns the strings of c that target allTargets[ti] covers:
// c's own list where it has one, else buf with the strings appended.
func appendTexts(buf []string, c *tool.Call, ti int) []string {
	switch ti {
	case tiCommand:
		return c.Shell
	case tiCode:
		for _, x := range c.Code {
			buf = append(buf, x.Text)
		}
	case tiSQL:
		for _, x := range c.SQL {
			buf = append(buf, stripSQLComments(x))
		}
	case tiContent:
		for _, x := range c.Content {
			buf = append(buf, x.Text)
		}
	case tiURL:
		return c.URLs
	case tiPath:
		for _, p := range c.Paths {
			buf = append(buf, c.Abs(p))
		}
	case tiText:
		return c.Text
	}
	return buf
}

// countTexts returns how many strings target allTargets[ti] covers in c.
func countTexts(c *tool.Call, ti int) int {
	switch ti {
	case tiCommand:
		return len(c.Shell)
	case tiCode:
		return len(c.Code)
	case tiSQL:
		return len(c.SQL)
	case tiContent:
		return len(c.Content)
	case tiURL:
		return len(c.URLs)
	case tiPath:
		return len(c.Paths)
	case tiText:
		return len(c.Text)
	}
	return 0
}

// match reports whether the rule fires on c, and the file resource its
// pattern named, if any. st shares the keyword prefilter's work between
// rules; pos is the rule's position in the set st's index was made for.
func (r *Rule) match(c *tool.Call, st *scanState, pos int) (bool, string, error) {
	if len(r.Classes) > 0 && !slices.Contains(r.Classes, c.Class) && (c.Like == "" || !slices.Contains(r.Classes, c.Like)) {
		return false, "", nil
	}
	return r.run(c, st, pos)
}

// keywordIn reports whether a text of one of the rule's targets holds
// one of its keywords: a func's gate, found by the scan the patterns'
// gates share.
func (r *Rule) keywordIn(c *tool.Call, st *scanState, pos int) bool {
	for _, ti := range r.tix {
		if st.has(c, ti, pos) {
			return true
		}
	}
	return false
}

// keyed reports whether the rule is gated by keywords: a pattern with
// keywords runs only on the targets whose texts hold one, a func with
// keywords (not a command rule, which its own keywords gate) only when
// one of them does.
func (r *Rule) keyed() bool {
	return (r.Pattern != "" || r.Func != nil && r.cmd == nil) && len(r.kw) > 0
}

// run is match for a call of one of the rule's classes.
func (r *Rule) run(c *tool.Call, st *scanState, pos int) (bool, string, error) {
	resource := ""
	switch {
	case r.cmd != nil:
		if !st.commandRule(c, r) {
			return false, "", nil
		}
	case r.Func != nil:
		if len(r.kw) > 0 && !r.keywordIn(c, st, pos) {
			return false, "", nil // none of the texts it reads holds a keyword
		}
		if r.fgate && !st.anyKeyed(c, tiCommand, r.gwSet) {
			return false, "", nil // no script holds a string of its func's gate
		}
		if !r.Func(c) {
			return false, "", nil
		}
	case r.Pattern != "":
		p := r.prog // compiled below, once a text passes the gates
		hit := false
		for _, ti := range r.tix {
			if len(r.kw) > 0 && !st.has(c, ti, pos) {
				continue
			}
			for j, s := range st.texts(c, ti) {
				// folds: s holds a character that case folding reads as an
				// ASCII letter, which the keyword scan does not see (so
				// neither gates nor windows hold); read only where it
				// decides, and not for a rule that declares its window
				known, folds := len(r.kw) == 0 || p.window != "", false
				if !p.known {
					// get sets the gate of a program not generated: read
					// it after (a built-in one's is set when it is made)
					if _, err := p.get(); err != nil {
						return false, "", fmt.Errorf("%s: %w", r.Name, err)
					}
				}
				if len(p.gate) > 0 && !anyHit(st.hits[ti][j], r.gwSet) {
					if !known {
						known, folds = true, foldsOntoASCII(s)
					}
					if !folds {
						continue // no match without a gate string
					}
				}
				if _, err := p.get(); err != nil {
					return false, "", fmt.Errorf("%s: %w", r.Name, err)
				}
				windowed := p.mode != wholeText && len(r.kw) > 0 && (len(s) > minWindowed || p.window != "")
				if windowed && !known {
					known, folds = true, foldsOntoASCII(s)
				}
				if windowed && !folds {
					st.wins = windows(s, st.hits[ti][j], st.kw.lens, r.gwSet, p.mode, st.wins[:0])
					for _, w := range st.wins {
						if !c.Work.Charge(ruleCost*(w[1]-w[0]), "rules") {
							return false, "", nil
						}
						if p.m.MatchString(s[w[0]:w[1]]) {
							hit = true
							break
						}
					}
					if hit {
						break
					}
					continue
				}
				if !c.Work.Charge(ruleCost*len(s), "rules") {
					return false, "", nil // the engine reports the call as not fully assessed
				}
				if ok, res := r.find(p, c, s); ok {
					hit, resource = true, res
					break
				}
			}
			if hit {
				break
			}
		}
		if !hit {
			return false, "", nil
		}
	}
	if r.Condition != "" {
		cond, err := r.prog.getCond()
		if err != nil {
			return false, "", fmt.Errorf("%s: %w", r.Name, err)
		}
		ok, err := cond.eval(callVars{c})
		if err != nil || !ok {
			return false, "", err
		}
	}
	return true, resource, nil
}

// scanState holds, for one call, which keywords each target's texts
// contain, computed on first use so that every rule shares one pass. An
// assessment takes one from its index's pool and puts it back reset: the
// buffers are reused by later calls.
type scanState struct {
	kw       *kwIndex
	idx      *keywords.Index
	cand     [len(allTargets)][]uint64         // by targetIndex: the rules a keyword of the texts holds, by position
	hits     [len(allTargets)][][]keywords.Hit // by targetIndex, then text
	found    []uint64                          // scratch: the keywords of a target's texts
	ruleBits []uint64                          // the room cand's bitsets take
	eligible []uint64                          // scratch: the rules for the call's classes
	cands    []uint64                          // the call's candidate rules (candidates)
	all      []keywords.Hit                    // every target's hits, which hits slices
	wins     [][2]int                          // scratch for windows
	text     [len(allTargets)][]string         // texts(c, target), by targetIndex
	own      [len(allTargets)][]string         // the lists text holds that are not c's
	done     [len(allTargets)]bool             // text[i] is computed
	scripts  []script                          // what c.Shell's scripts' commands hold, read on first use (cmdRead)
	cmdRead  bool                              // scripts, cmdAll and cmdOnly are read (commandRule)
	cmdAll   uint8                             // the bits of scripts, together
	cmdOnly  bool                              // every script parses, and the call has no code, SQL or text
	fired    []fired                           // the rules that fired, in order (Analyze)
}

// script is what the command rules read of a script: the bits of those
// whose test holds on one of its commands (commandBits), or the error
// shell.Commands returns for it.
type script struct {
	bits uint8
	err  error
}

// fired is a rule that fired on a call, or failed to evaluate (err).
type fired struct {
	pos      int
	resource string
	err      error
}

// maxKeptHits is the most keyword hits whose room a reset scan state keeps
// for the next call.
const maxKeptHits = 4096

// reset readies st for another call; it keeps no string of the last one.
func (st *scanState) reset() {
	for ti := range allTargets {
		if !st.done[ti] {
			continue // not read by this call: nothing to forget (scan reads texts first)
		}
		clear(st.own[ti])
		st.own[ti] = st.own[ti][:0]
		st.cand[ti], st.text[ti], st.done[ti] = nil, nil, false
		st.hits[ti] = st.hits[ti][:0]
	}
	st.all = st.all[:0]
	if cap(st.all) > maxKeptHits {
		st.all = nil
	}
	clear(st.scripts)
	st.scripts = st.scripts[:0]
	st.cmdRead, st.cmdAll, st.cmdOnly = false, 0, false
	clear(st.fired)
	st.fired = st.fired[:0]
}

// candidates returns the rules that may fire on c, as a bitset of their
// positions: those for c's tool class (or the class it is like) that
// either run whatever keywords the texts hold or read a target whose
// texts hold one of their keywords. It scans those targets. A rule
// outside the set does not fire: Rule.match would return false at its
// class check or find no keyword on any of its targets.
func (st *scanState) candidates(c *tool.Call) []uint64 {
	k := st.kw
	el := st.eligible
	copy(el, k.unclassed)
	for _, cr := range k.classed {
		if cr.class == c.Class || c.Like != "" && cr.class == c.Like {
			for w, x := range cr.rules {
				el[w] |= x
			}
		}
	}
	out := st.cands
	for w := range out {
		out[w] = el[w] & k.always[w]
	}
	for ti, reads := range k.reads {
		if reads == nil || countTexts(c, ti) == 0 || !intersects(reads, el) {
			continue
		}
		cand := st.cand[ti]
		if cand == nil {
			cand = st.scan(c, ti)
		}
		for w := range out {
			out[w] |= el[w] & reads[w] & cand[w]
		}
	}
	return out
}

// intersects reports whether bitsets a and b share a bit.
func intersects(a, b []uint64) bool {
	for w, x := range a {
		if x&b[w] != 0 {
			return true
		}
	}
	return false
}

// texts returns texts(c, allTargets[ti]), computed once per call: SQL
// comment stripping and path resolution are not repeated for every rule.
func (st *scanState) texts(c *tool.Call, ti int) []string {
	if !st.done[ti] {
		t := appendTexts(st.own[ti][:0], c, ti)
		if ti != tiCommand && ti != tiURL && ti != tiText {
			st.own[ti] = t
		}
		st.text[ti], st.done[ti] = t, true
	}
	return st.text[ti]
}

// commandRule reports whether r, a command rule, fires on c
// (commandRule.matches): the scripts' commands are read once per call
// for every command rule (commandBits), and the keyword scan gates the
// texts. On a call of scripts that all parse and no other text of the
// targets a command rule reads, that is whether a command holds its test.
func (st *scanState) commandRule(c *tool.Call, r *Rule) bool {
	st.readScripts(c)
	bit := r.cmd.bit
	if st.cmdOnly {
		return st.cmdAll&bit != 0
	}
	hit := func(j int, _ string) (bool, error) { return st.scripts[j].bits&bit != 0, st.scripts[j].err }
	keyed := func(ti, j int, _ string) bool { return st.keyed(c, ti, j, r.gwSet) }
	var sql []string // stripped of comments once for every rule
	if len(c.SQL) > 0 {
		sql = st.texts(c, tiSQL)
	}
	return r.cmd.matches(c, hit, keyed, sql)
}

// keyed reports whether text j of target ti holds one of the keywords in
// set. The first call for a target scans its texts.
func (st *scanState) keyed(c *tool.Call, ti, j int, set []uint64) bool {
	if st.cand[ti] == nil {
		st.scan(c, ti)
	}
	return anyHit(st.hits[ti][j], set)
}

// readScripts reads, on its first call for a call, what the command
// rules read of c's scripts: scripts, cmdAll and cmdOnly.
func (st *scanState) readScripts(c *tool.Call) {
	if st.cmdRead {
		return
	}
	st.cmdRead, st.cmdOnly = true, len(c.Code) == 0 && len(c.SQL) == 0 && len(c.Text) == 0
	for _, s := range c.Shell {
		cmds, err := shell.Commands(c, s)
		var bits uint8
		if err == nil {
			for i := range cmds {
				bits |= commandBits(cmds, i)
			}
		}
		st.scripts = append(st.scripts, script{bits, err})
		st.cmdAll |= bits
		st.cmdOnly = st.cmdOnly && err == nil
	}
}

// dropCommandRules takes out of cands, the call's candidate rules, the
// command rules (at the positions commands holds) that do not fire on
// c, when that shows without running them: on a call where a command
// rule is whether a command holds its test (cmdOnly), those whose test
// no command holds, word by word: those of no bit of cmdAll
// (kwIndex.cmdBits). Rule.run would return false for each.
func (st *scanState) dropCommandRules(c *tool.Call, cands, commands []uint64) {
	st.readScripts(c)
	if !st.cmdOnly {
		return
	}
	byBit := &st.kw.cmdBits
	for w, word := range commands {
		var keep uint64 // the command rules of word w whose test holds
		for b := st.cmdAll; b != 0; b &= b - 1 {
			if set := byBit[bits.TrailingZeros8(b)]; set != nil {
				keep |= set[w]
			}
		}
		cands[w] &^= word &^ keep
	}
}

// anyKeyed reports whether a text of target ti holds one of the keywords
// in set (keyed).
func (st *scanState) anyKeyed(c *tool.Call, ti int, set []uint64) bool {
	for j := range countTexts(c, ti) {
		if st.keyed(c, ti, j, set) {
			return true
		}
	}
	return false
}

// anyHit reports whether hits hold one of the keywords in set.
func anyHit(hits []keywords.Hit, set []uint64) bool {
	for _, h := range hits {
		if set[h.ID>>6]&(1<<(h.ID&63)) != 0 {
			return true
		}
	}
	return false
}

func targetIndex(t Target) int {
	for i, x := range allTargets {
		if x == t {
			return i
		}
	}
	return 0
}

// has reports whether the texts of target ti hold a keyword of the rule
// at position pos. The first call for a target scans its texts.
func (st *scanState) has(c *tool.Call, ti, pos int) bool {
	cand := st.cand[ti]
	if cand == nil {
		if countTexts(c, ti) == 0 {
			return false // nothing to scan (candidates leaves such targets alone)
		}
		cand = st.scan(c, ti)
	}
	return cand[pos>>6]&(1<<(pos&63)) != 0
}

// scan finds the keywords of target ti's texts, their hits and the rules
// they are keywords of.
func (st *scanState) scan(c *tool.Call, ti int) []uint64 {
	k := st.kw
	rw := max(k.ruleWords, 1) // a target's rules bitset: never empty, so never nil once made
	clear(st.found)
	texts := st.texts(c, ti)
	hits := slices.Grow(st.hits[ti][:0], len(texts))
	for _, s := range texts {
		from := len(st.all)
		st.all = st.idx.FindLines(s, st.found, st.all)
		hits = append(hits, st.all[from:len(st.all):len(st.all)])
	}
	st.hits[ti] = hits
	cand := st.ruleBits[ti*rw : (ti+1)*rw]
	clear(cand)
	for w, word := range st.found {
		for ; word != 0; word &= word - 1 {
			for i, x := range k.rules[w<<6+bits.TrailingZeros64(word)] {
				cand[i] |= x
			}
		}
	}
	st.cand[ti] = cand
	return cand
}

// outsideWorkspace reports whether an absolute path lies outside the call's
// workspace and the temporary directories. The workspace's
// own ancestors (its parent, home, /) are outside.
func outsideWorkspace(c *tool.Call, p string) bool {
	if p == "" {
		return false
	}
	if root := c.Env().Root(); root != "" && root != "/" && root != c.Home && paths.Within(p, root) {
		return false
	}
	return !paths.InTemp(p) // scratch space: deleting inside it is routine
}

// find runs the pattern over one text: the first match that starts at a
// command position (when AtCommand is set) and whose path lies outside the
// workspace (when Where says so) fires the rule; its path group names the
// resource.
// minWindowed is the shortest text a pattern runs on in windows; a
// shorter one costs less to scan whole.
const minWindowed = 128

// ruleCost is the work (tool.Budget units, about a nanosecond each)
// charged per byte a rule's pattern scans.
const ruleCost = 32

func (r *Rule) find(p *program, c *tool.Call, s string) (bool, string) {
	if !r.AtCommand && r.Where == "" && p.pathGroup <= 0 {
		return p.m.MatchString(s), ""
	}
	g := p.pathGroup
	for _, m := range p.m.unanchored().FindAllStringSubmatchIndex(s, 16) {
		if r.AtCommand && !atCommand(s, m[0]) {
			continue
		}
		p := ""
		if g > 0 && m[2*g] >= 0 {
			p = c.Abs(strings.Trim(s[m[2*g]:m[2*g+1]], `"'`))
		}
		if r.Where == "outside_workspace" && !outsideWorkspace(c, p) {
			continue
		}
		if p != "" {
			return true, "file:" + p
		}
		return true, ""
	}
	return false, ""
}
