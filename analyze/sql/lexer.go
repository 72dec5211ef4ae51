package sql

import (
	"fmt"
	"strings"
)

// SyntaxError is SQL text that could not be lexed: a string, quoted
// identifier, block comment or dollar-quoted body that is never closed.
type SyntaxError struct {
	Offset int // byte offset where the unterminated construct starts
	Line   int // 1-based line of Offset
	Col    int // 1-based column of Offset, in bytes
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("sql: %d:%d: %s", e.Line, e.Col, e.Msg)
}

func syntaxError(src string, off int, msg string) *SyntaxError {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndexByte(src[:off], '\n')
	return &SyntaxError{Offset: off, Line: line, Col: col, Msg: msg}
}

// dialect selects how the lexer reads the constructs on which SQL dialects
// disagree. The analysis reads ambiguous text both ways and keeps the worse
// reading, so that no dialect can hide a statement from it.
type dialect uint8

const (
	// standard is PostgreSQL's reading: '…' strings without backslash
	// escapes, "…" identifiers, nested block comments, $$ bodies.
	standard dialect = iota
	// mysqlish is MySQL's reading: backslash escapes in '…' and "…"
	// strings, # comments, "-- " comments only before a space, flat block
	// comments, /*! … */ comments whose text runs as code, no $$ bodies.
	mysqlish
)

const msgDollar = "unterminated dollar-quoted string"

type tokKind uint8

const (
	tkIdent       tokKind = iota + 1 // a bare word: keyword or identifier
	tkQuotedIdent                    // "x" or `x`
	tkString                         // '…', E'…', $tag$…$tag$, "…" in MySQL
	tkNumber                         // 42, 1.5e3, 0xff
	tkParam                          // $1
	tkPunct                          // ( ) , ; . [ ]
	tkOp                             // = <> + - * / :: …, one run of <>=! or one other byte
	tkMeta                           // a client command, to the end of its line: \copy …, .shell …
)

// token is one lexeme. text is a slice of the source, quotes included.
type token struct {
	text string
	pos  int
	kind tokKind
	esc  bool // a string whose backslashes escape the next byte
}

// is reports whether t is the keyword kw (case-insensitive) or, for
// punctuation and operators, exactly kw.
func (t token) is(kw string) bool {
	// the lengths first, inlined: most tokens are tested against many
	// words they are not
	return len(t.text) == len(kw) && t.isWord(kw)
}

// isWord is is of a token as long as kw.
func (t token) isWord(kw string) bool {
	switch t.kind {
	case tkIdent:
		return equalFoldASCII(t.text, kw)
	case tkPunct, tkOp:
		return t.text == kw
	}
	return false
}

// value is the text a string or quoted identifier stands for, quotes removed
// and escapes resolved; for other tokens, the text as written.
func (t token) value() string {
	s := t.text
	switch t.kind {
	case tkQuotedIdent:
		q := s[:1]
		s = s[1 : len(s)-1]
		return strings.ReplaceAll(s, q+q, q)
	case tkString:
		if s[0] == '$' {
			tag := s[:strings.IndexByte(s[1:], '$')+2]
			return s[len(tag) : len(s)-len(tag)]
		}
		if s[0] != '\'' && s[0] != '"' { // E'…'
			s = s[1:]
		}
		q := s[0]
		s = s[1 : len(s)-1]
		if !t.esc && strings.IndexByte(s, q) < 0 {
			return s
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && t.esc && i+1 < len(s):
				i++
				b.WriteByte(unescape(s[i]))
			case c == q && i+1 < len(s) && s[i+1] == q:
				i++
				b.WriteByte(q)
			default:
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	return s
}

// equalFoldASCII compares ASCII letters case-insensitively and other bytes
// exactly: databases do not fold "ſelect" to SELECT, and neither does it.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if y >= 'A' && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case '0':
		return 0
	}
	return c
}

type lexer struct {
	src  string
	d    dialect
	toks []token
	// ambiguous is set when the text holds a construct that another
	// dialect reads differently (see dialect).
	ambiguous bool
	// execComment is set inside a MySQL /*! … */ comment.
	execComment bool
}

// lex splits src into tokens, dropping white space and comments. It runs in
// time linear in len(src). On error it returns the tokens read before the
// unterminated construct.
func lex(src string, d dialect) (toks []token, ambiguous bool, err error) {
	l := lexer{src: src, d: d, toks: make([]token, 0, len(src)/5+4)}
	err = l.run()
	return l.toks, l.ambiguous, err
}

func (l *lexer) emit(kind tokKind, start, end int) {
	l.toks = append(l.toks, token{text: l.src[start:end], pos: start, kind: kind})
}

// atStatementStart reports whether the next token would begin a statement.
func (l *lexer) atStatementStart() bool {
	if len(l.toks) == 0 {
		return true
	}
	last := l.toks[len(l.toks)-1]
	return last.kind == tkMeta || last.kind == tkPunct && last.text == ";"
}

// atLineStart reports whether only blanks precede offset i on its line.
func (l *lexer) atLineStart(i int) bool {
	for i--; i >= 0; i-- {
		switch l.src[i] {
		case ' ', '\t', '\f', '\v':
		case '\n', '\r':
			return true
		default:
			return false
		}
	}
	return true
}

func (l *lexer) run() error {
	src, n := l.src, len(l.src)
	i := 0
	for i < n {
		c := src[i]
		var next byte
		if i+1 < n {
			next = src[i+1]
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++

		case c == '-' && next == '-':
			after := byte(' ')
			if i+2 < n {
				after = src[i+2]
			}
			if after > ' ' {
				if l.d == mysqlish { // MySQL: "--" not before a blank is two minus signs
					l.emit(tkOp, i, i+1)
					i++
					continue
				}
				l.ambiguous = true
			}
			i = lineEnd(src, i)

		case c == '#':
			if l.d == mysqlish {
				i = lineEnd(src, i)
				continue
			}
			l.ambiguous = true
			l.emit(tkOp, i, i+1)
			i++

		case c == '/' && next == '*':
			var err error
			if i, err = l.blockComment(i); err != nil {
				return err
			}

		case c == '*' && next == '/' && l.execComment:
			l.execComment = false
			i += 2

		case c == '\\':
			i = l.backslashCommand(i)

		case c == '.' && isLetter(next) && l.atStatementStart() && l.atLineStart(i):
			// An sqlite3 dot-command (.shell ls): the rest of the line.
			end := lineEnd(src, i)
			l.emit(tkMeta, i, end)
			i = end

		case c == '\'':
			end, err := l.quoted(i, i+1, '\'', l.d == mysqlish, "unterminated quoted string")
			if err != nil {
				return err
			}
			l.toks = append(l.toks, token{text: src[i:end], pos: i, kind: tkString, esc: l.d == mysqlish})
			i = end

		case c == '"':
			if l.d == mysqlish {
				end, err := l.quoted(i, i+1, '"', true, "unterminated quoted string")
				if err != nil {
					return err
				}
				l.toks = append(l.toks, token{text: src[i:end], pos: i, kind: tkString, esc: true})
				i = end
				continue
			}
			end, err := l.quoted(i, i+1, '"', false, "unterminated quoted identifier")
			if err != nil {
				return err
			}
			l.emit(tkQuotedIdent, i, end)
			i = end

		case c == '`':
			end, err := l.quoted(i, i+1, '`', false, "unterminated quoted identifier")
			if err != nil {
				return err
			}
			l.emit(tkQuotedIdent, i, end)
			i = end

		case c == '$' && l.d == standard:
			var err error
			if i, err = l.dollar(i); err != nil {
				return err
			}

		case isDigit(c) || c == '.' && isDigit(next):
			end := number(src, i)
			l.emit(tkNumber, i, end)
			i = end

		case isIdentStart(c) || c == '$':
			end := i + 1
			for end < n && isIdentChar(src[end]) {
				end++
			}
			if end == i+1 && (c == 'e' || c == 'E') && end < n && src[end] == '\'' {
				// E'…': a PostgreSQL string with backslash escapes.
				e, err := l.quoted(i, end+1, '\'', true, "unterminated quoted string")
				if err != nil {
					return err
				}
				l.toks = append(l.toks, token{text: src[i:e], pos: i, kind: tkString, esc: true})
				i = e
				continue
			}
			l.emit(tkIdent, i, end)
			i = end

		case c == '(' || c == ')' || c == ',' || c == ';' || c == '.' || c == '[' || c == ']':
			l.emit(tkPunct, i, i+1)
			i++

		case c == '<' || c == '>' || c == '=' || c == '!':
			end := i + 1
			for end < n && (src[end] == '<' || src[end] == '>' || src[end] == '=' || src[end] == '!') {
				end++
			}
			l.emit(tkOp, i, end)
			i = end

		default:
			l.emit(tkOp, i, i+1)
			i++
		}
	}
	if l.execComment {
		return syntaxError(src, n, "unterminated /*! comment")
	}
	return nil
}

// backslashCommand reads the psql or mysql client command (\copy, \!,
// \gexec) at i and returns the offset after it. As psql reads them, the
// arguments end at the end of the line or at the next backslash, which
// starts another command, except that \\ ends the arguments and returns
// to SQL; \!, \copy and \h take the whole line.
func (l *lexer) backslashCommand(i int) int {
	src := l.src
	name := i + 1
	if name < len(src) && !isLetter(src[name]) && src[name] != '\n' && src[name] != '\r' {
		name++ // \! \. \?
	}
	for name < len(src) && isLetter(src[name]) {
		name++
	}
	var end int
	switch src[i:name] {
	case `\!`, `\copy`, `\h`, `\help`:
		end = lineEnd(src, name)
	default:
		// Scan only up to the next backslash, so that many commands on
		// one line stay linear.
		end = len(src)
		if k := strings.IndexAny(src[name:], "\\\n\r"); k >= 0 {
			end = name + k
		}
	}
	l.emit(tkMeta, i, end)
	if strings.HasPrefix(src[end:], `\\`) {
		end += 2
	}
	return end
}

// lineEnd returns the offset of the line break (\n or \r, as PostgreSQL
// reads them) that ends the line holding offset i, or len(src).
func lineEnd(src string, i int) int {
	if j := strings.IndexAny(src[i:], "\n\r"); j >= 0 {
		return i + j
	}
	return len(src)
}

// quoted scans a string or quoted identifier whose opening quote q is at
// open and whose body starts at body. A doubled quote stands for itself;
// with esc, a backslash escapes the next byte. It returns the offset after
// the closing quote.
func (l *lexer) quoted(open, body int, q byte, esc bool, msg string) (int, error) {
	src := l.src
	for i := body; i < len(src); {
		j := strings.IndexByte(src[i:], q)
		if j < 0 {
			break
		}
		k := i + j
		if bs := strings.IndexByte(src[i:k], '\\'); bs >= 0 {
			if !esc {
				// Another dialect would read this backslash as an escape.
				l.ambiguous = true
			} else {
				// Skip the escaped byte and rescan from after it.
				i += bs + 2
				continue
			}
		}
		if k+1 < len(src) && src[k+1] == q {
			i = k + 2
			continue
		}
		return k + 1, nil
	}
	return 0, syntaxError(src, open, msg)
}

// blockComment skips the comment that starts at i and returns the offset
// after it. PostgreSQL nests block comments; MySQL does not, and runs the
// text of /*! … */ comments as code.
func (l *lexer) blockComment(i int) (int, error) {
	src := l.src
	if l.d == mysqlish {
		if rest := src[i+2:]; strings.HasPrefix(rest, "!") || strings.HasPrefix(rest, "M!") {
			j := i + 2 + strings.IndexByte(rest, '!') + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			l.execComment = true
			return j, nil
		}
		if j := strings.Index(src[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2, nil
		}
		return 0, syntaxError(src, i, "unterminated block comment")
	}
	if rest := src[i+2:]; strings.HasPrefix(rest, "!") || strings.HasPrefix(rest, "M!") {
		l.ambiguous = true // MySQL runs this comment's text
	}
	depth := 0
	for j := i; j+1 < len(src); {
		switch {
		case src[j] == '/' && src[j+1] == '*':
			depth++
			if depth > 1 {
				l.ambiguous = true // MySQL and SQLite end the comment at the first */
			}
			j += 2
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j += 2
			if depth == 0 {
				return j, nil
			}
		default:
			j++
		}
	}
	return 0, syntaxError(src, i, "unterminated block comment")
}

// dollar reads what starts with $ at i: a parameter ($1), a dollar-quoted
// body ($$…$$, $tag$…$tag$) or a lone $ operator.
func (l *lexer) dollar(i int) (int, error) {
	src, n := l.src, len(l.src)
	j := i + 1
	if j < n && isDigit(src[j]) {
		for j < n && isDigit(src[j]) {
			j++
		}
		l.emit(tkParam, i, j)
		return j, nil
	}
	for j < n && isIdentChar(src[j]) && src[j] != '$' {
		j++
	}
	if j >= n || src[j] != '$' {
		l.emit(tkOp, i, i+1)
		return i + 1, nil
	}
	l.ambiguous = true // MySQL has no dollar quoting
	tag := src[i : j+1]
	end := strings.Index(src[j+1:], tag)
	if end < 0 {
		return 0, syntaxError(src, i, msgDollar)
	}
	end += j + 1 + len(tag)
	l.emit(tkString, i, end)
	return end, nil
}

// number returns the offset after the numeric literal at i. Letters that
// follow the digits are taken as part of it, as MySQL does for identifiers
// that begin with a digit.
func number(src string, i int) int {
	n := len(src)
	j := i
	for j < n && (isDigit(src[j]) || src[j] == '_') {
		j++
	}
	if j < n && src[j] == '.' {
		j++
		for j < n && (isDigit(src[j]) || src[j] == '_') {
			j++
		}
	}
	if j < n && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < n && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < n && isDigit(src[k]) {
			j = k
			for j < n && isDigit(src[j]) {
				j++
			}
		}
	}
	for j < n && isIdentChar(src[j]) {
		j++
	}
	return j
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isIdentStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }
