package install

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/internal/jsonenc"
)

// Every change warden makes to a settings file is one append: a member
// at the end of an object or an element at the end of an array, written
// between the bytes that are there. Its removal is the exact inverse, so
// that install then uninstall gives the file back byte for byte:
//
//   - In a container with children, the append puts a comma right after
//     the last child's value and the new child, after a separator (a
//     newline and the indentation of the last child, or the container's
//     inline separator), after the last comment that follows that value.
//     The removal deletes the comma and everything from that comment's
//     end (or the comma) to the end of the child.
//   - In an empty container `[]` or `{}` the child hugs the brackets:
//     `[{` … `}]` (not at the root, but in a file that is `{}` and a
//     newline). In an empty container holding whitespace or comments W
//     the child goes after W on a line of its own, and the closing
//     bracket on the next: open, W, newline, indentation, child, newline,
//     indentation of the container's line, close. The removal reads W
//     back (a hugged child had none; otherwise what is before the last
//     newline in front of the child).
//   - A container warden created whole (a member that did not exist) is
//     rendered fresh: open, newline, each child indented one unit more,
//     newline, close. Nothing an append into an existing container
//     writes looks like that, so the removal knows to take the member
//     away rather than empty it.

// value is a JSON value warden writes: string, int, bool, []any or obj.
type value = any

// obj is a JSON object with its keys in order.
type obj []kv

type kv struct {
	k string
	v value
}

// style is how a file is written: newline, indentation unit, the text
// after a colon. New text follows it.
type style struct {
	nl, unit, colon string
}

// styleOf reads the style of text: its newline (CRLF where most lines
// end so, else LF), the indentation unit (what the first container written on
// several lines indents its first child by, beyond its own line; two
// spaces when there is none), and whether its first colon is followed
// by a space. Install's appends do not change what it reads.
func styleOf(d *doc) style {
	s := style{nl: "\n", unit: "  ", colon: ": "}
	text := d.text
	if crlf := bytes.Count(text, []byte("\r\n")); crlf > bytes.Count(text, []byte("\n"))-crlf {
		s.nl = "\r\n"
	}
	if u, ok := d.unit(d.root); ok {
		s.unit = u
	}
	if m := firstMember(d.root); m != nil {
		// the colon follows the key's closing quote, maybe after spaces
		k := keyEnd(text, m.keyStart)
		for k < len(text) && text[k] != ':' {
			k++
		}
		if k+1 < len(text) && text[k+1] != ' ' {
			s.colon = ":"
		}
	}
	return s
}

// unit returns the indentation unit of the first container in n, depth
// first, whose first child is on a line of its own, indented beyond the
// container's line by spaces (at most eight) or one tab.
func (d *doc) unit(n *node) (string, bool) {
	if n.kind != kObject && n.kind != kArray {
		return "", false
	}
	starts, _ := children(n)
	if len(starts) > 0 && bytes.IndexByte(d.text[n.start:starts[0]], '\n') >= 0 {
		outer, inner := lineIndent(d.text, n.start), lineIndent(d.text, starts[0])
		if u, ok := strings.CutPrefix(inner, outer); ok && (u == "\t" || u != "" && len(u) <= 8 && strings.Trim(u, " ") == "") {
			return u, true
		}
	}
	if n.kind == kObject {
		for _, m := range n.members {
			if u, ok := d.unit(m.value); ok {
				return u, true
			}
		}
	}
	for _, e := range n.elems {
		if u, ok := d.unit(e); ok {
			return u, true
		}
	}
	return "", false
}

// firstMember returns the first member of the first non-empty object in
// n, depth first.
func firstMember(n *node) *member {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kObject:
		if len(n.members) > 0 {
			return &n.members[0]
		}
	case kArray:
		for _, e := range n.elems {
			if m := firstMember(e); m != nil {
				return m
			}
		}
	}
	return nil
}

// keyEnd returns the offset after the key string starting at start.
func keyEnd(text []byte, start int) int {
	for i := start + 1; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(text)
}

// render writes v as JSON: multi-line with the children of a container
// indented one unit more than ind (the indentation of the line the value
// starts on), or on one line.
func (s style) render(v value, ind string, multi bool) string {
	var b strings.Builder
	s.write(&b, v, ind, multi)
	return b.String()
}

func (s style) write(b *strings.Builder, v value, ind string, multi bool) {
	sep := ", "
	colon := s.colon
	if s.colon == ":" {
		sep = ","
	}
	switch v := v.(type) {
	case string:
		b.Write(jsonenc.String(nil, v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case number:
		b.WriteString(string(v))
	case nil:
		b.WriteString("null")
	case obj:
		b.WriteByte('{')
		for i, m := range v {
			if multi {
				b.WriteString(s.nl + ind + s.unit)
			} else if i > 0 {
				b.WriteString(sep)
			}
			b.Write(jsonenc.String(nil, m.k))
			b.WriteString(colon)
			s.write(b, m.v, ind+s.unit, multi)
			if multi && i < len(v)-1 {
				b.WriteByte(',')
			}
		}
		if multi && len(v) > 0 {
			b.WriteString(s.nl + ind)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if multi {
				b.WriteString(s.nl + ind + s.unit)
			} else if i > 0 {
				b.WriteString(sep)
			}
			s.write(b, e, ind+s.unit, multi)
			if multi && i < len(v)-1 {
				b.WriteByte(',')
			}
		}
		if multi && len(v) > 0 {
			b.WriteString(s.nl + ind)
		}
		b.WriteByte(']')
	default:
		panic("install: a value of an unknown type")
	}
}

// memberText is key and value as a member of an object.
func (s style) memberText(key string, v value, ind string, multi bool) string {
	return string(jsonenc.String(nil, key)) + s.colon + s.render(v, ind, multi)
}

// children returns where the children of container c start and end: a
// member from its key to the end of its value.
func children(c *node) (starts, ends []int) {
	if c.kind == kObject {
		for _, m := range c.members {
			starts = append(starts, m.keyStart)
			ends = append(ends, m.value.end)
		}
		return starts, ends
	}
	for _, e := range c.elems {
		starts = append(starts, e.start)
		ends = append(ends, e.end)
	}
	return starts, ends
}

// lineIndent returns the spaces and tabs that begin the line holding
// offset off.
func lineIndent(text []byte, off int) string {
	i := bytes.LastIndexByte(text[:off], '\n') + 1
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return string(text[i:j])
}

// gapTail returns the end of the last comment in text[a:b], or a.
func (d *doc) gapTail(a, b int) int {
	tail := a
	i := sort.Search(len(d.comments), func(i int) bool { return d.comments[i].start >= a })
	for ; i < len(d.comments) && d.comments[i].end <= b; i++ {
		tail = d.comments[i].end
	}
	return tail
}

// lineCommentEndsAt reports whether a line comment ends at off.
func (d *doc) lineCommentEndsAt(off int) bool {
	for _, c := range d.comments {
		if c.end == off && d.text[c.start+1] == '/' {
			return true
		}
	}
	return false
}

// multiline reports whether container c spans several lines (a child
// hugging an empty container's brackets makes it do so): a child
// appended to it goes on a line of its own.
func (d *doc) multiline(c *node) bool {
	return bytes.IndexByte(d.text[c.start:c.end], '\n') >= 0
}

// splice returns text with text[start:end] replaced by repl.
func splice(text []byte, start, end int, repl string) []byte {
	out := make([]byte, 0, len(text)-(end-start)+len(repl))
	out = append(out, text[:start]...)
	out = append(out, repl...)
	return append(out, text[end:]...)
}

// appendChild returns the text with a child appended to container c:
// child renders it given the indentation of its line and whether it is
// written on several lines.
func (d *doc) appendChild(s style, c *node, child func(ind string, multi bool) string) []byte {
	text := d.text
	starts, ends := children(c)
	closeInd := lineIndent(text, c.start)
	if len(starts) == 0 {
		// [] or {}: hug the brackets, so that the result cannot be taken
		// for a member warden created whole. The root is no member: it
		// hugs only in the one file that would otherwise read as the file
		// install creates, "{}" and a newline.
		if c.end-c.start == 2 && (c != d.root || string(text) == "{}\n") {
			return splice(text, c.start+1, c.start+1, child(closeInd, true))
		}
		ind := closeInd + s.unit
		add := s.nl + ind + child(ind, true) + s.nl + closeInd
		return splice(text, c.end-1, c.end-1, add)
	}
	last := len(starts) - 1
	pe := ends[last]
	tail := d.gapTail(pe, c.end-1)
	var sep, body string
	if d.multiline(c) {
		ind := lineIndent(text, starts[last])
		sep, body = s.nl+ind, child(ind, true)
	} else {
		sep = " "
		if len(starts) > 1 {
			// the whitespace after the first comma, where it is on one line
			i := ends[0]
			for i < starts[1] && text[i] != ',' {
				i++
			}
			j := i + 1
			for j < starts[1] && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j <= starts[1] && i < starts[1] {
				sep = string(text[i+1 : j])
			}
		}
		if d.lineCommentEndsAt(tail) {
			sep = s.nl + lineIndent(text, starts[last])
		}
		body = child(lineIndent(text, starts[last]), false)
	}
	if tail == pe {
		return splice(text, pe, pe, ","+sep+body)
	}
	out := splice(text, tail, tail, sep+body)
	return splice(out, pe, pe, ",")
}

// removeChild returns the text without child i of container c. It is
// the exact inverse of appendChild when the child is the last one and
// the text around it is as appendChild left it; otherwise it removes the
// child, its comma and the line it stood on, if alone there.
func (d *doc) removeChild(s style, c *node, i int) []byte {
	text := d.text
	starts, ends := children(c)
	cs, ce := starts[i], ends[i]
	n := len(starts)
	if n == 1 {
		before, after := text[c.start+1:cs], text[ce:c.end-1]
		if len(before) == 0 && len(after) == 0 {
			return splice(text, cs, ce, "")
		}
		w := ""
		if nlPlusSpace(after, s.nl) {
			if k := bytes.LastIndex(before, []byte(s.nl)); k >= 0 && onlySpace(before[k+len(s.nl):]) {
				w = string(before[:k])
			}
		}
		return splice(text, c.start+1, c.end-1, w)
	}
	if i == n-1 {
		pe := ends[i-1]
		if text[pe] == ',' {
			tail := d.gapTail(pe+1, cs)
			if tail == pe+1 {
				return splice(text, pe, ce, "")
			}
			out := splice(text, tail, ce, "")
			return splice(out, pe, pe+1, "")
		}
		// the comma is further away: take it and the child
		k := pe
		for k < cs && (text[k] != ',' || d.inComment(k)) {
			k++
		}
		out := splice(text, d.gapTail(k+1, cs), ce, "")
		return splice(out, k, k+1, "")
	}
	// not the last: the child, up to and with its comma and the blanks
	// after it; the whole line when the child was alone on it
	start := cs
	ls := bytes.LastIndexByte(text[:cs], '\n') + 1
	if onlySpace(text[ls:cs]) {
		start = ls
	}
	end := ce
	for end < starts[i+1] && (text[end] != ',' || d.inComment(end)) {
		end++
	}
	end++ // the comma
	for end < starts[i+1] && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	if start == ls && end < len(text) && (text[end] == '\n' || text[end] == '\r') {
		if text[end] == '\r' {
			end++
		}
		if end < len(text) && text[end] == '\n' {
			end++
		}
	}
	return splice(text, start, end, "")
}

// inComment reports whether offset off lies inside a comment.
func (d *doc) inComment(off int) bool {
	for _, c := range d.comments {
		if c.start <= off && off < c.end {
			return true
		}
	}
	return false
}

// nlPlusSpace reports whether b is the newline nl followed by spaces
// and tabs only.
func nlPlusSpace(b []byte, nl string) bool {
	rest, ok := bytes.CutPrefix(b, []byte(nl))
	return ok && onlySpace(rest)
}

func onlySpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// number is a JSON number as the text writes it.
type number string

// valueOf returns what n holds, as render writes it.
func valueOf(n *node) value {
	switch n.kind {
	case kObject:
		o := make(obj, len(n.members))
		for i, m := range n.members {
			o[i] = kv{m.key, valueOf(m.value)}
		}
		return o
	case kArray:
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = valueOf(e)
		}
		return a
	case kString:
		return n.str
	case kNumber:
		return number(n.str)
	case kBool:
		return n.str == "true"
	}
	return nil
}

// fresh reports whether n is written exactly as render writes it from
// the indentation of its line, as a member or element warden created
// whole is: that, and not its meaning, tells a container warden created
// from one it only added to.
func (d *doc) fresh(s style, n *node) bool {
	got := string(d.text[n.start:n.end])
	ind, v := lineIndent(d.text, n.start), valueOf(n)
	return got == s.render(v, ind, true) || got == s.render(v, ind, false)
}

// same reports whether n means v: objects compared by their keys,
// whatever their order; numbers by their value.
func same(n *node, v value) bool {
	switch v := v.(type) {
	case string:
		return n.kind == kString && n.str == v
	case int:
		if n.kind != kNumber {
			return false
		}
		f, err := strconv.ParseFloat(n.str, 64)
		return err == nil && f == float64(v)
	case bool:
		return n.kind == kBool && n.str == strconv.FormatBool(v)
	case obj:
		if n.kind != kObject || len(n.members) != len(v) {
			return false
		}
		for _, m := range v {
			o := n.get(m.k)
			if o == nil || !same(o, m.v) {
				return false
			}
		}
		return true
	case []any:
		if n.kind != kArray || len(n.elems) != len(v) {
			return false
		}
		for i, e := range v {
			if !same(n.elems[i], e) {
				return false
			}
		}
		return true
	}
	return false
}
