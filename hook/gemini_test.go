package hook

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// Gemini CLI blocks on exit 2 with a reason on stderr, and on exit 0
// with a JSON decision "deny" or "block"; everything else lets the call
// run (packages/core/src/hooks/hookRunner.ts, types.ts).
func geminiBlocks(r Reply) bool {
	switch r.Exit {
	case 2:
		return nonEmpty(r.Stderr)
	case 0:
		m, err := jsonObject(r.Stdout, geminiKeys...)
		return err == nil && m != nil && (m["decision"] == "deny" || m["decision"] == "block")
	}
	return false
}

var geminiKeys = []string{"decision", "reason", "systemMessage", "hookSpecificOutput", "continue", "stopReason", "suppressOutput"}

// geminiValid: exit 0 or 2, always with a decision on stdout: on exit 2
// a reason on stderr and a deny; on exit 0 allow, ask or deny, and only
// additionalContext in hookSpecificOutput.
func geminiValid(c *Call, r Reply) error {
	if r.Exit != 0 && r.Exit != 2 {
		return fmt.Errorf("exit %d is an allow with a warning", r.Exit)
	}
	if r.Exit == 2 && !nonEmpty(r.Stderr) {
		return errors.New("exit 2 without stderr lets the call run")
	}
	m, err := jsonObject(r.Stdout, geminiKeys...)
	if err != nil {
		return err
	}
	if m == nil {
		return errors.New("no decision on stdout")
	}
	d := m["decision"]
	if !slices.Contains([]any{"allow", "ask", "deny"}, d) || r.Exit == 2 && d != "deny" {
		return fmt.Errorf("decision %v on exit %d", d, r.Exit)
	}
	if d != "allow" {
		if s, _ := m["reason"].(string); s == "" {
			return fmt.Errorf("%v without a reason", d)
		}
	}
	if d == "ask" && c != nil && c.Event != Before {
		return errors.New("ask after the tool ran")
	}
	_, err = member(m, "hookSpecificOutput", "additionalContext")
	return err
}

func FuzzGeminiParse(f *testing.F) { fuzzRun(f, Gemini{}) }
