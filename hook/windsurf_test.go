package hook

import (
	"strings"
	"testing"
)

// FuzzWindsurfParse: see fuzzAdapter.
func FuzzWindsurfParse(f *testing.F) { fuzzAdapter(f, Windsurf{}) }

// TestWindsurfEvents: the pre_ hooks are checked, the post_ hooks
// observed, and the bare action names read as their pre_ hooks.
func TestWindsurfEvents(t *testing.T) {
	for _, tt := range []struct {
		name string
		info string
		want Event
		tool string
	}{
		{"pre_run_command", `{"command_line":"ls","cwd":"/w"}`, Before, "bash"},
		{"run_command", `{"command_line":"ls","cwd":"/w"}`, Before, "bash"},
		{"post_run_command", `{"command_line":"ls","cwd":"/w","output":"a"}`, After, "bash"},
		{"read_code", `{"file_path":"/w/a"}`, Before, "Read"},
		{"write_code", `{"file_path":"/w/a","edits":[]}`, Before, "MultiEdit"},
		{"mcp_tool_use", `{"mcp_server_name":"github","mcp_tool_name":"create_issue","mcp_tool_arguments":{}}`, Before, "mcp__github__create_issue"},
		{"post_mcp_tool_use", `{"mcp_server_name":"github","mcp_tool_name":"get_issue","mcp_tool_arguments":{},"mcp_result":"x"}`, After, "mcp__github__get_issue"},
	} {
		c, err := Windsurf{}.Parse([]byte(`{"agent_action_name":"` + tt.name + `","trajectory_id":"t","tool_info":` + tt.info + `}`))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if c.Event != tt.want || c.Action.Tool != tt.tool || c.Action.SessionID != "t" {
			t.Errorf("%s: %s %s session %q, want %s %s", tt.name, c.Event, c.Action.Tool, c.Action.SessionID, tt.want, tt.tool)
		}
	}
	for _, name := range []string{"pre_user_prompt", "post_cascade_response", "post_setup_worktree", "pre_", "post_", "delete_file"} {
		if _, err := (Windsurf{}).Parse([]byte(`{"agent_action_name":"` + name + `","tool_info":{}}`)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestWindsurfAskIsDeny: Cascade has no ask: what warden would ask
// about is blocked, the reason saying how to approve it.
func TestWindsurfAskIsDeny(t *testing.T) {
	r := Windsurf{}.Reply(Call{Event: Before}, asked)
	if r.Exit != 2 || !strings.Contains(string(r.Stderr), asked.Hint) || len(r.Stdout) != 0 {
		t.Errorf("ask = %+v", r)
	}
}
