package risk

import (
	"bytes"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/agentwarden/warden/internal/jsonenc"
)

// decodeObject decodes data, one JSON object, to exactly what
// encoding/json's Unmarshal into a map[string]any makes of it: strings,
// float64, bool, nil, []any (empty, not nil, for []) and map[string]any;
// the last of duplicate keys wins; an escaped lone surrogate becomes
// U+FFFD. It does so in one pass, without reflection, for the input a
// well-behaved agent sends. The values it makes share a few arrays (see
// keep, box and take), none of them data's: nothing writes them after.
//
// ok is false for anything else: data that is not one JSON object, not
// valid JSON or not valid UTF-8, nesting deeper than maxDepth (0: no
// limit of ours), a number out of float64's range. The caller then
// decodes data the slow way, whose errors say what is wrong: ok = false
// never means the data is invalid, only that decodeObject did not decide.
func decodeObject(data []byte, maxDepth int) (obj map[string]any, ok bool) {
	// beyond this, recursion is the slow path's business (encoding/json
	// refuses nesting past 10000)
	const deepest = 512
	if maxDepth <= 0 || maxDepth > deepest {
		maxDepth = deepest
	}
	d := decoder{data: data, maxDepth: maxDepth}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return nil, false
	}
	obj, ok = d.object(1)
	if !ok {
		return nil, false
	}
	d.space()
	if d.pos != len(d.data) {
		return nil, false
	}
	return obj, true
}

// decodeAction decodes data, one JSON object, straight to the action
// ActionFromObject makes of it, without the object, for the plain form a
// well-behaved agent sends: a "tool" and "arguments", other fields of the
// action as strings (or null), any others ignored. ok is false for
// anything else, decodeObject's cases and an object that holds one of
// the keys ActionFromObject reads another way ("name", "input",
// "action", "annotations") or one of others, a field of the action that
// is not a string or null, or no tool: the caller then decodes data the
// object's way, which decides them.
//
// valid reports that a passes Validate with any Limits whose MaxDepth is
// maxDepth and whose MaxBytes is 0 or at least len(data): every string
// of the action is valid UTF-8 (the decoder checks it), and none holds a
// NUL byte (a raw one is refused; valid is false when a \u0000 escape
// makes one); the arguments are the object decoded, whose nesting the
// decoder bounded (it counts a level more than Validate) and whose text
// is no longer than data. Arguments made another way (an argv list, a
// JSON string) leave valid false.
func decodeAction(data []byte, maxDepth int, others []string) (a Action, valid, ok bool) {
	const deepest = 512 // as decodeObject
	if maxDepth <= 0 || maxDepth > deepest {
		maxDepth = deepest
	}
	d := decoder{data: data, maxDepth: maxDepth}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return Action{}, false, false
	}
	d.pos++
	d.space()
	var args any
	hasArgs := false
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		return Action{}, false, false // no tool
	}
	for {
		k, ok := d.member(true)
		if !ok {
			return Action{}, false, false
		}
		var dst *string
		switch k {
		case "tool":
			dst = &a.Tool
		case "session_id":
			dst = &a.SessionID
		case "cwd":
			dst = &a.Cwd
		case "agent":
			dst = &a.Agent
		case "security_risk":
			dst = &a.SecurityRisk
		case "thought":
			dst = &a.Thought
		case "summary":
			dst = &a.Summary
		case "name", "input", "action", "annotations":
			return Action{}, false, false
		default:
			if slices.Contains(others, k) {
				return Action{}, false, false
			}
		}
		if dst != nil && d.pos < len(d.data) && d.data[d.pos] == '"' {
			// a field of the action, read as the string it is (not
			// boxed in an any); the tool's name, mostly one of a few,
			// without a copy then
			var ok bool
			if k == "tool" {
				*dst, ok = d.toolName()
			} else {
				*dst, ok = d.string()
			}
			if !ok {
				return Action{}, false, false
			}
			if more, ok := d.next('}'); !ok {
				return Action{}, false, false
			} else if !more {
				break
			}
			continue
		}
		v, ok := d.value(1)
		if !ok {
			return Action{}, false, false
		}
		switch {
		case dst != nil:
			switch x := v.(type) {
			case string:
				*dst = x
			case nil:
				*dst = ""
			default:
				return Action{}, false, false
			}
		case k == "arguments":
			args, hasArgs = v, true
		}
		more, ok := d.next('}')
		if !ok {
			return Action{}, false, false
		}
		if !more {
			break
		}
	}
	d.space()
	if d.pos != len(d.data) || blank(a.Tool) {
		return Action{}, false, false
	}
	_, argsMap := args.(map[string]any)
	valid = !d.nul && (argsMap || args == nil)
	if !hasArgs {
		a.Arguments = map[string]any{}
	} else {
		var err error
		if a.Arguments, err = argumentsOf(args); err != nil {
			return Action{}, false, false
		}
	}
	// arguments this decoder made hold the key only if it read it
	if a.SecurityRisk == "" && (d.riskKey || !argsMap) {
		if s, ok := a.Arguments["security_risk"].(string); ok {
			a.SecurityRisk = s
		}
	}
	return a, valid, true
}

// decoder reads data from pos on. Its methods report ok = false at the
// first byte they do not accept, and leave pos anywhere.
type decoder struct {
	data     []byte
	pos      int
	maxDepth int
	nul      bool // a string read holds a \u0000 escape
	riskKey  bool // a key read (see key) is "security_risk"

	// text holds the text of the strings of the object read (keys and
	// values), side by side: each is a part of it that nothing writes
	// again, as the string a strings.Builder returns is (see keep)
	text []byte
	// the values of the object's strings, numbers and arrays, which an
	// any holds by a pointer (as any(v) does, to a copy of v of its own),
	// and the elements of its arrays, a few to an array made once for
	// them (see box)
	strs  []string
	nums  []float64
	arrs  [][]any
	elems []any
}

// member reads the key of an object's member and the colon after it,
// with the white space around them; pos is then at the value. The key
// is read as an action's field (see field) when action is set, else as
// a key to keep (see key).
func (d *decoder) member(action bool) (string, bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", false
	}
	var k string
	var ok bool
	if action {
		k, ok = d.field()
	} else {
		k, ok = d.key()
	}
	if !ok {
		return "", false
	}
	d.space()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return "", false
	}
	d.pos++
	d.space()
	return k, true
}

// next reads what follows a member or an element: a comma and the white
// space after it (more is true), or close, which ends the object or array.
func (d *decoder) next(close byte) (more, ok bool) {
	d.space()
	if d.pos >= len(d.data) {
		return false, false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		d.space()
		return true, true
	case close:
		d.pos++
		return false, true
	}
	return false, false
}

// space skips JSON white space.
func (d *decoder) space() {
	for d.pos < len(d.data) && d.data[d.pos] <= ' ' {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value reads the value at pos, nested depth levels deep.
func (d *decoder) value(depth int) (any, bool) {
	if d.pos >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		raw, plain, ok := d.scanString()
		if !ok {
			return nil, false
		}
		return d.boxString(d.keep(raw, plain)), true
	case c == '{':
		m, ok := d.object(depth + 1)
		return m, ok
	case c == '[':
		a, ok := d.array(depth + 1)
		if !ok {
			return nil, false
		}
		return d.boxArray(a), true
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		f, ok := d.number()
		if !ok {
			return nil, false
		}
		return d.boxNumber(f), true
	}
	return nil, false
}

// object reads the object at pos, which is at the given depth.
func (d *decoder) object(depth int) (map[string]any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	d.pos++ // {
	m := make(map[string]any)
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return m, true
	}
	for {
		k, ok := d.member(false)
		if !ok {
			return nil, false
		}
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v
		if more, ok := d.next('}'); !ok {
			return nil, false
		} else if !more {
			return m, true
		}
	}
}

// array reads the array at pos, which is at the given depth.
func (d *decoder) array(depth int) ([]any, bool) {
	if depth > d.maxDepth {
		return nil, false
	}
	d.pos++ // [
	d.space()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return make([]any, 0), true
	}
	// the elements gather on the stack while they are few (an argv
	// list), and the array is made once, to size; past few, they go to
	// the heap, growing
	var few [8]any
	var many []any
	n := 0
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		switch {
		case many != nil:
			many = append(many, v)
		case n < len(few):
			few[n] = v
			n++
		default:
			many = append(make([]any, 0, 2*len(few)), few[:]...)
			many = append(many, v)
		}
		if more, ok := d.next(']'); !ok {
			return nil, false
		} else if !more {
			if many != nil {
				return many, true
			}
			if len(d.elems) == cap(d.elems) && len(d.arrs) == cap(d.arrs) {
				// an object's first array (or one after as many as
				// filled those made for them): its elements and its
				// header (see boxArray) in one allocation, room for a
				// few more
				m := new(arrayMem)
				d.elems, d.arrs = m.elems[:0], m.arrs[:0]
			}
			a := take(&d.elems, n, 8)
			copy(a, few[:n])
			return a, true
		}
	}
}

// literal reads the literal word at pos.
func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

// number reads the number at pos, in JSON's grammar, as a float64.
func (d *decoder) number() (float64, bool) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	intStart := d.pos
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && '1' <= d.data[d.pos] && d.data[d.pos] <= '9':
		d.digits()
	default:
		return 0, false
	}
	intEnd := d.pos
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return 0, false
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return 0, false
		}
	}
	if d.pos == intEnd && intEnd-intStart <= 15 {
		// an integer of at most 15 digits is exact in a float64: what
		// ParseFloat returns, without its string
		f := 0.0
		for _, c := range d.data[intStart:intEnd] {
			f = f*10 + float64(c-'0')
		}
		if intStart != start {
			f = -f // -0 too, as ParseFloat
		}
		return f, true
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// digits skips decimal digits and returns how many.
func (d *decoder) digits() int {
	start := d.pos
	for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// key reads the string at pos as an object's key: the keys of the forms
// ParseObject reads come as constants, others as part of d.text (see keep).
func (d *decoder) key() (string, bool) {
	raw, plain, ok := d.scanString()
	if !ok {
		return "", false
	}
	if plain {
		if k := knownKey(raw); k != "" {
			d.riskKey = d.riskKey || k == "security_risk"
			return k, true
		}
	}
	k := d.keep(raw, plain)
	d.riskKey = d.riskKey || k == "security_risk"
	return k, true
}

// field reads the string at pos as the key of a member of the action
// (see decodeAction): the key is to be looked at, not kept, and a plain
// one is the text of d.data, not a copy, valid while d.data is not
// written (as it is not while it is decoded).
func (d *decoder) field() (string, bool) {
	raw, plain, ok := d.scanString()
	if !ok {
		return "", false
	}
	if !plain {
		return unquote(raw)
	}
	if k := knownKey(raw); k != "" {
		return k, true
	}
	return unsafe.String(unsafe.SliceData(raw), len(raw)), true
}

// toolName reads the string at pos as a tool's name: the names of the
// tools agents call most come as constants, without an allocation.
func (d *decoder) toolName() (string, bool) {
	raw, plain, ok := d.scanString()
	if !ok {
		return "", false
	}
	if !plain {
		return unquote(raw)
	}
	if s := knownTool(raw); s != "" {
		return s, true
	}
	return string(raw), true
}

// knownKey returns the key that raw spells as a constant, "" for another.
func knownKey(raw []byte) string {
	switch string(raw) {
	case "tool":
		return "tool"
	case "arguments":
		return "arguments"
	case "command":
		return "command"
	case "session_id":
		return "session_id"
	case "cwd":
		return "cwd"
	case "file_path":
		return "file_path"
	case "content":
		return "content"
	case "path":
		return "path"
	case "url":
		return "url"
	case "code":
		return "code"
	case "query":
		return "query"
	case "description":
		return "description"
	case "security_risk":
		return "security_risk"
	}
	return ""
}

// knownTool returns the tool name that raw spells as a constant, "" for
// another.
func knownTool(raw []byte) string {
	switch string(raw) {
	case "Bash":
		return "Bash"
	case "shell":
		return "shell"
	case "execute_bash":
		return "execute_bash"
	case "python":
		return "python"
	case "Read":
		return "Read"
	case "Write":
		return "Write"
	case "Edit":
		return "Edit"
	case "WebFetch":
		return "WebFetch"
	case "str_replace_editor":
		return "str_replace_editor"
	}
	return ""
}

// keep returns the text of raw, a string's valid text between its quotes,
// that holds escapes unless plain. It is a part of d.text when raw fits
// in what d.text has left, or in a new d.text made for the strings that
// follow too, up to textMax bytes: one array for the strings of an
// object, not one each. A string longer than half of that has an array
// of its own, so that a string kept long after its object (a path a
// session remembers) keeps at most textMax bytes of its text alive.
func (d *decoder) keep(raw []byte, plain bool) string {
	if len(raw) == 0 {
		return ""
	}
	// the text of a string is never longer than raw (an escape is longer
	// than what it stands for), nor that of the strings after it than the
	// data after it
	if cap(d.text)-len(d.text) < len(raw) {
		if 2*len(raw) > textMax {
			if plain {
				return string(raw)
			}
			s, _ := unquote(raw)
			return s
		}
		d.newText(min(len(raw)+len(d.data)-d.pos, textMax))
	}
	start := len(d.text)
	if plain {
		d.text = append(d.text, raw...)
	} else {
		d.text = appendUnquoted(d.text, raw)
	}
	return unsafe.String(&d.text[start], len(d.text)-start)
}

// textMax bounds the array the strings of an object share (see keep).
const textMax = 1 << 10

// newText makes d.text, with room for n bytes, and d.strs too when it
// has no room left: one array for both (see textMem) while n is small,
// the strings of an object then made in one allocation.
func (d *decoder) newText(n int) {
	if len(d.strs) < cap(d.strs) {
		d.text = make([]byte, 0, n)
		return
	}
	switch {
	case n <= 64:
		d.strs, d.text = newTextMem[[64]byte]()
	case n <= 192:
		d.strs, d.text = newTextMem[[192]byte]()
	case n <= 448:
		d.strs, d.text = newTextMem[[448]byte]()
	case n <= 960:
		d.strs, d.text = newTextMem[[960]byte]()
	default:
		d.text = make([]byte, 0, n)
	}
}

// textMem is room for a few strings, headers (strs) and text (text, a
// byte array), made at once; the sizes newText makes are the sizes of
// the runtime's classes (128, 256, 512 and 1024 bytes), without room
// lost between.
type textMem[A any] struct {
	strs [4]string
	text A
}

// newTextMem returns a new textMem's headers and text, empty.
func newTextMem[A any]() (strs []string, text []byte) {
	m := new(textMem[A])
	return m.strs[:0], unsafe.Slice((*byte)(unsafe.Pointer(&m.text)), unsafe.Sizeof(m.text))[:0]
}

// boxString returns s as an any, as any(s) does, its string header one
// of d.strs (see box) where any(s) would make a copy of its own.
func (d *decoder) boxString(s string) any {
	if s == "" {
		return "" // any("") is not a copy
	}
	p := &take(&d.strs, 1, 4)[0]
	*p = s
	return box(any(""), unsafe.Pointer(p))
}

// boxNumber returns f as an any, as any(f) does, with f in d.nums.
func (d *decoder) boxNumber(f float64) any {
	p := &take(&d.nums, 1, 2)[0]
	*p = f
	return box(any(0.0), unsafe.Pointer(p))
}

// arrayMem is room for the elements and headers of a few short arrays,
// made at once (176 bytes, a size class of the runtime's).
type arrayMem struct {
	arrs  [2][]any
	elems [8]any
}

// boxArray returns a as an any, as any(a) does, its slice header in
// d.arrs.
func (d *decoder) boxArray(a []any) any {
	p := &take(&d.arrs, 1, 2)[0]
	*p = a
	return box(any([]any(nil)), unsafe.Pointer(p))
}

// box returns zero, an any that holds the zero value of a type that is
// not a pointer's shape (a string, a float64, a slice), holding the value
// at p instead. Such an any holds its value by a pointer to it, which
// any(v) sets to a copy of v of its own, made for it: box lets values
// that a decoder makes share arrays instead (see take), few of them. The
// value at p is never to be written again, as the copy any(v) makes is
// not.
func box(zero any, p unsafe.Pointer) any {
	(*eface)(unsafe.Pointer(&zero)).data = p
	return zero
}

// eface is the layout of an any: its type and a pointer to its value
// (for a type that is not a pointer's shape).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// take returns n elements of *free, which it makes a few at a time: the
// arrays of several values made once. Its arrays grow from first
// elements to boxChunk, for the few values of a small object and the
// many of a large one; n elements that are more than half of those are
// an array of their own. The elements are len n, cap n: an append to
// them copies.
func take[T any](free *[]T, n, first int) []T {
	if n > cap(*free)-len(*free) {
		size := min(max(first, 2*cap(*free)), boxChunk)
		if 2*n > size {
			return make([]T, n)
		}
		*free = make([]T, 0, size)
	}
	i := len(*free)
	*free = (*free)[:i+n]
	return (*free)[i : i+n : i+n]
}

// boxChunk is the most values take makes at a time.
const boxChunk = 64

// string reads the string at pos.
func (d *decoder) string() (string, bool) {
	raw, plain, ok := d.scanString()
	if !ok {
		return "", false
	}
	if plain {
		return string(raw), true
	}
	return unquote(raw)
}

// scanString finds the end of the string at pos and returns its text
// between the quotes, raw. plain is set when it holds no escape. ok is
// false when it does not end, holds a control character, an invalid
// escape or invalid UTF-8.
func (d *decoder) scanString() (raw []byte, plain, ok bool) {
	start := d.pos + 1
	ascii := true
	plain = true
	for i := start; i < len(d.data); i++ {
		if i = jsonenc.Plain(d.data, i); i == len(d.data) {
			break
		}
		switch c := d.data[i]; {
		case c == '"':
			raw = d.data[start:i]
			if !ascii && !utf8.Valid(raw) {
				return nil, false, false
			}
			d.pos = i + 1
			return raw, plain, true
		case c == '\\':
			plain = false
			i++
			if i >= len(d.data) {
				return nil, false, false
			}
			switch d.data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				switch hex4(d.data[i+1:]) {
				case -1:
					return nil, false, false
				case 0:
					d.nul = true
				}
				i += 4
			default:
				return nil, false, false
			}
		case c < ' ':
			return nil, false, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false, false
}

// unquote decodes the escapes of raw, a string's valid text between its
// quotes, as encoding/json does.
func unquote(raw []byte) (string, bool) {
	// the text is never longer than raw (an escape is longer than what
	// it stands for); the string returned is b's array, which nothing
	// writes after (as strings.Builder does)
	b := appendUnquoted(make([]byte, 0, len(raw)), raw)
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// appendUnquoted appends to b the text of raw, a string's valid text
// between its quotes, its escapes decoded as encoding/json does.
func appendUnquoted(b, raw []byte) []byte {
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			// the run up to the next escape, as it is
			j := bytes.IndexByte(raw[i:], '\\')
			if j < 0 {
				j = len(raw) - i
			}
			b = append(b, raw[i:i+j]...)
			i += j
			continue
		}
		switch raw[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := rune(hex4(raw[i+2:]))
			i += 6
			if utf16.IsSurrogate(r) {
				// a pair when a low surrogate follows; alone, U+FFFD
				r2 := rune(-1)
				if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = rune(hex4(raw[i+2:]))
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					i += 6
					r = dec
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // " \ /
			b = append(b, raw[i+1])
		}
		i += 2
	}
	return b
}

// hex4 returns the value of the four hex digits that b starts with, or -1.
func hex4(b []byte) int {
	if len(b) < 4 {
		return -1
	}
	d0, d1, d2, d3 := hexDigit[b[0]], hexDigit[b[1]], hexDigit[b[2]], hexDigit[b[3]]
	if d0|d1|d2|d3 < 0 { // one is not a digit
		return -1
	}
	return int(d0)<<12 | int(d1)<<8 | int(d2)<<4 | int(d3)
}

// hexDigit holds the value of each hexadecimal digit, -1 for other bytes.
var hexDigit = func() (t [256]int8) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = int8(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = int8(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			t[c] = int8(c - 'A' + 10)
		default:
			t[c] = -1
		}
	}
	return t
}()
