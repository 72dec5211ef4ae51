package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/hook"
	"github.com/agentwarden/warden/internal/txtar"
	"github.com/agentwarden/warden/risk"
)

// TestPayloads: doctor's payloads are read by each agent's adapter as the
// shell command before it runs, and use only fields the documented
// payloads of the adapter's tests (hook/testdata) have.
func TestPayloads(t *testing.T) {
	for _, a := range Agents {
		ad, _ := hook.Lookup(a.Name)
		documented := map[string]bool{}
		files, _ := filepath.Glob(filepath.Join("..", "testdata", a.Name, "*"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			if p, ok := txtar.Parse(string(data)).Files["payload"]; ok {
				data = []byte(p)
			}
			var m map[string]any
			if json.Unmarshal(data, &m) == nil {
				for k := range m {
					documented[k] = true
				}
			}
		}
		for _, p := range Probes {
			payload := a.Payload(p.Command, "warden-doctor-1", "/tmp/doctor/project")
			c, err := ad.Parse(payload)
			if err != nil || c.Event != hook.Before {
				t.Errorf("%s: the %s payload: %v %+v\n%s", a.Name, p.Name, err, c, payload)
				continue
			}
			args, _ := json.Marshal(c.Action.Arguments)
			if !strings.Contains(string(args), p.Command) || c.Action.SessionID != "warden-doctor-1" {
				t.Errorf("%s: the adapter read %+v", a.Name, c.Action)
			}
			var m map[string]any
			json.Unmarshal(payload, &m)
			for k := range m {
				if !documented[k] {
					t.Errorf("%s: the payload's %q is in no documented payload", a.Name, k)
				}
			}
		}
	}
}

// TestRead: what an agent makes of its adapter's answers, read from the
// agent's side: an allow (or no decision) runs the call, a deny blocks
// it, an ask asks or blocks, every failure blocks; a crash of the hook
// runs the call where the agent lets it.
func TestRead(t *testing.T) {
	allow := hook.Verdict{Decision: risk.Decision{Verdict: risk.Allow}}
	deny := hook.Verdict{Decision: risk.Decision{Verdict: risk.Deny, Reasons: []string{"critical: rm -rf ~"}, Rule: "confirm_risky"}}
	ask := hook.Verdict{Decision: risk.Decision{Verdict: risk.Ask, Reasons: []string{"high: writes .bashrc"}, Rule: "confirm_risky"}}
	for _, a := range Agents {
		ad, _ := hook.Lookup(a.Name)
		c, err := ad.Parse(a.Payload("ls", "s", "/tmp"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			r    hook.Reply
			want []Outcome
		}{
			{"allow", ad.Reply(c, allow), []Outcome{Allowed}},
			{"deny", ad.Reply(c, deny), []Outcome{Blocked}},
			{"ask", ad.Reply(c, ask), []Outcome{Blocked, Asked}},
			{"fail", ad.Fail("warden cannot read its policy"), []Outcome{Blocked}},
			// shadow mode blocks nothing: what would be denied or asked runs
			{"shadow deny", ad.Reply(c, shadow(deny)), []Outcome{Allowed}},
			{"shadow ask", ad.Reply(c, shadow(ask)), []Outcome{Allowed}},
		} {
			got := a.Read(tc.r.Stdout, tc.r.Stderr, tc.r.Exit)
			if !containsOutcome(tc.want, got.Outcome) {
				t.Errorf("%s %s: %v (%s), want %v\nexit %d stdout %q stderr %q", a.Name, tc.name, got.Outcome, got.How, tc.want, tc.r.Exit, tc.r.Stdout, tc.r.Stderr)
			}
		}
		crash := a.Read(nil, []byte("panic: runtime error"), 1)
		want := map[string]Outcome{"cursor": Blocked, "copilot": Blocked}[a.Name]
		if want == Allowed {
			want = Broken
		}
		if crash.Outcome != want {
			t.Errorf("%s: a crash reads as %v (%s), want %v", a.Name, crash.Outcome, crash.How, want)
		}
	}
}

func containsOutcome(os []Outcome, o Outcome) bool {
	for _, x := range os {
		if x == o {
			return true
		}
	}
	return false
}

func shadow(v hook.Verdict) hook.Verdict {
	v.Shadow = true
	return v
}

// Codex reads PreToolUse JSON strictly: a message alone is no decision,
// anything its parser refuses lets the call run unchecked.
func TestReadCodexJSON(t *testing.T) {
	var codex *Agent
	for _, a := range Agents {
		if a.Name == "codex" {
			codex = a
		}
	}
	for out, want := range map[string]Outcome{
		`{"systemMessage":"warden would have denied this"}`:                                                                 Allowed,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`:                                  Allowed,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`: Blocked,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`:                                Broken,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`:                                  Broken,
		`{"systemMessage":"x","stopReason":"y"}`:                                                                            Broken,
		`{"systemMessage":"x","continue":false}`:                                                                            Broken,
		`{"systemMessage":"x","suppressOutput":true}`:                                                                       Broken,
		`{"systemMessage":"x","reason":"y"}`:                                                                                Broken,
		`{"systemMessage":"x","extra":1}`:                                                                                   Broken,
		`{"systemMessage":1}`:                                                                                               Broken,
	} {
		if got := codex.Read([]byte(out), nil, 0); got.Outcome != want {
			t.Errorf("%s: %v (%s), want %v", out, got.Outcome, got.How, want)
		}
	}
}
