package policy

import (
	"errors"
	"fmt"

	"github.com/agentwarden/warden/risk"
)

// ConfirmationPolicy decides whether an action of a given risk needs the
// user's confirmation. It is asked about Unknown too.
type ConfirmationPolicy interface {
	ShouldConfirm(risk.Level) bool
	// Name identifies the policy in decisions and audit records.
	Name() string
}

// AlwaysConfirm asks about every action.
type AlwaysConfirm struct{}

// ShouldConfirm is always true.
func (AlwaysConfirm) ShouldConfirm(risk.Level) bool { return true }

// Name returns "always_confirm".
func (AlwaysConfirm) Name() string { return "always_confirm" }

// NeverConfirm asks about nothing.
type NeverConfirm struct{}

// ShouldConfirm is always false.
func (NeverConfirm) ShouldConfirm(risk.Level) bool { return false }

// Name returns "never_confirm".
func (NeverConfirm) Name() string { return "never_confirm" }

// ConfirmRisky asks about actions at or above a threshold, and about Unknown
// when ConfirmUnknown is set. Build it with NewConfirmRisky, which rejects an
// Unknown threshold; the zero value is not valid.
type ConfirmRisky struct {
	threshold      risk.Level
	confirmUnknown bool
}

// ErrUnknownThreshold is returned for a ConfirmRisky threshold of Unknown.
var ErrUnknownThreshold = errors.New("policy: confirm_risky threshold cannot be unknown")

// NewConfirmRisky returns a ConfirmRisky policy. The seed's defaults are
// threshold High and confirmUnknown true (see DefaultConfirmRisky).
func NewConfirmRisky(threshold risk.Level, confirmUnknown bool) (ConfirmRisky, error) {
	if threshold == risk.Unknown {
		return ConfirmRisky{}, ErrUnknownThreshold
	}
	if !threshold.Valid() {
		return ConfirmRisky{}, fmt.Errorf("policy: invalid threshold %v", threshold)
	}
	return ConfirmRisky{threshold: threshold, confirmUnknown: confirmUnknown}, nil
}

// DefaultConfirmRisky is ConfirmRisky{threshold: High, confirm_unknown: true}.
func DefaultConfirmRisky() ConfirmRisky {
	return ConfirmRisky{threshold: risk.High, confirmUnknown: true}
}

// Threshold returns the level at and above which the policy asks.
func (p ConfirmRisky) Threshold() risk.Level { return p.threshold }

// ConfirmUnknown reports whether Unknown is asked about.
func (p ConfirmRisky) ConfirmUnknown() bool { return p.confirmUnknown }

// ShouldConfirm compares reflexively: a level equal to the threshold asks.
// A zero ConfirmRisky (threshold Unknown) asks about everything: fail closed.
func (p ConfirmRisky) ShouldConfirm(l risk.Level) bool {
	if l == risk.Unknown {
		return p.confirmUnknown || p.threshold == risk.Unknown
	}
	riskier, err := l.IsRiskier(p.threshold, true)
	return err != nil || riskier
}

// Name returns "confirm_risky".
func (ConfirmRisky) Name() string { return "confirm_risky" }

// Decide maps an assessment to a decision under p: ask when p wants
// confirmation for the assessment's level, or for Unknown when some analyzer
// could not assess; allow otherwise. A locked assessment (risk.Assessment.
// Locked) is always asked about, whatever p: no confirmation policy lets it
// run without a person (NeverConfirm included). The decision's Reasons may
// be shared with other decisions (see risk.Decision.Reasons).
func Decide(a *risk.Assessment, p ConfirmationPolicy) risk.Decision {
	if p.ShouldConfirm(a.Level) {
		name := p.Name()
		return risk.Decision{Verdict: risk.Ask, Rule: name, Reasons: levelReasonList(name, true, a.Level)}
	}
	if a.Unknown && p.ShouldConfirm(risk.Unknown) {
		return risk.Decision{Verdict: risk.Ask, Rule: p.Name(), Reasons: partlyUnknownReasons}
	}
	if a.Locked {
		return risk.Decision{Verdict: risk.Ask, Rule: "locked",
			Reasons: []string{"a person must approve this exact action: " + lockedBy(a) + "; no confirmation policy lets it run unasked"}}
	}
	name := p.Name()
	return risk.Decision{Verdict: risk.Allow, Rule: name, Reasons: levelReasonList(name, false, a.Level)}
}

// partlyUnknownReasons are Decide's reasons for asking about an action
// that some analyzer could not assess, shared (see risk.Decision.Reasons).
var partlyUnknownReasons = []string{"part of the action could not be assessed"}[:1:1]

// levelReasonList is levelReason as a decision's Reasons: those of the
// built-in policies made once, and shared (see risk.Decision.Reasons).
func levelReasonList(name string, asks bool, l risk.Level) []string {
	if rs := builtinReasons(name); rs != nil && l.Valid() {
		if asks {
			return rs.asks[l : l+1 : l+1]
		}
		return rs.not[l : l+1 : l+1]
	}
	return []string{levelReason(name, asks, l)}
}

// levelReason is Decide's reason for asking (or not) about a level under
// the confirmation policy name: "confirm_risky asks about high actions".
// Those of the built-in policies are made once (builtinReasons).
func levelReason(name string, asks bool, l risk.Level) string {
	if rs := builtinReasons(name); rs != nil && l.Valid() {
		if asks {
			return rs.asks[l]
		}
		return rs.not[l]
	}
	if asks {
		return name + " asks about " + l.String() + " actions"
	}
	return name + " does not ask about " + l.String() + " actions"
}

// builtinReasons returns the reasons levelReason gives for the built-in
// confirmation policy name, nil for another: a few comparisons of a
// short name, where a map would hash it on every decision.
func builtinReasons(name string) *levelReasons {
	for _, rs := range builtinLevelReasons {
		if rs.name == name {
			return rs
		}
	}
	return nil
}

// builtinLevelReasons are the reasons of the built-in confirmation
// policies.
var builtinLevelReasons = func() []*levelReasons {
	var out []*levelReasons
	for _, p := range []ConfirmationPolicy{ConfirmRisky{}, AlwaysConfirm{}, NeverConfirm{}} {
		rs := &levelReasons{name: p.Name()}
		for l := risk.Unknown; l <= risk.Critical; l++ {
			rs.asks[l] = p.Name() + " asks about " + l.String() + " actions"
			rs.not[l] = p.Name() + " does not ask about " + l.String() + " actions"
		}
		out = append(out, rs)
	}
	return out
}()

// levelReasons are a confirmation policy's (name) reasons for asking, and for
// not asking, about each level.
type levelReasons struct {
	name      string
	asks, not [risk.Critical + 1]string
}
