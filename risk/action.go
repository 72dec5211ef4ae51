package risk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Action is one proposed tool call, as an agent emits it.
//
// Arguments is always a JSON object once decoded: an argv list (Codex's
// shell) is stored under "command", and the seed-004 form
// {"action":"code","code":…} becomes Tool "code" with the remaining fields as
// arguments.
type Action struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	SessionID string         `json:"session_id,omitempty"`
	Cwd       string         `json:"cwd,omitempty"`
	Agent     string         `json:"agent,omitempty"`
	// Annotations are the MCP tool annotations the client reported. They are
	// hints: warden never lowers a risk it found because of them.
	Annotations *Annotations `json:"annotations,omitempty"`
	// SecurityRisk is the acting LLM's own label (OpenHands' inline
	// security_risk), kept for the record; it never lowers a level.
	SecurityRisk string `json:"security_risk,omitempty"`
	Thought      string `json:"thought,omitempty"`
	Summary      string `json:"summary,omitempty"`
}

// Annotations are MCP tool annotations. Nil pointers mean "not given", and
// the MCP specification's defaults then apply: not read-only, destructive,
// not idempotent, open-world.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ReadOnly returns the readOnlyHint, false when absent.
func (a *Annotations) ReadOnly() bool { return a != nil && a.ReadOnlyHint != nil && *a.ReadOnlyHint }

// Destructive returns the destructiveHint, true when absent (the spec's
// default) and meaningless when the tool is read-only.
func (a *Annotations) Destructive() bool {
	if a == nil || a.DestructiveHint == nil {
		return true
	}
	return *a.DestructiveHint
}

// OpenWorld returns the openWorldHint, true when absent.
func (a *Annotations) OpenWorld() bool {
	if a == nil || a.OpenWorldHint == nil {
		return true
	}
	return *a.OpenWorldHint
}

// Limits bound what an action may contain. Input beyond them is not
// assessed: it is answered with Unknown and the reason.
type Limits struct {
	MaxBytes int // size of the encoded action
	MaxDepth int // nesting of objects and arrays
}

// DefaultLimits are generous for real tool calls (a large file write is a
// few hundred kilobytes) and small enough to keep analysis bounded.
var DefaultLimits = Limits{MaxBytes: 4 << 20, MaxDepth: 64}

// InputError says why an action could not be assessed at all.
type InputError struct{ Reason string }

func (e *InputError) Error() string { return "invalid action: " + e.Reason }

// IsInputError reports whether err (or one it wraps) is an *InputError.
func IsInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

func inputErrorf(format string, args ...any) error {
	return &InputError{Reason: fmt.Sprintf(format, args...)}
}

// ParseAction decodes one action from JSON, enforcing lim. Every failure is
// an *InputError with a reason fit to show a user.
func ParseAction(data []byte, lim Limits) (Action, error) {
	a, _, err := ParseObject(data, lim)
	return a, err
}

// ParseObject is ParseAction that also returns the JSON object the action
// was read from, decoded, so that a caller that reads fields of its own
// beside the action's (the "output" of a call that ran) decodes the line
// once. The object is nil when the data is not a JSON object within lim;
// it is returned, with the error, when it is one but not a valid action.
func ParseObject(data []byte, lim Limits) (Action, map[string]any, error) {
	return parseObject(data, lim, objectOf)
}

// ParseLine is ParseObject for a caller that reads, beside the action,
// only the value of the first of keys (other fields of its own) that the
// object holds, not null: v is that value, nil when there is none. It
// does not make the object of a plain action (see decodeAction), only of
// the lines that hold one of keys, or are not plain, which it reads as
// ParseObject does; the action and the error are ParseObject's.
func ParseLine(data []byte, lim Limits, keys ...string) (a Action, v any, err error) {
	if lim.MaxBytes <= 0 || len(data) <= lim.MaxBytes {
		if a, valid, ok := decodeAction(data, lim.MaxDepth, keys); ok {
			if !valid {
				if err := a.Validate(lim); err != nil {
					return Action{}, nil, err
				}
			}
			return a, nil, nil
		}
	}
	a, obj, err := ParseObject(data, lim)
	for _, k := range keys {
		if v = obj[k]; v != nil {
			break
		}
	}
	return a, v, err
}

// parseObject is ParseObject with the JSON object decoded by decode.
func parseObject(data []byte, lim Limits, decode func([]byte, Limits) (map[string]any, error)) (Action, map[string]any, error) {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return Action{}, nil, inputErrorf("action is %d bytes, more than the limit of %d", len(data), lim.MaxBytes)
	}
	obj, err := decode(data, lim)
	if err != nil {
		return Action{}, nil, err
	}
	a, err := ActionFromObject(obj)
	if err != nil {
		return Action{}, obj, err
	}
	if err := a.Validate(lim); err != nil {
		return Action{}, obj, err
	}
	return a, obj, nil
}

// objectOf decodes data, which is within lim.MaxBytes, as a JSON object.
// obj is nil, without an error, for the JSON null.
func objectOf(data []byte, lim Limits) (obj map[string]any, err error) {
	if obj, ok := decodeObject(data, lim.MaxDepth); ok {
		return obj, nil
	}
	return objectOfSlowly(data, lim)
}

// objectOfSlowly is objectOf with encoding/json, for what decodeObject
// does not decide; its errors say what is wrong.
func objectOfSlowly(data []byte, lim Limits) (obj map[string]any, err error) {
	if !utf8.Valid(data) {
		return nil, inputErrorf("action is not valid UTF-8")
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, inputErrorf("action contains a NUL byte")
	}
	if d := jsonDepth(data); lim.MaxDepth > 0 && d > lim.MaxDepth {
		return nil, inputErrorf("action nests deeper than %d levels", lim.MaxDepth)
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			return nil, inputErrorf("an action must be a JSON object: %v", err)
		}
		return nil, inputErrorf("not valid JSON: %v", err)
	}
	return obj, nil
}

// jsonDepth returns the deepest nesting of objects and arrays in data,
// ignoring brackets inside strings. It does not validate the JSON.
func jsonDepth(data []byte) int {
	depth, max := 0, 0
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				max = depth
			}
		case '}', ']':
			depth--
		}
	}
	return max
}

// UnmarshalJSON accepts the forms agents and integrations send: the
// canonical {"tool","arguments"}; "name" for "tool" (OpenAI-style tool
// calls, whose arguments may be a JSON-encoded string); arguments as an argv
// list; and seed-004's {"action":"code","code":…}.
func (a *Action) UnmarshalJSON(data []byte) error {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return inputErrorf("an action must be a JSON object: %v", err)
	}
	out, err := ActionFromObject(obj)
	if err != nil {
		return err
	}
	*a = out
	return nil
}

// ActionFromObject makes an action of a decoded JSON object, in the forms
// UnmarshalJSON accepts, so that a caller that decoded a line once (to
// read fields of its own beside the action's) does not decode it again.
// It does not check the action against limits (see Validate).
func ActionFromObject(obj map[string]any) (Action, error) {
	str := func(key string) (string, error) {
		v, ok := obj[key]
		if !ok || v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", inputErrorf("%q must be a string", key)
		}
		return s, nil
	}
	var err error
	var out Action
	for _, f := range []struct {
		key string
		dst *string
	}{{"tool", &out.Tool}, {"session_id", &out.SessionID}, {"cwd", &out.Cwd}, {"agent", &out.Agent},
		{"security_risk", &out.SecurityRisk}, {"thought", &out.Thought}, {"summary", &out.Summary}} {
		if *f.dst, err = str(f.key); err != nil {
			return Action{}, err
		}
	}
	if out.Tool == "" {
		if out.Tool, err = str("name"); err != nil {
			return Action{}, err
		}
	}
	if v, ok := obj["annotations"]; ok && v != nil {
		if out.Annotations, err = annotationsOf(v); err != nil {
			return Action{}, err
		}
	}
	args, hasArgs := obj["arguments"]
	if !hasArgs {
		args, hasArgs = obj["input"] // Claude Code's tool_input shape
	}
	switch {
	case out.Tool == "" && obj["action"] != nil:
		// Seed 004: {"action": "code", "code": "..."}; every other field is an argument.
		if out.Tool, err = str("action"); err != nil {
			return Action{}, err
		}
		out.Arguments = make(map[string]any, len(obj))
		for k, v := range obj {
			if k == "action" || k == "session_id" || k == "cwd" || k == "agent" {
				continue
			}
			out.Arguments[k] = v
		}
	case hasArgs:
		if out.Arguments, err = argumentsOf(args); err != nil {
			return Action{}, err
		}
	default:
		out.Arguments = map[string]any{}
	}
	if blank(out.Tool) {
		return Action{}, missingTool(obj)
	}
	if out.SecurityRisk == "" {
		if s, ok := out.Arguments["security_risk"].(string); ok {
			out.SecurityRisk = s
		}
	}
	return out, nil
}

// annotationsOf reads MCP tool annotations from their decoded JSON.
func annotationsOf(v any) (*Annotations, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, inputErrorf("annotations must be a JSON object, not %s", jsonKind(v))
	}
	an := new(Annotations)
	if t, ok := m["title"]; ok && t != nil {
		if an.Title, ok = t.(string); !ok {
			return nil, inputErrorf("annotations: \"title\" must be a string")
		}
	}
	for _, h := range []struct {
		key string
		dst **bool
	}{{"readOnlyHint", &an.ReadOnlyHint}, {"destructiveHint", &an.DestructiveHint}, {"idempotentHint", &an.IdempotentHint}, {"openWorldHint", &an.OpenWorldHint}} {
		x, ok := m[h.key]
		if !ok || x == nil {
			continue
		}
		b, ok := x.(bool)
		if !ok {
			return nil, inputErrorf("annotations: %q must be a boolean", h.key)
		}
		*h.dst = &b
	}
	return an, nil
}

// missingTool is the error for an action that names no tool: what it
// holds instead, so that whoever reads the reason sees what was sent.
func missingTool(obj map[string]any) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if len(k) > 40 {
			cut := 40
			for cut > 0 && !utf8.RuneStart(k[cut]) {
				cut--
			}
			k = k[:cut] + "…"
		}
		keys = append(keys, fmt.Sprintf("%q", k))
	}
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "…")
	}
	has := "it is empty"
	if len(keys) > 0 {
		has = "it has " + strings.Join(keys, ", ")
	}
	return inputErrorf("missing \"tool\": the action names no tool (%s), so what it would run cannot be judged; a tool call is {\"tool\": NAME, \"arguments\": {…}}", has)
}

func argumentsOf(v any) (map[string]any, error) {
	switch x := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return x, nil
	case []any:
		for _, e := range x {
			if _, ok := e.(string); !ok {
				return nil, inputErrorf("arguments: an argv list must hold only strings")
			}
		}
		return map[string]any{"command": x}, nil
	case string:
		// OpenAI-style tool calls carry arguments as a JSON-encoded string.
		var inner any
		if err := json.Unmarshal([]byte(x), &inner); err == nil {
			if m, ok := inner.(map[string]any); ok {
				return m, nil
			}
		}
		return nil, inputErrorf("arguments must be a JSON object or an argv list, not a string")
	}
	return nil, inputErrorf("arguments must be a JSON object or an argv list, not %s", jsonKind(v))
}

func jsonKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case string:
		return "a string"
	}
	return fmt.Sprintf("%T", v)
}

// Validate checks an action built in code against lim and the rules every
// action must meet: a tool name, no NUL bytes, valid UTF-8 and bounded
// nesting in every string.
func (a *Action) Validate(lim Limits) error {
	if blank(a.Tool) {
		return inputErrorf("missing \"tool\"")
	}
	for _, s := range []string{a.Tool, a.SessionID, a.Cwd, a.Agent} {
		if s == "" {
			continue // most actions name no session, directory or agent
		}
		if err := checkString(s); err != nil {
			return err
		}
	}
	v := validator{maxDepth: lim.MaxDepth}
	if err := v.walk(a.Arguments, 1); err != nil {
		return err
	}
	if lim.MaxBytes > 0 && v.total > lim.MaxBytes {
		return inputErrorf("arguments hold %d bytes of text, more than the limit of %d", v.total, lim.MaxBytes)
	}
	return nil
}

// validator walks the arguments of an action for Validate, adding up the
// bytes of their text.
type validator struct {
	maxDepth int
	total    int
}

// walk checks v, nested depth levels deep.
func (w *validator) walk(v any, depth int) error {
	if w.maxDepth > 0 && depth > w.maxDepth {
		return inputErrorf("arguments nest deeper than %d levels", w.maxDepth)
	}
	switch x := v.(type) {
	case string:
		w.total += len(x)
		return checkString(x)
	case map[string]any:
		for k, e := range x {
			w.total += len(k)
			if err := checkString(k); err != nil {
				return err
			}
			if s, ok := e.(string); ok && (w.maxDepth <= 0 || depth < w.maxDepth) {
				// a string member, the most common, checked here rather
				// than a level down (where the depth is depth+1)
				w.total += len(s)
				if err := checkString(s); err != nil {
					return err
				}
				continue
			}
			if err := w.walk(e, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := w.walk(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// blank reports whether s is empty or only white space (what
// strings.TrimSpace removes all of): a tool's name that names nothing.
// A name that starts with a printable ASCII byte is not, at a glance.
func blank(s string) bool {
	if len(s) > 0 && ' ' < s[0] && s[0] < utf8.RuneSelf {
		return false
	}
	return strings.TrimSpace(s) == ""
}

// checkString reports a NUL byte in s or, if there is none, invalid UTF-8.
func checkString(s string) error {
	if asciiWithoutNUL(s) {
		return nil // the common case, in one pass
	}
	if strings.IndexByte(s, 0) >= 0 {
		return inputErrorf("a string contains a NUL byte")
	}
	if !utf8.ValidString(s) {
		return inputErrorf("a string is not valid UTF-8")
	}
	return nil
}

// asciiWithoutNUL reports whether s is ASCII and holds no NUL byte,
// eight bytes at a time. false means "look again": it may be reported
// for a NUL-free valid string.
func asciiWithoutNUL(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; len(s)-i >= 16; i += 16 {
		// two words a turn, tested together: a command is a few of them
		t := s[i : i+16] // one load each, no bounds checks
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		y := uint64(t[8]) | uint64(t[9])<<8 | uint64(t[10])<<16 | uint64(t[11])<<24 |
			uint64(t[12])<<32 | uint64(t[13])<<40 | uint64(t[14])<<48 | uint64(t[15])<<56
		if (x|(x-ones)&^x|y|(y-ones)&^y)&highs != 0 { // a byte ≥ 0x80, or (maybe) a 0
			return false
		}
	}
	for ; len(s)-i >= 8; i += 8 {
		t := s[i : i+8]
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if (x|(x-ones)&^x)&highs != 0 {
			return false
		}
	}
	if i == len(s) {
		return true
	}
	if i >= 8 {
		// the last eight bytes, overlapping those read: one load for
		// the tail instead of a byte at a time
		t := s[len(s)-8:]
		x := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		return (x|(x-ones)&^x)&highs == 0
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
