package warden

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
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

// DeclineRef records that a person refused the action the engine's
// audit trail recorded under reference ref (see ApproveRef), with who
// and why (By, Because), and forgets the approvals of that exact action
// remembered in its conversation, one-time or lasting, in the same save:
// a refusal withdraws an approval given by mistake. It returns what the
// trail holds of the action and how many approvals it withdrew. A
// reference that names no action is an error wrapping
// audit.ErrUnknownRef, recorded nowhere.
func (e *Engine) DeclineRef(ctx context.Context, ref string, opts ...AnswerOption) (*audit.Found, int, error) {
	if e.trail == nil {
		return nil, 0, errors.New("warden: declining by reference needs the audit trail (WithAudit), where the action was recorded")
	}
	found, err := audit.FindAction(ctx, e.trail, ref)
	if err != nil {
		return nil, 0, err
	}
	ev := found.Check
	if ev.Action == nil {
		return found, 0, fmt.Errorf("warden: event %d records no action to decline (%s)", ev.Seq, ev.Error)
	}
	s := &Step{Kind: KindDecline, Action: *ev.Action, hash: found.Hash, hashKeys: e.keys, recorded: ev.Action, of: ev.Seq}
	s.answerOf(opts)
	e.normalize(s)
	if ev.Session == "" || e.sessions == nil {
		return found, 0, e.note(ctx, s, "refusal")
	}
	revoked := 0
	err = e.sessions.Update(ctx, ev.Session, func(ctx context.Context, st *session.State) error {
		s.Session = st
		defer func() { s.Session = nil }()
		if err := e.record(ctx, s); err != nil {
			return fmt.Errorf("warden: the refusal could not be recorded, so nothing is withdrawn: %w", err)
		}
		revoked = st.Revoke(found.Hash)
		return nil
	})
	return found, revoked, err
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

// ApproveHint returns the line that tells a person how to allow the
// action of decision d, which asked or denied: the one command that
// approves exactly that action by its reference in the audit trail,
// "warden approve REF --once|--session|--project", offering the scopes d
// allows (risk.Decision.Approvable), then what each means, in
// parentheses. It is what hook.WithHint wants for Verdict.Hint, which the
// adapters show after "To approve it: ". store is the store the command
// must name (--store), "" for the default one; it is shown as given, so
// it must hold no password.
//
// It returns "" for a decision no approval changes: an allow, a deny by
// a deny rule (no approval passes one), a decision no trail recorded.
func ApproveHint(d risk.Decision, store string) string {
	if d.Ref == "" || len(d.Approvable) == 0 || d.Verdict == risk.Allow {
		return ""
	}
	var b strings.Builder
	b.WriteString("warden approve ")
	b.WriteString(d.Ref)
	if store != "" {
		b.WriteString(" --store ")
		b.WriteString(shellWord(store))
	}
	meaning := make([]string, 0, len(d.Approvable))
	for i, sc := range d.Approvable {
		sep := "|--"
		if i == 0 {
			sep = " --"
		}
		b.WriteString(sep)
		b.WriteString(sc)
		switch policy.Scope(sc) {
		case policy.ScopeOnce:
			meaning = append(meaning, "--once: this call, one time")
		case policy.ScopeSession:
			meaning = append(meaning, "--session: the rest of this conversation")
		case policy.ScopeProject:
			meaning = append(meaning, "--project: an allow rule in the project's policy")
		}
	}
	b.WriteString(" (")
	b.WriteString(strings.Join(meaning, "; "))
	b.WriteString(")")
	return b.String()
}

// shellWord quotes s for a POSIX shell when it holds more than plain
// path characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
