package risk

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
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
// well-behaved agent sends.
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
		k, ok := d.member()
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
			str := d.string
			if k == "tool" {
				str = d.toolName
			}
			var ok bool
			if *dst, ok = str(); !ok {
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
	if d.pos != len(d.data) || strings.TrimSpace(a.Tool) == "" {
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
	if a.SecurityRisk == "" {
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
}

// member reads the key of an object's member and the colon after it,
// with the white space around them; pos is then at the value.
func (d *decoder) member() (string, bool) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", false
	}
	k, ok := d.key()
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
	for d.pos < len(d.data) {
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
		s, ok := d.string()
		return s, ok
	case c == '{':
		m, ok := d.object(depth + 1)
		return m, ok
	case c == '[':
		a, ok := d.array(depth + 1)
		return a, ok
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
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
		k, ok := d.member()
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
			a := make([]any, n)
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
func (d *decoder) number() (any, bool) {
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
		return nil, false
	}
	intEnd := d.pos
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			return nil, false
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			return nil, false
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
		return nil, false
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
// ParseObject reads come as constants, without an allocation.
func (d *decoder) key() (string, bool) { return d.known(false) }

// toolName reads the string at pos as a tool's name: the names of the
// tools agents call most come as constants, without an allocation.
func (d *decoder) toolName() (string, bool) { return d.known(true) }

// known reads the string at pos, which comes as a constant when its text
// is a known key (knownKey), or with tool set a known tool (knownTool).
func (d *decoder) known(tool bool) (string, bool) {
	raw, plain, ok := d.scanString()
	if !ok {
		return "", false
	}
	if !plain {
		return unquote(raw)
	}
	var s string
	if tool {
		s = knownTool(raw)
	} else {
		s = knownKey(raw)
	}
	if s != "" {
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
	b := make([]byte, 0, len(raw))
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
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// hex4 returns the value of the four hex digits that b starts with, or -1.
func hex4(b []byte) int {
	if len(b) < 4 {
		return -1
	}
	n := 0
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		n = n*16 + int(c)
	}
	return n
}
