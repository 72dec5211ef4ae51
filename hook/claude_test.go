package hook

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// Claude Code blocks on exit 2 (stderr is the reason) and on a JSON
// permissionDecision "deny" on exit 0; any other exit lets the call run.
func claudeBlocks(r Reply) bool {
	if r.Exit == 2 {
		return nonEmpty(r.Stderr)
	}
	if r.Exit != 0 {
		return false
	}
	m, err := jsonObject(r.Stdout, claudeKeys...)
	if err != nil || m == nil {
		return false
	}
	h, _ := m["hookSpecificOutput"].(map[string]any)
	return h != nil && h["permissionDecision"] == "deny"
}

var claudeKeys = []string{"continue", "suppressOutput", "stopReason", "systemMessage", "decision", "reason", "hookSpecificOutput"}

// claudeValid: exit 0 or 2; on exit 2 a reason on stderr and nothing on
// stdout; on exit 0 nothing on stderr and, on stdout, nothing or the
// hook output of the call's event.
func claudeValid(c *Call, r Reply) error {
	switch r.Exit {
	case 2:
		if !nonEmpty(r.Stderr) || len(r.Stdout) > 0 {
			return errors.New("exit 2 wants a reason on stderr and nothing on stdout")
		}
		return nil
	case 0:
	default:
		return fmt.Errorf("exit %d lets the call run", r.Exit)
	}
	if len(r.Stderr) > 0 {
		return errors.New("stderr on exit 0 only reaches the debug log")
	}
	m, err := jsonObject(r.Stdout, claudeKeys...)
	if err != nil || m == nil {
		return err
	}
	h, err := member(m, "hookSpecificOutput", "hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "updatedInput")
	if err != nil || h == nil {
		return err
	}
	ev := h["hookEventName"]
	if c != nil && (c.Event == Before) != (ev == "PreToolUse") || ev != "PreToolUse" && ev != "PostToolUse" {
		return fmt.Errorf("hookEventName %v for a call %v", ev, c)
	}
	if d, ok := h["permissionDecision"]; ok {
		if ev != "PreToolUse" || !slices.Contains([]any{"allow", "ask", "deny"}, d) {
			return fmt.Errorf("permissionDecision %v on %v", d, ev)
		}
		if s, _ := h["permissionDecisionReason"].(string); s == "" {
			return errors.New("a decision without a reason")
		}
	}
	return nil
}

func FuzzClaudeParse(f *testing.F) { fuzzRun(f, ClaudeCode{}) }
