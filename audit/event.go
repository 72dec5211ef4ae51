package audit

import (
	"time"

	"github.com/agentwarden/warden/risk"
)

// Kind is what an event records.
type Kind string

// The kinds of events.
const (
	KindCheck   Kind = "check"   // the engine assessed and decided an action
	KindApprove Kind = "approve" // a person approved an action
	KindDecline Kind = "decline" // a person declined an action warden asked about
	KindObserve Kind = "observe" // what an action that ran returned (what it held, never the values)
	KindReport  Kind = "report"  // the result of an action that ran, reported back
	KindReject  Kind = "reject"  // input that was not an action at all
	KindPrune   Kind = "prune"   // events removed from the start of the chain
)

// Event is one entry of the audit trail. Everything it holds is shown to
// whoever reads the trail: texts that came from the agent (arguments,
// thoughts, outputs, errors) are stored with every secret masked.
type Event struct {
	// Seq numbers the events of a chain from 1, without gaps; Prev is the
	// hex SHA-256 of the record before (see Record.Hash), "" for the
	// first event of a chain never pruned. The Log sets both.
	Seq  int64  `json:"seq"`
	Prev string `json:"prev"`
	// Time is when the engine answered, in UTC.
	Time time.Time `json:"time"`
	Kind Kind      `json:"kind"`

	Session string `json:"session,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Tool    string `json:"tool,omitempty"`
	// Action is the action as given, with every secret in its texts
	// masked; nil for a rejected input.
	Action *risk.Action `json:"action,omitempty"`
	// ActionHash is the hex HMAC-SHA256, under the audit key, of the
	// canonical unmasked action (Keys.ActionHash): an approval binds to
	// the exact arguments of the check it approves, and a short secret
	// cannot be found by hashing guesses without the key.
	ActionHash string `json:"action_hash,omitempty"`

	Assessment *risk.Assessment `json:"assessment,omitempty"`
	Decision   *risk.Decision   `json:"decision,omitempty"`
	// Mode is the permission mode the policy decided in; PolicyHash
	// identifies the policy (its files' contents and the built-in
	// defaults), so that "which rules were in force?" has an answer.
	Mode       string `json:"mode,omitempty"`
	PolicyHash string `json:"policy_hash,omitempty"`

	Judge    *Judgement `json:"judge,omitempty"`
	Approval *Approval  `json:"approval,omitempty"`
	Outcome  *Outcome   `json:"outcome,omitempty"`
	Pruned   *Pruned    `json:"pruned,omitempty"`

	// Bypass marks a check that tried to change what guards warden (its
	// policy, its state, its hook settings, this trail): refused.
	Bypass bool `json:"bypass,omitempty"`
	// Error is why the input could not be assessed, or an approval not
	// made, masked.
	Error string `json:"error,omitempty"`
}

// Verdict returns the verdict of the event's decision, "" for an event
// without one: the Verdict a Record copies out of it.
func (ev *Event) Verdict() risk.Verdict {
	if ev.Decision == nil {
		return ""
	}
	return ev.Decision.Verdict
}

// Shadow reports an event whose decision was made in shadow mode
// (risk.Decision.Shadow): recorded, not enforced; the action ran whatever
// it says. Events recorded before shadow mode existed are enforced.
func (ev *Event) Shadow() bool { return ev.Decision != nil && ev.Decision.Shadow }

// Level returns the level of the event's assessment, Unknown for an
// event without one: the Level a Record copies out of it.
func (ev *Event) Level() risk.Level {
	if ev.Assessment == nil {
		return risk.Unknown
	}
	return ev.Assessment.Level
}

// Judgement is what the guardrail LLM answered about a checked action.
type Judgement struct {
	Model   string `json:"model"`
	Verdict string `json:"verdict"`
	// Answer is the raw answer, with secrets masked; PromptHash the hex
	// SHA-256 of the prompt sent (the prompt itself holds the action).
	Answer       string        `json:"answer,omitempty"`
	PromptHash   string        `json:"prompt_hash,omitempty"`
	Latency      time.Duration `json:"latency_ns"`
	InputTokens  int           `json:"input_tokens,omitempty"`
	OutputTokens int           `json:"output_tokens,omitempty"`
	Error        string        `json:"error,omitempty"`
}

// Approval is a person's answer about an action: an approval
// (KindApprove) or a refusal (KindDecline).
type Approval struct {
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Scope is once, session or project for an approval.
	Scope string `json:"scope,omitempty"`
	// Rule is what was remembered: an allow rule, or "exact action …".
	Rule string `json:"rule,omitempty"`
	// File is the policy file a project approval writes Rule to.
	File string `json:"file,omitempty"`
	// Of is the sequence number of the check event answered, for an
	// answer given by the action's reference (warden approve REF); 0
	// otherwise.
	Of int64 `json:"of,omitempty"`
}

// Outcome is the result of an action that ran, as the agent reported it.
type Outcome struct {
	ExitCode    *int          `json:"exit_code,omitempty"`
	Error       string        `json:"error,omitempty"` // masked
	Duration    time.Duration `json:"duration_ns,omitempty"`
	Interrupted bool          `json:"interrupted,omitempty"`
}

// Pruned says what a prune removed: the events before Before (Count of
// them, from First), whose last one's hash, Anchor, the first event kept
// names as its Prev. A checkpoint signed over Anchor stays in the store.
type Pruned struct {
	First  int64  `json:"first"`
	Before int64  `json:"before"`
	Count  int64  `json:"count"`
	Anchor string `json:"anchor"`
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}
