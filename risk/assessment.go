package risk

import (
	"slices"
	"strings"
)

// Finding is one reason for an action's risk.
type Finding struct {
	Analyzer string `json:"analyzer"`
	// Rule is a stable, dot-namespaced ID (shell.recursive_delete) that audit
	// records and policy files refer to.
	Rule   string `json:"rule"`
	Level  Level  `json:"level"`
	Reason string `json:"reason"`
	// Resource is what the action touches, with a type prefix: file:/x,
	// url:https://…, table:users.
	Resource   string `json:"resource,omitempty"`
	Reversible bool   `json:"reversible"`
	// Locked marks a finding that no allow rule and no permission mode
	// may override: guard self-modification, cloud-metadata access,
	// secrets sent off the machine, critical destruction. Only a person's
	// approval of that exact action lets it run. Rules set it explicitly;
	// reversibility does not decide it.
	Locked bool `json:"locked,omitempty"`
}

// Assessment is the combined judgement of every analyzer on one action.
// It holds every field of seed 004's RiskAssessment and more.
type Assessment struct {
	// Level is the highest concrete finding's level, Safe when nothing was
	// found, and Unknown only when nothing concrete was found and some
	// analyzer could not assess.
	Level Level `json:"level"`
	Score Score `json:"score"`
	// Unknown is set when some analyzer could not assess the action, even if
	// others found something concrete.
	Unknown           bool      `json:"unknown"`
	Findings          []Finding `json:"findings"`
	Reasons           []string  `json:"reasons"`
	AffectedResources []string  `json:"affected_resources"`
	// Reversible is true only if every finding is.
	Reversible bool `json:"reversible"`
	// Locked is set when some finding is (see Finding.Locked).
	Locked          bool         `json:"locked,omitempty"`
	EstimatedImpact string       `json:"estimated_impact"`
	Recommendations []string     `json:"recommendations"`
	SecurityRisk    SecurityRisk `json:"security_risk"`
}

// MaxResources bounds AffectedResources.
const MaxResources = 10

// RequiresApproval reports whether the level typically needs approval
// (seed 004): High or Critical.
func (a *Assessment) RequiresApproval() bool { return a.Level.AtLeast(High) }

// Impact is the estimated-impact text for a level.
func Impact(l Level) string {
	switch l {
	case Critical:
		return "Potentially severe and irreversible impact"
	case High:
		return "Significant impact, may require manual intervention to undo"
	case Medium:
		return "Moderate impact, generally reversible"
	case Low:
		return "Minor impact, easily reversible"
	case Safe:
		return "No significant impact expected"
	}
	return "Impact could not be assessed"
}

// Recommendations returns the precautions advised for a level: none below
// High.
func Recommendations(l Level, reversible bool) []string {
	return appendRecommendations(nil, l, reversible)
}

// appendRecommendations appends Recommendations(l, reversible) to dst.
func appendRecommendations(dst []string, l Level, reversible bool) []string {
	switch l {
	case Critical:
		dst = append(dst, "Require explicit approval before running this action",
			"Confirm the exact targets and make a backup first")
	case High:
		dst = append(dst, "Review carefully before approving")
	case Unknown:
		dst = append(dst, "The action could not be fully assessed: review it before approving")
	default:
		return dst
	}
	if !reversible && l != Unknown {
		dst = append(dst, "This cannot be undone: verify that it is intended")
	}
	return dst
}

// partlyUnknown is the recommendation for an assessment with a concrete
// level that some analyzer could not complete.
const partlyUnknown = "Part of the action could not be assessed: review it before approving"

// Combine builds an Assessment from findings: the highest concrete level
// wins, reasons are de-duplicated in order, reversible holds only if every
// finding is, resources are capped at MaxResources, and findings at Unknown
// mark the assessment unknown. extraResources are appended after those the
// findings name.
func Combine(findings []Finding, extraResources ...string) Assessment {
	a := Assessment{Level: Safe, Reversible: true, Findings: findings}
	concrete := false
	reasons, resources := 0, len(extraResources)
	for i := range findings {
		f := &findings[i]
		if f.Level == Unknown {
			a.Unknown = true
		} else {
			concrete = true
			if f.Level > a.Level {
				a.Level = f.Level
			}
			if f.Level.Score() > a.Score {
				a.Score = f.Level.Score()
			}
			if !f.Reversible {
				a.Reversible = false
			}
		}
		if f.Locked { // whatever its level: a finding that says so locks the action
			a.Locked = true
		}
		if f.Reason != "" {
			reasons++
		}
		if f.Resource != "" {
			resources++
		}
	}
	if !concrete && a.Unknown {
		a.Level = Unknown
		a.Reversible = false
	}
	// the reasons, the resources and the recommendations share one array
	resources = min(resources, MaxResources)
	recs := 4 // at most: two, the irreversible one and partlyUnknown
	if a.Level < High && !a.Unknown {
		recs = 0
	}
	if n := reasons + resources + recs; n > 0 {
		texts := make([]string, n)
		a.Reasons = texts[:0:reasons]
		a.AffectedResources = texts[reasons : reasons : reasons+resources]
		a.Recommendations = texts[reasons+resources : reasons+resources : n]
	}
	var seenReason map[string]bool // beyond a few reasons
	for i := range findings {
		f := &findings[i]
		if f.Reason != "" && !a.hasReason(f.Reason, &seenReason) {
			a.Reasons = append(a.Reasons, f.Reason)
		}
		a.addResource(f.Resource)
	}
	for _, r := range extraResources {
		a.addResource(r)
	}
	a.finish()
	return a
}

// hasReason reports whether r is among a.Reasons already, looking them
// over while they are few and in *seen (made then) after.
func (a *Assessment) hasReason(r string, seen *map[string]bool) bool {
	const few = 16
	if len(a.Reasons) < few {
		return slices.Contains(a.Reasons, r)
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*few)
		for _, s := range a.Reasons {
			(*seen)[s] = true
		}
	}
	if (*seen)[r] {
		return true
	}
	(*seen)[r] = true
	return false
}

func (a *Assessment) addResource(r string) {
	if r == "" || len(a.AffectedResources) >= MaxResources || slices.Contains(a.AffectedResources, r) {
		return
	}
	a.AffectedResources = append(a.AffectedResources, r)
}

// finish fills the fields derived from Level.
func (a *Assessment) finish() {
	if a.Level != Unknown && a.Level.Score() > a.Score {
		a.Score = a.Level.Score()
	}
	a.EstimatedImpact = Impact(a.Level)
	// into the room Combine set aside, if any
	a.Recommendations = appendRecommendations(a.Recommendations[:0], a.Level, a.Reversible)
	if a.Unknown && a.Level != Unknown {
		a.Recommendations = append(a.Recommendations, partlyUnknown)
	}
	a.SecurityRisk = a.Level.SecurityRisk()
	if a.Findings == nil {
		a.Findings = []Finding{}
	}
	if a.Reasons == nil {
		a.Reasons = []string{}
	}
	if a.AffectedResources == nil {
		a.AffectedResources = []string{}
	}
	if a.Recommendations == nil {
		a.Recommendations = []string{}
	}
}

// Incomplete marks an assessment whose analysis stopped before the end
// (a work budget ran out): a concrete level below High found on the part
// that was read says nothing of the rest, so the level becomes Unknown;
// High and Critical stand, as lower bounds of what the action does.
func (a *Assessment) Incomplete() {
	a.Unknown = true
	if a.Level != Unknown && a.Level < High {
		a.Level, a.Score, a.Reversible = Unknown, 0, false
	}
	a.Recommendations = nil // made again, not written over: a caller may hold them
	a.finish()
}

// UnknownAssessment is the answer for an action that could not be assessed
// at all: Unknown, not reversible, with reason.
func UnknownAssessment(analyzer, rule, reason string) Assessment {
	return Combine([]Finding{{Analyzer: analyzer, Rule: rule, Level: Unknown, Reason: reason}})
}

// Verdict is the outcome for one action.
type Verdict string

// The verdicts.
const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// LockedRules returns the rule IDs of the locked findings of a, each
// once, in the order of the findings ("" when none is locked).
func (a *Assessment) LockedRules() string {
	var ids []string
	for _, f := range a.Findings {
		if f.Locked && !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	return strings.Join(ids, ", ")
}

// Decision is what the policy made of an assessment. A decision is a value,
// never an error.
type Decision struct {
	Verdict Verdict `json:"decision"`
	// Reasons may share its array with other decisions (a policy's
	// reasons are made once): add to it with append, which copies it (it
	// has no room beyond its length), and never write its elements.
	Reasons []string `json:"reasons,omitempty"`
	// Rule names what decided: a policy rule, a mode, or the confirmation
	// policy ("confirm_risky", "always_confirm", "never_confirm").
	Rule string `json:"rule,omitempty"`
	// Stage is the stage of the engine's pipeline that made the decision
	// (policy, review or record); "" for a decision made outside it.
	Stage Stage `json:"stage,omitempty"`
	// Origin is where the rule or setting that decided comes from: a
	// policy file's position ("/repo/.warden/policy.yaml:4:3"),
	// "built-in", a flag ("--mode"), or a person's approval; Layer names
	// its policy layer (organization, user, project, explicit, built-in,
	// flag, approval). Both "" for a decision no policy made.
	Origin string `json:"origin,omitempty"`
	Layer  string `json:"layer,omitempty"`
	// Ref names the decided action in the audit trail that recorded the
	// decision: the start of its keyed hash (audit.ShortRef), which
	// `warden approve` and `warden explain` take. "" when no trail
	// records the engine's decisions.
	Ref string `json:"ref,omitempty"`
	// Approvable lists the scopes in which a person may approve exactly
	// this action by its Ref (once, session, project; see
	// warden.ApproveHint), for a decision that asks or denies and that an
	// approval changes. Empty otherwise: allowed, denied by a deny rule
	// (no approval passes one), not recorded.
	Approvable []string `json:"approvable,omitempty"`
	// Shadow marks a decision made in shadow mode (the policy's enforce:
	// false, or the caller's --shadow): decided and recorded as usual,
	// and not enforced: the caller does not block on it. A decision that
	// could not be recorded is never in shadow mode: nothing runs
	// unrecorded.
	Shadow bool `json:"shadow,omitempty"`
}

// Stage names a stage of the engine's pipeline that can decide.
type Stage string

// The stages that decide.
const (
	// StagePolicy: the policy decided on the assessment (rule lists,
	// mode, confirmation policy), an input that could not be read
	// included, which it decides as Unknown.
	StagePolicy Stage = "policy"
	// StageReview: a reviewer (the Guardian) turned what the policy
	// would ask about into allow, ask or deny, or failed, which denies.
	StageReview Stage = "review"
	// StageRecord: the decision could not be recorded (the audit trail
	// or the session store failed to write), which denies: nothing runs
	// unrecorded.
	StageRecord Stage = "record"
)

// String returns "allow", "ask" or "deny" with the deciding rule.
func (d Decision) String() string {
	if d.Rule == "" {
		return string(d.Verdict)
	}
	return string(d.Verdict) + " (" + d.Rule + ")"
}

// ResourceKind returns the type prefix of a resource ("file", "url",
// "table"), or "" when it has none.
func ResourceKind(r string) string {
	k, _, ok := strings.Cut(r, ":")
	if !ok {
		return ""
	}
	return k
}
