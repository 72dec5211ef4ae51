package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/risk"
)

// Cursor speaks the hook protocol of Cursor's agent (hooks.json
// {"version":1,"hooks":{…}}, one flat entry per command, failClosed:
// true).
//
// What it reads, each checked on 2026-11-25 (sources: the start of
// https://cursor.com/docs/agent/hooks in the docs corpus, which lists
// the events; a third-party contract file, find_string id 55824847423,
// that quotes Cursor's hooks reference https://cursor.com/docs/reference/hooks
// as R1 and adds live runs on Cursor 3.9.16, 2026-06-29/30; research
// notes docs/agent-hooks-research.md §4):
//
//   - Every event: hook_event_name (camelCase), conversation_id (the
//     session; session_id, seen equal to it, when it is missing),
//     workspace_roots (the first is the working directory when the
//     payload names none). [R1; session_id observed]
//   - preToolUse / postToolUse {tool_name, tool_input (an object),
//     tool_use_id, cwd (seen empty)}; postToolUse adds tool_output, a
//     JSON string whose shape depends on the tool. Tool names are
//     Cursor's: Shell {command, cwd, timeout}, Read {file_path}, Grep
//     {pattern, file_path}, Write, Task, MCP:<tool>. [R1 + observed]
//     Shell's cwd becomes the action's, Grep's file_path the catalog's
//     path, MCP:<tool> mcp__<server>__<tool>; other tools keep Cursor's
//     name and arguments, which the catalog's row of that name (Write,
//     Edit, Task, …) judges, as malformed (unknown) when they do not
//     fit it: their shapes are not documented.
//   - beforeShellExecution {command, cwd, sandbox};
//     afterShellExecution {command, output, duration, sandbox}. [R1 + observed]
//   - beforeMCPExecution {tool_name, tool_input (a JSON string), url |
//     command}; afterMCPExecution adds result_json. No server name is
//     documented; a "server" field is read when there is one. [R1; MCP
//     events never observed]
//   - beforeReadFile {file_path, content, attachments}: the read is
//     judged by its path; the content is not read. [R1 + observed]
//   - afterFileEdit {file_path, edits [{old_string, new_string}]},
//     edits empty for a new file. [R1 + observed]
//   - Any other event is not a tool call warden judges: Fail.
//
// What it answers:
//
//   - Output is flat snake_case JSON read on exit 0 (no
//     hookSpecificOutput wrapper). [R1 + observed]
//   - Allow is {"permission":"allow"}, always written: with failClosed
//     an empty answer blocks. [observed]
//   - Deny is exit 0 with {"permission":"deny", user_message,
//     agent_message}, the reason in both: the model was observed to
//     receive user_message, never agent_message, against the docs.
//     [R1 + observed]
//   - Ask is a deny whose reason says how to approve (Verdict.Hint):
//     "ask" is not enforced on preToolUse (only allow and deny act),
//     beforeReadFile has no ask, and on beforeShellExecution Cursor
//     3.9.16 showed no approval prompt, it just blocked. [R1 + observed]
//   - After events: {"additional_context": …} when the output held
//     something (postToolUse passes it to the model; the after* hooks
//     ignore output), {} otherwise.
//   - Fail is exit 2, which blocks every event [R1 + observed], with the
//     deny JSON on stdout (a build that parses it reads a deny; 3.9.16
//     shows it verbatim as the reason) and the reason on stderr.
//
// Uncertain: the timeout's unit and default, and the version that
// introduced failClosed (install's concern); the MCP events' exact
// fields.
type Cursor struct{}

// Name is "cursor".
func (Cursor) Name() string { return "cursor" }

// Parse reads one Cursor hook payload.
func (Cursor) Parse(payload []byte) (Call, error) {
	obj, err := object(payload)
	if err != nil {
		return Call{}, err
	}
	event, err := need(obj, "hook_event_name")
	if err != nil {
		return Call{}, err
	}
	c := Call{Event: Before, Action: risk.Action{Agent: "cursor"}}
	if c.Action.SessionID, err = text(obj, "conversation_id"); err != nil {
		return Call{}, err
	}
	if c.Action.SessionID == "" {
		if c.Action.SessionID, err = text(obj, "session_id"); err != nil {
			return Call{}, err
		}
	}
	if c.Action.Cwd, err = text(obj, "cwd"); err != nil {
		return Call{}, err
	}
	switch event {
	case "preToolUse", "postToolUse":
		name, err := need(obj, "tool_name")
		if err != nil {
			return Call{}, err
		}
		args, err := arguments(obj, "tool_input")
		if err != nil {
			return Call{}, err
		}
		cursorTool(&c.Action, name, args, obj)
		if event == "postToolUse" {
			c.Event = After
			c.Output = output(obj["tool_output"])
		}
	case "beforeShellExecution", "afterShellExecution":
		command, err := need(obj, "command")
		if err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = "Shell", map[string]any{"command": command}
		if event == "afterShellExecution" {
			c.Event = After
			if c.Output, err = text(obj, "output"); err != nil {
				return Call{}, err
			}
		}
	case "beforeMCPExecution", "afterMCPExecution":
		name, err := need(obj, "tool_name")
		if err != nil {
			return Call{}, err
		}
		args, err := arguments(obj, "tool_input")
		if err != nil {
			return Call{}, err
		}
		server, err := text(obj, "server")
		if err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = mcpTool(server, name), args
		if event == "afterMCPExecution" {
			c.Event = After
			c.Output = output(obj["result_json"])
		}
	case "beforeReadFile":
		path, err := need(obj, "file_path")
		if err != nil {
			return Call{}, err
		}
		c.Action.Tool, c.Action.Arguments = "Read", map[string]any{"file_path": path}
	case "afterFileEdit":
		path, err := need(obj, "file_path")
		if err != nil {
			return Call{}, err
		}
		edits, err := list(obj, "edits")
		if err != nil {
			return Call{}, err
		}
		c.Event = After
		c.Action.Tool, c.Action.Arguments = "MultiEdit", map[string]any{"file_path": path, "edits": edits}
	default:
		return Call{}, unknownEvent("hook_event_name", event)
	}
	if c.Action.Cwd == "" {
		c.Action.Cwd, err = firstRoot(obj)
		if err != nil {
			return Call{}, err
		}
	}
	return c, nil
}

// cursorTool sets a's tool and arguments from a preToolUse or
// postToolUse call of Cursor's tool name with args: Shell's cwd becomes
// the action's (the catalog's shell takes workdir), Grep's file_path (the
// scope searched) its path, MCP:<tool> an MCP tool of the server the
// payload names, or of none.
func cursorTool(a *risk.Action, name string, args map[string]any, obj map[string]any) {
	a.Tool, a.Arguments = name, args
	switch {
	case name == "Shell":
		if dir, ok := args["cwd"].(string); ok {
			delete(args, "cwd")
			if dir != "" {
				a.Cwd = dir // where the command runs, more precise than the event's
			}
		}
	case name == "Grep":
		if p, ok := args["file_path"]; ok {
			if _, both := args["path"]; !both {
				delete(args, "file_path")
				args["path"] = p
			}
		}
	case strings.HasPrefix(name, "MCP:"):
		server, _ := obj["server"].(string)
		a.Tool = mcpTool(server, strings.TrimPrefix(name, "MCP:"))
	}
}

// Reply answers v on c in Cursor's JSON.
func (Cursor) Reply(c Call, v Verdict) Reply {
	if c.Event == After {
		return Reply{Stdout: jsonLine(cursorAnswer{AdditionalContext: v.Context})}
	}
	if v.Shadow || v.Decision.Verdict == risk.Allow {
		return Reply{Stdout: jsonLine(cursorAnswer{Permission: "allow"}), Stderr: shadowNote(v)}
	}
	r := blockReason(v)
	return Reply{Stdout: jsonLine(cursorAnswer{Permission: "deny", UserMessage: r, AgentMessage: r})}
}

// blockReason is Reason for an agent without an ask, where what warden
// would ask about is blocked until a person approves it.
func blockReason(v Verdict) string {
	if v.Decision.Verdict == risk.Ask {
		return reason(v, "blocked this call until a person approves it")
	}
	return Reason(v)
}

// Fail blocks the call in Cursor: exit 2 blocks whatever the event; the
// deny JSON is for a build that reads stdout on exit 2.
func (Cursor) Fail(reason string) Reply {
	r := exit2(reason)
	msg := strings.TrimSpace(string(r.Stderr))
	r.Stdout = jsonLine(cursorAnswer{Permission: "deny", UserMessage: msg, AgentMessage: msg})
	return r
}

// cursorAnswer is the JSON a Cursor hook writes (the fields warden uses).
type cursorAnswer struct {
	Permission        string `json:"permission,omitempty"`
	UserMessage       string `json:"user_message,omitempty"`
	AgentMessage      string `json:"agent_message,omitempty"`
	AdditionalContext string `json:"additional_context,omitempty"`
}

// firstRoot returns the first of the payload's workspace_roots, "" when
// there is none.
func firstRoot(obj map[string]any) (string, error) {
	roots, err := list(obj, "workspace_roots")
	if err != nil || len(roots) == 0 {
		return "", err
	}
	root, ok := roots[0].(string)
	if !ok {
		return "", fmt.Errorf("%q holds %s, not a string", "workspace_roots", kindOf(roots[0]))
	}
	return root, nil
}

// The helpers below read the payloads of the cursor, copilot and
// windsurf adapters. Their errors name fields and JSON types, never a
// value: a payload carries the tool's input, which may hold secrets.

// object decodes payload, which must be one JSON object in valid UTF-8.
// Numbers become float64, as everywhere in warden's actions.
func object(payload []byte) (map[string]any, error) {
	if !utf8.Valid(payload) {
		return nil, errors.New("it is not valid UTF-8")
	}
	var v any
	if err := json.Unmarshal(payload, &v); err != nil {
		return nil, errors.New("it is not valid JSON")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("it is %s, not a JSON object", kindOf(v))
	}
	return obj, nil
}

// text returns obj[key], a string: "" when it is missing or null, an
// error when it is of another type.
func text(obj map[string]any, key string) (string, error) {
	switch v := obj[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("%q is %s, not a string", key, kindOf(v))
	}
}

// need is text for a field that must be given, not empty.
func need(obj map[string]any, key string) (string, error) {
	s, err := text(obj, key)
	if err == nil && s == "" {
		err = fmt.Errorf("%q is missing or empty", key)
	}
	return s, err
}

// list returns obj[key], an array: empty, not nil, when it is missing or
// null.
func list(obj map[string]any, key string) ([]any, error) {
	switch v := obj[key].(type) {
	case nil:
		return []any{}, nil
	case []any:
		return v, nil
	default:
		return nil, fmt.Errorf("%q is %s, not an array", key, kindOf(v))
	}
}

// arguments returns the tool arguments under key: an object, or a
// string holding one (Cursor's beforeMCPExecution and Copilot's
// toolArgs send them so); an empty object when they are missing, null or
// the empty string.
func arguments(obj map[string]any, key string) (map[string]any, error) {
	v := obj[key]
	if s, ok := v.(string); ok {
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		if !utf8.ValidString(s) || json.Unmarshal([]byte(s), &v) != nil {
			return nil, fmt.Errorf("%q is a string that holds no valid JSON", key)
		}
	}
	switch v := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return v, nil
	default:
		return nil, fmt.Errorf("%q is %s, not an object", key, kindOf(v))
	}
}

// output returns the text of a tool's output v, for Observe: a string
// that holds JSON (Cursor's tool_output and result_json) is read as that
// JSON; then every string in it, one a line (appendStrings).
func output(v any) string {
	if s, ok := v.(string); ok {
		var inner any
		if json.Unmarshal([]byte(s), &inner) == nil {
			if _, plain := inner.(string); !plain {
				v = inner
			}
		}
	}
	var b strings.Builder
	appendStrings(&b, v)
	return b.String()
}

// mcpTool is warden's name of an MCP server's tool: mcp__server__tool,
// the server "unknown" when the payload names none (a server warden does
// not know, whose tools are read from their arguments alone).
func mcpTool(server, tool string) string {
	if server == "" {
		server = "unknown"
	}
	return "mcp__" + server + "__" + tool
}

// unknownEvent is the error for an event warden does not judge. The name
// is quoted only when it looks like one (letters and underscores): the
// error reaches the agent's logs, and holds no value that might be a
// secret.
func unknownEvent(key, name string) error {
	if len(name) <= 40 && strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" {
		return fmt.Errorf("%s %q is not an event warden judges", key, name)
	}
	return fmt.Errorf("its %s is not an event warden judges", key)
}

// kindOf names the JSON type of v, for errors.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// shadowNote is, in shadow mode, what warden would have answered, for
// stderr: nil when it would have allowed the call.
func shadowNote(v Verdict) []byte {
	if !v.Shadow || v.Decision.Verdict == risk.Allow {
		return nil
	}
	return []byte(Reason(v) + "\n")
}
