package secrets

import "github.com/agentwarden/warden/internal/ascii"

// The patterns of the built-in assignment rules (password.assignment,
// generic.secret in rules.yaml). A rule with exactly one of them finds
// its match, on a window of ASCII text, with matchAssignment rather than
// the regexp, whose backtracker spends tens of thousands of instructions
// on a name of a few dozen bytes: it tries the name's words at every
// position of the name.
const (
	passwordAssignPattern = `(?i)(?P<name>[a-z0-9_.\-]*(?:passw(?:or)?d|pwd|passphrase)[a-z0-9_.\-]*)\\?["'` + "`" + `]?\s*(?::=|=>|==|=|:)\s*(?P<q>\\?["'` + "`" + `]?)(?P<s>[^\s"'` + "`" + `,;)\]}>\\]{4}[^\s"'` + "`" + `,;)\]}>\\]*)`
	genericAssignPattern  = `(?i)(?P<name>[a-z0-9_.\-]*(?:api[_.\-]?key|secret|token|auth[_.\-]?key|access[_.\-]?key|private[_.\-]?key|credential)s?[a-z0-9_.\-]*)\\?["'` + "`" + `]?\s*(?::=|=>|=|:)\s*(?P<q>\\?["'` + "`" + `]?)(?P<s>[^\s"'` + "`" + `,;)\]}>\\&]{16}[^\s"'` + "`" + `,;)\]}>\\&]*)`
)

// assignment is what matchAssignment needs of one of those patterns.
type assignment struct {
	// words are the name's words, lower case, one of which the name must
	// hold; '~' in a word stands for an optional separator ([_.\-]).
	words []string
	ops   []string  // the assignment operators, in the pattern's order
	min   int       // the value's least length
	stop  [128]bool // the bytes that end a value
}

func newAssignment(words, ops []string, min int, stop string) *assignment {
	a := &assignment{words: words, ops: ops, min: min}
	for i := 0; i < len(stop); i++ {
		a.stop[stop[i]] = true
	}
	return a
}

// assignments are the patterns matchAssignment reads, and how.
var assignments = map[string]*assignment{
	passwordAssignPattern: newAssignment([]string{"passwd", "password", "pwd", "passphrase"},
		[]string{":=", "=>", "==", "=", ":"}, 4, "\t\n\f\r \"'`,;)]}>\\"),
	genericAssignPattern: newAssignment([]string{"api~key", "secret", "token", "auth~key", "access~key", "private~key", "credential"},
		[]string{":=", "=>", "=", ":"}, 16, "\t\n\f\r \"'`,;)]}>\\&"),
}

// matchAssignment returns what the pattern a is read from, anchored at
// the window's start (\A(?:pattern)), returns for FindSubmatchIndex on
// window: nil for no match, else the offsets of the match and of the
// groups name, q and s. ok is false when window is not all ASCII: (?i)
// lets [a-z] match ſ and K (the Kelvin sign), and the value's length
// counts runes, which this reading leaves to the regexp.
//
// How the pattern matches: the name's class cannot take any byte the
// rest of the pattern starts with (\ " ' ` space = :), so the name is the
// longest run of name bytes at the start, and matches when the run holds
// one of the words; each piece after it (an escape, a quote, spaces, the
// operator, spaces, the q group) cannot take what the piece after it
// starts with, so it takes what it can; only the operators are tried in
// turn, in the pattern's order, and the first whose value has at least
// min bytes that do not end a value is the match.
func (a *assignment) matchAssignment(window []byte) (m []int, ok bool) {
	for _, c := range window {
		if c >= 0x80 {
			return nil, false
		}
	}
	e := 0
	for e < len(window) && nameByte(window[e]) {
		e++
	}
	if !a.holdsWord(window[:e]) {
		return nil, true
	}
	i := e
	if i < len(window) && window[i] == '\\' {
		i++
	}
	if i < len(window) && quote(window[i]) {
		i++
	}
	i = skipSpace(window, i)
	for _, op := range a.ops {
		if len(window)-i < len(op) || string(window[i:i+len(op)]) != op {
			continue
		}
		qs := skipSpace(window, i+len(op))
		j := qs
		if j < len(window) && window[j] == '\\' {
			j++
		}
		if j < len(window) && quote(window[j]) {
			j++
		}
		k := j
		for k < len(window) && !a.stop[window[k]] {
			k++
		}
		if k-j >= a.min {
			return []int{0, k, 0, e, qs, j, j, k}, true
		}
	}
	return nil, true
}

// nameByte reports a byte of an assignment's name: [A-Za-z0-9_.-].
func nameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }

func quote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// skipSpace returns the end of the run of \s ([\t\n\f\r ]) at i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\f' || b[i] == '\r') {
		i++
	}
	return i
}

// holdsWord reports whether name (name bytes only) holds one of a's
// words, ignoring ASCII case.
func (a *assignment) holdsWord(name []byte) bool {
	for s := range name {
		for _, w := range a.words {
			if wordAt(name, s, w) {
				return true
			}
		}
	}
	return false
}

// wordAt reports whether name holds w at s, ignoring ASCII case, '~' in
// w taking one separator ([_.-]) or none.
func wordAt(name []byte, s int, w string) bool {
	j := s
	for i := 0; i < len(w); i++ {
		if w[i] == '~' {
			if j < len(name) && (name[j] == '_' || name[j] == '.' || name[j] == '-') {
				j++
			}
			continue
		}
		if j >= len(name) || ascii.Lower(name[j]) != w[i] {
			return false
		}
		j++
	}
	return true
}
