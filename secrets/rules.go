package secrets

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/internal/ascii"
)

// Severity is how bad a leaked secret of a kind is.
type Severity string

// The severities.
const (
	Critical Severity = "critical" // grants access on its own (cloud, code hosting, payments, keys)
	High     Severity = "high"     // a credential whose reach is narrower or unknown
	Medium   Severity = "medium"   // a credential of test or limited scope
)

// Rule finds one kind of secret. Rules are data (rules.yaml), each with
// samples it must and must not match.
type Rule struct {
	ID          string   `yaml:"id"`
	Type        string   `yaml:"type"`
	Severity    Severity `yaml:"severity"`
	Description string   `yaml:"description"`
	Suggestion  string   `yaml:"suggestion"`
	// Keywords gate the rule: its pattern only runs on the lines that hold
	// one of them (lower case; matched ignoring ASCII case).
	Keywords []string `yaml:"keywords"`
	// Pattern finds the secret: its group named s, or the whole match.
	Pattern string `yaml:"pattern"`
	// Entropy is the least Shannon entropy (bits per byte) the secret must
	// have.
	Entropy float64 `yaml:"entropy"`
	// Check names a Go check the secret must pass (checks.go).
	Check string `yaml:"check"`
	// Multiline rules see up to 16 KiB from the line where a keyword is.
	Multiline bool `yaml:"multiline"`
	// Near is text that must follow the keyword closely (within 320
	// bytes) for the pattern to run at all.
	Near string `yaml:"near"`
	// Anchor "token" runs the pattern anchored at the keyword's start,
	// which must not be inside a word; "keyword" runs it anchored at the
	// keyword's start, and the word just before the keyword is the
	// candidate's name.
	Anchor string `yaml:"anchor"`
	// Scanner names a Go scanner that reads the text at each keyword
	// instead of a pattern: "cli" applies the grammar of password-bearing
	// command-line arguments (cli.yaml), whose names are its keywords.
	Scanner string `yaml:"scanner"`
	// Services are the hosts the secret is for: a request that carries it
	// to another host off the machine sends it to someone else
	// (netguard's exfil.secret). A name matches itself and the names
	// below it (github.com: api.github.com); one ending in * matches a
	// host with a label that starts with it (gitlab*: a company's
	// gitlab.example.com). Empty: not known, not judged.
	Services []string `yaml:"services"`
	// NeverSent is set for a secret that no request carries (a private
	// key, AWS's secret key, which signs requests): sent to any host off
	// the machine, it leaves.
	NeverSent bool     `yaml:"never_sent"`
	Match     []string `yaml:"match"`
	NoMatch   []string `yaml:"no_match"`

	once     sync.Once
	prog     *prog // the compiled pattern (compiled): a user's rules at load, the built-in ones on first use
	check    checkFunc
	priority int
	scan     func(st *cliState, text []byte, ks, ke int)
}

// prog is a rule's pattern, compiled.
type prog struct {
	re         *regexp.Regexp
	anchored   *regexp.Regexp // for a rule with a name or an anchor: the pattern at the window's start
	keyBlocks  bool           // the pattern is privateKeyPattern: findKeyBlocks finds its matches
	assign     *assignment    // the pattern is an assignment pattern (assignments): matchAssignment finds the anchored match in ASCII text
	s, name, q int            // submatch indices of the groups s, name and q (-1: none)
	key        int            // the group key: a name that is not an assignment's (<add key="DbPassword" value=…>), read by checks but not anchoring the pattern
	// need is text, lower-case ASCII, that every match of the pattern
	// holds (compared without regard to ASCII case), "" when none is
	// known (see needOf): a window without it holds no match.
	need string
	// near is the rule's Near as bytes, nil when it has none
	near []byte
	// gate, when set, is a test an anchored window must pass for the
	// anchored pattern to match at its start (see gateOf)
	gate *gate
}

// rules.yaml is the source people edit; the binary holds it as Go data
// (rulesData, rules_gen.go), so that no process parses it at start.
//go:generate go test -run TestRulesGenerated . -args -update
//go:generate go test -run ^TestKeywordsGenerated$ . -args -update

// DefaultRules returns the built-in rules (rules.yaml), checked; each
// rule's pattern compiles the first time the rule runs.
func DefaultRules() ([]*Rule, error) { return prepare(rulesData(), false) }

// ParseRules reads and compiles rules in the format of rules.yaml. Every
// rule needs samples it must match.
func ParseRules(data []byte) ([]*Rule, error) {
	var doc struct {
		Rules []*Rule `yaml:"rules"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("secrets: rules: %w", err)
	}
	for i, r := range doc.Rules {
		if len(r.Match) == 0 {
			return nil, fmt.Errorf("secrets: rule %d (%s): no samples to match", i+1, r.ID)
		}
	}
	return prepare(doc.Rules, true)
}

// prepare checks rules and sets them up; eager compiles their patterns
// now, so that a bad one is an error rather than a panic on first use.
func prepare(rules []*Rule, eager bool) ([]*Rule, error) {
	seen := map[string]bool{}
	for i, r := range rules {
		if err := r.prepare(eager); err != nil {
			return nil, fmt.Errorf("secrets: rule %d (%s): %w", i+1, r.ID, err)
		}
		if seen[r.ID] {
			return nil, fmt.Errorf("secrets: rule %s defined twice", r.ID)
		}
		seen[r.ID] = true
		r.priority = i
	}
	return rules, nil
}

func (r *Rule) prepare(eager bool) error {
	if r.Scanner != "" {
		if r.Scanner != "cli" || r.Pattern != "" {
			return fmt.Errorf("scanner %q: want cli, without a pattern", r.Scanner)
		}
		// the grammar's keywords are generated (kwindex_gen.go: cliKeywords);
		// the grammar is indexed when the rule first scans
		r.Keywords = append(r.Keywords, cliKeywords...)
		r.scan = scanBuiltinCLI
	}
	switch {
	case r.ID == "" || r.Type == "":
		return fmt.Errorf("id and type are required")
	case r.Severity != Critical && r.Severity != High && r.Severity != Medium:
		return fmt.Errorf("severity %q is not critical, high or medium", r.Severity)
	case len(r.Keywords) == 0:
		return fmt.Errorf("no keywords: every rule needs the prefilter")
	case r.Description == "" || r.Suggestion == "":
		return fmt.Errorf("description and suggestion are required")
	case r.Anchor != "" && r.Anchor != "token" && r.Anchor != "keyword":
		return fmt.Errorf("anchor %q: want token or keyword", r.Anchor)
	}
	for _, k := range r.Keywords {
		if k == "" || strings.ToLower(k) != k {
			return fmt.Errorf("keyword %q must be non-empty lower case", k)
		}
	}
	if r.Check != "" {
		c, ok := checks[r.Check]
		if !ok {
			return fmt.Errorf("unknown check %q", r.Check)
		}
		r.check = c
	}
	if eager && r.scan == nil {
		p, err := r.compileProg()
		if err != nil {
			return err
		}
		r.once.Do(func() { r.prog = p })
	}
	return nil
}

// compiled returns the rule's pattern, compiled on first use.
func (r *Rule) compiled() *prog {
	r.once.Do(func() {
		p, err := r.compileProg()
		if err != nil {
			// the built-in patterns are tested; a user's compile as they load
			panic(fmt.Sprintf("secrets: rule %s: %v", r.ID, err))
		}
		r.prog = p
	})
	return r.prog
}

// compileProg is compileProg of r's pattern, with its Near.
func (r *Rule) compileProg() (*prog, error) {
	p, err := compileProg(r.Pattern, r.Anchor)
	if err == nil && r.Near != "" {
		p.near = []byte(r.Near)
	}
	return p, err
}

// compileProg compiles a rule's pattern and, for a rule with a name or
// an anchor, the pattern anchored at the start of its window.
func compileProg(pattern, anchor string) (*prog, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	p := &prog{re: re, s: re.SubexpIndex("s"), name: re.SubexpIndex("name"), q: re.SubexpIndex("q"), key: re.SubexpIndex("key"),
		keyBlocks: pattern == privateKeyPattern && anchor == ""}
	if anchor == "" {
		p.assign = assignments[pattern]
	}
	if sr, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		p.need = needOf(sr)
		if anchor != "token" { // the anchored pattern starts with the pattern
			p.gate = gateOf(sr)
		}
	}
	prefix := `\A(?:`
	if anchor == "token" {
		// the window starts a byte before the keyword: that byte must not
		// be part of a word
		prefix = `\A(?:[^0-9A-Za-z_])?(?:`
	}
	if p.name >= 0 || anchor != "" {
		if p.anchored, err = regexp.Compile(prefix + pattern + `)`); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Services returns the hosts a secret of type typ is for, and whether no
// request ever carries it, as the detector's rules say (Rule.Services,
// Rule.NeverSent); nil and false when they do not say.
func (d *Detector) Services(typ string) (hosts []string, neverSent bool) {
	for _, r := range d.rules {
		if r.Type == typ {
			hosts = append(hosts, r.Services...)
			neverSent = neverSent || r.NeverSent
		}
	}
	return hosts, neverSent
}

// ForService reports whether host is one of the services hosts names (see
// Rule.Services). A host that carries a service's name inside it
// (github.com.evil.example) is no company's server of that service.
func ForService(host string, hosts []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	lure := false // a service's name inside the host, not at its end: github.com.evil.example
	for _, s := range hosts {
		if !strings.HasSuffix(s, "*") && strings.Contains(host, s+".") && !strings.HasSuffix(host, "."+s) && host != s {
			lure = true
		}
	}
	for _, s := range hosts {
		if prefix, ok := strings.CutSuffix(s, "*"); ok {
			if lure {
				continue
			}
			for label := range strings.SplitSeq(host, ".") {
				if strings.HasPrefix(label, prefix) {
					return true
				}
			}
			continue
		}
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// needOf returns the longest text, in lower case, that every match of re
// holds, as far as the literals of its top-level sequence tell: "" when
// they tell nothing. Only ASCII characters whose every case variant is
// ASCII are kept (not k or s, which (?i) also matches as K and ſ), so
// that a text without it, compared without regard to ASCII case, holds
// no match, whatever else it holds.
func needOf(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		best, run := "", []byte(nil)
		for _, r := range append(re.Rune, -1) { // -1 ends the last run
			if r >= 0 && foldsASCII(r, re.Flags&syntax.FoldCase != 0) {
				run = append(run, byte(unicode.ToLower(r)))
				continue
			}
			if len(run) > len(best) {
				best = string(run)
			}
			run = run[:0]
		}
		return best
	case syntax.OpCapture, syntax.OpPlus:
		return needOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return needOf(re.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if n := needOf(sub); len(n) > len(best) {
				best = n
			}
		}
		return best
	}
	return ""
}

// gate is the start a pattern's match must have: lit, then bytes of a
// class (any number of them), then the byte end. A window that does not
// start so holds no match at its start: the pattern is not run on it.
// The URL rules (://[^\s:/@…]*:…@) start so, and most URLs with user
// information have no password (git+ssh://git@github.com/…).
type gate struct {
	lit  string
	in   [256]bool // the bytes of the class; bytes from 0x80 are all in it
	stop byte
}

// gateOf returns the gate of a pattern that starts with a literal, the
// star of a character class that holds every non-ASCII rune, and a
// literal (://[^\s:/@"'`]*:), nil for any other. The class's star is
// greedy and cannot take the byte that follows it (the class must not
// hold it): the byte after the longest run of the class's bytes is the
// only one where the match can go on.
func gateOf(re *syntax.Regexp) *gate {
	if re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpConcat || len(re.Sub) < 3 {
		return nil
	}
	lit, star, next := re.Sub[0], re.Sub[1], re.Sub[2]
	if lit.Op != syntax.OpLiteral || star.Op != syntax.OpStar || star.Sub[0].Op != syntax.OpCharClass || next.Op != syntax.OpLiteral ||
		(lit.Flags|next.Flags)&syntax.FoldCase != 0 || len(next.Rune) == 0 || next.Rune[0] >= utf8.RuneSelf {
		return nil
	}
	g := &gate{stop: byte(next.Rune[0])}
	for _, r := range lit.Rune {
		if r >= utf8.RuneSelf {
			return nil
		}
		g.lit += string(r)
	}
	class := star.Sub[0].Rune
	contains := func(r rune) bool {
		for i := 0; i+1 < len(class); i += 2 {
			if class[i] <= r && r <= class[i+1] {
				return true
			}
		}
		return false
	}
	// every rune from 0x80 up must be in the class: a non-ASCII byte is
	// then always part of the run (a rune of it, or an invalid byte read
	// as U+FFFD)
	high := false
	for i := 0; i+1 < len(class); i += 2 {
		if class[i] <= utf8.RuneSelf && class[i+1] >= unicode.MaxRune {
			high = true
		}
	}
	if !high || contains(rune(g.stop)) {
		return nil
	}
	for b := range 256 {
		g.in[b] = b >= utf8.RuneSelf || contains(rune(b))
	}
	return g
}

// pass reports whether window starts as the gate says.
func (g *gate) pass(window []byte) bool {
	if len(window) < len(g.lit) || string(window[:len(g.lit)]) != g.lit {
		return false
	}
	i := len(g.lit)
	for i < len(window) && g.in[window[i]] {
		i++
	}
	return i < len(window) && window[i] == g.stop
}

// foldsASCII reports whether r is ASCII and so, when fold is set, is
// every rune that case folding equates with it.
func foldsASCII(r rune, fold bool) bool {
	if r >= utf8.RuneSelf {
		return false
	}
	for f := unicode.SimpleFold(r); fold && f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// containsFold reports whether text holds need (lower-case ASCII)
// without regard to ASCII case.
func containsFold(text []byte, need string) bool {
	if need == "" {
		return true
	}
	for i := 0; i+len(need) <= len(text); i++ {
		j := 0
		for j < len(need) && ascii.Lower(text[i+j]) == need[j] {
			j++
		}
		if j == len(need) {
			return true
		}
	}
	return false
}
