package hook

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

var updateAdapters = flag.Bool("update", false, "rewrite the golden files of the cursor, copilot and windsurf adapters under testdata/")

// The verdicts every golden payload is answered with.
var (
	denied = Verdict{Decision: risk.Decision{Verdict: risk.Deny, Rule: "confirm_risky",
		Reasons: []string{"Deleting files recursively (rm -rf)"}}, Hint: "warden approve 3f2a9c1e --once"}
	asked = Verdict{Decision: risk.Decision{Verdict: risk.Ask, Rule: "confirm_risky",
		Reasons: []string{"Reading a credentials file"}}, Hint: "warden approve 77b0d4e2 --once"}
	allowed      = Verdict{Decision: risk.Decision{Verdict: risk.Allow}}
	shadowDenied = Verdict{Decision: denied.Decision, Hint: denied.Hint, Shadow: true}
	observed     = Verdict{Decision: risk.Decision{Verdict: risk.Allow},
		Context: "warden: this output holds sensitive data: an AWS access key (session.sensitive_output)"}
)

// failReasonOf is the reason Run gives Fail for a payload a cannot
// parse.
func failReasonOf(a Adapter, err error) string {
	return fmt.Sprintf("warden could not read the %s hook payload: %v; the call is blocked", a.Name(), err)
}

// TestAdapterGolden answers every payload under testdata/<agent>/ (the
// agents' documented payloads, and broken ones) with each verdict and
// compares the answers with <payload>.golden; -update rewrites them.
// Each answer must also block or not in the agent's own terms (blocks).
func TestAdapterGolden(t *testing.T) {
	for _, a := range []Adapter{Cursor{}, Copilot{}, Windsurf{}} {
		files, _ := filepath.Glob(filepath.Join("testdata", a.Name(), "*.json"))
		if len(files) < 10 {
			t.Fatalf("%s: only %d payloads", a.Name(), len(files))
		}
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".json")
			t.Run(a.Name()+"/"+name, func(t *testing.T) {
				payload, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				got := goldenAnswers(t, a, payload)
				golden := strings.TrimSuffix(file, ".json") + ".golden"
				if *updateAdapters {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./hook -run TestAdapterGolden -update writes it)", err)
				}
				if got != string(want) {
					t.Errorf("answers differ from %s (-update rewrites it; review the diff)\ngot:\n%s", golden, got)
				}
			})
		}
	}
}

// goldenAnswers parses payload and answers it: the call and the reply to
// each verdict, or the error and Fail's reply. It checks, as it goes,
// that each reply blocks exactly when it must.
func goldenAnswers(t *testing.T, a Adapter, payload []byte) string {
	t.Helper()
	var b strings.Builder
	c, err := a.Parse(payload)
	if err != nil {
		fmt.Fprintf(&b, "-- error --\n%v\n", err)
		r := a.Fail(failReasonOf(a, err))
		writeReply(&b, "fail", r)
		if !blocks(a, Call{Event: Before}, r) {
			t.Errorf("Fail does not block: %+v", r)
		}
		noSecret(t, payload, err.Error(), string(r.Stdout), string(r.Stderr))
		return b.String()
	}
	var args bytes.Buffer
	enc := json.NewEncoder(&args)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.Action.Arguments); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "-- call --\nevent: %s\ntool: %s\narguments: %s\nsession_id: %s\ncwd: %s\nagent: %s\nmode: %s\noutput: %q\n",
		c.Event, c.Action.Tool, bytes.TrimSpace(args.Bytes()), c.Action.SessionID, c.Action.Cwd, c.Action.Agent, c.Mode, c.Output)
	nc := tool.Normalize(&c.Action, "/home/user/project", "/home/user")
	fmt.Fprintf(&b, "catalog: known %v, class %s, malformed %q\n", nc.Known, nc.Class, nc.Malformed)
	if c.Event == After {
		for _, v := range []struct {
			name string
			v    Verdict
		}{{"observed, nothing of note", allowed}, {"observed, sensitive", observed}} {
			r := a.Reply(c, v.v)
			writeReply(&b, v.name, r)
			if r.Exit != 0 {
				t.Errorf("%s: exit %d after the tool ran", v.name, r.Exit)
			}
		}
		return b.String()
	}
	for _, v := range []struct {
		name  string
		v     Verdict
		block bool
	}{{"allow", allowed, false}, {"ask", asked, true}, {"deny", denied, true}, {"shadow deny", shadowDenied, false}} {
		r := a.Reply(c, v.v)
		writeReply(&b, v.name, r)
		if got := blocks(a, c, r); got != v.block {
			t.Errorf("%s: blocks = %v, want %v: %+v", v.name, got, v.block, r)
		}
		if v.block && v.v.Hint != "" && !strings.Contains(string(r.Stdout)+string(r.Stderr), v.v.Hint) {
			t.Errorf("%s: the answer does not say how to approve it (%q): %+v", v.name, v.v.Hint, r)
		}
	}
	return b.String()
}

func writeReply(b *strings.Builder, name string, r Reply) {
	fmt.Fprintf(b, "-- %s --\nexit %d\n", name, r.Exit)
	if len(r.Stdout) > 0 {
		fmt.Fprintf(b, "stdout: %s", r.Stdout)
		if !bytes.HasSuffix(r.Stdout, []byte("\n")) {
			b.WriteString("\n(no newline)\n")
		}
	}
	if len(r.Stderr) > 0 {
		fmt.Fprintf(b, "stderr: %s", r.Stderr)
		if !bytes.HasSuffix(r.Stderr, []byte("\n")) {
			b.WriteString("\n(no newline)\n")
		}
	}
}

// blocks says whether the agent a speaks for keeps the call c from
// running when its hook answers r, by the rules its documentation (and
// the observations cited in each adapter's doc comment) give.
func blocks(a Adapter, c Call, r Reply) bool {
	switch a.(type) {
	case Cursor:
		// exit 2 blocks; on exit 0 the JSON decides, and only deny blocks
		// for sure (ask is not enforced on preToolUse)
		if r.Exit == 2 {
			return true
		}
		if r.Exit != 0 {
			return false // fails open without failClosed
		}
		var out struct{ Permission string }
		return json.Unmarshal(r.Stdout, &out) == nil && out.Permission == "deny"
	case Copilot:
		// exit 0 JSON decides; deny blocks, ask leaves it to the user
		if r.Exit != 0 {
			return false // "hook errored" denies in some versions only
		}
		var out struct{ PermissionDecision string }
		if len(bytes.TrimSpace(r.Stdout)) == 0 {
			return false
		}
		return json.Unmarshal(r.Stdout, &out) == nil && (out.PermissionDecision == "deny" || out.PermissionDecision == "ask")
	case Windsurf:
		return r.Exit == 2
	}
	panic("blocks: no rule for " + a.Name())
}

// longValue finds the values in a payload that might be secrets: long
// runs of letters, digits and the characters keys use.
var longValue = regexp.MustCompile(`[A-Za-z0-9/+_=-]{16,}`)

// noSecret fails t when any text holds a long value of payload's tool
// input that is not a field name warden's errors may quote.
func noSecret(t *testing.T, payload []byte, texts ...string) {
	t.Helper()
	for _, v := range longValue.FindAllString(string(payload), -1) {
		if !strings.ContainsAny(v, "0123456789") {
			continue // a field or event name
		}
		for _, s := range texts {
			if strings.Contains(s, v) {
				t.Errorf("the answer repeats %q from the payload: %q", v, s)
			}
		}
	}
}

// TestCursorFailWithoutEvent: Fail blocks whatever the payload was, even
// an event Cursor's JSON answer does not decide (exit 2).
func TestCursorFail(t *testing.T) {
	r := Cursor{}.Fail("warden did not answer within 15s; the call is blocked")
	if r.Exit != 2 || !strings.Contains(string(r.Stderr), "within 15s") {
		t.Errorf("Fail = %+v", r)
	}
	var out struct{ Permission, UserMessage, AgentMessage string }
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatal(err)
	}
	if out.Permission != "deny" {
		t.Errorf("permission %q", out.Permission)
	}
	if r := (Cursor{}).Fail("  "); r.Exit != 2 || len(bytes.TrimSpace(r.Stderr)) == 0 {
		t.Errorf("Fail with no reason = %+v", r)
	}
}

// TestCursorReasonToBoth: a deny's reason goes to user_message, which the
// model was seen to receive, and agent_message, which the docs name.
func TestCursorReasonToBoth(t *testing.T) {
	c, err := Cursor{}.Parse([]byte(`{"hook_event_name":"beforeShellExecution","command":"rm -rf /","cwd":"/w"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := Cursor{}.Reply(c, denied)
	var out struct {
		Permission   string `json:"permission"`
		UserMessage  string `json:"user_message"`
		AgentMessage string `json:"agent_message"`
	}
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{out.UserMessage, out.AgentMessage} {
		if !strings.Contains(m, "rm -rf") || !strings.Contains(m, denied.Hint) {
			t.Errorf("message %q lacks the reason or the hint", m)
		}
	}
}

// FuzzCursorParse: no payload makes Parse panic or accept a call without
// a tool; whatever it returns, Reply and Fail answer it, and a deny
// blocks.
func FuzzCursorParse(f *testing.F) { fuzzAdapter(f, Cursor{}) }

// fuzzAdapter fuzzes a's Parse, seeded with its golden payloads.
func fuzzAdapter(f *testing.F, a Adapter) {
	files, _ := filepath.Glob(filepath.Join("testdata", a.Name(), "*.json"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		c, err := a.Parse(payload)
		if err != nil {
			if r := a.Fail(failReasonOf(a, err)); !blocks(a, Call{Event: Before}, r) {
				t.Fatalf("Fail does not block: %+v", r)
			}
			noSecret(t, payload, err.Error())
			return
		}
		if c.Action.Tool == "" {
			t.Fatalf("a call without a tool: %+v", c)
		}
		if c.Event != Before && c.Event != After {
			t.Fatalf("event %q", c.Event)
		}
		if c.Action.Agent != a.Name() {
			t.Fatalf("agent %q", c.Action.Agent)
		}
		if c.Event == Before {
			if r := a.Reply(c, denied); !blocks(a, c, r) {
				t.Fatalf("a deny does not block: %+v", r)
			}
			if r := a.Reply(c, allowed); blocks(a, c, r) {
				t.Fatalf("an allow blocks: %+v", r)
			}
		} else if r := a.Reply(c, observed); r.Exit != 0 {
			t.Fatalf("exit %d after the tool ran", r.Exit)
		}
		if _, err := json.Marshal(c.Action); err != nil {
			t.Fatalf("the action does not encode: %v", err)
		}
	})
}
