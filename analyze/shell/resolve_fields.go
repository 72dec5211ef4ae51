package shell

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// simpleFields appends to dst the fields of a word that expands without
// expand.Fields, and reports handled; a word it does not know (handled
// false) is left to expandFields, which gives what it would. It knows words
// made of:
//
//   - unquoted text without what brace expansion acts on (see
//     simpleText) — a leading ~ or ~/ is the home directory; a backslash
//     escapes the character after it (\rm, \;); * ? [ stay as written,
//     since nothing globs (see expandFields);
//   - '…' (not $'…');
//   - "…" (not $"…") holding text, where a backslash escapes only \ $ `
//     and ", and $NAME or ${NAME} (see simpleParam);
//   - $NAME or ${NAME} unquoted, split on the default IFS.
//
// Each is expanded as expand.Fields expands it with r's variables (see
// env): ok false when one of them is unknown, as expandFields reports it.
// TestSimpleFields holds it to expand.Fields over the corpora and
// generated words.
func (r *resolver) simpleFields(dst []string, w *syntax.Word) (out []string, ok, handled bool) {
	parts := w.Parts
	if len(parts) == 0 {
		return dst, false, false
	}
	// the word's shape first, so that a word left to expandFields costs
	// only this scan
	split := false // an unquoted parameter: its value is split
	for i, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if !simpleText(x.Value) {
				return dst, false, false
			}
			if i == 0 && len(x.Value) > 0 && x.Value[0] == '~' {
				name, _, slash := strings.Cut(x.Value[1:], "/")
				if name != "" && (slash || len(parts) == 1) {
					return dst, false, false // ~user: expand looks the user up
				}
			}
		case *syntax.SglQuoted:
			if x.Dollar || strings.IndexByte(x.Value, 0) >= 0 {
				return dst, false, false
			}
		case *syntax.DblQuoted:
			if x.Dollar {
				return dst, false, false
			}
			for _, q := range x.Parts {
				switch y := q.(type) {
				case *syntax.Lit:
					if strings.IndexByte(y.Value, 0) >= 0 {
						return dst, false, false
					}
				case *syntax.ParamExp:
					if !simpleParam(y) {
						return dst, false, false
					}
				default:
					return dst, false, false
				}
			}
		case *syntax.ParamExp:
			if !simpleParam(x) {
				return dst, false, false
			}
			split = true
		default:
			return dst, false, false
		}
	}
	e := &r.expEnv
	*e = env{r: r}
	if split && e.Get("IFS").String() != " \t\n" {
		return dst, false, false
	}
	// As expand's wordFields: the fields done go to dst, the pieces of the
	// one being built to cur (an empty piece counts: the field is then
	// kept), and a quote keeps one empty field when the word yields none.
	var room [8]string
	cur := room[:0]
	n := len(dst)
	allowEmpty := false
	for i, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			s := x.Value
			if i == 0 {
				prefix := ""
				if len(s) > 0 && s[0] == '~' {
					// ~ or ~/…, not followed by more parts without a slash (see above)
					name, _, slash := strings.Cut(s[1:], "/")
					if name == "" && (slash || len(parts) == 1) {
						if v := e.Get("HOME"); e.unknown {
							return dst[:n], false, true
						} else if v.IsSet() {
							prefix, s = v.String(), s[1:]
						}
					}
				}
				cur = append(cur, prefix)
			}
			cur = appendUnescaped(cur, s)
		case *syntax.SglQuoted:
			allowEmpty = true
			cur = append(cur, x.Value)
		case *syntax.DblQuoted:
			allowEmpty = true
			for _, q := range x.Parts {
				switch y := q.(type) {
				case *syntax.Lit:
					cur = appendDblUnescaped(cur, y.Value)
				case *syntax.ParamExp:
					v := e.Get(y.Param.Value)
					if e.unknown {
						return dst[:n], false, true
					}
					cur = append(cur, v.String())
				}
			}
		case *syntax.ParamExp:
			v := e.Get(x.Param.Value)
			if e.unknown {
				return dst[:n], false, true
			}
			dst, cur = splitField(dst, cur, v.String())
		}
	}
	dst, _ = endField(dst, cur)
	if allowEmpty && len(dst) == n {
		dst = append(dst, "")
	}
	return dst, true, true
}

// endField appends to dst the field made of the pieces cur, if there is
// any, and returns cur emptied.
func endField(dst, cur []string) ([]string, []string) {
	switch len(cur) {
	case 0:
		return dst, cur
	case 1:
		dst = append(dst, cur[0])
	default:
		dst = append(dst, strings.Join(cur, ""))
	}
	return dst, cur[:0]
}

// splitField adds the unquoted value val to the field of pieces cur,
// split on the default IFS (space, tab and newline) as expand's
// wordFields splits it: each blank ends the field being built (see
// endField).
func splitField(dst, cur []string, val string) ([]string, []string) {
	start := -1
	for i := 0; i < len(val); i++ {
		if c := val[i]; c == ' ' || c == '\t' || c == '\n' {
			if start >= 0 {
				cur = append(cur, val[start:i])
				start = -1
			}
			dst, cur = endField(dst, cur)
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		cur = append(cur, val[start:])
	}
	return dst, cur
}

// appendUnescaped appends to cur the pieces of unquoted text s without
// the backslashes that escape a character, as expand's wordFields reads
// them: a backslash escapes the character (the UTF-8 sequence, or the
// byte that is none) after it, and one at the end of s stays.
func appendUnescaped(cur []string, s string) []string {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i == len(s)-1 {
			return append(cur, s)
		}
		_, size := utf8.DecodeRuneInString(s[i+1:])
		cur = append(cur, s[:i], s[i+1:i+1+size])
		s = s[i+1+size:]
	}
}

// appendDblUnescaped appends to cur the pieces of text s inside "…"
// without the backslashes that escape a character there, as expand's
// wordField reads them: only before \ $ ` and " (a backslash elsewhere,
// and one at the end of s, stays).
func appendDblUnescaped(cur []string, s string) []string {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 || i == len(s)-1 {
			return append(cur, s)
		}
		switch s[i+1] {
		case '\\', '$', '`', '"':
			cur = append(cur, s[:i], s[i+1:i+2])
		default:
			cur = append(cur, s[:i+2])
		}
		s = s[i+2:]
	}
}

// simpleText reports unquoted text simpleFields expands: without a
// brace or a NUL.
func simpleText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '}', 0:
			return false
		}
	}
	return true
}

// simpleParam reports $NAME or ${NAME}: a variable's name and no operator
// (as syntax.ParamExp's unexported simple has it), other than LINENO,
// which expand answers itself.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil &&
		!p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.Split == syntax.OptUnset && p.GlobSubst == syntax.OptUnset && p.RcExpand == syntax.OptUnset &&
		p.NestedParam == nil && p.Index == nil &&
		len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil &&
		validName(p.Param.Value) && p.Param.Value != "LINENO"
}
