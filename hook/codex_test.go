package hook

import (
	"errors"
	"fmt"
	"testing"
)

// Codex blocks on exit 2 with a non-empty stderr, and on a JSON deny
// with a non-empty reason on exit 0; everything else lets the call run
// (codex-rs/hooks/src/events/pre_tool_use.rs, engine/output_parser.rs).
func codexBlocks(r Reply) bool {
	switch r.Exit {
	case 2:
		return nonEmpty(r.Stderr)
	case 0:
		m, err := jsonObject(r.Stdout, codexPreKeys...)
		if err != nil || m == nil {
			return false
		}
		h, _ := m["hookSpecificOutput"].(map[string]any)
		reason, _ := h["permissionDecisionReason"].(string)
		return h != nil && h["permissionDecision"] == "deny" && nonEmpty([]byte(reason))
	}
	return false
}

var (
	codexPreKeys  = []string{"continue", "hookSpecificOutput", "stopReason", "suppressOutput", "systemMessage", "decision", "reason"}
	codexPostKeys = []string{"continue", "decision", "hookSpecificOutput", "reason", "stopReason", "suppressOutput", "systemMessage"}
)

// codexValid: exit 0 or 2; exit 2 with a reason; on exit 0, nothing or
// JSON within the output schema of the call's event, and none of what
// Codex rejects (ask, allow without updatedInput, continue, stopReason,
// suppressOutput).
func codexValid(c *Call, r Reply) error {
	switch r.Exit {
	case 2:
		if !nonEmpty(r.Stderr) {
			return errors.New("exit 2 without a reason on stderr lets the call run")
		}
		return nil
	case 0:
	default:
		return fmt.Errorf("exit %d lets the call run", r.Exit)
	}
	if len(r.Stdout) == 0 {
		return nil
	}
	if c == nil {
		return errors.New("output for a call that was not read")
	}
	keys, specific := codexPreKeys, []string{"additionalContext", "hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput"}
	event := "PreToolUse"
	if c.Event == After {
		keys, specific, event = codexPostKeys, []string{"additionalContext", "hookEventName", "updatedMCPToolOutput", "updatedToolOutput"}, "PostToolUse"
	}
	m, err := jsonObject(r.Stdout, keys...)
	if err != nil {
		return err
	}
	for _, k := range []string{"continue", "stopReason", "suppressOutput", "decision", "reason"} {
		if _, ok := m[k]; ok {
			return fmt.Errorf("%s is not what warden writes to Codex", k)
		}
	}
	h, err := member(m, "hookSpecificOutput", specific...)
	if err != nil || h == nil {
		return err
	}
	if h["hookEventName"] != event {
		return fmt.Errorf("hookEventName %v on %s", h["hookEventName"], event)
	}
	if d, ok := h["permissionDecision"]; ok && d != "deny" {
		return fmt.Errorf("permissionDecision %v makes Codex fail the hook and run the call", d)
	}
	return nil
}

func FuzzCodexParse(f *testing.F) { fuzzRun(f, Codex{}) }
