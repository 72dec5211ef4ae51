package audit

import (
	"math"
	"slices"
	"strconv"

	"github.com/agentwarden/warden/internal/jsonenc"
	"github.com/agentwarden/warden/risk"
)

// appendEvent appends ev's JSON as json.Marshal writes it, without
// reflection: encoding/json builds its encoders for Event and all it
// holds on a process's first Marshal, which costs more than a hook
// process's whole audit write. It reports false for an event it cannot
// write byte for byte as json.Marshal does (an argument of a Go type
// JSON decoding does not make, a NaN, a time json.Marshal refuses, an
// invalid level, nesting past maxDepth): Canonical then uses
// json.Marshal. TestAppendEvent and FuzzAppendEvent hold the bytes equal
// to json.Marshal's, TestAppendEventFields that every field is written.
func appendEvent(dst []byte, ev *Event) ([]byte, bool) {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, ev.Seq, 10)
	dst = append(dst, `,"prev":`...)
	dst = jsonenc.String(dst, ev.Prev)
	t, err := ev.Time.MarshalJSON()
	if err != nil {
		return dst, false
	}
	dst = append(dst, `,"time":`...)
	dst = append(dst, t...)
	dst = append(dst, `,"kind":`...)
	dst = jsonenc.String(dst, string(ev.Kind))
	dst = jsonenc.OptString(dst, `,"session":`, ev.Session)
	dst = jsonenc.OptString(dst, `,"agent":`, ev.Agent)
	dst = jsonenc.OptString(dst, `,"tool":`, ev.Tool)
	if a := ev.Action; a != nil {
		dst = append(dst, `,"action":{"tool":`...)
		dst = jsonenc.String(dst, a.Tool)
		dst = append(dst, `,"arguments":`...)
		var ok bool
		if dst, ok = appendObject(dst, a.Arguments, 0); !ok {
			return dst, false
		}
		dst = jsonenc.OptString(dst, `,"session_id":`, a.SessionID)
		dst = jsonenc.OptString(dst, `,"cwd":`, a.Cwd)
		dst = jsonenc.OptString(dst, `,"agent":`, a.Agent)
		if n := a.Annotations; n != nil {
			dst = append(dst, `,"annotations":{`...)
			start := len(dst)
			dst = jsonenc.OptString(dst, `,"title":`, n.Title)
			dst = optBoolPtr(dst, `,"readOnlyHint":`, n.ReadOnlyHint)
			dst = optBoolPtr(dst, `,"destructiveHint":`, n.DestructiveHint)
			dst = optBoolPtr(dst, `,"idempotentHint":`, n.IdempotentHint)
			dst = optBoolPtr(dst, `,"openWorldHint":`, n.OpenWorldHint)
			dst = dropComma(dst, start)
			dst = append(dst, '}')
		}
		dst = jsonenc.OptString(dst, `,"security_risk":`, a.SecurityRisk)
		dst = jsonenc.OptString(dst, `,"thought":`, a.Thought)
		dst = jsonenc.OptString(dst, `,"summary":`, a.Summary)
		dst = append(dst, '}')
	}
	dst = jsonenc.OptString(dst, `,"action_hash":`, ev.ActionHash)
	if a := ev.Assessment; a != nil {
		dst = append(dst, `,"assessment":{`...)
		if dst, err = a.AppendJSONFields(dst); err != nil {
			return dst, false
		}
		dst = append(dst, '}')
	}
	if d := ev.Decision; d != nil {
		dst = appendDecision(dst, d)
	}
	dst = jsonenc.OptString(dst, `,"mode":`, ev.Mode)
	dst = jsonenc.OptString(dst, `,"policy_hash":`, ev.PolicyHash)
	if j := ev.Judge; j != nil {
		dst = append(dst, `,"judge":{"model":`...)
		dst = jsonenc.String(dst, j.Model)
		dst = append(dst, `,"verdict":`...)
		dst = jsonenc.String(dst, j.Verdict)
		dst = jsonenc.OptString(dst, `,"answer":`, j.Answer)
		dst = jsonenc.OptString(dst, `,"prompt_hash":`, j.PromptHash)
		dst = append(dst, `,"latency_ns":`...)
		dst = strconv.AppendInt(dst, int64(j.Latency), 10)
		dst = optInt(dst, `,"input_tokens":`, int64(j.InputTokens))
		dst = optInt(dst, `,"output_tokens":`, int64(j.OutputTokens))
		dst = jsonenc.OptString(dst, `,"error":`, j.Error)
		dst = append(dst, '}')
	}
	if p := ev.Approval; p != nil {
		dst = append(dst, `,"approval":{`...)
		start := len(dst)
		dst = jsonenc.OptString(dst, `,"by":`, p.By)
		dst = jsonenc.OptString(dst, `,"reason":`, p.Reason)
		dst = jsonenc.OptString(dst, `,"scope":`, p.Scope)
		dst = jsonenc.OptString(dst, `,"rule":`, p.Rule)
		dst = jsonenc.OptString(dst, `,"file":`, p.File)
		dst = optInt(dst, `,"of":`, p.Of)
		dst = dropComma(dst, start)
		dst = append(dst, '}')
	}
	if o := ev.Outcome; o != nil {
		dst = append(dst, `,"outcome":{`...)
		start := len(dst)
		if o.ExitCode != nil {
			dst = append(dst, `,"exit_code":`...)
			dst = strconv.AppendInt(dst, int64(*o.ExitCode), 10)
		}
		dst = jsonenc.OptString(dst, `,"error":`, o.Error)
		dst = optInt(dst, `,"duration_ns":`, int64(o.Duration))
		if o.Interrupted {
			dst = append(dst, `,"interrupted":true`...)
		}
		dst = dropComma(dst, start)
		dst = append(dst, '}')
	}
	if p := ev.Pruned; p != nil {
		dst = append(dst, `,"pruned":{"first":`...)
		dst = strconv.AppendInt(dst, p.First, 10)
		dst = append(dst, `,"before":`...)
		dst = strconv.AppendInt(dst, p.Before, 10)
		dst = append(dst, `,"count":`...)
		dst = strconv.AppendInt(dst, p.Count, 10)
		dst = append(dst, `,"anchor":`...)
		dst = jsonenc.String(dst, p.Anchor)
		dst = jsonenc.OptString(dst, `,"by":`, p.By)
		dst = jsonenc.OptString(dst, `,"reason":`, p.Reason)
		dst = append(dst, '}')
	}
	if ev.Bypass {
		dst = append(dst, `,"bypass":true`...)
	}
	dst = jsonenc.OptString(dst, `,"error":`, ev.Error)
	return append(dst, '}'), true
}

// appendDecision appends d as the event's "decision" member.
func appendDecision(dst []byte, d *risk.Decision) []byte {
	dst = append(dst, `,"decision":{"decision":`...)
	dst = jsonenc.String(dst, string(d.Verdict))
	if len(d.Reasons) > 0 {
		dst = append(dst, `,"reasons":`...)
		dst = jsonenc.Strings(dst, d.Reasons)
	}
	dst = jsonenc.OptString(dst, `,"rule":`, d.Rule)
	dst = jsonenc.OptString(dst, `,"stage":`, string(d.Stage))
	dst = jsonenc.OptString(dst, `,"origin":`, d.Origin)
	dst = jsonenc.OptString(dst, `,"layer":`, d.Layer)
	dst = jsonenc.OptString(dst, `,"ref":`, d.Ref)
	if len(d.Approvable) > 0 {
		dst = append(dst, `,"approvable":`...)
		dst = jsonenc.Strings(dst, d.Approvable)
	}
	if d.Shadow {
		dst = append(dst, `,"shadow":true`...)
	}
	return append(dst, '}')
}

// optInt appends name and n, unless n is 0 (omitempty).
func optInt(dst []byte, name string, n int64) []byte {
	if n == 0 {
		return dst
	}
	dst = append(dst, name...)
	return strconv.AppendInt(dst, n, 10)
}

// optBoolPtr appends name and *b, unless b is nil (omitempty).
func optBoolPtr(dst []byte, name string, b *bool) []byte {
	if b == nil {
		return dst
	}
	dst = append(dst, name...)
	return jsonenc.Bool(dst, *b)
}

// dropComma removes the comma that starts the members written at start
// (each is written with one before it), if any were.
func dropComma(dst []byte, start int) []byte {
	if len(dst) > start && dst[start] == ',' {
		return append(dst[:start], dst[start+1:]...)
	}
	return dst
}

// maxDepth bounds the nesting appendValue writes; deeper values are left
// to json.Marshal.
const maxDepth = 200

// appendObject appends m as json.Marshal writes a map[string]any: keys
// sorted, nil as null.
func appendObject(dst []byte, m map[string]any, depth int) ([]byte, bool) {
	if m == nil {
		return append(dst, "null"...), true
	}
	var keysArr [16]string
	keys := keysArr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonenc.String(dst, k)
		dst = append(dst, ':')
		var ok bool
		if dst, ok = appendValue(dst, m[k], depth+1); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendValue appends v, a value of the types JSON decoding into an any
// makes (and int), as json.Marshal writes it; false for any other.
func appendValue(dst []byte, v any, depth int) ([]byte, bool) {
	if depth > maxDepth {
		return dst, false
	}
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return jsonenc.String(dst, v), true
	case bool:
		return jsonenc.Bool(dst, v), true
	case float64:
		return appendFloat(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10), true
	case map[string]any:
		return appendObject(dst, v, depth)
	case []any:
		if v == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, e, depth+1); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return dst, false
}

// appendFloat appends f as encoding/json writes a float64 (its
// floatEncoder): the shortest decimal, in exponent form below 1e-6 and
// from 1e21, with a one-digit negative exponent unpadded. NaN and the
// infinities are no JSON: false.
func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}
