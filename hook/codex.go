package hook

import "github.com/agentwarden/warden/risk"

// Codex speaks the command hooks of OpenAI's Codex CLI, PreToolUse and
// PostToolUse (https://developers.openai.com/codex/hooks; codex-rs/hooks).
//
// The payload is Claude Code's ({session_id, transcript_path, cwd,
// permission_mode, hook_event_name, tool_name, tool_input, tool_use_id},
// tool_response after the tool ran) plus turn_id and model. Tool names:
// Bash with {"command": "…"} for the shell (the shell tools, unified exec,
// network approvals), apply_patch with the patch in "command", and
// mcp__server__tool with the MCP arguments; warden's catalog knows them,
// and Codex's own shell tools (shell with an argv list, exec_command, …)
// should a payload name them.
//
// Codex rejects what it does not support, and then lets the call run: an
// "ask" or an "allow" without updatedInput, a deny without a reason,
// exit 2 without stderr, any output field outside its schema. So:
//   - deny, ask, and every failure: exit 2 with a non-empty reason on
//     stderr, which blocks the call and tells the model why. Codex cannot
//     ask a person, so what warden would ask about is denied, and the
//     reason says how to approve it (Verdict.Hint).
//   - allow: exit 0 and no output (no decision).
//   - after the tool ran: exit 0, with hookSpecificOutput.additionalContext
//     when the output held sensitive data.
//   - shadow mode: exit 0 and, for what would have been asked or denied,
//     a systemMessage saying so.
type Codex struct{}

// Name returns "codex".
func (Codex) Name() string { return "codex" }

// Parse reads a PreToolUse or PostToolUse payload.
func (x Codex) Parse(payload []byte) (Call, error) {
	return parseClaudeShaped(x.Name(), payload)
}

// Reply answers v; see Codex.
func (x Codex) Reply(c Call, v Verdict) Reply {
	if c.Event == After {
		return postToolUse(v.Context)
	}
	if v.Shadow {
		return shadowMessage(v)
	}
	switch v.Decision.Verdict {
	case risk.Allow:
		return Reply{}
	case risk.Ask:
		r := reason(v, "denied this call, since Codex cannot ask a person to approve it")
		if v.Hint == "" {
			r += ". A person must approve it in warden before it can run"
		}
		return x.Fail(r)
	}
	return x.Fail(Reason(v))
}

// Fail blocks the call: exit 2, the reason (never empty) on stderr.
func (Codex) Fail(reason string) Reply { return exit2(reason) }
