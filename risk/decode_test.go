package risk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// parseObjectSlow is ParseObject as it was before decodeObject: every
// line through encoding/json (objectOfSlowly). The differential tests hold the two equal.
func parseObjectSlow(data []byte, lim Limits) (Action, map[string]any, error) {
	return parseObject(data, lim, objectOfSlowly)
}

// sameJSON reports whether a and b are the same decoded JSON value, down
// to the bits of numbers (-0 is not 0) and nil against empty slices.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	}
	panic(fmt.Sprintf("sameJSON: %T", a))
}

func sameAction(a, b Action) bool {
	aa, ba := a.Arguments, b.Arguments
	a.Arguments, b.Arguments = nil, nil
	if !reflect.DeepEqual(a, b) || (aa == nil) != (ba == nil) {
		return false
	}
	return aa == nil || sameJSON(aa, ba)
}

// checkParseObject fails t when ParseObject and parseObjectSlow differ on
// data, for the default limits and a few others.
func checkParseObject(t *testing.T, data []byte) {
	t.Helper()
	for _, lim := range []Limits{DefaultLimits, {}, {MaxBytes: 64, MaxDepth: 2}, {MaxDepth: 1}} {
		a, obj, err := ParseObject(data, lim)
		wa, wobj, werr := parseObjectSlow(data, lim)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("%+v %q: error\n %v\nwant\n %v", lim, data, err, werr)
		}
		if (obj == nil) != (wobj == nil) || obj != nil && !sameJSON(obj, wobj) {
			t.Fatalf("%+v %q: object\n %#v\nwant\n %#v", lim, data, obj, wobj)
		}
		if !sameAction(a, wa) {
			t.Fatalf("%+v %q: action\n %#v\nwant\n %#v", lim, data, a, wa)
		}
		// what decodeAction says is valid passes Validate (ParseLine
		// does not check it again)
		if lim.MaxBytes <= 0 || len(data) <= lim.MaxBytes {
			if da, valid, ok := decodeAction(data, lim.MaxDepth, nil); ok && valid {
				if err := da.Validate(lim); err != nil {
					t.Fatalf("%+v %q: decodeAction says valid, Validate: %v", lim, data, err)
				}
			}
		}
		// and ParseLine, which makes no object of a plain action, is
		// ParseObject with the first of its keys read from the object
		keys := []string{"output", "tool_response"}
		la, v, lerr := ParseLine(data, lim, keys...)
		var wv any
		for _, k := range keys {
			if wv = wobj[k]; wv != nil {
				break
			}
		}
		if fmt.Sprint(lerr) != fmt.Sprint(werr) {
			t.Fatalf("%+v %q: ParseLine error\n %v\nwant\n %v", lim, data, lerr, werr)
		}
		if !sameJSON(v, wv) {
			t.Fatalf("%+v %q: ParseLine value\n %#v\nwant\n %#v", lim, data, v, wv)
		}
		if !sameAction(la, wa) {
			t.Fatalf("%+v %q: ParseLine action\n %#v\nwant\n %#v", lim, data, la, wa)
		}
		// what ParseLine returns without an error passes Validate: the
		// engine does not validate it again (see internal/parsed)
		if lerr == nil {
			if err := la.Validate(lim); err != nil {
				t.Fatalf("%+v %q: ParseLine returned, Validate: %v", lim, data, err)
			}
		}
	}
}

// decodeSeeds are inputs at the edges of what decodeObject decides.
var decodeSeeds = []string{
	`{"tool":"Bash","arguments":{"command":"ls -la"}}`,
	` {"tool" : "Bash" , "arguments" : { "command" : "ls" } } ` + "\t\r\n",
	`{"tool":"x","arguments":{"a":[1,2.5,null,true,false,{"b":"c"},[],{}]},"session_id":"s","cwd":"/w","agent":"a","thought":"t","summary":"s"}`,
	`{"tool":"x","tool":"y","arguments":{"a":1},"arguments":{"b":[2]}}`,
	`{"tool":"x","arguments":{"n":[0,-0,-0.0,1e400,-1e400,1e-400,123456789012345,1234567890123456,12345678901234567890,9007199254740993,0.1,1E+2,1e-2,-12.5e3]}}`,
	`{"tool":"x","arguments":{"n":1e400}}`, `{"tool":"x","arguments":{"n":01}}`, `{"tool":"x","arguments":{"n":1.}}`,
	`{"tool":"x","arguments":{"n":-}}`, `{"tool":"x","arguments":{"n":.5}}`, `{"tool":"x","arguments":{"n":+1}}`,
	`{"tool":"x","arguments":{"n":1e}}`, `{"tool":"x","arguments":{"n":0x10}}`, `{"tool":"x","arguments":{"n":1_0}}`,
	`{"tool":"x","arguments":{"n":Infinity}}`, `{"tool":"x","arguments":{"n":NaN}}`,
	`{"tool":"x","arguments":{"s":"\u00e9\u20ac\ud83d\ude00\ud800\udc00\ud800x\udc00\ud800\ud800\ud800\u0041\uDBFF\uDFFF\uFFFD"}}`,
	`{"tool":"x","arguments":{"s":"\ud800"}}`, `{"tool":"x","arguments":{"s":"\ud800\u"}}`, `{"tool":"x","arguments":{"s":"\u12G4"}}`,
	`{"tool":"x","arguments":{"s":"\"\\\/\b\f\n\r\t"}}`, `{"tool":"x","arguments":{"s":"\x"}}`, `{"tool":"x","arguments":{"s":"\'"}}`,
	`{"tool":"x","arguments":{"s":"\u0000"}}`, `{"tool":"a\u0000"}`, `{"tool":"x","arguments":{"\u0000":[1]}}`, `{"tool":"x","cwd":"\u0000"}`, "{\"tool\":\"x\",\"arguments\":{\"s\":\"\x00\"}}", "{\"tool\":\"x\",\"arguments\":{\"s\":\"a\tb\"}}",
	"{\"tool\":\"x\",\"arguments\":{\"s\":\"\xff\"}}", "{\"tool\":\"x\",\"arguments\":{\"s\":\"\xed\xa0\x80\"}}", "{\"tool\":\"\xc3\"}",
	"{\"tool\":\"x\",\"arguments\":{\"s\":\"é€😀\u2028\"}}", "{\"tool\":\"x\"}\xff", "\xef\xbb\xbf{\"tool\":\"x\"}",
	`{"t\u006fol":"x","arguments":{"k\"ey":1,"":2}}`,
	`{"tool":"x"} {}`, `{"tool":"x"}x`, `{"tool":"x",}`, `{"tool":"x",,"a":1}`, `{"tool" "x"}`, `{"tool":"x"`, `{"tool":"x`, `{"tool`, `{`, `}`,
	`{"tool":"x","arguments":[1,]}`, `{"tool":"x","arguments":[,1]}`, `{"tool":"x","arguments":[1 2]}`, `{"tool":"x","arguments":{"a":tru}}`,
	`{"tool":"x","arguments":{"a":nul}}`, `{"tool":"x","arguments":{"a":falsey}}`, `{tool:"x"}`, `{'tool':'x'}`,
	``, ` `, `null`, ` null `, `[]`, `"x"`, `1`, `true`, `{}`, `{"tool":5}`, `{"tool":null,"name":"n"}`,
	`{"tool":"Bash","arguments":42}`, `{"tool":"Bash","arguments":"ls"}`, `{"tool":"Bash","arguments":"{\"command\":\"ls\"}"}`,
	`{"tool":"shell","arguments":["bash","-lc","git push"]}`, `{"tool":"shell","arguments":["bash",1]}`,
	`{"action":"code","code":"print('hello')","security_risk":"LOW"}`,
	`{"tool":"Read","input":{"file_path":"/x"},"annotations":{"readOnlyHint":true,"title":"t","openWorldHint":null}}`,
	`{"tool":"Read","annotations":{"readOnlyHint":1}}`, `{"tool":"Read","annotations":[]}`,
	`{"tool":"x","arguments":{"a":` + strings.Repeat("[", 63) + strings.Repeat("]", 63) + `}}`,
	`{"tool":"x","arguments":{"a":` + strings.Repeat("[", 62) + strings.Repeat("]", 62) + `}}`,
	`{"tool":"x","arguments":{"a":` + strings.Repeat(`{"a":`, 600) + "1" + strings.Repeat("}", 600) + `}}`,
	`{"tool":"x","arguments":{"a":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`,
	`{"tool":"x","arguments":{"a":"]]]]]]]]{{{{{{{{[[[[[[[[\"[[[[[["}}`,
	`{"tool":"Bash","arguments":{"command":"` + strings.Repeat("a", 100) + `"}}`,
	`{"tool":"Bash","arguments":{"command":"ls"},"output":"x"}`, `{"tool":"Bash","output":null,"tool_response":{"a":[1]}}`,
	`{"tool":"Bash","arguments":{"command":"ls"},"tool_response":"x","output":5}`, `{"tool":"Bash","output":"x","output":null}`,
	`{"tool":"x","id":"h-1","label":"harmful","arguments":{"security_risk":"HIGH"},"min_level":{"a":[1,{"b":null}]}}`,
	`{"tool":"x","arguments":null,"session_id":null,"cwd":5}`, `{"tool":" ","name":"n"}`, `{"tool":"x","tool":null}`,
	`{"tool":"x","arguments":{"a":1},"arguments":"{\"b\":2}"}`, `{"tool":"x","security_risk":"LOW","arguments":{"security_risk":"HIGH"}}`,
	// the arguments' security_risk, which the action takes when it has none of its own
	`{"tool":"x","arguments":{"security\u005frisk":"HIGH"}}`, `{"tool":"x","arguments":{"a":{"security_risk":"HIGH"}}}`,
	`{"tool":"x","arguments":"{\"security_risk\":\"HIGH\"}"}`, `{"tool":"x","arguments":{"security_risk":5}}`,
	`{"tool":"x","arguments":{"security_risk":"HIGH"},"arguments":{"a":1}}`, `{"tool":"x","security_risk":null,"arguments":{"security_risk":"HIGH"}}`,
	`{"tool":"x","input":{"a":1}}`, `{"tool":"x","action":"code"}`, `{"action":"code","code":"1"}`, `{"tool":"x","annotations":null}`,
	`{"tool":"0123456789abcdef\"0123456789abcdef","arguments":{"command":"01234567\u00e9 89abcdef\t"}}`,
	// arrays about the size the decoder gathers on the stack (8), and nested
	`{"tool":"x","arguments":{"a":[1,2,3,4,5,6,7],"b":[1,2,3,4,5,6,7,8],"c":[1,2,3,4,5,6,7,8,9],"d":["a",[1,2,3,4,5,6,7,8,9,10],{"e":[1,2,3,4,5,6,7,8]},4,5,6,7,8,9,10,11,12,13,14,15,16,17]}}`,
	`{"tool":"shell","arguments":["bash","-lc","x","a","b","c","d","e","f"]}`, `{"tool":"x","arguments":{"a":[1,2,3,4,5,6,7,8,]}}`,
	// the tool names the decoder knows, as they are, escaped, near them, repeated
	`{"tool":"Bash"}`, `{"tool":"shell"}`, `{"tool":"execute_bash"}`, `{"tool":"python"}`, `{"tool":"Read"}`, `{"tool":"Write"}`,
	`{"tool":"Edit"}`, `{"tool":"WebFetch"}`, `{"tool":"str_replace_editor"}`, `{"tool":"Bas\u0068"}`, `{"tool":"bash"}`, `{"tool":"Bash "}`,
	`{"tool":"Bash","tool":"Edit"}`, `{"tool":"Bash","tool":null}`, `{"tool":null,"tool":"Bash"}`, `{"tool":"Bash","session_id":"s\u00e9","cwd":"/\t"}`,
}

func TestParseObjectSameAsSlow(t *testing.T) {
	for _, s := range decodeSeeds {
		checkParseObject(t, []byte(s))
	}
	// every line of the corpora
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no corpora")
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			checkParseObject(t, sc.Bytes())
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDecodeObjectDecides: the actions of the corpus take the one-pass
// way, not the slow one, and decodeAction's, without the object.
func TestDecodeObjectDecides(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "actions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if _, ok := decodeObject(line, DefaultLimits.MaxDepth); !ok {
			t.Errorf("decodeObject did not decide %s", line)
		}
		if _, _, ok := decodeAction(line, DefaultLimits.MaxDepth, []string{"output"}); !ok {
			t.Errorf("decodeAction did not decide %s", line)
		}
	}
	for _, s := range []string{
		` {"tool" : "Bash" , "arguments" : { "command" : "ls" } } ` + "\t\r\n",
		`{"tool":"x","tool":"y","arguments":{"a":1},"arguments":{"b":[2]}}`,
		`{"tool":"x","arguments":{"n":[0,-0,-0.0,1e-400,123456789012345,1234567890123456,0.1,1E+2,1e-2,-12.5e3]}}`,
		`{"tool":"x","arguments":{"s":"\u00e9\ud83d\ude00\ud800\ud800x\uDBFF\uDFFF","\"\\\/\b\f\n\r\t":"\u0000"}}`,
		"{\"tool\":\"x\",\"arguments\":{\"s\":\"é€😀\u2028\"}}",
	} {
		if _, ok := decodeObject([]byte(s), DefaultLimits.MaxDepth); !ok {
			t.Errorf("decodeObject did not decide %s", s)
		}
	}
}

// FuzzParseObject holds ParseObject (decodeObject, with the slow way
// behind it) equal to the slow way alone: the same action, the same
// object, the same error, whatever the input.
func FuzzParseObject(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParseObject(t, data)
		// and what decodeObject decides is what encoding/json makes of it
		if obj, ok := decodeObject(data, 0); ok {
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%q: decodeObject accepted what encoding/json refuses: %v", data, err)
			}
			if !utf8.Valid(data) || !sameJSON(obj, want) {
				t.Fatalf("%q: decodeObject made\n %#v\nencoding/json\n %#v", data, obj, want)
			}
		}
	})
}

// BenchmarkUnquote: the text of a file an agent writes, a line of
// source between escapes.
func BenchmarkUnquote(b *testing.B) {
	raw := []byte(strings.Repeat(`\tif err := os.WriteFile(path, data, 0o644); err != nil {\n\t\treturn fmt.Errorf(\"write %s: %w\", path, err)\n\t}\n`, 8))
	for range b.N {
		if _, ok := unquote(raw); !ok {
			b.Fatal("unquote failed")
		}
	}
}

// BenchmarkParseLine decodes the lines BenchmarkAssessLines (cmd/warden)
// gives warden assess: the tool and arguments of each action of the
// corpus, its command made distinct, per line.
func BenchmarkParseLine(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "actions.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			b.Fatal(err)
		}
		args, _ := m["arguments"].(map[string]any)
		if cmd, ok := args["command"].(string); ok {
			args["command"] = fmt.Sprintf("%s # %d", cmd, i)
		}
		line, _ := json.Marshal(map[string]any{"tool": m["tool"], "arguments": m["arguments"]})
		lines = append(lines, line)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, _, err := ParseLine(lines[i%len(lines)], DefaultLimits, "output", "tool_response"); err != nil {
			b.Fatal(err)
		}
	}
}
