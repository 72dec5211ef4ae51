package warden

import (
	"context"
	"fmt"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/tool"
)

// The pipeline every entry point of the Engine goes through:
//
//	prepare → analyze → judge → decide → review → record
//
// prepare and analyze are the preparers and analyzers; decide is the
// policy, a pure function of the assessment; judge, review and record are
// seams, each a small interface that options wrap (WithJudge, WithReviewer,
// WithRecorder). Check, Approve, Decline, Observe, Report and Reject all
// leave through record: whatever the engine answers, its recorders saw
// it, and when one of them cannot record the answer is deny
// (risk.StageRecord). WithAudit adds the recorder of the audit trail.

// Kind is what an entry point of the Engine was asked to do.
type Kind string

// The kinds of steps.
const (
	KindCheck   Kind = "check"   // Check: assess and decide an action
	KindApprove Kind = "approve" // Approve: a person approved an action
	KindObserve Kind = "observe" // Observe: what an action that ran returned
	KindReject  Kind = "reject"  // Reject: input that is not an action at all
	KindDecline Kind = "decline" // Decline: a person refused an action warden asked about
	KindReport  Kind = "report"  // Report: the result of an action that ran
)

// Step is one request on its way through the pipeline: what the judge,
// the reviewer and the recorders read. They must not modify it; each
// stage's result is what it returns. A Step, and the Call it points to,
// are valid only until the entry point that made it returns (Check
// reuses them for the next check): a stage that keeps something of it
// keeps a copy of that, not a pointer into the Step.
type Step struct {
	Kind Kind
	// Action is the action as given; Call is it normalized (nil for a
	// rejected input).
	Action risk.Action
	Call   *tool.Call
	// Assessment and Decision are the engine's answer so far. An Observe
	// step's Assessment holds the findings of the output in Findings.
	Assessment risk.Assessment
	Decision   risk.Decision
	// Session is the state of the conversation the action belongs to
	// (nil for a lone action); read it, never change it.
	Session *session.State
	// Err is why the input could not be assessed (a *risk.InputError),
	// or why an approval failed; nil otherwise.
	Err error
	// Approved is, for an Approve step, the rule or exact action
	// remembered.
	Approved string
	// Scope is, for an Approve step, the scope asked for; By and Reason
	// are who approved or declined and why, as the caller said (By,
	// Because).
	Scope      policy.Scope
	By, Reason string
	// Judgement is what the judge said of a checked step, when it says
	// (a DetailedJudge); nil otherwise.
	Judgement *audit.Judgement
	// Outcome is, for a Report step, the result reported.
	Outcome *audit.Outcome

	// policy is the policy that decided the step (nil when none did).
	policy *policy.Policy

	// hash is the action's keyed hash under hashKeys (the audit trail's,
	// see Engine.hash), "" when not computed; the step's event takes it.
	hash     string
	hashKeys *audit.Keys
	// recorded is the action as the trail records it, masked, when the
	// engine needed it before recording (Engine.approvable); nil
	// otherwise.
	recorded *risk.Action
	// once is, for a check allowed by a one-time approval, the exact key
	// of that approval, which the conversation then forgets (consume).
	once string
	// of is, for an approval given by the action's reference, the
	// sequence number of the check event approved.
	of int64
	// file is, for a project approval, the policy file it writes.
	file string

	// call and work are what Call and Call.Work point to once the engine
	// normalized the action (see Engine.normalize): the step, its call
	// and their budget are one allocation.
	call tool.Call
	work tool.Budget
}

// Judge gives a second opinion on an assessed action: the guardrail LLM.
// The findings it returns join the step's assessment before the policy
// decides. An error or panic is an Unknown finding of the judge (the
// policy decides what Unknown means); a judge that has nothing to add
// returns no findings. A judge is only asked about KindCheck steps.
type Judge interface {
	Judge(ctx context.Context, s *Step) ([]risk.Finding, error)
}

// DetailedJudge is a Judge that also says how it judged: the model, its
// verdict and raw answer, the prompt's hash, latency and tokens, for the
// audit trail (Step.Judgement). The engine calls JudgeDetailed instead of
// Judge on a judge that has it; the judgement may be nil. A judge that
// wraps another (a cascade) implements it to pass the details on.
type DetailedJudge interface {
	Judge
	JudgeDetailed(ctx context.Context, s *Step) ([]risk.Finding, *audit.Judgement, error)
}

// Reviewer reviews the actions the policy would ask a person about: the
// Guardian. It returns the decision to make instead (allow, ask or deny).
// An error or panic denies. A reviewer never opens what no rule may open:
// an allow for a locked or critical assessment stays an ask.
type Reviewer interface {
	Review(ctx context.Context, s *Step) (risk.Decision, error)
}

// Recorder records a step once the engine has answered it: the audit
// trail. An error (or panic) means the step could not be recorded, and
// the engine denies the action: nothing runs unrecorded.
type Recorder interface {
	Record(ctx context.Context, s *Step) error
}

// JudgeFunc, ReviewerFunc and RecorderFunc adapt functions to the stage
// interfaces.
type (
	JudgeFunc    func(ctx context.Context, s *Step) ([]risk.Finding, error)
	ReviewerFunc func(ctx context.Context, s *Step) (risk.Decision, error)
	RecorderFunc func(ctx context.Context, s *Step) error
)

// Judge calls f.
func (f JudgeFunc) Judge(ctx context.Context, s *Step) ([]risk.Finding, error) { return f(ctx, s) }

// Review calls f.
func (f ReviewerFunc) Review(ctx context.Context, s *Step) (risk.Decision, error) { return f(ctx, s) }

// Record calls f.
func (f RecorderFunc) Record(ctx context.Context, s *Step) error { return f(ctx, s) }

// nop is each stage as it is before any option wraps it: the judge finds
// nothing, the reviewer keeps the policy's decision, the recorder records
// nothing.
type nop struct{}

func (nop) Judge(context.Context, *Step) ([]risk.Finding, error)     { return nil, nil }
func (nop) Review(_ context.Context, s *Step) (risk.Decision, error) { return s.Decision, nil }
func (nop) Record(context.Context, *Step) error                      { return nil }

// WithJudge wraps the judge stage: wrap receives the stage as configured
// so far (at first, one that finds nothing) and returns the stage to use,
// which may ask next and add to its findings, or not ask it (a cascade
// that skips the LLM when the deterministic analysis is conclusive).
func WithJudge(wrap func(next Judge) Judge) Option {
	return func(e *Engine) error {
		j := wrap(e.judge)
		if j == nil {
			return fmt.Errorf("warden: WithJudge: nil judge")
		}
		e.judge = j
		return nil
	}
}

// WithReviewer wraps the review stage as WithJudge wraps the judge; at
// first the stage keeps the policy's decision.
func WithReviewer(wrap func(next Reviewer) Reviewer) Option {
	return func(e *Engine) error {
		r := wrap(e.reviewer)
		if r == nil {
			return fmt.Errorf("warden: WithReviewer: nil reviewer")
		}
		e.reviewer = r
		return nil
	}
}

// WithRecorder wraps the record stage as WithJudge wraps the judge; at
// first the stage records nothing (the conversation's state is saved by
// the session store whatever the recorders).
func WithRecorder(wrap func(next Recorder) Recorder) Option {
	return func(e *Engine) error {
		r := wrap(e.recorder)
		if r == nil {
			return fmt.Errorf("warden: WithRecorder: nil recorder")
		}
		e.recorder = r
		return nil
	}
}

// judgeStage asks the judge about a checked step and returns what it
// finds.
func (e *Engine) judgeStage(ctx context.Context, s *Step) []risk.Finding {
	if dj, ok := e.judge.(DetailedJudge); ok {
		var j *audit.Judgement
		fs := runStep("judge", s.Call, func() (fs []risk.Finding, err error) {
			fs, j, err = dj.JudgeDetailed(ctx, s)
			return fs, err
		})
		s.Judgement = j
		return fs
	}
	return runStep("judge", s.Call, func() ([]risk.Finding, error) { return e.judge.Judge(ctx, s) })
}

// reviewStage asks the reviewer about a decision the policy would ask a
// person about.
func (e *Engine) reviewStage(ctx context.Context, s *Step) {
	if s.Decision.Verdict != risk.Ask || e.reviewer == Reviewer(nop{}) {
		return
	}
	d, err := func() (d risk.Decision, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("reviewer failed: %v", r)
			}
		}()
		return e.reviewer.Review(ctx, s)
	}()
	switch {
	case err != nil:
		s.Decision = risk.Decision{Verdict: risk.Deny, Rule: "review.error", Stage: risk.StageReview,
			Reasons: []string{"the reviewer could not review the action, so it is denied: " + err.Error()}}
	case d.Verdict != risk.Allow && d.Verdict != risk.Ask && d.Verdict != risk.Deny:
		s.Decision = risk.Decision{Verdict: risk.Deny, Rule: "review.error", Stage: risk.StageReview,
			Reasons: []string{fmt.Sprintf("the reviewer answered %q, which is not a verdict, so the action is denied", d.Verdict)}}
	case d.Verdict == risk.Allow && (s.Assessment.Locked || s.Assessment.Level == risk.Critical):
		s.Decision.Reasons = append(s.Decision.Reasons, "the reviewer would allow it, but no reviewer opens a locked or critical action: a person decides")
	case d.Verdict != s.Decision.Verdict || d.Rule != s.Decision.Rule:
		d.Stage = risk.StageReview
		s.Decision = d
	}
}

// recordStage gives the answered step to the recorders and, for a step
// of a conversation, replays it into the conversation's state st. When a
// recorder fails, the action is denied, and it is that denial the state
// remembers.
func (e *Engine) recordStage(ctx context.Context, s *Step, st *session.State) {
	if err := e.record(ctx, s); err != nil {
		denyUnrecorded(s, err)
	}
	if st != nil && s.Kind == KindCheck {
		st.Record(s.Call, &s.Assessment, &s.Decision)
	}
}

// record gives s to the recorders; their error or panic is the error.
func (e *Engine) record(ctx context.Context, s *Step) (err error) {
	if e.recorder == Recorder(nop{}) {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return e.recorder.Record(ctx, s)
}

// denyUnrecorded turns the decision of s into the deny of a step that
// could not be recorded.
func denyUnrecorded(s *Step, err error) {
	s.Decision = risk.Decision{Verdict: risk.Deny, Rule: "record.error", Stage: risk.StageRecord,
		Reasons: []string{"the decision could not be recorded, so the action is denied: nothing runs unrecorded: " + err.Error()}}
}
