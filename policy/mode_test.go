package policy_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

const workspace = "/home/user/project"

// call builds a normalized call of a class in the workspace touching paths.
func call(class tool.Class, paths ...string) *tool.Call {
	return &tool.Call{Action: &risk.Action{Tool: "t"}, Name: "t", Class: class, Known: true,
		Paths: paths, Cwd: workspace, Home: "/home/user"}
}

func TestParseMode(t *testing.T) {
	tests := map[string]policy.Mode{
		"default": policy.ModeDefault, "DEFAULT": policy.ModeDefault,
		"plan":        policy.ModePlan,
		"acceptEdits": policy.ModeAcceptEdits, "acceptedits": policy.ModeAcceptEdits,
		"accept-edits": policy.ModeAcceptEdits, "accept_edits": policy.ModeAcceptEdits,
		"dontAsk": policy.ModeDontAsk, "dont-ask": policy.ModeDontAsk,
		"bypassPermissions": policy.ModeBypassPermissions, "bypass-permissions": policy.ModeBypassPermissions,
	}
	for in, want := range tests {
		if got, err := policy.ParseMode(in); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yolo", "bypass", "accept edits", "planning"} {
		if got, err := policy.ParseMode(in); err == nil {
			t.Errorf("ParseMode(%q) = %q, want an error", in, got)
		}
	}
	for _, m := range policy.Modes {
		if got, err := policy.ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
}

func TestModes(t *testing.T) {
	type tc struct {
		name    string
		mode    policy.Mode
		disable bool
		call    *tool.Call
		level   risk.Level
		unknown bool
		want    risk.Verdict
		rule    string // "" = the confirmation policy's
	}
	tests := []tc{
		// default: the confirmation policy decides.
		{"default/read safe", policy.ModeDefault, false, call(tool.Read, "a"), risk.Safe, false, risk.Allow, ""},
		{"default/edit medium", policy.ModeDefault, false, call(tool.Edit, "a"), risk.Medium, false, risk.Allow, ""},
		{"default/execute high", policy.ModeDefault, false, call(tool.Execute), risk.High, false, risk.Ask, ""},
		{"default/unknown", policy.ModeDefault, false, call(tool.Execute), risk.Unknown, true, risk.Ask, ""},
		{"empty mode is default", "", false, call(tool.Execute), risk.High, false, risk.Ask, ""},

		// plan: read-only actions follow the policy; anything else asks.
		{"plan/read safe", policy.ModePlan, false, call(tool.Read, "a"), risk.Safe, false, risk.Allow, ""},
		{"plan/read high", policy.ModePlan, false, call(tool.Read, "/etc/shadow"), risk.High, false, risk.Ask, ""},
		{"plan/read unknown", policy.ModePlan, false, call(tool.Read), risk.Unknown, true, risk.Ask, ""},
		{"plan/edit safe", policy.ModePlan, false, call(tool.Edit, "a"), risk.Safe, false, risk.Ask, "mode.plan"},
		{"plan/execute low", policy.ModePlan, false, call(tool.Execute), risk.Low, false, risk.Ask, "mode.plan"},
		{"plan/network safe", policy.ModePlan, false, call(tool.Network), risk.Safe, false, risk.Ask, "mode.plan"},
		{"plan/other safe", policy.ModePlan, false, call(tool.Other), risk.Safe, false, risk.Ask, "mode.plan"},

		// acceptEdits: edits inside the workspace are allowed unless critical.
		{"acceptEdits/edit inside medium", policy.ModeAcceptEdits, false, call(tool.Edit, "src/a.go"), risk.Medium, false, risk.Allow, "mode.acceptEdits"},
		{"acceptEdits/edit inside high", policy.ModeAcceptEdits, false, call(tool.Edit, workspace+"/a.go"), risk.High, false, risk.Allow, "mode.acceptEdits"},
		{"acceptEdits/edit the workspace root", policy.ModeAcceptEdits, false, call(tool.Edit, "."), risk.High, false, risk.Allow, "mode.acceptEdits"},
		{"acceptEdits/edit inside critical", policy.ModeAcceptEdits, false, call(tool.Edit, "a"), risk.Critical, false, risk.Ask, ""},
		{"acceptEdits/edit inside with an unknown part", policy.ModeAcceptEdits, false, call(tool.Edit, "a"), risk.High, true, risk.Ask, ""},
		{"acceptEdits/edit outside high", policy.ModeAcceptEdits, false, call(tool.Edit, "/etc/hosts"), risk.High, false, risk.Ask, ""},
		{"acceptEdits/edit outside medium", policy.ModeAcceptEdits, false, call(tool.Edit, "/tmp/x"), risk.Medium, false, risk.Allow, ""},
		{"acceptEdits/edit escaping with ..", policy.ModeAcceptEdits, false, call(tool.Edit, "../other/x"), risk.High, false, risk.Ask, ""},
		{"acceptEdits/edit in a sibling with the same prefix", policy.ModeAcceptEdits, false, call(tool.Edit, "/home/user/project-evil/x"), risk.High, false, risk.Ask, ""},
		{"acceptEdits/edit in home", policy.ModeAcceptEdits, false, call(tool.Edit, "~/.bashrc"), risk.High, false, risk.Ask, ""},
		{"acceptEdits/edit one path in, one out", policy.ModeAcceptEdits, false, call(tool.Edit, "a", "/etc/x"), risk.High, false, risk.Ask, ""},
		{"acceptEdits/edit naming no path", policy.ModeAcceptEdits, false, call(tool.Edit), risk.High, false, risk.Ask, ""},
		{"acceptEdits/execute high", policy.ModeAcceptEdits, false, call(tool.Execute), risk.High, false, risk.Ask, ""},
		{"acceptEdits/execute low", policy.ModeAcceptEdits, false, call(tool.Execute), risk.Low, false, risk.Allow, ""},

		// dontAsk: never prompts; critical and unknown are denied.
		{"dontAsk/high", policy.ModeDontAsk, false, call(tool.Execute), risk.High, false, risk.Allow, "mode.dontAsk"},
		{"dontAsk/safe", policy.ModeDontAsk, false, call(tool.Read), risk.Safe, false, risk.Allow, ""},
		{"dontAsk/critical", policy.ModeDontAsk, false, call(tool.Execute), risk.Critical, false, risk.Deny, "mode.dontAsk"},
		{"dontAsk/unknown", policy.ModeDontAsk, false, call(tool.Execute), risk.Unknown, true, risk.Deny, "mode.dontAsk"},
		{"dontAsk/low with an unknown part", policy.ModeDontAsk, false, call(tool.Execute), risk.Low, true, risk.Deny, "mode.dontAsk"},

		// bypassPermissions: everything allowed, unless disabled.
		{"bypass/critical", policy.ModeBypassPermissions, false, call(tool.Execute), risk.Critical, false, risk.Allow, "mode.bypassPermissions"},
		{"bypass/unknown", policy.ModeBypassPermissions, false, call(tool.Execute), risk.Unknown, true, risk.Allow, "mode.bypassPermissions"},
		{"bypass disabled/critical", policy.ModeBypassPermissions, true, call(tool.Execute), risk.Critical, false, risk.Ask, ""},
		{"bypass disabled/unknown", policy.ModeBypassPermissions, true, call(tool.Execute), risk.Unknown, true, risk.Ask, ""},
		{"bypass disabled/low", policy.ModeBypassPermissions, true, call(tool.Execute), risk.Low, false, risk.Allow, ""},

		// An invalid mode fails closed.
		{"invalid mode", policy.Mode("yolo"), false, call(tool.Read), risk.Safe, false, risk.Deny, "mode.invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := policy.Default()
			p.Mode, p.DisableBypass = tt.mode, tt.disable
			a := assessed(tt.level, tt.unknown)
			d := p.Decide(a, tt.call)
			if d.Verdict != tt.want {
				t.Errorf("Decide = %v %q, want %v", d, d.Reasons, tt.want)
			}
			rule := tt.rule
			if rule == "" {
				rule = "confirm_risky"
			}
			if d.Rule != rule {
				t.Errorf("Rule = %q, want %q", d.Rule, rule)
			}
			if d.Verdict != risk.Allow && len(d.Reasons) == 0 {
				t.Errorf("%v without a reason", d.Verdict)
			}
			if tt.disable && !strings.Contains(strings.Join(d.Reasons, " "), "bypassPermissions is disabled") {
				t.Errorf("reasons %q do not say bypass was refused", d.Reasons)
			}
		})
	}
}

// TestModesOverConfirmationPolicies checks that modes build on the
// configured confirmation policy, not on a fixed one.
func TestModesOverConfirmationPolicies(t *testing.T) {
	tests := []struct {
		name    string
		mode    policy.Mode
		confirm policy.ConfirmationPolicy
		call    *tool.Call
		level   risk.Level
		want    risk.Verdict
	}{
		{"default/always", policy.ModeDefault, policy.AlwaysConfirm{}, call(tool.Read), risk.Safe, risk.Ask},
		{"default/never", policy.ModeDefault, policy.NeverConfirm{}, call(tool.Execute), risk.Critical, risk.Allow},
		{"plan/read/always", policy.ModePlan, policy.AlwaysConfirm{}, call(tool.Read), risk.Safe, risk.Ask},
		{"plan/edit/never", policy.ModePlan, policy.NeverConfirm{}, call(tool.Edit, "a"), risk.Safe, risk.Ask},
		{"dontAsk/always", policy.ModeDontAsk, policy.AlwaysConfirm{}, call(tool.Read), risk.Safe, risk.Allow},
		{"dontAsk/never/critical", policy.ModeDontAsk, policy.NeverConfirm{}, call(tool.Execute), risk.Critical, risk.Deny},
		{"nil confirmation policy is the default", policy.ModeDefault, nil, call(tool.Execute), risk.High, risk.Ask},
	}
	for _, tt := range tests {
		p := &policy.Policy{Mode: tt.mode, Confirm: tt.confirm}
		if d := p.Decide(assessed(tt.level, false), tt.call); d.Verdict != tt.want {
			t.Errorf("%s: Decide = %v, want %v", tt.name, d, tt.want)
		}
	}
}

func TestDefaultPolicy(t *testing.T) {
	p := policy.Default()
	if p.Mode != policy.ModeDefault || p.DisableBypass {
		t.Errorf("Default() = %+v", p)
	}
	if c, ok := p.Confirm.(policy.ConfirmRisky); !ok || c != policy.DefaultConfirmRisky() {
		t.Errorf("Default().Confirm = %#v, want DefaultConfirmRisky", p.Confirm)
	}
	if policy.Default() == p {
		t.Error("Default returns a shared value")
	}
}
