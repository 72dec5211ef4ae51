package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Gemini speaks Gemini CLI's command hooks, BeforeTool and AfterTool
// (google-gemini/gemini-cli docs/hooks/reference.md; hookRunner.ts).
//
// The payload is {session_id, transcript_path, cwd, hook_event_name,
// timestamp, tool_name, tool_input}, with mcp_context {server_name,
// tool_name, …} for an MCP tool, and tool_response {llmContent,
// returnDisplay, error} after the tool ran. It carries no permission
// mode. Tool names are Gemini's (run_shell_command, read_file,
// write_file, replace, glob, grep_search, list_directory, web_fetch,
// google_web_search, …), which warden's catalog knows; an MCP tool is
// named mcp__server__tool from its mcp_context, whatever name Gemini
// gives it (mcp_server_tool in recent versions).
//
// Gemini CLI reads stdout only on exit 0 and stderr only on another
// exit; exit 2 is a deny with stderr as the reason, any other code an
// allow with a warning, and an empty answer, a crash or a timeout lets
// the call run. So warden always writes a decision:
//   - deny, and every failure: exit 2 with the reason on stderr, which
//     Gemini gives the model as the tool's error; stdout holds the same
//     deny as JSON ({"decision":"deny","reason"}), so that a version that
//     reads stdout whatever the exit code denies as well.
//   - ask: exit 0 with {"decision":"ask"}, which forces Gemini's
//     confirmation prompt (even for allowlisted tools and in YOLO mode),
//     showing the user the reason as its systemMessage. Versions before
//     "ask" was added (March 2026) read it as allow.
//   - allow: exit 0 with {"decision":"allow"}, which leaves the call to
//     Gemini's own policy and confirmation, as no decision does.
//   - after the tool ran: exit 0 with {"decision":"allow"} and, when the
//     output held sensitive data, hookSpecificOutput.additionalContext,
//     which Gemini appends to the tool's result for the model.
//   - shadow mode: exit 0 with {"decision":"allow"} and, for what would
//     have been asked or denied, a systemMessage saying so.
type Gemini struct{}

// Name returns "gemini".
func (Gemini) Name() string { return "gemini" }

// geminiPayload is a BeforeTool or AfterTool payload (the fields warden
// reads).
type geminiPayload struct {
	SessionID     *string         `json:"session_id"`
	Cwd           *string         `json:"cwd"`
	HookEventName *string         `json:"hook_event_name"`
	ToolName      *string         `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	MCPContext    *struct {
		ServerName *string `json:"server_name"`
		ToolName   *string `json:"tool_name"`
	} `json:"mcp_context"`
}

// geminiAnswer is the JSON a Gemini CLI hook writes (the fields warden
// uses).
type geminiAnswer struct {
	Decision           string                `json:"decision"`
	Reason             string                `json:"reason,omitempty"`
	SystemMessage      string                `json:"systemMessage,omitempty"`
	HookSpecificOutput *geminiSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

type geminiSpecificOutput struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Parse reads a BeforeTool or AfterTool payload.
func (g Gemini) Parse(payload []byte) (Call, error) {
	var p geminiPayload
	if err := decodeObject(payload, &p); err != nil {
		return Call{}, err
	}
	var c Call
	switch ev := str(p.HookEventName); ev {
	case "BeforeTool":
		c.Event = Before
	case "AfterTool":
		c.Event = After
	case "":
		return Call{}, errors.New(`it names no "hook_event_name"`)
	default:
		return Call{}, fmt.Errorf("hook event %q is not BeforeTool or AfterTool", clip(ev, 60))
	}
	name := str(p.ToolName)
	if m := p.MCPContext; m != nil {
		srv, tool := str(m.ServerName), str(m.ToolName)
		if srv == "" || tool == "" {
			return Call{}, errors.New("mcp_context names no server_name or tool_name")
		}
		name = "mcp__" + srv + "__" + tool
	}
	a, err := action(name, p.ToolInput)
	if err != nil {
		return Call{}, err
	}
	a.SessionID, a.Cwd, a.Agent = str(p.SessionID), str(p.Cwd), g.Name()
	c.Action = a
	if c.Event == After {
		if c.Output, err = geminiOutput(p.ToolResponse); err != nil {
			return Call{}, fmt.Errorf("tool_response: %w", err)
		}
	}
	return c, nil
}

// geminiOutput is the text of a tool_response: what the model reads
// (llmContent) and the error, or all of its text when it holds neither.
func geminiOutput(raw json.RawMessage) (string, error) {
	var r struct {
		LLMContent json.RawMessage `json:"llmContent"`
		Error      json.RawMessage `json:"error"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &r) != nil || (len(r.LLMContent) == 0 && len(r.Error) == 0) {
		return outputText(raw)
	}
	content, err := outputText(r.LLMContent)
	if err != nil {
		return "", err
	}
	errText, err := outputText(r.Error)
	if err != nil {
		return "", err
	}
	if content != "" && errText != "" {
		return content + "\n" + errText, nil
	}
	return content + errText, nil
}

// Reply answers v; see Gemini.
func (g Gemini) Reply(c Call, v Verdict) Reply {
	if c.Event == After {
		ans := geminiAnswer{Decision: "allow"}
		if v.Context != "" {
			ans.HookSpecificOutput = &geminiSpecificOutput{AdditionalContext: v.Context}
		}
		return Reply{Stdout: jsonLine(ans)}
	}
	if v.Shadow {
		ans := geminiAnswer{Decision: "allow"}
		if v.Decision.Verdict != risk.Allow {
			ans.SystemMessage = Reason(v)
		}
		return Reply{Stdout: jsonLine(ans)}
	}
	switch v.Decision.Verdict {
	case risk.Allow:
		return Reply{Stdout: jsonLine(geminiAnswer{Decision: "allow"})}
	case risk.Ask:
		r := Reason(v)
		return Reply{Stdout: jsonLine(geminiAnswer{Decision: "ask", Reason: r, SystemMessage: r})}
	}
	return g.Fail(Reason(v))
}

// Fail blocks the call: exit 2 with the reason on stderr, and the same
// deny as JSON on stdout.
func (Gemini) Fail(reason string) Reply {
	r := exit2(reason)
	r.Stdout = jsonLine(geminiAnswer{Decision: "deny", Reason: strings.TrimSpace(string(r.Stderr))})
	return r
}
