package warden

import (
	"context"
	"fmt"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// AnswerOption says who gave a person's answer about an action (Approve,
// Decline) and why, for the audit trail.
type AnswerOption func(*answer)

type answer struct{ by, reason string }

// By names the person who answered ("alice", "alice@example.com").
func By(name string) AnswerOption { return func(a *answer) { a.by = name } }

// Because gives the person's reason, as they wrote it.
func Because(reason string) AnswerOption { return func(a *answer) { a.reason = reason } }

// answerOf sets the step's By and Reason from opts.
func (s *Step) answerOf(opts []AnswerOption) {
	var a answer
	for _, o := range opts {
		if o != nil {
			o(&a)
		}
	}
	s.By, s.Reason = a.by, a.reason
}

// Decline records that a person refused action a, which warden asked
// about: the audit trail then says who said no and why (By, Because),
// beside the check that asked. It changes nothing else: the action was
// not run, and a later identical action is asked about again. An action
// that is not valid is recorded with its *risk.InputError, which Decline
// returns; an error also means the refusal could not be recorded.
func (e *Engine) Decline(ctx context.Context, a risk.Action, opts ...AnswerOption) error {
	s := &Step{Kind: KindDecline, Action: a}
	s.answerOf(opts)
	return e.note(ctx, s, "refusal")
}

// Report records the result of action a, which ran: its exit code, error
// (masked in the trail), duration, whether it was interrupted, as the
// agent reported it (a PostToolUse hook, an MCP proxy's tool result). It
// changes nothing the engine decides; see Observe for what the output
// held. An action that is not valid is recorded with its
// *risk.InputError, which Report returns; an error also means the result
// could not be recorded.
func (e *Engine) Report(ctx context.Context, a risk.Action, o audit.Outcome) error {
	s := &Step{Kind: KindReport, Action: a, Outcome: &o}
	return e.note(ctx, s, "result")
}

// note takes a step that decides nothing (Decline, Report) to the
// recorders: normalized, so that they can mask what its call holds, and
// with the error of an action that is not valid.
func (e *Engine) note(ctx context.Context, s *Step, what string) error {
	e.normalize(s)
	s.Err = s.Action.Validate(e.limits)
	if err := e.record(ctx, s); err != nil {
		return fmt.Errorf("warden: the %s could not be recorded: %w", what, err)
	}
	return s.Err
}
