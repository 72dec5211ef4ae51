package warden

import (
	"github.com/agentwarden/warden/analyze/weaken"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// weakenFindings judges what the edit and write tools of call c change in
// files that hold a defence (CI checks, scanners' and hooks' settings,
// safety switches in code, agents' own configuration): see package
// weaken. An edit that only removes text gives no content to c, so its
// replaced text is read from the arguments here.
func weakenFindings(c *tool.Call) []risk.Finding {
	var out []risk.Finding
	for _, ct := range c.Content {
		if ct.Path != "" {
			out = append(out, weaken.Judge(weaken.Change{Path: ct.Path, Old: ct.Old, New: ct.Text, Whole: !ct.Partial})...)
		}
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
