package policy

import (
	"errors"
	"strings"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/tool"
)

// ErrNoRule says that a call cannot be remembered as a rule that would
// allow only calls like it: a compound or dynamic command, several
// files, several hosts.
var ErrNoRule = errors.New("policy: no narrow rule allows only this call")

// SuggestRule returns the narrowest allow rule that matches call c, for
// remembering an approval: one simple command exactly
// (Bash(go test ./...)), one file (Edit(//repo/x.go)), one host
// (WebFetch(domain:docs.example.com)), one MCP tool (mcp__github__get_issue),
// or a tool without arguments to judge (WebSearch). A call no such rule
// covers alone yields ErrNoRule: remembering it would allow more than
// was approved, and so does a shell call whose script has no fact (see
// tool.Script; the engine records them).
func SuggestRule(c *tool.Call) (string, error) {
	switch {
	case len(c.Shell) > 0:
		if c.OwnShell != 1 { // one script (the shell preparer adds the lines it resolved)
			return "", ErrNoRule
		}
		script, ok := c.Script(c.Shell[0]) // what the shell preparer read it as
		if !ok || script.Err != nil || len(script.Commands) != 1 {
			return "", ErrNoRule
		}
		cmd := script.Commands[0]
		if cmd.Depth > 0 || len(cmd.Via) > 0 || len(cmd.Redirs) > 0 {
			return "", ErrNoRule
		}
		for _, d := range cmd.Dynamic {
			if d {
				return "", ErrNoRule
			}
		}
		line := strings.Join(cmd.Args, " ")
		if line == "" || strings.ContainsAny(line, "*()\n") || strings.HasSuffix(line, ":") {
			return "", ErrNoRule // it would read as a pattern
		}
		return "Bash(" + line + ")", nil
	case c.Server != "":
		return "mcp__" + c.Server + "__" + c.Name, nil
	case (c.Class == tool.Read || c.Class == tool.Edit) && len(c.Paths) > 0:
		if len(c.Paths) != 1 {
			return "", ErrNoRule
		}
		p := c.Abs(c.Paths[0])
		if strings.ContainsAny(p, "*?[]()\n") {
			return "", ErrNoRule
		}
		kind := "Read"
		if c.Class == tool.Edit {
			kind = "Edit"
		}
		return kind + "(/" + p + ")", nil
	case len(c.URLs) > 0:
		host := ""
		for _, u := range c.URLs {
			h, err := netguard.Hostname(u)
			if err != nil || host != "" && h != host {
				return "", ErrNoRule
			}
			host = h
		}
		return "WebFetch(domain:" + host + ")", nil
	case c.Known && len(c.Paths) == 0 && len(c.SQL) == 0 && len(c.Code) == 0 && len(c.Content) == 0:
		return c.Name, nil
	}
	return "", ErrNoRule
}
