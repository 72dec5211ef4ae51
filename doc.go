// Package warden is a security layer for tool-using AI agents: before a
// proposed tool call runs, an Engine assesses its risk with deterministic
// analyzers and decides allow, ask or deny under a policy.
//
//	eng, err := warden.New()
//	a, d, err := eng.Check(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm -rf ~"}})
//	// a.Level == risk.Critical, d.Verdict == risk.Ask
package warden
