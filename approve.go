package warden

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/tool"
)

// Approve remembers that a person approved action a, so that the same
// call is not asked about again.
//
// ScopeOnce remembers that exact action for its conversation, for one
// use: the next identical call of the conversation is allowed, one time,
// and the approval is then forgotten, in the same save of the
// conversation as the check it allowed (two processes cannot both use
// it). ScopeSession remembers that exact action for the rest of the
// conversation and, unless the action's assessment is locked, the
// narrowest allow rule that matches it (policy.SuggestRule), which also
// allows the same call again when it is not written byte for byte alike.
// ScopeProject writes that rule to the project's .warden/policy.yaml
// (found from the action's working directory upward, or created in it).
//
// The exact action is identified by its keyed hash in the audit trail
// (audit.Keys.ActionHash, which binds every field of the action, its
// secrets included, without storing them) when the engine records one
// (WithAudit), else by policy.ActionKey (its tool, arguments and working
// directory).
//
// A locked assessment (risk.Assessment.Locked: guard self-modification,
// cloud-metadata access, secrets sent off the machine, critical
// destruction) is opened by nothing but the approval of that exact action
// for the conversation: no rule is remembered for it, and a project
// approval is refused, since an agent could write that file itself. No
// approval overrides a deny rule. It returns the rule remembered, or
// "exact action …" for an exact approval alone. The approval is recorded
// (see WithRecorder, WithAudit), with who approved and why (By, Because),
// before it takes effect; one that cannot be recorded is not made. A
// refused approval is recorded too, with why it was refused, and so is a
// project approval recorded but not made (its file could not be written):
// a second step, with the error.
func (e *Engine) Approve(ctx context.Context, a risk.Action, scope policy.Scope, opts ...AnswerOption) (string, error) {
	s := &Step{Kind: KindApprove, Action: a, Scope: scope}
	s.answerOf(opts)
	entries, apply := e.approval(ctx, s)
	return e.commitApproval(ctx, s, entries, apply)
}

// ApproveRef approves the action the engine's audit trail (WithAudit)
// recorded under reference ref (audit.ShortRef of its keyed hash, as
// risk.Decision.Ref and ApproveHint give it; see audit.FindAction): the
// action of its last check, for scope, as Approve does, with who and why
// (By, Because). It returns what the trail holds of the action and the
// approval as the trail records it: its scope, the rule or exact action
// remembered, and, for the project, the policy file written.
//
// ScopeOnce and ScopeSession remember the action's keyed hash in the
// conversation the check belongs to: they approve the exact action,
// whatever secrets it held, the trail showing them masked. ScopeProject
// writes the narrowest allow rule of the action as the trail recorded it,
// and is refused for a locked action (as Approve refuses it) and for an
// action recorded masked: a rule written from it would hold the mask,
// not the action. A reference that names no action recorded is an error
// wrapping audit.ErrUnknownRef, recorded nowhere; a refused approval is
// recorded, as Approve records it.
func (e *Engine) ApproveRef(ctx context.Context, ref string, scope policy.Scope, opts ...AnswerOption) (*audit.Found, *audit.Approval, error) {
	if e.trail == nil {
		return nil, nil, errors.New("warden: approving by reference needs the audit trail (WithAudit), where the action was recorded")
	}
	found, err := audit.FindAction(ctx, e.trail, ref)
	if err != nil {
		return nil, nil, err
	}
	ev := found.Check
	if ev.Action == nil {
		return found, nil, fmt.Errorf("warden: event %d records no action to approve (%s)", ev.Seq, ev.Error)
	}
	s := &Step{Kind: KindApprove, Action: *ev.Action, Scope: scope, hash: found.Hash, hashKeys: e.keys, recorded: ev.Action, of: ev.Seq}
	s.answerOf(opts)
	entries, apply := e.approvalOf(ctx, s, ev)
	if _, err := e.commitApproval(ctx, s, entries, apply); err != nil {
		return found, nil, err
	}
	return found, &audit.Approval{By: s.By, Reason: s.Reason, Scope: string(scope), Rule: s.Approved, File: s.file, Of: s.of}, nil
}

// commitApproval records the approval of step s and makes it: remembers
// entries in its conversation, in the same save (ScopeOnce,
// ScopeSession), or applies it once recorded (ScopeProject). A step
// refused (s.Err) is recorded, and its error returned.
func (e *Engine) commitApproval(ctx context.Context, s *Step, entries []session.Approval, apply func() error) (string, error) {
	if s.Err != nil {
		e.recordStage(ctx, s, nil)
		return "", s.Err
	}
	record := func(ctx context.Context, st *session.State) error {
		s.Session = st
		defer func() { s.Session = nil }()
		if err := e.record(ctx, s); err != nil {
			return fmt.Errorf("warden: the approval could not be recorded, so it is not made: %w", err)
		}
		return nil
	}
	var err error
	switch s.Scope {
	case policy.ScopeProject:
		if err = record(ctx, nil); err == nil {
			if err = apply(); err != nil {
				// the recorders were told it was approved: they are told
				// too that it could not be made (a second step)
				s.Err = err
				e.record(ctx, s)
			}
		}
	default:
		err = e.sessions.Update(ctx, s.Action.SessionID, func(ctx context.Context, st *session.State) error {
			if err := record(ctx, st); err != nil {
				return err // not saved: the approval is not made
			}
			st.Approve(entries...)
			return nil
		})
	}
	if err != nil {
		return "", err
	}
	return s.Approved, nil
}

// approval works out what approving step s's action for its scope means:
// the entries its conversation remembers (ScopeOnce, ScopeSession), or
// the change a project approval makes (apply). It sets s.Err when the
// action cannot be approved.
func (e *Engine) approval(ctx context.Context, s *Step) (entries []session.Approval, apply func() error) {
	a := &s.Action
	c := e.normalize(s)
	if err := a.Validate(e.limits); err != nil {
		s.Err = err
		return nil, nil
	}
	if err := e.scopeErr(s.Scope, a.SessionID); err != nil {
		s.Err = err
		return nil, nil
	}
	e.hash(s)
	s.Assessment = e.combine(c, e.analyze(ctx, c, nil))
	as := &s.Assessment
	exact := e.exactApproval(s, c)
	if as.Locked && s.Scope == policy.ScopeProject {
		s.Err = fmt.Errorf("warden: %s cannot be approved for the project: a locked action (%s) is approved only for its conversation, exactly as it is, since an agent can write the project's policy file", a.Tool, as.LockedRules())
		return nil, nil
	}
	if as.Locked || s.Scope == policy.ScopeOnce {
		s.Approved = exact.text
		return []session.Approval{exact.Approval}, nil
	}
	text, err := policy.SuggestRule(c)
	if err != nil {
		s.Err = err
		return nil, nil
	}
	if s.Scope == policy.ScopeSession {
		s.Approved = text
		return []session.Approval{exact.Approval, {Rule: text, Origin: "approved for session " + a.SessionID}}, nil
	}
	return nil, e.projectRule(s, c, text)
}

// approvalOf works out, as approval does, what approving the action of
// event ev means, step s holding it as the trail recorded it.
func (e *Engine) approvalOf(ctx context.Context, s *Step, ev *audit.Event) (entries []session.Approval, apply func() error) {
	a := &s.Action
	c := e.normalize(s)
	if ev.Assessment != nil {
		s.Assessment = *ev.Assessment
	}
	if err := e.scopeErr(s.Scope, a.SessionID); err != nil {
		s.Err = err
		return nil, nil
	}
	if s.Scope != policy.ScopeProject {
		exact := e.exactApproval(s, c)
		s.Approved = exact.text
		return []session.Approval{exact.Approval}, nil
	}
	if ev.Assessment != nil && ev.Assessment.Locked {
		s.Err = fmt.Errorf("warden: %s cannot be approved for the project: a locked action (%s) is approved only for its conversation, exactly as it is (--once or --session), since an agent can write the project's policy file", a.Tool, ev.Assessment.LockedRules())
		return nil, nil
	}
	if e.keys.ActionHash(ev.Action) != s.hash {
		s.Err = fmt.Errorf("warden: %s cannot be approved for the project: the trail holds it masked (it carried a secret), and an allow rule written from it would hold the mask, not the action; approve it exactly, --once or --session", a.Tool)
		return nil, nil
	}
	// the recorded action is the action itself: assessed and approved as
	// Approve does, its conversation aside
	return e.approval(ctx, s)
}

// scopeErr says why scope cannot approve an action of conversation id.
func (e *Engine) scopeErr(scope policy.Scope, id string) error {
	switch {
	case !slices.Contains(policy.Scopes, scope):
		return fmt.Errorf("warden: unknown approval scope %q (want once, session or project)", scope)
	case scope == policy.ScopeProject:
		return nil
	case id == "":
		return fmt.Errorf("warden: a %s approval needs the action's conversation, and it names none (no session_id): it can be approved for the project only", scope)
	case e.sessions == nil:
		return fmt.Errorf("warden: a %s approval needs sessions, and the engine follows none", scope)
	}
	return nil
}

// exactApproval is the approval of step s's exact action (call c) that
// its conversation remembers, and how it reads.
type exactApproval struct {
	session.Approval
	text string
}

func (e *Engine) exactApproval(s *Step, c *tool.Call) exactApproval {
	x := exactApproval{Approval: session.Approval{Exact: e.exactKey(s, c), Once: s.Scope == policy.ScopeOnce}}
	x.Origin = "approved in session " + s.Action.SessionID
	if x.Once {
		x.Origin = "approved once in session " + s.Action.SessionID
	}
	if s.By != "" {
		x.Origin += " by " + s.By
	}
	if s.of > 0 {
		x.Origin += fmt.Sprintf(", event %d", s.of)
	}
	en := policy.Entry{Exact: x.Exact, Ref: audit.ShortRef(s.hash)}
	x.text = en.Text()
	return x
}

// projectRule returns the change a project approval of step s (call c)
// makes: rule text written to the project's policy file and added to the
// engine's policy. It sets s.Err when the call has no project.
func (e *Engine) projectRule(s *Step, c *tool.Call, text string) func() error {
	rule, err := policy.ParseRule(text)
	if err != nil {
		s.Err = err
		return nil
	}
	root := c.Env().Root()
	if root == "" {
		s.Err = fmt.Errorf("warden: a project approval needs a working directory")
		return nil
	}
	s.Approved = text
	file := policy.ProjectFile(root)
	s.file = file
	return func() error {
		if err := policy.AppendAllow(file, text); err != nil {
			return err
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		cp := e.policy.Load().Clone()
		cp.Allow = append(cp.Allow, policy.Entry{Rule: rule.WithBase(filepath.Dir(filepath.Dir(file))), Origin: file + " (approved)"})
		cp.Compile()
		e.policy.Store(cp)
		return nil
	}
}

// hash computes the keyed hash of step s's action under the audit
// trail's keys, when the engine records one: the exact identity of the
// action, which its event records and approvals by reference bind to.
func (e *Engine) hash(s *Step) {
	if e.keys != nil && s.hash == "" {
		s.hash, s.hashKeys = e.keys.ActionHash(&s.Action), e.keys
	}
}

// exactKey is the key the exact approvals of step s's action (call c)
// are remembered by: its keyed hash when the engine records an audit
// trail, its policy.ActionKey otherwise.
func (e *Engine) exactKey(s *Step, c *tool.Call) string {
	if e.keys != nil {
		e.hash(s)
		return s.hash
	}
	return policy.ActionKey(c)
}

// approved returns the approvals remembered in the conversation st that
// may decide step s's call c, as policy entries: the rules, and the
// exact approval of this call, if any, the lasting one before a one-time
// one (which s.once then names, to be consumed if it allows the call).
func (e *Engine) approved(st *session.State, s *Step, c *tool.Call) []policy.Entry {
	if !st.HasApprovals() {
		return nil
	}
	as := st.Approvals()
	out := make([]policy.Entry, 0, len(as))
	var lasting, once *session.Approval
	key := ""
	for i := range as {
		a := &as[i]
		if a.Exact == "" {
			if r := e.approvedRule(a.Rule); r != nil {
				out = append(out, policy.Entry{Rule: r, Origin: a.Origin})
			}
			continue
		}
		if key == "" {
			key = e.exactKey(s, c)
		}
		switch {
		case a.Exact != key:
		case !a.Once && lasting == nil:
			lasting = a
		case a.Once && once == nil:
			once = a
		}
	}
	x := lasting
	if x == nil && once != nil {
		x, s.once = once, key
	}
	if x != nil {
		// the policy matches it by the call's ActionKey, which only
		// lives here: the decision names it by its reference
		ref := audit.ShortRef(s.hash)
		out = append(out, policy.Entry{Exact: policy.ActionKey(c), Origin: x.Origin, Ref: ref, Reason: "a person approved this exact action"})
	}
	return out
}

// consume forgets the one-time approval that allowed step s, in the
// conversation st whose save records the check: once used, it allows
// nothing more. A check denied after all (its event could not be
// written) leaves it.
func (e *Engine) consume(s *Step, st *session.State) {
	if s.once != "" && s.Decision.Verdict == risk.Allow && s.Decision.Stage == risk.StagePolicy {
		st.Consume(s.once)
	}
}

// approvedRule returns the rule of a session approval, parsed, or nil
// when it no longer parses (it then allows nothing).
func (e *Engine) approvedRule(text string) *policy.Rule {
	e.rulesMu.Lock()
	defer e.rulesMu.Unlock()
	if r, ok := e.rules[text]; ok {
		return r
	}
	r, err := policy.ParseRule(text)
	if err != nil {
		r = nil
	}
	if e.rules == nil || len(e.rules) >= 1024 {
		e.rules = map[string]*policy.Rule{} // bounded: parsed again when needed
	}
	e.rules[text] = r
	return r
}

// approvable sets, on a decision of step s that asks or denies, the
// action's reference in the audit trail and the scopes in which a person
// may approve it by that reference (risk.Decision.Ref, Approvable): none
// past a deny rule, which no approval passes, nor for an input that is
// not a valid action; once and session within a conversation; project
// for an action the trail records as it is (no secret masked), not
// locked, that one narrow rule allows, in a project.
func (e *Engine) approvable(s *Step) {
	d := &s.Decision
	if s.hash == "" {
		return
	}
	d.Ref = audit.ShortRef(s.hash)
	if d.Verdict == risk.Allow || s.Err != nil || strings.HasPrefix(d.Rule, "deny: ") {
		return
	}
	if s.Action.SessionID != "" && e.sessions != nil {
		d.Approvable = append(d.Approvable, string(policy.ScopeOnce), string(policy.ScopeSession))
	}
	if s.Assessment.Locked || s.Call.Env().Root() == "" {
		return
	}
	if _, err := policy.SuggestRule(s.Call); err != nil {
		return
	}
	s.recorded = maskerOf(s).action(&s.Action)
	if e.keys.ActionHash(s.recorded) == s.hash {
		d.Approvable = append(d.Approvable, string(policy.ScopeProject))
	}
}
