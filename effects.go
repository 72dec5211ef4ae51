package warden

import (
	"context"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// fileTools judges what the agents' own file tools do to the files they
// name (tool.Call.FileOps: Write, Edit, apply_patch, read_file, the MCP
// filesystem server's tools …) with the effect table, as the shell and
// code preparers judge what commands and code do: the same effect gets
// the same level whatever tool has it. What a tool writes is judged
// apart, by the rules and the other analyzers (content that is code,
// secrets written).
type fileTools struct{}

// The rules of fileTools' findings: by operation, and a credential or a
// device read as the rule pack named it.
const (
	ruleEditWrite      = "edit.write"
	ruleEditDelete     = "edit.delete"
	ruleReadCredential = "read.credential_file"
	ruleReadDevice     = "read.device"
	ruleReadSecret     = "read.secret_file"
)

func (fileTools) Name() string { return "effects" }

func (fileTools) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	var buf [4]tool.FileOp // most file tools name one file
	ops := c.AppendFileOps(buf[:0])
	var out []risk.Finding
	if len(c.Effects) > 0 {
		out = servedSecrets(c)
	}
	if len(ops) == 0 {
		return out, nil
	}
	env := c.Env()
	for _, o := range ops {
		p := c.Abs(o.Path)
		var t effect.Target
		if o.Op == effect.Read {
			t = effect.Reading(env, p)
		} else {
			t = effect.Of(env, o.Path)
		}
		v, ok := effect.JudgeFile(o.Op, t, effect.Glob(o.Path))
		if !ok || !v.Finds() {
			continue
		}
		f := risk.Finding{Analyzer: "effects", Level: v.Level, Reversible: v.Reversible, Locked: v.Locked, Resource: "file:" + p}
		switch {
		case o.Op == effect.Delete:
			f.Rule, f.Reason = ruleEditDelete, "The tool deletes "+p+" ("+t.String()+"): it "+v.Why
		case o.Op == effect.Read && t == effect.Secret:
			f.Rule, f.Reason = ruleReadSecret, "Reading "+p+" puts the secrets it holds into the agent's context"
		case o.Op == effect.Read && t == effect.Device:
			f.Rule, f.Reason = ruleReadDevice, "The tool reads the raw device "+p+", which exposes everything stored on it"
		case o.Op == effect.Read:
			f.Rule, f.Reason = ruleReadCredential, "Reading a credential file puts secrets into the agent's context ("+p+")"
		case v.Level <= risk.Medium:
			f.Rule, f.Reason = ruleEditWrite, "File modification may overwrite existing content"
		default:
			f.Rule, f.Reason = ruleEditWrite, "Editing "+p+" ("+t.String()+") "+v.Why
		}
		if !contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// contains reports whether fs holds f already (a path named twice).
func contains(fs []risk.Finding, f risk.Finding) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}
