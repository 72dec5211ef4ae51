package warden

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/configcode"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/analyze/weaken"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// weakenFindings judges what the edit and write tools of call c change in
// files that hold a defence (CI checks, scanners' and hooks' settings,
// safety switches in code, agents' own configuration): see package
// weaken. An edit that only removes text gives no content to c, so its
// replaced text is read from the arguments here; the known text that its
// shell scripts write into files that run things (ws, a heredoc into a
// workflow) is judged as a write of it.
func weakenFindings(c *tool.Call, ws []configWrite) []risk.Finding {
	var out []risk.Finding
	for _, ct := range c.Content {
		if ct.Path != "" {
			out = append(out, weaken.Judge(weaken.Change{Path: ct.Path, Old: ct.Old, New: ct.Text, Whole: !ct.Partial})...)
		}
	}
	for _, w := range ws {
		if w.unknown || slices.ContainsFunc(c.Content, func(ct tool.Content) bool { return ct.Text == w.text }) {
			continue
		}
		out = append(out, weaken.Judge(weaken.Change{Path: w.path, New: w.text})...)
	}
	for _, ef := range weakenShellWrites(c) {
		out = append(out, weaken.Judge(weaken.Change{Path: ef.Path, New: ef.Text})...)
	}
	if len(c.Paths) == 0 || c.Action == nil {
		return out
	}
	args := c.Action.Arguments
	removal := func(m map[string]any) {
		for _, k := range [...]string{"old_string", "old_str", "oldText", "old_text"} {
			if old, ok := m[k].(string); ok && old != "" {
				for _, nk := range [...]string{"new_string", "new_str", "newText", "new_text"} {
					if nw, ok := m[nk].(string); ok && nw == "" {
						out = append(out, weaken.Judge(weaken.Change{Path: c.Paths[0], Old: old})...)
						return
					}
				}
			}
		}
	}
	if args != nil {
		removal(args)
		if edits, ok := args["edits"].([]any); ok {
			for _, e := range edits {
				if m, ok := e.(map[string]any); ok {
					removal(m)
				}
			}
		}
	}
	return out
}

// weakenNames are words in a script that may write a file package weaken
// judges and configWrites does not read (scanners' settings, agents' MCP
// servers, editor settings): the gate before its effects are read.
var weakenNames = []string{"mcp", "gitleaks", "semgrep", "trivy", ".snyk", "secrets.baseline", "settings.json", "verify", "Verify", "VERIFY"}

// weakenShellWrites returns the known writes of the shell scripts of c
// into such files: the shell preparer's effects in a conversation, else
// the scripts' own, read when a script names one.
func weakenShellWrites(c *tool.Call) []tool.Effect {
	if len(c.Shell) == 0 {
		return nil
	}
	var out []tool.Effect
	keep := func(effects []tool.Effect) {
		for _, ef := range effects {
			if ef.Kind == tool.WriteFile && ef.Known && ef.Text != "" && configcode.KindOf(ef.Path) == configcode.None {
				out = append(out, ef)
			}
		}
	}
	if c.Prior != nil {
		keep(c.Effects)
		return out
	}
	env := c.Env()
	for _, s := range c.Shell {
		// a known text reaches a file through a redirect (a heredoc's
		// too) or tee: a script with neither writes none
		if !strings.Contains(s, ">") && !strings.Contains(s, "tee") {
			continue
		}
		hit := false
		for _, n := range weakenNames {
			if strings.Contains(s, n) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		if cmds, ok := shell.Resolved(c, s); ok {
			keep(shell.DefaultKnowledge().Effects(cmds, env))
		}
	}
	return out
}
