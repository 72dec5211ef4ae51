package code

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tName   tokKind = iota + 1 // identifier or keyword
	tNumber                    // numeric literal, as written
	tString                    // one string literal (see strLit)
	tOp                        // operator or delimiter
	tShell                     // IPython shell escape: !cmd; text is cmd
	tMagic                     // IPython line magic: %name args; text is "name args"
)

// token is one lexical token. text is a slice of the source except for
// tShell and tMagic, whose text is what follows the ! or %.
type token struct {
	kind tokKind
	text string
	pos  int     // byte offset in the source
	str  *strLit // tString only
}

// strLit is a decoded string literal.
type strLit struct {
	bytes bool
	// value is the decoded text of a plain literal. For an f-string it is
	// empty and parts hold its pieces.
	value string
	fmt   bool
	parts []fpart
}

// fpart is a piece of an f-string: literal text, or the source of an
// expression in braces.
type fpart struct {
	text string
	expr bool
}

// line is one logical line: its indentation (tabs to multiples of 8, as
// Python counts them) and its tokens.
type line struct {
	indent int
	toks   []token
}

// cellMagic is an IPython cell magic (%%bash …) heading a cell: its first
// line and the text of the cell below it.
type cellMagic struct {
	head string // "bash", "script bash", "writefile -a out.txt"
	body string
}

// lexError is the first error the tokenizer met. Tokenizing goes on after
// it, as leniently as it can, so the rest of the code is still read.
type lexError struct {
	pos int
	msg string
}

func (e *lexError) Error() string { return e.msg }

// maxNest bounds how deeply f-strings nest inside f-string expressions.
const maxNest = 8

type lexer struct {
	src   string
	i     int
	toks  []token // every token; lines are spans of it
	spans []span
	first int // index in toks of the current line's first token
	ind   int
	stack []byte // open brackets
	err   *lexError
	cell  *cellMagic
	max   int  // tokens read at most
	over  bool // stopped at max
}

// tokenize splits Python source into logical lines. It never fails: an
// error is recorded and the text around it is read as best it can be.
func tokenize(src string) ([]line, *cellMagic, *lexError) {
	lines, cell, err, _ := tokenizeAtMost(src, math.MaxInt)
	return lines, cell, err
}

// tokenizeAtMost is tokenize stopping after max tokens; over reports
// that it stopped there, the lines holding the tokens read so far.
func tokenizeAtMost(src string, max int) (lines []line, cell *cellMagic, err *lexError, over bool) {
	lx := &lexer{src: src, max: max, toks: make([]token, 0, min(len(src)/3+1, max)), spans: make([]span, 0, min(strings.Count(src, "\n")+1, max))}
	lx.run()
	if lx.over {
		lx.endLine()
	}
	return lx.lines(), lx.cell, lx.err, lx.over
}

func (lx *lexer) fail(pos int, format string, args ...any) {
	if lx.err == nil {
		lx.err = &lexError{pos: pos, msg: fmt.Sprintf("%s: %s", lx.position(pos), fmt.Sprintf(format, args...))}
	}
}

// position renders a byte offset as line:column (1-based).
func (lx *lexer) position(pos int) string {
	if pos > len(lx.src) {
		pos = len(lx.src)
	}
	ln := 1 + strings.Count(lx.src[:pos], "\n")
	col := pos - strings.LastIndexByte(lx.src[:pos], '\n')
	return fmt.Sprintf("line %d:%d", ln, col)
}

// span is a logical line before the token slice is final.
type span struct{ indent, start, end int }

func (lx *lexer) emit(t token) { lx.toks = append(lx.toks, t) }

// pending is the number of tokens of the current line.
func (lx *lexer) pending() int { return len(lx.toks) - lx.first }

func (lx *lexer) endLine() {
	if lx.pending() > 0 {
		lx.spans = append(lx.spans, span{indent: lx.ind, start: lx.first, end: len(lx.toks)})
		lx.first = len(lx.toks)
	}
}

// lines returns the logical lines.
func (lx *lexer) lines() []line {
	out := make([]line, len(lx.spans))
	for i, sp := range lx.spans {
		out[i] = line{indent: sp.indent, toks: lx.toks[sp.start:sp.end:sp.end]}
	}
	return out
}

func (lx *lexer) run() {
	src := lx.src
	lineStart := true
	for lx.i < len(src) {
		if len(lx.toks) >= lx.max {
			lx.over = true // the rest is not read (see tokenizeAtMost)
			return
		}
		if lineStart && len(lx.stack) == 0 {
			lineStart = false
			if lx.indentation() {
				lineStart = true
				continue
			}
			if lx.i >= len(src) {
				break
			}
			if lx.ipython() {
				lineStart = true
				continue
			}
		}
		c := src[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.i++
		case c == '#':
			lx.skipComment()
		case c == '\\':
			j := lx.i + 1
			if j < len(src) && src[j] == '\r' {
				j++
			}
			if j < len(src) && src[j] == '\n' {
				lx.i = j + 1
				continue
			}
			if j >= len(src) {
				lx.i = j
				continue
			}
			lx.fail(lx.i, "unexpected character after line continuation")
			lx.i++
		case c == '\n' || c == '\r':
			lx.i++
			if len(lx.stack) == 0 {
				lx.endLine()
				lineStart = true
			}
		case c == '"' || c == '\'':
			lx.emit(lx.scanString(lx.i, lx.i, 0))
		case c >= '0' && c <= '9' || c == '.' && lx.i+1 < len(src) && isDigit(src[lx.i+1]):
			lx.scanNumber()
		case isNameStart(c):
			lx.scanName()
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(src[lx.i:])
			if unicode.IsLetter(r) || r == '_' {
				lx.scanName()
				continue
			}
			if r == '\u00a0' || r == '\ufeff' && lx.i == 0 {
				lx.i += n
				continue
			}
			lx.fail(lx.i, "invalid character %q", r)
			lx.i += n
		case c == '?' && len(lx.stack) == 0 && lx.helpLine():
			// IPython help (obj? or ?obj) shows documentation and runs
			// nothing: the line is dropped.
			lx.toks = lx.toks[:lx.first]
			lx.restOfLine(lx.i)
			lineStart = true
		case c == '!' && !(lx.i+1 < len(src) && src[lx.i+1] == '='):
			// x = !cmd assigns the output of a shell command in IPython.
			if len(lx.stack) == 0 && lx.pending() >= 2 && lx.toks[len(lx.toks)-1].text == "=" {
				lx.shellEscape(lx.i + 1)
				lineStart = true
				continue
			}
			lx.fail(lx.i, "invalid character '!'")
			lx.i++
		default:
			lx.scanOp()
		}
	}
	if len(lx.stack) > 0 {
		lx.fail(len(src), "unexpected end of code: %q was never closed", lx.stack[len(lx.stack)-1])
	}
	lx.endLine()
}

// helpLine reports an IPython help request at lx.i: a ? that ends its
// line or starts it (?obj, obj?, obj??).
func (lx *lexer) helpLine() bool {
	j := lx.i
	for j < len(lx.src) && lx.src[j] == '?' {
		j++
	}
	rest := lx.src[j:]
	if k := strings.IndexAny(rest, "\r\n"); k >= 0 {
		rest = rest[:k]
	}
	rest = strings.TrimSpace(rest)
	if lx.pending() == 0 { // ?obj
		return rest != "" && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*") == ""
	}
	if rest != "" {
		return false
	}
	// obj?: the line so far must be a dotted name.
	for k, t := range lx.toks[lx.first:] {
		if k%2 == 0 && t.kind != tName || k%2 == 1 && t.text != "." {
			return false
		}
	}
	return lx.toks[len(lx.toks)-1].kind == tName
}

// indentation measures the indentation of a new line. It reports true
// when the line is blank or a comment only (and consumes it).
func (lx *lexer) indentation() bool {
	src := lx.src
	col := 0
	for lx.i < len(src) {
		switch src[lx.i] {
		case ' ':
			col++
		case '\t':
			col = (col/8 + 1) * 8
		case '\f':
			col = 0
		default:
			goto done
		}
		lx.i++
	}
done:
	if lx.i >= len(src) {
		return true
	}
	switch src[lx.i] {
	case '\n', '\r':
		lx.i++
		return true
	case '#':
		lx.skipComment()
		return true
	case '\\': // a continuation line that starts with a backslash
		return false
	}
	lx.ind = col
	return false
}

func (lx *lexer) skipComment() {
	for lx.i < len(lx.src) && lx.src[lx.i] != '\n' && lx.src[lx.i] != '\r' {
		lx.i++
	}
}

// restOfLine returns the text from i to the end of its physical line and
// moves past the line break.
func (lx *lexer) restOfLine(i int) string {
	j := i
	for j < len(lx.src) && lx.src[j] != '\n' && lx.src[j] != '\r' {
		j++
	}
	s := lx.src[i:j]
	lx.i = j
	if lx.i < len(lx.src) && lx.src[lx.i] == '\r' {
		lx.i++
	}
	if lx.i < len(lx.src) && lx.src[lx.i] == '\n' {
		lx.i++
	}
	return strings.TrimSpace(s)
}

// shellEscape reads an IPython shell escape (!cmd, !!cmd) starting at i,
// the byte after the !.
func (lx *lexer) shellEscape(i int) {
	if i < len(lx.src) && lx.src[i] == '!' {
		i++
	}
	pos := i
	lx.emit(token{kind: tShell, text: lx.restOfLine(i), pos: pos})
	lx.endLine()
}

// ipython reads IPython syntax at the start of a logical line: shell
// escapes and magics, which are not Python and run commands of their own.
// It reports whether it consumed the line.
func (lx *lexer) ipython() bool {
	src := lx.src
	switch src[lx.i] {
	case '!':
		if lx.i+1 < len(src) && src[lx.i+1] == '=' {
			return false
		}
		lx.shellEscape(lx.i + 1)
		return true
	case '%':
		if lx.i+1 < len(src) && src[lx.i+1] == '%' {
			if len(lx.spans) > 0 || lx.cell != nil {
				lx.fail(lx.i, "cell magic %%%% not on the first line")
			}
			head := lx.restOfLine(lx.i + 2)
			if passThrough(head) {
				return true // the cell below is Python: keep reading it
			}
			lx.cell = &cellMagic{head: head, body: src[lx.i:]}
			lx.i = len(src)
			return true
		}
		pos := lx.i + 1
		lx.emit(token{kind: tMagic, text: lx.restOfLine(lx.i + 1), pos: pos})
		lx.endLine()
		return true
	}
	return false
}

// passThrough reports a cell magic whose cell is Python code that runs.
func passThrough(head string) bool {
	name, _, _ := strings.Cut(head, " ")
	switch name {
	case "time", "timeit", "capture", "prun", "debug", "python", "python3", "py", "python2":
		return true
	}
	return false
}

func opener(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}

func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameByte(c byte) bool  { return nameByte[c] }

// nameByte marks the ASCII bytes of a name: a table, read once a byte
// where isNameStart || isDigit compared up to five times.
var nameByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isNameStart(byte(c)) || isDigit(byte(c))
	}
	return
}()

func (lx *lexer) scanName() {
	src := lx.src
	start := lx.i
	for lx.i < len(src) {
		c := src[lx.i]
		if isNameByte(c) {
			lx.i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(src[lx.i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r) {
				lx.i += n
				continue
			}
		}
		break
	}
	name := src[start:lx.i]
	if lx.i < len(src) && (src[lx.i] == '\'' || src[lx.i] == '"') && isStringPrefix(name) {
		lx.emit(lx.scanString(start, lx.i, 0))
		return
	}
	lx.emit(token{kind: tName, text: name, pos: start})
}

// isStringPrefix reports a valid string prefix: r, u, b, f, t and the
// two-letter combinations of r with b, f or t, in any case and order.
func isStringPrefix(p string) bool {
	if len(p) == 0 || len(p) > 2 {
		return false
	}
	l := strings.ToLower(p)
	switch l {
	case "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt":
		return true
	}
	return false
}

func (lx *lexer) scanNumber() {
	src := lx.src
	start := lx.i
	if src[lx.i] == '0' && lx.i+1 < len(src) && strings.IndexByte("xXoObB", src[lx.i+1]) >= 0 {
		lx.i += 2
		for lx.i < len(src) && (isNameByte(src[lx.i])) {
			lx.i++
		}
	} else {
		for lx.i < len(src) {
			c := src[lx.i]
			switch {
			case isDigit(c) || c == '_' || c == '.':
				lx.i++
			case c == 'e' || c == 'E':
				lx.i++
				if lx.i < len(src) && (src[lx.i] == '+' || src[lx.i] == '-') {
					lx.i++
				}
			case c == 'j' || c == 'J' || c == 'l' || c == 'L':
				lx.i++
				goto done
			default:
				goto done
			}
		}
	}
done:
	lx.emit(token{kind: tNumber, text: src[start:lx.i], pos: start})
}

// opLen returns the length of the operator at the start of s (0 when
// there is none): the longest of the three-, two- and one-character
// operators.
func opLen(s string) int {
	if len(s) < 2 {
		return 1
	}
	switch s[1] { // the second character of every longer operator
	case '=', '*', '/', '>', '<', '.':
	default:
		return 1
	}
	if len(s) >= 3 {
		switch s[:3] {
		case "**=", "//=", ">>=", "<<=", "...":
			return 3
		}
	}
	if len(s) >= 2 {
		switch s[:2] {
		case "**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":=", "<>":
			return 2
		}
	}
	return 1
}

func (lx *lexer) scanOp() {
	src := lx.src
	start := lx.i
	if n := opLen(src[lx.i:]); n > 1 {
		lx.i += n
		lx.emit(token{kind: tOp, text: src[start:lx.i], pos: start})
		return
	}
	c := src[lx.i]
	lx.i++
	switch c {
	case '(', '[', '{':
		lx.stack = append(lx.stack, c)
	case ')', ']', '}':
		if n := len(lx.stack); n == 0 || lx.stack[n-1] != opener(c) {
			lx.fail(start, "unmatched %q", c)
			return // dropped: it closes nothing
		}
		lx.stack = lx.stack[:len(lx.stack)-1]
	case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', ',', ':', ';', '.', '=':
	default:
		lx.fail(start, "invalid character %q", c)
		return
	}
	lx.emit(token{kind: tOp, text: src[start:lx.i], pos: start})
}

// scanString reads a string literal whose prefix starts at start and whose
// opening quote is at q, and moves past it. nest counts enclosing
// f-strings.
func (lx *lexer) scanString(start, q, nest int) token {
	src := lx.src
	prefix := strings.ToLower(src[start:q])
	raw := strings.ContainsRune(prefix, 'r')
	lit := &strLit{bytes: strings.ContainsRune(prefix, 'b'), fmt: strings.ContainsAny(prefix, "ft")}
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	// The text is src[run:end] after what b holds: b takes only text that
	// differs from the source (escapes, doubled braces), so a literal
	// without them is a slice of the source, not a copy.
	var b strings.Builder
	run := i
	text := func(end int) string {
		if b.Len() == 0 {
			return src[run:end]
		}
		b.WriteString(src[run:end])
		s := b.String()
		b.Reset()
		return s
	}
	flush := func(end int) {
		if lit.fmt && (b.Len() > 0 || end > run) {
			lit.parts = append(lit.parts, fpart{text: text(end)})
		}
	}
	end := i
	for {
		if i >= len(src) {
			lx.fail(q, "unterminated string literal")
			end = len(src)
			break
		}
		c := src[i]
		if c == quote {
			if !triple {
				end = i
				i++
				break
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				end = i
				i += 3
				break
			}
		}
		if (c == '\n' || c == '\r') && !triple {
			lx.fail(q, "unterminated string literal")
			end = i
			break // leave the line break to end the line
		}
		if c == '\\' {
			if raw { // the backslash and the character after it, as written
				i += 2
				continue
			}
			b.WriteString(src[run:i])
			i = unescape(src, i, lit.bytes, &b)
			run = i
			continue
		}
		if lit.fmt && (c == '{' || c == '}') {
			if i+1 < len(src) && src[i+1] == c {
				b.WriteString(src[run : i+1])
				i += 2
				run = i
				continue
			}
			if c == '}' {
				lx.fail(i, "single '}' is not allowed in an f-string")
				b.WriteString(src[run:i])
				i++
				run = i
				continue
			}
			flush(i)
			expr, next := lx.scanFExpr(i+1, quote, triple, nest)
			lit.parts = append(lit.parts, fpart{text: expr, expr: true})
			i = next
			run = i
			continue
		}
		i++
	}
	run = min(run, len(src)) // a field may end past the source
	end = max(end, run)
	if lit.fmt {
		flush(end)
	} else {
		lit.value = text(end)
	}
	if i > len(src) {
		i = len(src)
	}
	lx.i = i
	return token{kind: tString, text: src[start:i], pos: start, str: lit}
}

// scanFExpr reads the expression of an f-string replacement field that
// starts at i (after the {), and returns its source (without a !conversion,
// :format spec or trailing =) and the position after the closing }.
func (lx *lexer) scanFExpr(i int, quote byte, triple bool, nest int) (string, int) {
	src := lx.src
	start, end := i, -1
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' && !triple && depth == 0:
			lx.fail(i, "f-string: expecting '}'")
			if end < 0 {
				end = i
			}
			return src[start:end], i
		case c == '\'' || c == '"':
			if nest+1 >= maxNest {
				lx.fail(i, "f-strings nested too deeply")
				return "", len(src)
			}
			save := lx.i
			t := lx.scanString(i, i, nest+1)
			i = lx.i
			lx.i = save
			_ = t
			continue
		case isNameStart(c):
			j := i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && isStringPrefix(src[i:j]) {
				if nest+1 >= maxNest {
					lx.fail(i, "f-strings nested too deeply")
					return "", len(src)
				}
				save := lx.i
				lx.scanString(i, j, nest+1)
				i = lx.i
				lx.i = save
				continue
			}
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == '}':
			if depth == 0 {
				if end < 0 {
					end = i
				}
				return src[start:end], i + 1
			}
			depth--
		case c == '!' && depth == 0 && !(i+1 < len(src) && src[i+1] == '='):
			if end < 0 {
				end = i
			}
		case c == ':' && depth == 0 && end < 0:
			end = i
			// The format spec may hold nested fields: skip to the matching }.
			return src[start:end], lx.skipFormatSpec(i+1, quote, triple, nest)
		case c == '=' && depth == 0 && end < 0 && i+1 < len(src) && (src[i+1] == '}' || src[i+1] == '!' || src[i+1] == ':') &&
			i > start && !strings.ContainsRune("=!<>", rune(src[i-1])):
			end = i
		}
		i++
	}
	lx.fail(start, "unterminated f-string expression")
	if end < 0 {
		end = len(src)
	}
	return src[start:end], len(src)
}

// skipFormatSpec skips an f-string format spec starting at i and returns
// the position after the } that closes its field.
func (lx *lexer) skipFormatSpec(i int, quote byte, triple bool, nest int) int {
	src := lx.src
	for i < len(src) {
		c := src[i]
		switch {
		case c == '}':
			return i + 1
		case c == '{':
			_, i = lx.scanFExpr(i+1, quote, triple, nest)
			continue
		case c == quote && !triple, c == '\n' && !triple:
			lx.fail(i, "f-string: expecting '}'")
			return i
		}
		i++
	}
	lx.fail(i, "unterminated f-string format spec")
	return len(src)
}

// unescape decodes the escape sequence at src[i] (a backslash) into b and
// returns the position after it.
func unescape(src string, i int, bytes bool, b *strings.Builder) int {
	if i+1 >= len(src) {
		b.WriteByte('\\')
		return i + 1
	}
	c := src[i+1]
	i += 2
	switch c {
	case '\n':
		return i
	case '\r':
		if i < len(src) && src[i] == '\n' {
			i++
		}
		return i
	case '\\', '\'', '"':
		b.WriteByte(c)
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for k := 0; k < 2 && i < len(src) && src[i] >= '0' && src[i] <= '7'; k++ {
			v = v*8 + int(src[i]-'0')
			i++
		}
		writeCode(b, v, bytes)
	case 'x':
		if v, ok := hexN(src, i, 2); ok {
			writeCode(b, v, bytes)
			return i + 2
		}
		b.WriteString(`\x`)
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if v, ok := hexN(src, i, n); ok && !bytes {
			writeCode(b, v, false)
			return i + n
		}
		b.WriteByte('\\')
		b.WriteByte(c)
	case 'N':
		if !bytes && i < len(src) && src[i] == '{' {
			if j := strings.IndexByte(src[i:], '}'); j > 0 {
				b.WriteString(namedChar(src[i+1 : i+j]))
				return i + j + 1
			}
		}
		b.WriteString(`\N`)
	default:
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return i
}

// namedChar decodes the few \N{…} names that spell characters commands
// are made of; any other name becomes U+FFFD.
func namedChar(name string) string {
	switch strings.ToUpper(name) {
	case "SPACE":
		return " "
	case "SOLIDUS":
		return "/"
	case "TILDE":
		return "~"
	case "HYPHEN-MINUS":
		return "-"
	case "FULL STOP":
		return "."
	case "SEMICOLON":
		return ";"
	case "VERTICAL LINE":
		return "|"
	case "AMPERSAND":
		return "&"
	case "LINE FEED", "LF", "NEW LINE":
		return "\n"
	case "NULL":
		return "\x00"
	}
	if len(name) == len("LATIN SMALL LETTER X") && strings.HasPrefix(strings.ToUpper(name), "LATIN SMALL LETTER ") {
		return strings.ToLower(name[len(name)-1:])
	}
	return "\uFFFD"
}

func writeCode(b *strings.Builder, v int, bytes bool) {
	if bytes || v < utf8.RuneSelf {
		b.WriteByte(byte(v))
		return
	}
	if v > unicode.MaxRune {
		v = utf8.RuneError
	}
	b.WriteRune(rune(v))
}

func hexN(src string, i, n int) (int, bool) {
	if i+n > len(src) {
		return 0, false
	}
	v := 0
	for k := 0; k < n; k++ {
		c := src[i+k]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
