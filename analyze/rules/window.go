package rules

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/keywords"
)

// A keyword-gated pattern that fires on whether it matches at all (no
// at_command, where or path group) runs only on windows around the hits
// of its keywords, when that is sure to give the answer a run over the
// whole text gives:
//
//   - every match contains one of the rule's keywords (coversKeywords:
//     the literals every match must contain, read from the pattern, each
//     hold a keyword), so every match lies around a hit;
//   - a match is at most span bytes long (the window reaches span bytes
//     each side of the hit), or no match crosses a newline (the window is
//     the hit's line);
//   - the pattern has no ^ or $ of the whole text (\A, \z); windows start
//     after a newline and end before one, so \b, \B and the (?m) line
//     anchors read the same bytes around them as in the whole text;
//   - the text has no ſ (U+017F) and no K (U+212A), the only characters
//     that case-insensitive matching folds onto ASCII letters (s, k), so
//     a match holds its literals in ASCII case variants, which the keyword
//     scan finds.
//
// Windows are merged before the pattern runs, so each byte of a text is
// scanned at most once per rule however many hits it holds.

// Window modes of a program.
const (
	wholeText = 0  // the pattern runs on whole texts
	lineMode  = -1 // the pattern runs on the lines of the hits
	// > 0: the pattern runs on span bytes each side of the hits, widened to lines
)

// windowMode says how a pattern with the given keywords may be windowed.
func windowMode(pattern string, kws []string) int {
	if len(kws) == 0 {
		return wholeText // not parsed
	}
	re := parseFolded(pattern)
	if re == nil {
		return wholeText
	}
	return windowModeOf(re, kws, required(re, kws))
}

// windowModeOf is windowMode for a pattern's tree (as parseFolded
// returns it; nil, or not read, when kws are empty), where req is
// required(re, kws).
func windowModeOf(re *syntax.Regexp, kws, req []string) int {
	if len(kws) == 0 || re == nil {
		return wholeText
	}
	if hasTextAnchor(re) || req == nil {
		return wholeText
	}
	if n := maxLen(re); n >= 0 {
		return max(n, 1)
	}
	if !matchesNewline(re) {
		return lineMode
	}
	return wholeText
}

// lineWindowed reports whether a pattern may be declared to describe one
// line (window: line): every match holds one of kws, and it has no ^ or $
// of the whole text; req is required(re, kws).
func lineWindowed(re *syntax.Regexp, kws, req []string) bool {
	return re != nil && len(kws) > 0 && !hasTextAnchor(re) && req != nil
}

// parseFolded returns pattern, matched case-insensitively, parsed and
// simplified, or nil when it does not parse.
func parseFolded(pattern string) *syntax.Regexp {
	re, err := syntax.Parse("(?i)"+pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	return re.Simplify()
}

func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	return slices.ContainsFunc(re.Sub, hasTextAnchor)
}

// maxLen is the most bytes a match of re spans, or -1 when unbounded.
func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += runeLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return utf8.RuneLen(re.Rune[len(re.Rune)-1])
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpRepeat:
		n := maxLen(re.Sub[0])
		if re.Max < 0 || n < 0 {
			return -1
		}
		return n * re.Max
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			m := maxLen(s)
			if m < 0 {
				return -1
			}
			n += m
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			m := maxLen(s)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		}
		return n
	}
	return 0 // empty matches and assertions
}

// runeLen is the most bytes r takes in a match, with its case variants
// when fold is set.
func runeLen(r rune, fold bool) int {
	n := utf8.RuneLen(r)
	if n < 0 {
		n = utf8.UTFMax
	}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, utf8.RuneLen(f))
		}
	}
	return n
}

// matchesNewline reports whether a match of re may hold a newline.
func matchesNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return slices.Contains(re.Rune, '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar:
		return true
	}
	return slices.ContainsFunc(re.Sub, matchesNewline)
}

// maxLiterals bounds the strings literals() spells out, and
// maxLiteralLen the length of those it spells out by concatenation: the
// work of literals, and of required's runs, stays linear in a pattern's
// length (a run of (a)(b)(c)… spelt out from each of its subexpressions
// to every later one was cubic).
const (
	maxLiterals   = 64
	maxLiteralLen = 64
)

// literals returns every string re matches, lower-cased, when they are
// few and re matches nothing else; otherwise nil.
func literals(re *syntax.Regexp) []string { return literalsOf(re, literals) }

// lits remembers literals of the nodes of one tree: required asks for
// those of every node, at every level above it.
type lits map[*syntax.Regexp][]string

func (m lits) of(re *syntax.Regexp) []string {
	l, ok := m[re]
	if !ok {
		l = literalsOf(re, m.of)
		m[re] = l
	}
	return l
}

// literalsOf is literals, with sub giving those of re's subexpressions;
// it does not modify what sub returns.
func literalsOf(re *syntax.Regexp, sub func(*syntax.Regexp) []string) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{lowerASCII(string(re.Rune))}
	case syntax.OpCharClass:
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
			if n > 8 {
				return nil
			}
		}
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if s := lowerASCII(string(r)); !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
		return out
	case syntax.OpEmptyMatch:
		return []string{""}
	case syntax.OpCapture:
		return sub(re.Sub[0])
	case syntax.OpQuest:
		if l := sub(re.Sub[0]); l != nil && len(l) < maxLiterals {
			return append(slices.Clip(l), "")
		}
		return nil
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l := sub(s)
			if l == nil || len(out)+len(l) > maxLiterals {
				return nil
			}
			out = append(out, l...)
		}
		return out
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			if out = product(out, sub(s)); out == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

// product returns every a+b, or nil when either is nil or they are too
// many or too long.
func product(a, b []string) []string {
	if a == nil || b == nil || len(a)*len(b) > maxLiterals {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if len(x)+len(y) > maxLiteralLen {
				return nil
			}
			out = append(out, x+y)
		}
	}
	return out
}

// required returns strings every match of re holds one of (lower-case),
// each holding one of kws (any, when kws is nil), or nil when re shows
// none. Among candidates it
// prefers the longest shortest string: the fewer texts hold them, the
// fewer the pattern runs on.
func required(re *syntax.Regexp, kws []string) []string {
	return requiredIn(re, kws, lits{}.of)
}

// requiredIn is required, with literals of re's nodes from lit (which
// remembers them: a literals of its own).
func requiredIn(re *syntax.Regexp, kws []string, lit func(*syntax.Regexp) []string) []string {
	// ASCII only: (?i) folds other letters onto case variants (é, É)
	// that the keyword scan, which folds ASCII only, would not find
	holdAll := func(list []string) bool {
		return list != nil && !slices.ContainsFunc(list, func(s string) bool {
			return !isASCII(s) || s == "" || kws != nil && !slices.ContainsFunc(kws, func(k string) bool { return strings.Contains(s, k) })
		})
	}
	var best []string
	consider := func(list []string) {
		if (best == nil || shortest(list) > shortest(best)) && holdAll(list) {
			best = slices.Clone(list)
		}
	}
	consider(lit(re))
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		consider(requiredIn(re.Sub[0], kws, lit))
	case syntax.OpRepeat:
		if re.Min > 0 {
			consider(requiredIn(re.Sub[0], kws, lit))
		}
	case syntax.OpAlternate:
		var all []string
		var seen map[string]bool // all's strings, once they are many
		for _, s := range re.Sub {
			r := requiredIn(s, kws, lit)
			if r == nil {
				return best
			}
			for _, x := range r {
				if seen == nil && len(all) >= 32 {
					seen = make(map[string]bool, 2*len(all))
					for _, y := range all {
						seen[y] = true
					}
				}
				if seen != nil && !seen[x] || seen == nil && !slices.Contains(all, x) {
					all = append(all, x)
					if seen != nil {
						seen[x] = true
					}
				}
			}
		}
		consider(all)
	case syntax.OpConcat:
		// a run of subexpressions that spell out few strings, each
		// holding a keyword, or what one subexpression requires
		for i := range re.Sub {
			run := []string{""}
			for j := i; j < len(re.Sub) && j-i < maxLiterals; j++ {
				if run = product(run, lit(re.Sub[j])); run == nil {
					break
				}
				consider(run)
			}
			consider(requiredIn(re.Sub[i], kws, lit))
		}
	}
	return best
}

// isASCII reports whether s holds only ASCII bytes, eight at a time.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func shortest(list []string) int {
	n := -1
	for _, s := range list {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// gateOf returns the strings a pattern with keywords kws (lower-case)
// requires of every match, when each holds a keyword: a text without any
// of them has no match, so they gate the pattern more narrowly than its
// keywords and give the same answers. Nil when the pattern shows none.
func gateOf(pattern string, kws []string) []string {
	if len(kws) == 0 || pattern == "" {
		return nil
	}
	re := parseFolded(pattern)
	if re == nil {
		return nil
	}
	return gateIn(required(re, kws), kws)
}

// gateIn is gateOf for the strings the pattern requires (required),
// which it does not modify.
func gateIn(req []string, kws []string) []string {
	if len(kws) == 0 {
		return nil
	}
	g := slices.Clone(req)
	// a string that holds another of the set adds nothing to the gate
	g = slices.DeleteFunc(g, func(s string) bool {
		return slices.ContainsFunc(g, func(t string) bool { return t != s && strings.Contains(s, t) })
	})
	if len(g) == 0 || slices.Equal(g, kws) {
		return nil
	}
	return g
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// foldsOntoASCII reports whether s holds a character that case-insensitive
// matching folds onto an ASCII letter: ſ (s) or K (Kelvin sign, k).
func foldsOntoASCII(s string) bool {
	return strings.Contains(s, "\u017f") || strings.Contains(s, "\u212a")
}

// windows returns the merged windows of text s around the hits of the
// keywords in set (bits by keyword id), for a program whose mode is mode
// (lineMode or a span), appended to out.
func windows(s string, hits []keywords.Hit, kwLen []int, set []uint64, mode int, out [][2]int) [][2]int {
	lineEnd := -1 // the newline (or len(s)) found last, at or after every reach so far
	for _, h := range hits {
		if set[h.ID>>6]&(1<<(h.ID&63)) == 0 {
			continue
		}
		from, to := h.End-kwLen[h.ID], h.End
		if mode > 0 {
			from, to = max(from-mode, 0), min(to+mode, len(s))
		}
		if n := len(out); n > 0 && from <= out[n-1][1] {
			from = out[n-1][0] // overlaps the last window: extend it
			out = out[:n-1]
		} else {
			// back to the line's start, never further than the last window
			lo := 0
			if n := len(out); n > 0 {
				lo = out[n-1][1]
			}
			from = lo + strings.LastIndexByte(s[lo:from], '\n') + 1
		}
		if to > lineEnd {
			if i := strings.IndexByte(s[to:], '\n'); i >= 0 {
				lineEnd = to + i
			} else {
				lineEnd = len(s)
			}
		}
		out = append(out, [2]int{from, lineEnd})
	}
	return out
}
