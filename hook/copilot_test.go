package hook

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzCopilotParse: see fuzzAdapter.
func FuzzCopilotParse(f *testing.F) { fuzzAdapter(f, Copilot{}) }

// TestCopilotArgsStringOrObject: toolArgs is read the same whether it
// comes as a JSON string or as an object.
func TestCopilotArgsStringOrObject(t *testing.T) {
	s, err := Copilot{}.Parse([]byte(`{"toolName":"bash","toolArgs":"{\"command\":\"ls\",\"description\":\"d\"}","cwd":"/w"}`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Copilot{}.Parse([]byte(`{"toolName":"bash","toolArgs":{"command":"ls","description":"d"},"cwd":"/w"}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(s.Action)
	b, _ := json.Marshal(o.Action)
	if string(a) != string(b) {
		t.Errorf("string %s, object %s", a, b)
	}
}

// TestCopilotResultMakesPost: without an event name, only a payload with
// a tool result is after the call; anything else is checked.
func TestCopilotResultMakesPost(t *testing.T) {
	for _, tt := range []struct {
		payload string
		want    Event
	}{
		{`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`, Before},
		{`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":null}`, Before},
		{`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":{"resultType":"success","textResultForLlm":"a"}}`, After},
		{`{"tool_name":"bash","tool_input":{"command":"ls"},"tool_response":"a"}`, After},
		{`{"hookEventName":"preToolUse","toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":{"textResultForLlm":"a"}}`, Before},
	} {
		c, err := Copilot{}.Parse([]byte(tt.payload))
		if err != nil {
			t.Fatalf("%s: %v", tt.payload, err)
		}
		if c.Event != tt.want {
			t.Errorf("%s: event %s, want %s", tt.payload, c.Event, tt.want)
		}
	}
}

// TestCopilotAllowIsNoDecision: an allowed call gets no output, so that
// Copilot's own permissions still apply; shadow mode only writes to
// stderr.
func TestCopilotAllowIsNoDecision(t *testing.T) {
	c := Call{Event: Before}
	if r := (Copilot{}).Reply(c, allowed); len(r.Stdout) != 0 || r.Exit != 0 {
		t.Errorf("allow = %+v", r)
	}
	r := Copilot{}.Reply(c, shadowDenied)
	if len(r.Stdout) != 0 || r.Exit != 0 || !strings.Contains(string(r.Stderr), "shadow") {
		t.Errorf("shadow = %+v", r)
	}
}
