package risk_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

func TestParseActionForms(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		in   string
		want risk.Action
	}{
		{
			name: "canonical",
			in:   `{"tool":"Bash","arguments":{"command":"ls -la","description":"List files"}}`,
			want: risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls -la", "description": "List files"}},
		},
		{
			name: "every field",
			in: `{"tool":"write_file","arguments":{"path":"/x"},"session_id":"s1","cwd":"/home/user/project","agent":"claude-code",
				"annotations":{"title":"Write","readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":false},
				"security_risk":"MEDIUM","thought":"I will write","summary":"write x"}`,
			want: risk.Action{Tool: "write_file", Arguments: map[string]any{"path": "/x"}, SessionID: "s1",
				Cwd: "/home/user/project", Agent: "claude-code",
				Annotations:  &risk.Annotations{Title: "Write", ReadOnlyHint: &no, DestructiveHint: &yes, IdempotentHint: &no, OpenWorldHint: &no},
				SecurityRisk: "MEDIUM", Thought: "I will write", Summary: "write x"},
		},
		{
			name: "seed 004 code action",
			in:   `{"action":"code","code":"print('hello')"}`,
			want: risk.Action{Tool: "code", Arguments: map[string]any{"code": "print('hello')"}},
		},
		{
			name: "seed 004 code action keeps session and cwd out of the arguments",
			in:   `{"action":"code","code":"x = 1","session_id":"s","cwd":"/w"}`,
			want: risk.Action{Tool: "code", Arguments: map[string]any{"code": "x = 1"}, SessionID: "s", Cwd: "/w"},
		},
		{
			name: "argv list",
			in:   `{"tool":"shell","arguments":["git","push","--force"]}`,
			want: risk.Action{Tool: "shell", Arguments: map[string]any{"command": []any{"git", "push", "--force"}}},
		},
		{
			name: "codex shell object",
			in:   `{"tool":"shell","arguments":{"command":["bash","-lc","make test"],"workdir":"/w"}}`,
			want: risk.Action{Tool: "shell", Arguments: map[string]any{"command": []any{"bash", "-lc", "make test"}, "workdir": "/w"}},
		},
		{
			name: "openai name and string arguments",
			in:   `{"name":"execute_bash","arguments":"{\"command\":\"rm -rf /tmp/cache\",\"security_risk\":\"HIGH\"}"}`,
			want: risk.Action{Tool: "execute_bash", Arguments: map[string]any{"command": "rm -rf /tmp/cache", "security_risk": "HIGH"},
				SecurityRisk: "HIGH"},
		},
		{
			// Seed 000's example tool call.
			name: "security_risk lifted from arguments",
			in:   `{"name":"execute_bash","arguments":{"command":"rm -rf /tmp/cache","security_risk":"HIGH"}}`,
			want: risk.Action{Tool: "execute_bash", Arguments: map[string]any{"command": "rm -rf /tmp/cache", "security_risk": "HIGH"},
				SecurityRisk: "HIGH"},
		},
		{
			name: "claude code input",
			in:   `{"tool":"Read","input":{"file_path":"/etc/hosts"}}`,
			want: risk.Action{Tool: "Read", Arguments: map[string]any{"file_path": "/etc/hosts"}},
		},
		{
			name: "no arguments",
			in:   `{"tool":"list_allowed_directories"}`,
			want: risk.Action{Tool: "list_allowed_directories", Arguments: map[string]any{}},
		},
		{
			name: "null arguments",
			in:   `{"tool":"list_allowed_directories","arguments":null}`,
			want: risk.Action{Tool: "list_allowed_directories", Arguments: map[string]any{}},
		},
		{
			name: "unicode and escapes",
			in:   `{"tool":"Write","arguments":{"file_path":"/tmp/日本.txt","content":"line1\nline2 \u00e9"}}`,
			want: risk.Action{Tool: "Write", Arguments: map[string]any{"file_path": "/tmp/日本.txt", "content": "line1\nline2 é"}},
		},
		{
			name: "extra fields ignored",
			in:   `{"id":"h-1","tool":"Bash","arguments":{"command":"ls"},"label":"benign","min_level":"LOW"}`,
			want: risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := risk.ParseAction([]byte(tt.in), risk.DefaultLimits)
			if err != nil {
				t.Fatalf("ParseAction: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// nested returns JSON arrays nested n deep.
func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// nestedObjects returns JSON objects nested n deep.
func nestedObjects(n int) string {
	return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n)
}

func TestParseActionBadInput(t *testing.T) {
	big := `{"tool":"Bash","arguments":{"command":"` + strings.Repeat("a", 10<<20) + `"}}`
	tests := []struct {
		name string
		in   string
		want string // in the reason
	}{
		{"empty", ``, "not valid JSON"},
		{"blank", `   `, "not valid JSON"},
		{"invalid JSON", `{"tool":"Bash",`, "not valid JSON"},
		{"not JSON at all", `rm -rf /`, "not valid JSON"},
		{"trailing garbage", `{"tool":"Bash"} x`, "not valid JSON"},
		{"array", `["Bash","ls"]`, "must be a JSON object"},
		{"string", `"Bash"`, "must be a JSON object"},
		{"null", `null`, "missing \"tool\""},
		{"missing tool", `{"arguments":{"command":"ls"}}`, "missing \"tool\""},
		{"empty tool", `{"tool":"","arguments":{}}`, "missing \"tool\""},
		{"blank tool", `{"tool":"  "}`, "missing \"tool\""},
		{"tool not a string", `{"tool":5}`, `"tool" must be a string`},
		{"cwd not a string", `{"tool":"Bash","cwd":["/"]}`, `"cwd" must be a string`},
		{"arguments a number", `{"tool":"Bash","arguments":42}`, "not a number"},
		{"arguments a bool", `{"tool":"Bash","arguments":true}`, "not a boolean"},
		{"arguments a string", `{"tool":"Bash","arguments":"ls -la"}`, "not a string"},
		{"arguments a JSON string of a list", `{"tool":"Bash","arguments":"[\"ls\"]"}`, "not a string"},
		{"argv with a number", `{"tool":"shell","arguments":["rm",5]}`, "only strings"},
		{"bad annotations", `{"tool":"x","annotations":{"readOnlyHint":"yes"}}`, "annotations"},
		{"10 MB", big, "more than the limit"},
		{"10,000 nested arrays", `{"tool":"x","arguments":{"a":` + nested(10000) + `}}`, "nests deeper"},
		{"10,000 nested objects", `{"tool":"x","arguments":` + nestedObjects(10000) + `}`, "nests deeper"},
		{"10,000 nested arguments list", `{"tool":"x","arguments":` + nested(10000) + `}`, "nests deeper"},
		{"invalid UTF-8 in a value", "{\"tool\":\"Bash\",\"arguments\":{\"command\":\"ls \xff\xfe\"}}", "UTF-8"},
		{"invalid UTF-8 in the tool", "{\"tool\":\"Ba\xc3\x28sh\"}", "UTF-8"},
		{"raw NUL byte", "{\"tool\":\"Bash\",\"arguments\":{\"command\":\"ls\x00 -la\"}}", "NUL"},
		{"escaped NUL in a value", `{"tool":"Bash","arguments":{"command":"ls\u0000 -la"}}`, "NUL"},
		{"escaped NUL in a key", `{"tool":"Bash","arguments":{"comm\u0000and":"ls"}}`, "NUL"},
		{"escaped NUL in the tool", `{"tool":"Ba\u0000sh"}`, "NUL"},
		{"escaped NUL in cwd", `{"tool":"Bash","cwd":"/tmp\u0000"}`, "NUL"},
		{"escaped NUL in an argv", `{"tool":"shell","arguments":["rm","\u0000"]}`, "NUL"},
		{"escaped NUL in the seed-004 form", `{"action":"code","code":"print(1)\u0000"}`, "NUL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := risk.ParseAction([]byte(tt.in), risk.DefaultLimits)
			if err == nil {
				t.Fatalf("ParseAction accepted it: %+v", a)
			}
			if !risk.IsInputError(err) {
				t.Fatalf("error %v (%T) is not an *InputError", err, err)
			}
			var ie *risk.InputError
			if !errors.As(err, &ie) || ie.Reason == "" {
				t.Fatalf("error %v carries no reason", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if len(err.Error()) > 300 {
				t.Errorf("error is %d bytes long; it must not echo the input", len(err.Error()))
			}
		})
	}
}

func TestParseActionLimits(t *testing.T) {
	lim := risk.Limits{MaxBytes: 64, MaxDepth: 3}
	tests := []struct {
		in string
		ok bool
	}{
		{`{"tool":"x","arguments":{"a":{"b":1}}}`, true},   // depth 3
		{`{"tool":"x","arguments":{"a":{"b":{}}}}`, false}, // depth 4
		{`{"tool":"x","arguments":{"a":[[1]]}}`, false},
		{`{"tool":"x","arguments":{"a":"[[[[{{{{"}}`, true},   // brackets in strings do not nest
		{`{"tool":"x","arguments":{"a":"\"[[[[{{{{"}}`, true}, // nor after an escaped quote
		{sized(64), true},
		{sized(65), false},
	}
	for _, tt := range tests {
		_, err := risk.ParseAction([]byte(tt.in), lim)
		if (err == nil) != tt.ok {
			t.Errorf("ParseAction(%s) (%d bytes) error = %v, want ok: %v", tt.in, len(tt.in), err, tt.ok)
		}
		if err != nil && !risk.IsInputError(err) {
			t.Errorf("ParseAction(%s): %v is not an *InputError", tt.in, err)
		}
	}
	// Zero limits mean no limits.
	big := `{"tool":"x","arguments":{"a":` + nested(200) + `}}`
	if _, err := risk.ParseAction([]byte(big), risk.Limits{}); err != nil {
		t.Errorf("zero limits rejected deep input: %v", err)
	}
}

// sized returns an action of exactly n bytes.
func sized(n int) string {
	const head, tail = `{"tool":"x","arguments":{"a":"`, `"}}`
	return head + strings.Repeat("b", n-len(head)-len(tail)) + tail
}

func TestValidate(t *testing.T) {
	deep := any("x")
	for range 100 {
		deep = []any{deep}
	}
	tests := []struct {
		name string
		a    risk.Action
		want string // "" when valid
	}{
		{"valid", risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls"}}, ""},
		{"nil arguments", risk.Action{Tool: "Bash"}, ""},
		{"no tool", risk.Action{Arguments: map[string]any{"command": "ls"}}, "missing"},
		{"NUL in a value", risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "l\x00s"}}, "NUL"},
		{"NUL in a nested key", risk.Action{Tool: "x", Arguments: map[string]any{"a": map[string]any{"k\x00": 1}}}, "NUL"},
		{"NUL in session", risk.Action{Tool: "x", SessionID: "\x00"}, "NUL"},
		{"invalid UTF-8 in a list", risk.Action{Tool: "x", Arguments: map[string]any{"a": []any{"ok", "\xff"}}}, "UTF-8"},
		{"too deep", risk.Action{Tool: "x", Arguments: map[string]any{"a": deep}}, "nest deeper"},
		{"too much text", risk.Action{Tool: "x", Arguments: map[string]any{"a": strings.Repeat("x", risk.DefaultLimits.MaxBytes+1)}}, "limit"},
	}
	for _, tt := range tests {
		err := tt.a.Validate(risk.DefaultLimits)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Validate = %v, want nil", tt.name, err)
		case tt.want != "" && (err == nil || !risk.IsInputError(err) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: Validate = %v, want an *InputError saying %q", tt.name, err, tt.want)
		}
	}
}

func TestIsInputError(t *testing.T) {
	ie := &risk.InputError{Reason: "too deep"}
	if !risk.IsInputError(ie) {
		t.Error("IsInputError(*InputError) = false")
	}
	if !risk.IsInputError(errors.Join(errors.New("other"), ie)) {
		t.Error("IsInputError does not look through wrapping")
	}
	if risk.IsInputError(errors.New("too deep")) || risk.IsInputError(nil) {
		t.Error("IsInputError is true for a plain error or nil")
	}
	if got := ie.Error(); got != "invalid action: too deep" {
		t.Errorf("Error() = %q", got)
	}
}

func TestAnnotationDefaults(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name                             string
		a                                *risk.Annotations
		readOnly, destructive, openWorld bool
	}{
		{"nil: the MCP defaults", nil, false, true, true},
		{"empty: the MCP defaults", &risk.Annotations{}, false, true, true},
		{"read-only", &risk.Annotations{ReadOnlyHint: &yes}, true, true, true},
		{"not destructive, closed world", &risk.Annotations{DestructiveHint: &no, OpenWorldHint: &no}, false, false, false},
	}
	for _, tt := range tests {
		if got := tt.a.ReadOnly(); got != tt.readOnly {
			t.Errorf("%s: ReadOnly = %v", tt.name, got)
		}
		if got := tt.a.Destructive(); got != tt.destructive {
			t.Errorf("%s: Destructive = %v", tt.name, got)
		}
		if got := tt.a.OpenWorld(); got != tt.openWorld {
			t.Errorf("%s: OpenWorld = %v", tt.name, got)
		}
	}
}

// FuzzParseAction checks that ParseAction never panics, that every failure
// is an *InputError, and that an accepted action survives a round trip
// through its canonical JSON unchanged.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		`{"tool":"Bash","arguments":{"command":"ls -la"}}`,
		`{"action":"code","code":"print('hello')","security_risk":"LOW"}`,
		`{"tool":"shell","arguments":["bash","-lc","git push"]}`,
		`{"name":"execute_bash","arguments":"{\"command\":\"ls\",\"security_risk\":\"HIGH\"}"}`,
		`{"tool":"Read","input":{"file_path":"/x"},"annotations":{"readOnlyHint":true}}`,
		`{"tool":"x","arguments":{"a":[1,2.5,null,true,{"b":"c"}]},"session_id":"s","cwd":"/w","agent":"a","thought":"t","summary":"s"}`,
		``, `null`, `[]`, `{}`, `{"tool":5}`, `{"tool":"Bash","arguments":42}`, `{"tool":"Bash","arguments":"ls"}`,
		`{"tool":"x","arguments":{"a":` + nested(10000) + `}}`,
		"{\"tool\":\"Bash\",\"arguments\":{\"command\":\"\xff\"}}",
		"{\"tool\":\"Bash\",\"arguments\":{\"command\":\"\x00\"}}",
		`{"tool":"Bash","arguments":{"command":"\u0000"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := risk.ParseAction(data, risk.DefaultLimits)
		if err != nil {
			if !risk.IsInputError(err) {
				t.Fatalf("error %v (%T) is not an *InputError", err, err)
			}
			return
		}
		if strings.TrimSpace(a.Tool) == "" || a.Arguments == nil {
			t.Fatalf("accepted an action without a tool or arguments: %#v", a)
		}
		if err := a.Validate(risk.DefaultLimits); err != nil {
			t.Fatalf("accepted an action that does not validate: %v", err)
		}
		canon, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		// Escaping may grow the text, so the size limit is left out here.
		back, err := risk.ParseAction(canon, risk.Limits{MaxDepth: risk.DefaultLimits.MaxDepth})
		if err != nil {
			t.Fatalf("canonical form %s does not parse: %v", canon, err)
		}
		if !reflect.DeepEqual(back, a) {
			t.Fatalf("round trip changed the action:\n got %#v\nwant %#v", back, a)
		}
	})
}
