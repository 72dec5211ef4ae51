package main

import (
	"strings"
	"testing"
)

// Malformed calls of known tools, and an action that names no tool, are
// unknown with the reason through warden assess, and asked about under
// the default policy: never safe, never allowed.
func TestAssessMalformed(t *testing.T) {
	lines := []struct {
		action string
		reason string // part of the reasons
	}{
		{`{"tool":"Bash"}`, `missing "command"`},
		{`{"cmd":"rm -rf /"}`, `names no tool (it has "cmd")`},
		{`{"tool":"Bash","arguments":{"command":{"run":"rm -rf /"}}}`, `"command" must be a string`},
		{`{"tool":"Bash","arguments":{"command":7}}`, `not a number`},
		{`{"tool":"Bash","arguments":{"cmd":"rm -rf /"}}`, `"cmd" is not an argument it takes`},
		{`{"tool":"Write","arguments":{"content":"x"}}`, `missing "file_path"`},
		{`{"tool":"Edit","arguments":{"file_path":"a.txt","new_string":"b"}}`, `missing "old_string"`},
		{`{"tool":"mcp__filesystem__write_file","arguments":{"path":7,"content":"x"}}`, `"path" must be a string`},
	}
	actions := make([]string, len(lines))
	for i, c := range lines {
		actions[i] = c.action
	}
	out := assessLines(t, actions)
	for i, o := range out {
		if o.Level == "safe" || o.Unknown == nil || !*o.Unknown || o.Decision != "ask" {
			t.Errorf("%s: level %s unknown %v decision %s", lines[i].action, o.Level, o.Unknown != nil && *o.Unknown, o.Decision)
		}
		if r := strings.Join(o.Reasons, " | "); !strings.Contains(r, lines[i].reason) {
			t.Errorf("%s: reasons %q lack %q", lines[i].action, r, lines[i].reason)
		}
	}
}
