package hook

import (
	"errors"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Copilot speaks the hook protocol of GitHub Copilot CLI
// (.github/hooks/*.json, {"version":1,"hooks":{"preToolUse":[{"type":
// "command","bash":…,"timeoutSec":…}]}}).
//
// What it reads, each checked on 2026-11-25 (sources: GitHub's CLI hooks
// reference, https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference,
// and the SDK's pre-tool-use page in the docs corpus; github/copilot-cli
// issues #3349 (2026-05-16), #2647 (v1.0.24), #2643, #2585 (v1.0.21);
// microsoft/vscode-copilot-chat copilotCLITools.ts for the tools'
// arguments; research notes docs/agent-hooks-research.md §5):
//
//   - preToolUse {sessionId, timestamp, cwd, toolName, toolArgs}, in
//     camelCase. toolArgs is documented as "unknown": it arrives as a
//     JSON string (#3349, symposium and lean-ctx captures) or as an object
//     (a Windows capture); both are read. [docs + issues]
//   - postToolUse adds toolResult {resultType, textResultForLlm}, whose
//     text is the output Observe reads. [SDK docs; the CLI's shape is
//     uncertain]
//   - The Claude-shaped snake_case payload (tool_name, tool_input,
//     session_id, tool_response), which some hosts send for the same
//     hooks, is read too when the camelCase fields are absent.
//   - A payload with hookEventName (or hook_event_name) is judged by it
//     (preToolUse or PreToolUse, postToolUse or PostToolUse; any other
//     event fails); without one, a payload with a tool result is a
//     postToolUse and any other a preToolUse, so that nothing that might
//     be a preToolUse goes unchecked.
//   - Tools: bash and powershell {command, description, sessionId or
//     shellId, …}; the editor tools view, create, edit, str_replace,
//     insert and undo_edit {path, file_text, old_str, new_str,
//     insert_line, view_range} are the commands of the older
//     str_replace_editor tool and are judged as it (edit as its
//     str_replace); grep, glob and web_fetch take the catalog's arguments;
//     other tools (MCP tools among them) are judged by their arguments.
//
// What it answers:
//
//   - Deny is exit 0 with {"permissionDecision":"deny",
//     "permissionDecisionReason": …}; the reason is shown. [docs +
//     observed]
//   - Ask is {"permissionDecision":"ask", …}: the CLI (1.0.24 and later)
//     prompts the user. [#2647, #2643]
//   - Allow is no output: no decision, the CLI's own permissions apply.
//     [docs: null output runs the tool unchanged]
//   - After a tool ran: {"additionalContext": …} when the output held
//     something (uncertain whether the CLI passes it on), nothing
//     otherwise.
//   - Fail is the deny JSON on exit 0, its reason on stderr too: a
//     non-zero exit was seen to deny as "hook errored" (June 2026) but is
//     reported elsewhere to let the call run, and would lose the reason.
//
// Copilot lets a call run when its hook times out (30 s by default,
// timeoutSec) and runs the hooks of parallel calls one after another:
// the answer must be fast.
type Copilot struct{}

// Name is "copilot".
func (Copilot) Name() string { return "copilot" }

// copilotEditor are Copilot's editor tools, the commands of
// str_replace_editor they stand for.
var copilotEditor = map[string]string{
	"view": "view", "create": "create", "edit": "str_replace", "str_replace": "str_replace",
	"insert": "insert", "undo_edit": "undo_edit",
}

// Parse reads one Copilot CLI hook payload.
func (Copilot) Parse(payload []byte) (Call, error) {
	obj, err := object(payload)
	if err != nil {
		return Call{}, err
	}
	c := Call{Event: Before, Action: risk.Action{Agent: "copilot"}}
	event, err := either(obj, "hookEventName", "hook_event_name")
	if err != nil {
		return Call{}, err
	}
	result, hasResult := obj["toolResult"]
	if !hasResult || result == nil {
		result, hasResult = obj["tool_response"]
		hasResult = hasResult && result != nil
	}
	switch event {
	case "":
		if hasResult {
			c.Event = After
		}
	case "preToolUse", "PreToolUse":
	case "postToolUse", "PostToolUse":
		c.Event = After
	default:
		return Call{}, unknownEvent("hookEventName", event)
	}
	name, argsKey := "toolName", "toolArgs"
	if _, camel := obj[name]; !camel {
		if _, snake := obj["tool_name"]; snake {
			name, argsKey = "tool_name", "tool_input"
		}
	}
	if c.Action.Tool, err = need(obj, name); err != nil {
		return Call{}, err
	}
	if c.Action.Arguments, err = arguments(obj, argsKey); err != nil {
		return Call{}, err
	}
	if c.Action.SessionID, err = either(obj, "sessionId", "session_id"); err != nil {
		return Call{}, err
	}
	if c.Action.Cwd, err = text(obj, "cwd"); err != nil {
		return Call{}, err
	}
	if command, ok := copilotEditor[c.Action.Tool]; ok {
		if _, taken := c.Action.Arguments["command"]; taken {
			return Call{}, errors.New("the arguments of an editor tool hold a command")
		}
		c.Action.Tool = "str_replace_editor"
		c.Action.Arguments["command"] = command
	}
	if c.Event == After {
		if r, ok := result.(map[string]any); ok && r["textResultForLlm"] != nil {
			result = r["textResultForLlm"]
		}
		c.Output = output(result)
	}
	return c, nil
}

// either is text of the first of two keys the payload holds.
func either(obj map[string]any, key, other string) (string, error) {
	if _, ok := obj[key]; ok {
		return text(obj, key)
	}
	return text(obj, other)
}

// Reply answers v on c in Copilot's JSON.
func (Copilot) Reply(c Call, v Verdict) Reply {
	if c.Event == After {
		if v.Context == "" {
			return Reply{}
		}
		return Reply{Stdout: jsonLine(copilotAnswer{AdditionalContext: v.Context})}
	}
	switch {
	case v.Shadow || v.Decision.Verdict == risk.Allow:
		return Reply{Stderr: shadowNote(v)}
	case v.Decision.Verdict == risk.Ask:
		return Reply{Stdout: jsonLine(copilotAnswer{PermissionDecision: "ask", PermissionDecisionReason: Reason(v)})}
	default:
		return Reply{Stdout: jsonLine(copilotAnswer{PermissionDecision: "deny", PermissionDecisionReason: Reason(v)})}
	}
}

// Fail blocks the call in Copilot CLI: a deny on exit 0, the reason on
// stderr too.
func (Copilot) Fail(reason string) Reply {
	r := exit2(reason)
	r.Exit = 0
	r.Stdout = jsonLine(copilotAnswer{PermissionDecision: "deny", PermissionDecisionReason: strings.TrimSpace(string(r.Stderr))})
	return r
}

// copilotAnswer is the JSON a Copilot CLI hook writes (the fields warden
// uses).
type copilotAnswer struct {
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}
