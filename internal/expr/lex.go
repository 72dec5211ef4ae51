package expr

import (
	"errors"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tEscIdent // `a-b`, only after a dot
	tInt
	tUint
	tFloat
	tString
	tBytes
	tTrue
	tFalse
	tNull
	tIn
	tEq    // ==
	tNe    // !=
	tLt    // <
	tLe    // <=
	tGe    // >=
	tGt    // >
	tAnd   // &&
	tOr    // ||
	tLBrak // [
	tRBrak // ]
	tLBrace
	tRBrace
	tLParen
	tRParen
	tDot
	tComma
	tMinus
	tNot // !
	tQuest
	tColon
	tPlus
	tStar
	tSlash
	tPercent
)

var tokNames = [...]string{
	tEOF: "end of input", tIdent: "identifier", tEscIdent: "escaped identifier", tInt: "int literal",
	tUint: "uint literal", tFloat: "double literal", tString: "string literal", tBytes: "bytes literal",
	tTrue: "'true'", tFalse: "'false'", tNull: "'null'", tIn: "'in'", tEq: "'=='", tNe: "'!='",
	tLt: "'<'", tLe: "'<='", tGe: "'>='", tGt: "'>'", tAnd: "'&&'", tOr: "'||'", tLBrak: "'['",
	tRBrak: "']'", tLBrace: "'{'", tRBrace: "'}'", tLParen: "'('", tRParen: "')'", tDot: "'.'",
	tComma: "','", tMinus: "'-'", tNot: "'!'", tQuest: "'?'", tColon: "':'", tPlus: "'+'",
	tStar: "'*'", tSlash: "'/'", tPercent: "'%'",
}

type token struct {
	kind tokKind
	pos  int    // byte offset in the source
	text string // the token's source text
}

// lex splits src into tokens as CEL's grammar does: the longest match
// wins, keywords before identifiers, whitespace and // comments skipped.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch c {
		case ' ', '\t', '\r', '\n', '\f':
			i++
			continue
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
		}
		start := i
		kind, n, err := lexOne(src[i:])
		if err != nil {
			return nil, &Error{pos: start, Msg: err.Error()}
		}
		i += n
		toks = append(toks, token{kind: kind, pos: start, text: src[start:i]})
	}
	toks = append(toks, token{kind: tEOF, pos: len(src)})
	return toks, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// lexOne returns the kind and length of the token at the start of s.
func lexOne(s string) (tokKind, int, error) {
	c := s[0]
	two := ""
	if len(s) >= 2 {
		two = s[:2]
	}
	switch two {
	case "==":
		return tEq, 2, nil
	case "!=":
		return tNe, 2, nil
	case "<=":
		return tLe, 2, nil
	case ">=":
		return tGe, 2, nil
	case "&&":
		return tAnd, 2, nil
	case "||":
		return tOr, 2, nil
	}
	switch c {
	case '<':
		return tLt, 1, nil
	case '>':
		return tGt, 1, nil
	case '[':
		return tLBrak, 1, nil
	case ']':
		return tRBrak, 1, nil
	case '{':
		return tLBrace, 1, nil
	case '}':
		return tRBrace, 1, nil
	case '(':
		return tLParen, 1, nil
	case ')':
		return tRParen, 1, nil
	case ',':
		return tComma, 1, nil
	case '-':
		return tMinus, 1, nil
	case '!':
		return tNot, 1, nil
	case '?':
		return tQuest, 1, nil
	case ':':
		return tColon, 1, nil
	case '+':
		return tPlus, 1, nil
	case '*':
		return tStar, 1, nil
	case '/':
		return tSlash, 1, nil
	case '%':
		return tPercent, 1, nil
	case '.':
		if len(s) > 1 && isDigit(s[1]) {
			return tFloat, lexFraction(s), nil
		}
		return tDot, 1, nil
	case '"', '\'':
		n, err := lexQuoted(s, false)
		return tString, n, err
	case '`':
		j := 1
		for j < len(s) && (isLetter(s[j]) || isDigit(s[j]) || strings.IndexByte("_.-/ ", s[j]) >= 0) {
			j++
		}
		if j == 1 || j == len(s) || s[j] != '`' {
			return 0, 0, errors.New("invalid escaped identifier")
		}
		return tEscIdent, j + 1, nil
	}
	if isDigit(c) {
		return lexNumber(s)
	}
	if isLetter(c) || c == '_' {
		j := 1
		for j < len(s) && (isLetter(s[j]) || isDigit(s[j]) || s[j] == '_') {
			j++
		}
		// A string prefix: r"…" (raw), b"…" (bytes), br"…"; rb is an
		// identifier.
		if j <= 2 && j < len(s) && (s[j] == '"' || s[j] == '\'') {
			switch strings.ToLower(s[:j]) {
			case "r":
				n, err := lexQuoted(s[1:], true)
				return tString, 1 + n, err
			case "b":
				n, err := lexQuoted(s[1:], false)
				return tBytes, 1 + n, err
			case "br":
				n, err := lexQuoted(s[2:], true)
				return tBytes, 2 + n, err
			}
		}
		switch s[:j] {
		case "true":
			return tTrue, j, nil
		case "false":
			return tFalse, j, nil
		case "null":
			return tNull, j, nil
		case "in":
			return tIn, j, nil
		}
		return tIdent, j, nil
	}
	r, _ := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return 0, 0, errors.New("invalid UTF-8")
	}
	return 0, 0, errors.New("unexpected character " + quoteRune(r))
}

func quoteRune(r rune) string {
	if r < ' ' || r == 0x7f {
		return "'\\x" + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&15]) + "'"
	}
	return "'" + string(r) + "'"
}

// lexFraction returns the length of '.' DIGIT+ EXPONENT? at the start of s.
func lexFraction(s string) int {
	j := 1
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	return j + lexExponent(s[j:])
}

func lexExponent(s string) int {
	if len(s) == 0 || s[0] != 'e' && s[0] != 'E' {
		return 0
	}
	j := 1
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k == j {
		return 0
	}
	return k
}

// lexNumber lexes an int, uint or double literal: the longest of
// DIGIT+ ('.' DIGIT+)? EXPONENT?, 0x HEX+, and either followed by u.
func lexNumber(s string) (tokKind, int, error) {
	if len(s) > 2 && s[0] == '0' && s[1] == 'x' && isHex(s[2]) {
		j := 3
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j < len(s) && (s[j] == 'u' || s[j] == 'U') {
			return tUint, j + 1, nil
		}
		return tInt, j, nil
	}
	j := 0
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		return tFloat, j + lexFraction(s[j:]), nil
	}
	if e := lexExponent(s[j:]); e > 0 {
		return tFloat, j + e, nil
	}
	if j < len(s) && (s[j] == 'u' || s[j] == 'U') {
		return tUint, j + 1, nil
	}
	return tInt, j, nil
}

// lexQuoted returns the length of the quoted string at the start of s:
// "…", '…', """…""" or ”'…”', raw (no escapes) or not. Escapes are
// checked here, as the grammar does.
func lexQuoted(s string, raw bool) (int, error) {
	q := s[0]
	if len(s) >= 3 && s[1] == q && s[2] == q {
		// A triple-quoted string, if it closes; else "" followed by more.
		triple := s[:3]
		j := 3
		for j < len(s) {
			if strings.HasPrefix(s[j:], triple) {
				return j + 3, nil
			}
			if s[j] == '\\' && !raw {
				n, err := escapeLen(s[j:])
				if err != nil {
					return 0, err
				}
				j += n
				continue
			}
			j++
		}
		return 2, nil // the empty string "" (what follows is lexed after it)
	}
	j := 1
	for j < len(s) {
		switch s[j] {
		case q:
			return j + 1, nil
		case '\n', '\r':
			return 0, errors.New("unterminated string literal")
		case '\\':
			if !raw {
				n, err := escapeLen(s[j:])
				if err != nil {
					return 0, err
				}
				j += n
				continue
			}
		}
		j++
	}
	return 0, errors.New("unterminated string literal")
}

// escapeLen returns the length of the escape sequence at the start of s.
func escapeLen(s string) (int, error) {
	if len(s) < 2 {
		return 0, errors.New("unterminated string literal")
	}
	switch c := s[1]; c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v', '"', '\'', '\\', '?', '`':
		return 2, nil
	case 'x', 'X':
		return hexRun(s, 2)
	case 'u':
		return hexRun(s, 4)
	case 'U':
		return hexRun(s, 8)
	case '0', '1', '2', '3':
		if len(s) >= 4 && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7' {
			return 4, nil
		}
	}
	return 0, errors.New("invalid escape sequence in string literal")
}

func hexRun(s string, n int) (int, error) {
	if len(s) < 2+n {
		return 0, errors.New("invalid escape sequence in string literal")
	}
	for _, c := range []byte(s[2 : 2+n]) {
		if !isHex(c) {
			return 0, errors.New("invalid escape sequence in string literal")
		}
	}
	return 2 + n, nil
}
