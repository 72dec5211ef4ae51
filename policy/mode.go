package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Mode is a permission tier (seed 003).
type Mode string

// The permission modes.
const (
	ModeDefault           Mode = "default"
	ModePlan              Mode = "plan"
	ModeAcceptEdits       Mode = "acceptEdits"
	ModeDontAsk           Mode = "dontAsk"
	ModeBypassPermissions Mode = "bypassPermissions"
)

// Modes lists every mode.
var Modes = []Mode{ModeDefault, ModePlan, ModeAcceptEdits, ModeDontAsk, ModeBypassPermissions}

// ParseMode reads a mode name; matching ignores case, "-" and "_"
// ("accept-edits" is acceptEdits).
func ParseMode(s string) (Mode, error) {
	norm := func(x string) string { return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(x)) }
	for _, m := range Modes {
		if norm(s) == norm(string(m)) {
			return m, nil
		}
	}
	return "", fmt.Errorf("policy: unknown mode %q (want default, plan, acceptEdits, dontAsk or bypassPermissions)", s)
}

// modeDecision is the decision of the permission mode over the
// confirmation policy, for a call no rule decided. No mode and no
// confirmation policy allows a locked assessment: it is asked about, or
// denied where nobody is asked (dontAsk).
func (p *Policy) modeDecision(a *risk.Assessment, c *tool.Call) risk.Decision {
	d := p.unlockedModeDecision(a, c)
	if !a.Locked || d.Verdict != risk.Allow {
		return d
	}
	why := "a person must approve this exact action: " + lockedBy(a) + "; no allow rule or permission mode opens it"
	if p.Mode == ModeDontAsk {
		return risk.Decision{Verdict: risk.Deny, Rule: "locked",
			Reasons: []string{why, "dontAsk mode: nobody is asked, so it is denied"}}
	}
	return risk.Decision{Verdict: risk.Ask, Rule: "locked", Reasons: []string{why}}
}

// lockedBy names the locked findings of a.
func lockedBy(a *risk.Assessment) string {
	ids := a.LockedRules()
	if ids == "" {
		return "the assessment is locked"
	}
	return ids + " cannot be allowed away"
}

func (p *Policy) unlockedModeDecision(a *risk.Assessment, c *tool.Call) risk.Decision {
	confirm := p.Confirm
	if confirm == nil {
		confirm = DefaultConfirmRisky()
	}
	base := Decide(a, confirm)
	switch p.Mode {
	case ModeDefault, "":
		return base
	case ModePlan:
		if p.readOnly(c) || base.Verdict != risk.Allow {
			return base
		}
		return risk.Decision{Verdict: risk.Ask, Rule: "mode.plan",
			Reasons: []string{"plan mode: only read-only actions run without asking"}}
	case ModeAcceptEdits:
		if c.Class == tool.Edit && a.Level != risk.Critical && !a.Unknown && insideWorkspace(c) {
			return risk.Decision{Verdict: risk.Allow, Rule: "mode.acceptEdits",
				Reasons: []string{"acceptEdits mode: edits inside the workspace are allowed"}}
		}
		return base
	case ModeDontAsk:
		if a.Level == risk.Critical || a.Level == risk.Unknown || a.Unknown {
			return risk.Decision{Verdict: risk.Deny, Rule: "mode.dontAsk",
				Reasons: []string{"dontAsk mode: critical or unassessable actions are denied instead of asked"}}
		}
		if base.Verdict == risk.Ask {
			return risk.Decision{Verdict: risk.Allow, Rule: "mode.dontAsk",
				Reasons: []string{"dontAsk mode: allowed without asking"}}
		}
		return base
	case ModeBypassPermissions:
		if p.DisableBypass {
			base.Reasons = append(base.Reasons, "bypassPermissions is disabled by policy; the default mode applies")
			return base
		}
		return risk.Decision{Verdict: risk.Allow, Rule: "mode.bypassPermissions",
			Reasons: []string{"bypassPermissions mode: allowed without checks"}}
	}
	return risk.Decision{Verdict: risk.Deny, Rule: "mode.invalid", Reasons: []string{fmt.Sprintf("unknown mode %q", p.Mode)}}
}

// readOnly reports a call plan mode lets run: a read-class tool. An MCP
// tool is read-class only by its readOnlyHint, which is believed only
// for the servers and tools the policy trusts (mcp.trust_annotations).
func (p *Policy) readOnly(c *tool.Call) bool {
	if c.Class != tool.Read {
		return false
	}
	if !c.Known && c.Action.Annotations.ReadOnly() {
		return p.MCP.Trusts(c.Action.Tool)
	}
	return true
}

// insideWorkspace reports whether every path c touches lies inside its
// workspace.
func insideWorkspace(c *tool.Call) bool {
	root := c.Env().Root()
	if root == "" || len(c.Paths) == 0 {
		return false
	}
	root = path.Clean(root)
	for _, p := range c.Paths {
		abs := c.Abs(p)
		if abs != root && !strings.HasPrefix(abs, root+"/") {
			return false
		}
	}
	return true
}
