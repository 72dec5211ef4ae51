// Package warden is a security layer for tool-using AI agents: before a
// proposed tool call runs, an Engine assesses its risk with deterministic
// analyzers and decides allow, ask or deny under a policy.
//
//	eng, err := warden.New()
//	a, d, err := eng.Check(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm -rf ~"}})
//	// a.Level == risk.Critical, d.Verdict == risk.Ask
//
// Every entry point (Check, Approve, ApproveRef, Decline, DeclineRef,
// Observe, Report, Reject)
// goes through one pipeline with one exit: prepare (preparers record
// typed facts on the call: the commands a script runs, the SQL it sends,
// the secrets it carries) → analyze (analyzers read the facts, never write) → judge →
// decide (the policy, a pure function) → review → record. Judge, Reviewer
// and Recorder are seams that WithJudge, WithReviewer and WithRecorder
// wrap; a step that cannot be recorded is denied (risk.StageRecord).
// WithAudit records every answer in an audit trail (package audit): one
// event each, its secrets masked, hash-chained and signed. A decision
// that asks or denies then names the action by its reference in the
// trail (risk.Decision.Ref), which ApproveRef approves exactly, once, for
// the conversation or in the project; ApproveHint is the command a person
// runs. A policy in shadow mode (policy.Policy.Shadow) decides and
// records every call and marks the decisions as not enforced.
// Conversations live in a session.Store: in memory by default, in SQLite
// or PostgreSQL with WithStore (package store), so that a conversation
// continues in the next process.
package warden
