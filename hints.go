package warden

import (
	"context"
	"strings"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// hints turns what the action says about itself into findings that can only
// raise its risk: the acting LLM's own security_risk label, and for tools the
// catalog does not know, their MCP annotations (with the specification's
// defaults: a tool that is not read-only is taken as destructive).
type hints struct{}

func (hints) Name() string { return "hints" }

func (hints) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	var out []risk.Finding
	if l := risk.ParseSecurityRisk(c.Action.SecurityRisk); l.AtLeast(risk.Medium) {
		out = append(out, risk.Finding{Analyzer: "hints", Rule: "hints.agent_security_risk", Level: l, Reversible: true,
			Reason: "The agent itself labelled this action " + string(l.SecurityRisk()) + " risk"})
	}
	if f, ok := credentialTyped(c); ok {
		out = append(out, f)
	}
	if c.Known {
		return out, nil
	}
	verbLevel, verb := shell.ToolVerb(c.Name)
	if l, arg := shell.ToolArgs(c.Name, verbLevel, verb, c.Action.Arguments); l > risk.Safe {
		// its options read as a command line's: destroy: true is
		// --destroy, resourceType: "namespace" kubectl's kind
		f := risk.Finding{Analyzer: "hints", Rule: "hints.tool_args", Level: l, Locked: l == risk.Critical,
			Reason: "Tool " + c.Name + " is given " + arg + ": "}
		if l == risk.Critical {
			f.Reason += "it removes what holds everything else (a namespace, a database, a cluster, a project), with the applications and data in it"
		} else {
			f.Reason += "the option destroys or discards what is there (as --destroy, --hard or a forced push do), which cannot be brought back"
		}
		out = append(out, f)
	}
	full := c.Name // with its server's name, which may name a defense or a payment provider
	if c.Server != "" && !strings.Contains(c.Name, c.Server) {
		full = c.Server + "." + c.Name
	}
	if l, rule, why := shell.ToolAction(full, c.Action.Arguments); l > risk.Safe {
		// what the tool does beyond its verb, judged as the command line
		// or the request that does the same: a control switched off, money
		// moved, access granted, a cache purged whole
		out = append(out, risk.Finding{Analyzer: "hints", Rule: rule, Level: l, Reversible: rule == shell.RuleImpairDefense, Reason: why})
	}
	if l := verbLevel; l > risk.Safe {
		// an unknown tool is judged by the verb it is named for, as a
		// command-line tool's subcommand is: whatever its annotations
		// say, which can only raise
		f := risk.Finding{Analyzer: "hints", Rule: "hints.tool_verb", Level: l, Reversible: l < risk.High, Locked: l == risk.Critical,
			Reason: "Tool " + c.Name + " is named for what it does (" + verb + "): "}
		switch l {
		case risk.Critical:
			f.Reason += "it deletes what holds everything else (a namespace, a database, a cluster, a project), with the applications and data in it"
		case risk.High:
			f.Reason += "it deletes or destroys what it is given, which cannot be brought back"
		case risk.Medium:
			f.Reason += "it disrupts what it is given until the opposite call undoes it"
		default:
			f.Reason += "it empties a cache that is rebuilt"
		}
		out = append(out, f)
	}
	ann := c.Action.Annotations
	switch {
	case ann == nil && c.Like != "":
		out = append(out, risk.Finding{Analyzer: "hints", Rule: "hints.unknown_tool", Level: risk.Low, Reversible: true,
			Reason: "Tool " + c.Name + " of MCP server " + c.Server + " is not in warden's catalog (a known server's tool has its name, not its trust); assessed from its arguments"})
	case ann == nil:
		out = append(out, risk.Finding{Analyzer: "hints", Rule: "hints.unknown_tool", Level: risk.Low, Reversible: true,
			Reason: "Tool " + c.Name + " is not in warden's catalog; assessed from its arguments"})
	case ann.ReadOnly():
	case ann.Destructive():
		out = append(out, risk.Finding{Analyzer: "hints", Rule: "hints.mcp_destructive", Level: risk.Medium, Reversible: false,
			Reason: "Tool " + c.Name + " may perform destructive updates (MCP annotations)"})
	default:
		out = append(out, risk.Finding{Analyzer: "hints", Rule: "hints.mcp_writes", Level: risk.Low, Reversible: true,
			Reason: "Tool " + c.Name + " may modify its environment (MCP annotations)"})
	}
	return out, nil
}

// malformed returns the finding, at Unknown, that the arguments of a
// known tool do not fit its schema (see tool.Call.Malformed): warden
// cannot tell what the tool will make of them, so the call is never
// safe, whatever else its arguments show. It is the engine's own finding,
// which no analyzer setting turns off.
func malformed(c *tool.Call) []risk.Finding {
	if len(c.Malformed) == 0 {
		return nil
	}
	return []risk.Finding{{Analyzer: "tool", Rule: "tool.malformed", Level: risk.Unknown,
		Reason: "The arguments do not fit the " + c.Action.Tool + " tool (" + strings.Join(c.Malformed, "; ") + "), so what it will do is unknown"}}
}
