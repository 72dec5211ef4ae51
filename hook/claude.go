package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// ClaudeCode speaks Claude Code's command hooks, PreToolUse and
// PostToolUse (https://code.claude.com/docs/en/hooks).
//
// The payload is {session_id, transcript_path, cwd, permission_mode,
// hook_event_name, tool_name, tool_input, tool_use_id}, and, after the
// tool ran, tool_response. Tool names are Claude Code's own (Bash, Read,
// Write, Edit, WebFetch, …) and mcp__server__tool for MCP tools, all of
// which warden's catalog knows.
//
// The answers:
//   - deny, and every failure: exit 2 with the reason on stderr, which
//     blocks the call and shows the reason to Claude. Exit 2 is chosen
//     over a JSON permissionDecision "deny" on exit 0 because it is the
//     one blocking answer every version with hooks has honoured alike: it
//     depends on nothing but the exit status, while JSON output has been
//     validated differently across versions (before 2.1.214 a JSON deny
//     that failed validation let the call run) and would fail open on any
//     change of its schema. Stdout stays empty, so that versions that let
//     valid JSON decide whatever the exit code have nothing to read.
//   - ask: exit 0 with hookSpecificOutput.permissionDecision "ask" and the
//     reason, which Claude Code shows the user in its permission prompt.
//   - allow: exit 0 and no output, no decision, so that the user's own
//     permission rules and prompts still apply; with Authoritative,
//     permissionDecision "allow", which skips Claude Code's prompt (its
//     deny and ask rules still apply).
//   - after the tool ran: exit 0, with hookSpecificOutput.additionalContext
//     telling Claude what sensitive data the output held, if any.
//   - shadow mode: exit 0 and, for what would have been asked or denied,
//     a systemMessage to the user saying so; never a decision.
type ClaudeCode struct {
	// Authoritative makes warden's allow skip Claude Code's own
	// permission prompt (permissionDecision "allow"); by default an
	// allowed call gets no decision.
	Authoritative bool
}

// WithAuthoritative returns the adapter with Authoritative set to on:
// how `warden hook --authoritative` finds the adapters that take it.
func (c ClaudeCode) WithAuthoritative(on bool) Adapter { c.Authoritative = on; return c }

// Name returns "claude-code".
func (ClaudeCode) Name() string { return "claude-code" }

// Parse reads a PreToolUse or PostToolUse payload.
func (c ClaudeCode) Parse(payload []byte) (Call, error) {
	return parseClaudeShaped(c.Name(), payload)
}

// Reply answers v; see ClaudeCode.
func (c ClaudeCode) Reply(call Call, v Verdict) Reply {
	if call.Event == After {
		return postToolUse(v.Context)
	}
	if v.Shadow {
		return shadowMessage(v)
	}
	switch v.Decision.Verdict {
	case risk.Allow:
		if !c.Authoritative {
			return Reply{}
		}
		return Reply{Stdout: jsonLine(preToolUse{HookSpecificOutput: &preToolUseOutput{
			HookEventName: "PreToolUse", PermissionDecision: "allow", PermissionDecisionReason: Reason(v)}})}
	case risk.Ask:
		return Reply{Stdout: jsonLine(preToolUse{HookSpecificOutput: &preToolUseOutput{
			HookEventName: "PreToolUse", PermissionDecision: "ask", PermissionDecisionReason: Reason(v)}})}
	}
	return c.Fail(Reason(v))
}

// Fail blocks the call: exit 2, the reason on stderr.
func (ClaudeCode) Fail(reason string) Reply { return exit2(reason) }

// preToolUse is the JSON a PreToolUse hook writes (the fields warden
// uses).
type preToolUse struct {
	SystemMessage      string            `json:"systemMessage,omitempty"`
	HookSpecificOutput *preToolUseOutput `json:"hookSpecificOutput,omitempty"`
}

type preToolUseOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// postToolUse is the answer of Claude Code and Codex after a tool ran:
// exit 0, and the context for the model when there is one.
func postToolUse(context string) Reply {
	if context == "" {
		return Reply{}
	}
	return Reply{Stdout: jsonLine(preToolUse{HookSpecificOutput: &preToolUseOutput{
		HookEventName: "PostToolUse", AdditionalContext: context}})}
}

// shadowMessage is the answer of Claude Code and Codex in shadow mode:
// exit 0, no decision, and for a call that would have been asked about or
// denied a systemMessage saying so.
func shadowMessage(v Verdict) Reply {
	if v.Decision.Verdict == risk.Allow {
		return Reply{}
	}
	return Reply{Stdout: jsonLine(preToolUse{SystemMessage: Reason(v)})}
}

// exit2 is exit 2 with reason (never empty) on stderr.
func exit2(reason string) Reply {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		reason = "warden blocked this call"
	}
	return Reply{Stderr: []byte(reason + "\n"), Exit: 2}
}

// jsonLine encodes v as one JSON line, without HTML escaping. It panics
// on a value encoding/json cannot encode, which the adapters never make.
func jsonLine(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("hook: encoding an answer: %v", err))
	}
	return b.Bytes()
}

// claudeShaped is the payload of Claude Code's tool hooks, which Codex
// (and Gemini CLI, with its own event names) follow.
type claudeShaped struct {
	SessionID      *string         `json:"session_id"`
	Cwd            *string         `json:"cwd"`
	PermissionMode *string         `json:"permission_mode"`
	HookEventName  *string         `json:"hook_event_name"`
	ToolName       *string         `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
}

// decodeObject decodes payload, one JSON object and nothing after it,
// into v.
func decodeObject(payload []byte, v any) error {
	payload = bytes.TrimSpace(payload)
	if len(payload) == 0 || payload[0] != '{' {
		return errors.New("it is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%q is a JSON %s, which is not what the agent sends there", te.Field, te.Value)
		}
		return errors.New("it is not valid JSON")
	}
	if dec.More() {
		return errors.New("it holds more than one JSON value")
	}
	return nil
}

// parseClaudeShaped reads a payload in Claude Code's shape for agent.
func parseClaudeShaped(agent string, payload []byte) (Call, error) {
	var p claudeShaped
	if err := decodeObject(payload, &p); err != nil {
		return Call{}, err
	}
	var c Call
	switch ev := str(p.HookEventName); ev {
	case "PreToolUse":
		c.Event = Before
	case "PostToolUse":
		c.Event = After
	case "":
		return Call{}, errors.New(`it names no "hook_event_name"`)
	default:
		return Call{}, fmt.Errorf("hook event %q is not PreToolUse or PostToolUse", clip(ev, 60))
	}
	a, err := action(str(p.ToolName), p.ToolInput)
	if err != nil {
		return Call{}, err
	}
	a.SessionID, a.Cwd, a.Agent = str(p.SessionID), str(p.Cwd), agent
	c.Action, c.Mode = a, str(p.PermissionMode)
	if c.Event == After {
		if c.Output, err = outputText(p.ToolResponse); err != nil {
			return Call{}, fmt.Errorf("tool_response: %w", err)
		}
	}
	return c, nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// action makes the action of a tool call from the tool's name and its
// input as the agent sent it: an object of arguments (or an argv list,
// or the arguments JSON-encoded in a string, as risk.Action takes them).
func action(name string, input json.RawMessage) (risk.Action, error) {
	if strings.TrimSpace(name) == "" {
		return risk.Action{}, errors.New(`it names no "tool_name"`)
	}
	obj := map[string]any{"tool": name}
	if len(input) > 0 {
		var args any
		if err := json.Unmarshal(input, &args); err != nil {
			return risk.Action{}, errors.New("tool_input is not valid JSON")
		}
		obj["arguments"] = args
	}
	a, err := risk.ActionFromObject(obj)
	if err != nil {
		return risk.Action{}, fmt.Errorf("tool_input: %w", err)
	}
	return a, nil
}

// outputText is the text of a tool's result as an agent reports it: a
// JSON string's value; of an object or a list, every string in it, one
// a line, in the order of their keys (so that a file's content is
// scanned as the file, not JSON-escaped); nothing of a number, a boolean
// or null.
func outputText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", errors.New("not valid JSON")
	}
	var b strings.Builder
	appendStrings(&b, v)
	return b.String(), nil
}

func appendStrings(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(x)
	case []any:
		for _, e := range x {
			appendStrings(b, e)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			appendStrings(b, x[k])
		}
	}
}

// PolicyMode is warden's permission mode for the mode an agent sent
// (Call.Mode), and whether it sent one. Claude Code's and Codex's mode
// names are warden's (default, plan, acceptEdits, dontAsk,
// bypassPermissions); any other ("auto", in which Claude Code's
// classifier decides, "manual", or one added later) is default, in which
// warden's confirmation policy decides.
func PolicyMode(agentMode string) (m policy.Mode, ok bool) {
	if agentMode == "" {
		return "", false
	}
	if m, err := policy.ParseMode(agentMode); err == nil {
		return m, true
	}
	return policy.ModeDefault, true
}
