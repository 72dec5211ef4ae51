package install

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// A settings file is read by a small scanner of our own rather than
// encoding/json: an edit must know where each value, key and comment
// lies in the text, so that warden inserts its entries between the bytes
// that are there and never writes the file out again from a tree.

// kind is the kind of a JSON value.
type kind uint8

const (
	kObject kind = iota
	kArray
	kString
	kNumber
	kBool
	kNull
)

func (k kind) String() string {
	return [...]string{"an object", "an array", "a string", "a number", "a boolean", "null"}[k]
}

// node is a value of the text and where it lies: text[start:end].
type node struct {
	kind       kind
	start, end int
	members    []member // kObject, in order
	elems      []*node  // kArray
	str        string   // kString: the decoded string; kNumber, kBool: the literal
}

// member is one key of an object and its value; text[keyStart:value.end]
// is the whole member.
type member struct {
	key      string
	keyStart int
	value    *node
}

// get returns the value of the member key, or nil.
func (n *node) get(key string) *node {
	for _, m := range n.members {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// comment is a comment of a JSONC text: text[start:end], a line comment
// without its newline.
type comment struct{ start, end int }

// doc is a parsed settings file.
type doc struct {
	text     []byte
	root     *node
	comments []comment
}

// SyntaxError is a settings file warden will not edit, at a position of
// it: line and column count from 1, the column in characters.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// maxDepth bounds the nesting of a settings file: deeper is refused.
const maxDepth = 200

// parse reads text as one JSON value, with // and /* */ comments when
// comments is set (JSONC as strip-json-comments reads it: no trailing
// commas). It refuses what the agents' parsers refuse (a byte order
// mark, invalid UTF-8, a control character in a string, a trailing
// comma) and what warden would edit ambiguously (a key twice in one
// object).
func parse(text []byte, comments bool) (*doc, error) {
	p := &parser{text: text, comments: comments}
	d := &doc{text: text}
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		return nil, p.errAt(0, "the file starts with a byte order mark (U+FEFF), which JSON does not allow")
	}
	if !utf8.Valid(text) {
		i := 0
		for i < len(text) {
			r, size := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return nil, p.errAt(i, "invalid UTF-8")
	}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos == len(text) {
		return nil, p.errAt(p.pos, "the file holds no JSON value")
	}
	d.root = p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.pos < len(text) {
		return nil, p.errAt(p.pos, "text after the JSON value")
	}
	d.comments = p.found
	return d, nil
}

type parser struct {
	text     []byte
	pos      int
	comments bool
	found    []comment
	err      error
}

// errAt makes the error at byte offset off.
func (p *parser) errAt(off int, msg string) *SyntaxError {
	line, col := position(p.text, off)
	return &SyntaxError{Line: line, Col: col, Msg: msg}
}

func (p *parser) fail(off int, format string, args ...any) {
	if p.err == nil {
		p.err = p.errAt(off, fmt.Sprintf(format, args...))
	}
}

// position returns the line and column (characters, from 1) of offset off.
func position(text []byte, off int) (line, col int) {
	line, col = 1, 1
	if off > len(text) {
		off = len(text)
	}
	for i := 0; i < off; {
		if text[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, size := utf8.DecodeRune(text[i:])
		i += size
		col++
	}
	return line, col
}

// space skips whitespace and, in JSONC, comments.
func (p *parser) space() {
	for p.pos < len(p.text) {
		switch c := p.text[p.pos]; c {
		case ' ', '\t', '\n', '\r':
			p.pos++
		case '/':
			if !p.comments {
				p.fail(p.pos, "a comment, which this agent's settings do not allow")
				return
			}
			start := p.pos
			switch {
			case p.pos+1 < len(p.text) && p.text[p.pos+1] == '/':
				p.pos += 2
				for p.pos < len(p.text) && p.text[p.pos] != '\n' {
					p.pos++
				}
			case p.pos+1 < len(p.text) && p.text[p.pos+1] == '*':
				p.pos += 2
				for {
					if p.pos+1 >= len(p.text) {
						p.fail(start, "a comment that is never closed")
						return
					}
					if p.text[p.pos] == '*' && p.text[p.pos+1] == '/' {
						p.pos += 2
						break
					}
					p.pos++
				}
			default:
				p.fail(p.pos, "unexpected '/'")
				return
			}
			p.found = append(p.found, comment{start, p.pos})
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *node {
	if depth > maxDepth {
		p.fail(p.pos, "nested deeper than %d levels", maxDepth)
		return nil
	}
	if p.pos >= len(p.text) {
		p.fail(p.pos, "unexpected end of the file")
		return nil
	}
	start := p.pos
	switch c := p.text[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s := p.string()
		return &node{kind: kString, start: start, end: p.pos, str: s}
	case c == '-' || c >= '0' && c <= '9':
		p.number()
		return &node{kind: kNumber, start: start, end: p.pos, str: string(p.text[start:p.pos])}
	default:
		for _, lit := range []struct {
			word string
			kind kind
		}{{"true", kBool}, {"false", kBool}, {"null", kNull}} {
			if len(p.text)-p.pos >= len(lit.word) && string(p.text[p.pos:p.pos+len(lit.word)]) == lit.word {
				p.pos += len(lit.word)
				return &node{kind: lit.kind, start: start, end: p.pos, str: lit.word}
			}
		}
		r, _ := utf8.DecodeRune(p.text[p.pos:])
		p.fail(p.pos, "unexpected %q", r)
		return nil
	}
}

func (p *parser) object(depth int) *node {
	n := &node{kind: kObject, start: p.pos}
	p.pos++ // {
	seen := map[string]int{}
	for first := true; ; first = false {
		p.space()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.text) {
			p.fail(p.pos, "unexpected end of the file: the object at %s is never closed", p.at(n.start))
			return nil
		}
		if p.text[p.pos] == '}' {
			if !first {
				p.fail(p.pos, "a comma before '}'")
				return nil
			}
			p.pos++
			n.end = p.pos
			return n
		}
		if p.text[p.pos] != '"' {
			p.fail(p.pos, "expected a key in quotes")
			return nil
		}
		keyStart := p.pos
		key := p.string()
		if p.err != nil {
			return nil
		}
		if at, dup := seen[key]; dup {
			p.fail(keyStart, "the key %q twice in one object (also at %s)", key, p.at(at))
			return nil
		}
		seen[key] = keyStart
		p.space()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			p.fail(p.pos, "expected ':' after the key %q", key)
			return nil
		}
		p.pos++
		p.space()
		if p.err != nil {
			return nil
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.members = append(n.members, member{key: key, keyStart: keyStart, value: v})
		switch p.separator('}') {
		case sepMore:
			continue
		case sepClosed:
			n.end = p.pos
			return n
		case sepOther:
			p.fail(p.pos, "expected ',' or '}' after the value of %q", key)
		}
		return nil
	}
}

func (p *parser) array(depth int) *node {
	n := &node{kind: kArray, start: p.pos}
	p.pos++ // [
	for first := true; ; first = false {
		p.space()
		if p.err != nil {
			return nil
		}
		if p.pos >= len(p.text) {
			p.fail(p.pos, "unexpected end of the file: the array at %s is never closed", p.at(n.start))
			return nil
		}
		if p.text[p.pos] == ']' {
			if !first {
				p.fail(p.pos, "a comma before ']'")
				return nil
			}
			p.pos++
			n.end = p.pos
			return n
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		n.elems = append(n.elems, v)
		switch p.separator(']') {
		case sepMore:
			continue
		case sepClosed:
			n.end = p.pos
			return n
		case sepOther:
			p.fail(p.pos, "expected ',' or ']' in the array")
		}
		return nil
	}
}

// What follows a member of an object or an element of an array.
const (
	sepMore   = iota // a comma, and another value after it
	sepClosed        // the closing bracket, which p is now past
	sepOther         // something else, at p.pos: the caller says what it expected
	sepFailed        // p.err is set (a comma just before the close, or a bad comment)
)

// separator reads what follows a value inside the object or array that
// closing closes.
func (p *parser) separator(closing byte) int {
	p.space()
	if p.err != nil {
		return sepFailed
	}
	if p.pos < len(p.text) && p.text[p.pos] == ',' {
		comma := p.pos
		p.pos++
		p.space()
		if p.err != nil {
			return sepFailed
		}
		if p.pos < len(p.text) && p.text[p.pos] == closing {
			p.fail(comma, "a comma before '%c'", closing)
			return sepFailed
		}
		return sepMore
	}
	if p.pos < len(p.text) && p.text[p.pos] == closing {
		p.pos++
		return sepClosed
	}
	return sepOther
}

// at names an offset as line:col for a message.
func (p *parser) at(off int) string {
	line, col := position(p.text, off)
	return fmt.Sprintf("%d:%d", line, col)
}

// string reads a JSON string and returns it decoded.
func (p *parser) string() string {
	start := p.pos
	p.pos++ // "
	var out []byte
	for {
		if p.pos >= len(p.text) {
			p.fail(start, "a string that is never closed")
			return ""
		}
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out)
		case c < 0x20:
			p.fail(p.pos, "a control character in a string")
			return ""
		case c == '\\':
			if p.pos+1 >= len(p.text) {
				p.fail(p.pos, "a string that is never closed")
				return ""
			}
			e := p.text[p.pos+1]
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := p.hex4(p.pos + 2)
				if !ok {
					p.fail(p.pos, "a \\u escape without four hex digits")
					return ""
				}
				p.pos += 4
				if r >= 0xD800 && r < 0xDC00 && p.pos+7 < len(p.text) && p.text[p.pos+2] == '\\' && p.text[p.pos+3] == 'u' {
					if r2, ok := p.hex4(p.pos + 4); ok && r2 >= 0xDC00 && r2 < 0xE000 {
						r = (r-0xD800)<<10 | (r2 - 0xDC00) + 0x10000
						p.pos += 6
					}
				}
				out = utf8.AppendRune(out, rune(r))
			default:
				p.fail(p.pos, "an unknown escape \\%c", e)
				return ""
			}
			p.pos += 2
		default:
			out = append(out, c)
			p.pos++
		}
	}
}

func (p *parser) hex4(at int) (int, bool) {
	if at+4 > len(p.text) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.text[at:at+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	for _, c := range p.text[at : at+4] {
		if c == '+' || c == '-' {
			return 0, false
		}
	}
	return int(v), true
}

// number reads a JSON number.
func (p *parser) number() {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.text) && p.text[p.pos] >= '0' && p.text[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.text[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.text) && p.text[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		p.fail(start, "a number without digits")
		return
	}
	if p.pos < len(p.text) && p.text[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			p.fail(start, "a number without digits after '.'")
			return
		}
	}
	if p.pos < len(p.text) && (p.text[p.pos] == 'e' || p.text[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.text) && (p.text[p.pos] == '+' || p.text[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.fail(start, "a number without digits in its exponent")
			return
		}
	}
	if p.pos < len(p.text) && (p.text[p.pos] >= '0' && p.text[p.pos] <= '9') {
		p.fail(start, "a number with a leading zero")
	}
}
