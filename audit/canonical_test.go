package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/agentwarden/warden/risk"
)

// marshalJSON is the canonical JSON as Seal wrote it before appendEvent:
// what Canonical must keep writing, byte for byte, so that old chains
// verify and a record's hash never depends on which path wrote it.
func marshalJSON(ev *Event) ([]byte, error) { return json.Marshal(ev) }

// pieces are the bits random strings are made of: every escape class of
// a JSON string (quote, backslash, each control character kind, HTML's
// <, > and &, U+2028 and U+2029), multi-byte UTF-8, and invalid UTF-8
// (a lone continuation byte, a truncated sequence, an encoded surrogate,
// an overlong form).
var pieces = []string{"", "a", "Bash", "rm -rf /", " ", `"`, `\`, "/", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
	"<", ">", "&", "<script>", "a&&b", "\u2028", "\u2029", "é", "日本", "😀", "\ufffd", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xc0\xaf",
	"\u0085", "\u00a0", "\ufeff", "ghp_****", "=", "0", "-1", "1e21"}

func randString(r *rand.Rand) string {
	var b []byte
	for range r.IntN(5) {
		b = append(b, pieces[r.IntN(len(pieces))]...)
	}
	return string(b)
}

var floats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 1e-7, 9.999999e-7, 1e20, 1e21, 1e21 - 65536, -1e21, 123456789.125,
	1e-300, 5e-324, math.MaxFloat64, -math.MaxFloat64, 0.1, 1.0 / 3, 1e6, 12345678901234567890, 2.5e-8, 1e100}

func randFloat(r *rand.Rand) float64 {
	switch r.IntN(3) {
	case 0:
		return floats[r.IntN(len(floats))]
	case 1:
		return math.Float64frombits(r.Uint64()) // NaN and the infinities now and then
	}
	return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(60)-30))
}

// randValue returns a value of the kinds JSON decoding into an any makes
// (and int).
func randValue(r *rand.Rand, depth int) any {
	n := 7
	if depth > 3 {
		n = 5
	}
	switch r.IntN(n) {
	case 0:
		return nil
	case 1:
		return randString(r)
	case 2:
		return r.IntN(2) == 0
	case 3:
		return randFloat(r)
	case 4:
		return int(r.Int64()) >> r.IntN(64)
	case 5:
		return randArgs(r, depth+1)
	default:
		if r.IntN(4) == 0 {
			return []any(nil)
		}
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randValue(r, depth+1)
		}
		return l
	}
}

func randArgs(r *rand.Rand, depth int) map[string]any {
	if r.IntN(6) == 0 {
		return nil
	}
	m := map[string]any{}
	for range r.IntN(6) {
		m[randString(r)] = randValue(r, depth)
	}
	return m
}

var (
	levelType = reflect.TypeFor[risk.Level]()
	timeType  = reflect.TypeFor[time.Time]()
	argsType  = reflect.TypeFor[map[string]any]()
)

// fill sets v to random values; all sets every field (and pointer, and
// slice) to something not empty, so that a field appendEvent leaves out
// shows. It goes by reflection, so a field added to Event or to a type
// it holds is filled too.
func fill(r *rand.Rand, v reflect.Value, all bool) {
	switch t := v.Type(); {
	case t == levelType:
		v.SetInt(int64(r.IntN(int(risk.Critical) + 1)))
	case t == timeType:
		sec := r.Int64N(253402300800) - 62135596800 // years 1 to 9999
		v.Set(reflect.ValueOf(time.Unix(sec, r.Int64N(1e9)*int64(r.IntN(2))).UTC()))
	case t == argsType:
		m := randArgs(r, 0)
		if all && len(m) == 0 {
			m = map[string]any{"k": randValue(r, 0)}
		}
		v.Set(reflect.ValueOf(m))
	default:
		switch v.Kind() {
		case reflect.String:
			s := randString(r)
			if all && s == "" {
				s = "x"
			}
			v.SetString(s)
		case reflect.Bool:
			v.SetBool(all || r.IntN(2) == 0)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n := r.Int64() >> r.IntN(64)
			if r.IntN(2) == 0 {
				n = -n
			}
			if all && n == 0 {
				n = 1
			}
			if v.OverflowInt(n) {
				n = int64(int8(n))
			}
			v.SetInt(n)
		case reflect.Float64:
			v.SetFloat(randFloat(r))
		case reflect.Pointer:
			if !all && r.IntN(3) == 0 {
				v.SetZero()
				return
			}
			p := reflect.New(t.Elem())
			fill(r, p.Elem(), all)
			v.Set(p)
		case reflect.Slice:
			if !all && r.IntN(4) == 0 {
				v.SetZero()
				return
			}
			n := r.IntN(4)
			if all && n == 0 {
				n = 1
			}
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				fill(r, s.Index(i), all)
			}
			v.Set(s)
		case reflect.Struct:
			for i := range t.NumField() {
				if t.Field(i).IsExported() && (all || r.IntN(2) == 0) {
					fill(r, v.Field(i), all)
				}
			}
		default:
			panic("fill: no filler for " + t.String())
		}
	}
}

// check fails t unless Canonical writes ev as json.Marshal does (or both
// fail), and reports whether appendEvent wrote it.
func check(t *testing.T, ev *Event) bool {
	t.Helper()
	want, werr := marshalJSON(ev)
	got, gerr := Canonical(ev)
	if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("Canonical wrote\n%q (%v), json.Marshal\n%q (%v)", got, gerr, want, werr)
	}
	_, ok := appendEvent(nil, ev)
	return ok
}

// TestAppendEvent: for random events of every kind, every field set or
// unset, Canonical writes json.Marshal's bytes; appendEvent writes all
// but those it must leave to json.Marshal.
func TestAppendEvent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fast := 0
	const n = 20000
	for range n {
		var ev Event
		fill(r, reflect.ValueOf(&ev).Elem(), false)
		if check(t, &ev) {
			fast++
		}
	}
	// NaN and the infinities are left to json.Marshal (which fails)
	if fast < n/2 {
		t.Errorf("appendEvent wrote %d events of %d", fast, n)
	}
}

// TestAppendEventFields: an event with every field (of every type it
// holds) set is written by appendEvent, as json.Marshal writes it: a
// field appendEvent does not know fails this test.
func TestAppendEventFields(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var ev Event
		fill(r, reflect.ValueOf(&ev).Elem(), true)
		ev.Action.Arguments = map[string]any{"command": randString(r), "n": float64(i)}
		if !check(t, &ev) {
			t.Fatalf("appendEvent did not write %+v", ev)
		}
	}
}

// TestAppendEventFallback: what appendEvent cannot write as json.Marshal
// does goes to json.Marshal: the bytes (or the failure) are its.
func TestAppendEventFallback(t *testing.T) {
	base := func() *Event {
		return &Event{Seq: 3, Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Kind: KindCheck,
			Action:     &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls"}},
			Assessment: &risk.Assessment{Level: risk.Low}, Decision: &risk.Decision{Verdict: risk.Allow}}
	}
	deep := map[string]any{}
	m := deep
	for range maxDepth + 5 {
		next := map[string]any{}
		m["a"] = next
		m = next
	}
	cases := map[string]func(*Event){
		"NaN":            func(ev *Event) { ev.Action.Arguments["x"] = math.NaN() },
		"infinity":       func(ev *Event) { ev.Action.Arguments["x"] = []any{math.Inf(-1)} },
		"json.Number":    func(ev *Event) { ev.Action.Arguments["x"] = json.Number("12") },
		"int64":          func(ev *Event) { ev.Action.Arguments["x"] = int64(12) },
		"[]string":       func(ev *Event) { ev.Action.Arguments["x"] = []string{"<a>"} },
		"struct":         func(ev *Event) { ev.Action.Arguments["x"] = struct{ A string }{"&"} },
		"invalid level":  func(ev *Event) { ev.Assessment.Level = risk.Level(9) },
		"finding level":  func(ev *Event) { ev.Assessment.Findings = []risk.Finding{{Level: -3}} },
		"year 10000":     func(ev *Event) { ev.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },
		"deep arguments": func(ev *Event) { ev.Action.Arguments = deep },
	}
	for name, f := range cases {
		ev := base()
		f(ev)
		if check(t, ev) {
			t.Errorf("%s: appendEvent wrote it", name)
		}
	}
	if !check(t, base()) {
		t.Error("appendEvent did not write the plain event")
	}
}

// FuzzAppendEvent: events made of the fuzzer's strings, numbers and
// arguments (any JSON object) are written as json.Marshal writes them.
func FuzzAppendEvent(f *testing.F) {
	f.Add("Bash", `{"command":"rm -rf / && echo <x>"}`, "s\u2028", "\xff\"\\", int64(7), 1.5e-7, true, uint8(0))
	f.Add("", `{"a":[1,2.5,-0,1e21,null,true,{"b":"\u0000"}],"":{}}`, "", "", int64(-1), 0.0, false, uint8(255))
	f.Add("mcp__x", `null`, "é😀", "<>&", int64(math.MaxInt64), math.MaxFloat64, true, uint8(3))
	f.Fuzz(func(t *testing.T, tool, args, s1, s2 string, n int64, x float64, b bool, mask uint8) {
		var a map[string]any
		if json.Unmarshal([]byte(args), &a) != nil {
			a = map[string]any{"raw": args}
		}
		if a != nil {
			a["x"] = x
		}
		ev := &Event{Seq: n, Prev: s1, Time: time.Unix(n%253402300799, n%1e9).UTC(), Kind: Kind(s2), Session: s1, Tool: tool,
			Action: &risk.Action{Tool: tool, Arguments: a, Cwd: s2, Thought: s1}, ActionHash: s2, Bypass: b, Error: s1}
		if mask&1 != 0 {
			ev.Assessment = &risk.Assessment{Level: risk.Level(int(mask>>4) % 7), Score: risk.Score(n % 101), Reasons: []string{s1, s2},
				Findings: []risk.Finding{{Analyzer: tool, Rule: s2, Level: risk.High, Reason: s1, Resource: s2}}, EstimatedImpact: s2}
		}
		if mask&2 != 0 {
			ev.Decision = &risk.Decision{Verdict: risk.Verdict(s1), Reasons: []string{s2}, Rule: tool, Stage: risk.Stage(s2), Ref: s1, Approvable: []string{s2}, Shadow: b}
		}
		if mask&4 != 0 {
			code := int(n)
			ev.Outcome = &Outcome{ExitCode: &code, Error: s1, Duration: time.Duration(n), Interrupted: b}
			ev.Approval = &Approval{By: s1, Reason: s2, Of: n}
		}
		if mask&8 != 0 {
			ev.Judge = &Judgement{Model: s1, Verdict: s2, Latency: time.Duration(n), InputTokens: int(n)}
			ev.Pruned = &Pruned{First: n, Anchor: s2, Reason: s1}
		}
		check(t, ev)
	})
}
