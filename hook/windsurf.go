package hook

import (
	"fmt"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Windsurf speaks the hook protocol of Windsurf's Cascade
// (.windsurf/hooks.json, ~/.codeium/windsurf/hooks.json, system paths:
// {"hooks":{"pre_run_command":[{"command":…,"show_output":true}]}}).
//
// What it reads, each checked on 2026-11-25 (sources: the start of
// https://docs.windsurf.com/windsurf/cascade/hooks(.md) in the docs
// corpus, which says pre-hooks block with exit 2; a third-party copy of
// the Cascade hooks page, find_string id 66429124703, "verified
// 2026-07-26" against https://docs.devin.ai/desktop/cascade/hooks, for
// the payloads and exit codes; several hook integrations' tests, which
// send the same shapes; research notes docs/agent-hooks-research.md §6):
//
//   - The envelope {agent_action_name, trajectory_id (the conversation:
//     the session), execution_id, timestamp, model_name, tool_info}, the
//     event's fields under tool_info. agent_action_name is the hook's
//     event (pre_run_command, …) in every integration seen; the copied
//     page's prose names the action itself (run_command, …), which is
//     read as the pre_ event, so that a call is never left unchecked.
//   - pre_run_command / post_run_command: {command_line, cwd}; the post
//     hook adds exit_code and output (uncertain).
//   - pre_read_code / post_read_code: {file_path}; the post hook may add
//     content (uncertain).
//   - pre_write_code / post_write_code: {file_path, edits [{old_string,
//     new_string}]}; a write without edits is judged by its path alone.
//   - pre_mcp_tool_use / post_mcp_tool_use: {mcp_server_name,
//     mcp_tool_name, mcp_tool_arguments}; the post hook adds mcp_result.
//   - pre_user_prompt, post_cascade_response and the other events are no
//     tool calls: Fail.
//
// What it answers:
//
//   - Exit 2 from a pre_ hook blocks, and Cascade shows stderr to the
//     agent; every other exit code lets the call run, and stdout decides
//     nothing. [docs] So allow is exit 0 with no output, and deny exit 2
//     with the reason on stderr.
//   - Ask is that deny, its reason saying how to approve (Cascade has no
//     ask; the JSON {decision: ask} some libraries send is not in its
//     documentation).
//   - Post hooks cannot block or reach the model: exit 0, and what the
//     output held on stdout, which Cascade shows the user with
//     show_output.
//   - Fail is exit 2 with the reason on stderr.
//
// Uncertain: the hooks' timeout and what Cascade does when a hook is
// killed (probably the call runs).
type Windsurf struct{}

// Name is "windsurf".
func (Windsurf) Name() string { return "windsurf" }

// Parse reads one Cascade hook payload.
func (Windsurf) Parse(payload []byte) (Call, error) {
	obj, err := object(payload)
	if err != nil {
		return Call{}, err
	}
	name, err := need(obj, "agent_action_name")
	if err != nil {
		return Call{}, err
	}
	event, action := Before, name
	switch {
	case strings.HasPrefix(name, "pre_"):
		action = name[len("pre_"):]
	case strings.HasPrefix(name, "post_"):
		event, action = After, name[len("post_"):]
	}
	c := Call{Event: event, Action: risk.Action{Agent: "windsurf"}}
	if c.Action.SessionID, err = text(obj, "trajectory_id"); err != nil {
		return Call{}, err
	}
	info, ok := obj["tool_info"].(map[string]any)
	if !ok {
		if obj["tool_info"] == nil {
			return Call{}, fmt.Errorf("%q is missing", "tool_info")
		}
		return Call{}, fmt.Errorf("%q is %s, not an object", "tool_info", kindOf(obj["tool_info"]))
	}
	switch action {
	case "run_command":
		command, err := need(info, "command_line")
		if err != nil {
			return Call{}, err
		}
		if c.Action.Cwd, err = text(info, "cwd"); err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = "bash", map[string]any{"command": command}
		if event == After {
			c.Output = output(info["output"])
		}
	case "read_code":
		path, err := need(info, "file_path")
		if err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = "Read", map[string]any{"file_path": path}
		if event == After {
			c.Output = output(info["content"])
		}
	case "write_code":
		path, err := need(info, "file_path")
		if err != nil {
			return Call{}, err
		}
		edits, err := list(info, "edits")
		if err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = "MultiEdit", map[string]any{"file_path": path, "edits": edits}
	case "mcp_tool_use":
		server, err := need(info, "mcp_server_name")
		if err != nil {
			return Call{}, err
		}
		tool, err := need(info, "mcp_tool_name")
		if err != nil {
			return Call{}, err
		}
		if c.Action.Arguments, err = arguments(info, "mcp_tool_arguments"); err != nil {
			return Call{}, err
		}
		c.Action.Tool = mcpTool(server, tool)
		if event == After {
			c.Output = output(info["mcp_result"])
		}
	default:
		return Call{}, unknownEvent("agent_action_name", name)
	}
	return c, nil
}

// Reply answers v on c with Cascade's exit codes.
func (Windsurf) Reply(c Call, v Verdict) Reply {
	if c.Event == After {
		if v.Context == "" {
			return Reply{}
		}
		return Reply{Stdout: []byte(v.Context + "\n")}
	}
	if v.Shadow || v.Decision.Verdict == risk.Allow {
		return Reply{Stdout: shadowNote(v)}
	}
	return exit2(blockReason(v))
}

// Fail blocks the call in Cascade: exit 2, the reason on stderr.
func (Windsurf) Fail(reason string) Reply { return exit2(reason) }
