package warden

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentwarden/warden/analyze/guard"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
)

// stepEvent turns an answered step into its audit event, at time now,
// decided (or, for a step no policy decided, answered) under policy p of
// hash hash (p nil: none). It only reads s: every text of the event that
// came from the agent is a masked copy (see masker), and the action's
// hash, under keys, is of the action as given, unmasked.
func stepEvent(s *Step, keys *audit.Keys, now time.Time, p *policy.Policy, hash string) *audit.Event {
	m := maskerOf(s)
	ev := &audit.Event{Time: now, Kind: audit.Kind(s.Kind), Session: validUTF8(s.Action.SessionID), Agent: validUTF8(s.Action.Agent), Tool: validUTF8(s.Action.Tool)}
	if s.Kind != KindReject {
		ev.ActionHash = s.hash
		if ev.ActionHash == "" || s.hashKeys != keys {
			ev.ActionHash = keys.ActionHash(&s.Action)
		}
		if strings.TrimSpace(s.Action.Tool) != "" {
			// an action without a tool would not decode (risk.Action's
			// UnmarshalJSON refuses it): its event holds the error and
			// the hash
			ev.Action = s.recorded
			if ev.Action == nil {
				ev.Action = m.action(&s.Action)
			}
		}
	}
	if assessed(&s.Assessment) {
		mask := m.known
		if s.Err != nil {
			mask = m.text // the assessment of an input refused quotes the error, which may quote the input
		}
		ev.Assessment = assessment(&s.Assessment, mask)
		ev.Bypass = s.Kind == KindCheck && bypass(&s.Assessment)
	}
	if s.Decision.Verdict != "" {
		d := s.Decision
		mask := m.known
		if d.Stage != risk.StagePolicy {
			mask = m.text // a reviewer's words, or an error's
		}
		d.Reasons = texts(d.Reasons, mask)
		ev.Decision = &d
	}
	if p != nil {
		ev.Mode, ev.PolicyHash = string(p.Mode), hash
	}
	if s.Judgement != nil {
		j := *s.Judgement
		j.Answer, j.Error = m.text(j.Answer), m.text(j.Error)
		ev.Judge = &j
	}
	switch s.Kind {
	case KindApprove:
		ev.Approval = &audit.Approval{By: m.text(s.By), Reason: m.text(s.Reason), Scope: string(s.Scope), Rule: m.text(s.Approved), File: m.text(s.file), Of: s.of}
	case KindDecline:
		ev.Approval = &audit.Approval{By: m.text(s.By), Reason: m.text(s.Reason), Of: s.of}
	}
	if s.Outcome != nil {
		o := *s.Outcome
		o.Error = m.text(o.Error)
		if o.ExitCode != nil {
			code := *o.ExitCode
			o.ExitCode = &code
		}
		ev.Outcome = &o
	}
	if s.Err != nil {
		ev.Error = m.text(s.Err.Error())
	}
	return ev
}

// validUTF8 returns s with each byte that is not valid UTF-8 replaced by
// U+FFFD, as the event's JSON writes it: the record's columns (session,
// agent, tool) must read as the event does, or the record would not
// verify. An input refused for invalid UTF-8 is still recorded.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s)) // each invalid byte is one U+FFFD
}

// assessed reports an assessment the engine made (the zero one of a step
// that was never assessed is not).
func assessed(as *risk.Assessment) bool {
	return as.Level != risk.Unknown || as.Unknown || len(as.Findings) > 0 || len(as.Reasons) > 0
}

// bypass reports an assessment that holds a finding of the guard: the
// action would change what guards the agent (warden's policy, state,
// audit trail, binary or commands, an agent's hook or permission
// settings, the WARDEN_ variables, an agent started without its checks).
// The whole guard.* family counts, not one rule of it.
func bypass(as *risk.Assessment) bool {
	for _, f := range as.Findings {
		if strings.HasPrefix(f.Rule, guardFamily) {
			return true
		}
	}
	return false
}

// guardFamily prefixes the rule IDs of the guard analyzer.
var guardFamily = guard.RuleSelf[:strings.IndexByte(guard.RuleSelf, '.')+1]

// masker masks the secrets in the texts of one step: the raw secrets its
// call was found to hold (secrets.MaskKnown: also where the detector
// alone would not see them, as in a script's resolved text), the
// password of every URL (secrets.MaskURLPasswords), then whatever the
// detector finds (secrets.Redact).
type masker struct{ raw []string }

// maskerOf returns the masker of s. A call no preparer scanned for
// secrets (an input the engine refused, an observation outside a
// conversation) is scanned here, on a copy: the step is only read.
func maskerOf(s *Step) masker {
	c := s.Call
	if c == nil {
		return masker{}
	}
	if !c.SecretsScanned {
		cp := *c
		cp.Secrets, cp.SecretsFound = slices.Clip(cp.Secrets), slices.Clip(cp.SecretsFound)
		secrets.Collect(&cp)
		return masker{raw: cp.Secrets}
	}
	return masker{raw: c.Secrets}
}

// text masks a text that came from the agent or a person: its
// arguments, an error quoting them, a model's answer.
func (m masker) text(s string) string {
	if s == "" {
		return s
	}
	return secrets.Redact(m.known(s))
}

// known masks a text the engine wrote (an assessment's, a decision's) as
// the engine masks them itself (maskAssessment): the secrets of the call
// and URL passwords. The detector is not run on them: it would take
// words of prose for secrets ("credentials: 169.254.169.254.nip.io …"),
// and the engine's texts quote the call only where its secrets were found.
func (m masker) known(s string) string {
	return secrets.MaskURLPasswords(secrets.MaskKnown(s, m.raw))
}

// texts returns a copy of list (nil for nil), each text through mask.
func texts(list []string, mask func(string) string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = mask(s)
	}
	return out
}

// action returns a masked deep copy of a: its arguments, at every depth,
// its working directory, thought, summary and annotations' title. The
// names (tool, session, agent) are kept as given: they are what the
// trail is searched by.
func (m masker) action(a *risk.Action) *risk.Action {
	cp := *a
	if a.Arguments != nil {
		cp.Arguments = m.object(a.Arguments)
	}
	cp.Cwd, cp.Thought, cp.Summary, cp.SecurityRisk = m.text(a.Cwd), m.text(a.Thought), m.text(a.Summary), m.text(a.SecurityRisk)
	if a.Annotations != nil {
		an := *a.Annotations
		an.Title = m.text(an.Title)
		cp.Annotations = &an
	}
	return &cp
}

// object returns a masked deep copy of obj, keys included; a key that
// masks to one already taken gets a mark appended, so that no argument
// is lost.
func (m masker) object(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for _, k := range slices.Sorted(maps.Keys(obj)) { // in order: a clash resolves alike every time
		mk := m.text(k)
		for _, taken := out[mk]; taken; _, taken = out[mk] {
			mk += "'"
		}
		out[mk] = m.value(obj[k])
	}
	return out
}

// value returns a masked deep copy of v. JSON's values are copied as
// they are; another Go value (a []string, a struct a caller passed) is
// copied through its JSON encoding, as the event will hold it.
func (m masker) value(v any) any {
	switch x := v.(type) {
	case string:
		return m.text(x)
	case map[string]any:
		return m.object(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = m.value(e)
		}
		return out
	case nil, bool, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		return x
	}
	data, err := json.Marshal(v)
	var decoded any
	if err == nil {
		err = json.Unmarshal(data, &decoded)
	}
	if err != nil {
		return fmt.Sprintf("…[a %T the trail cannot encode]", v)
	}
	return m.value(decoded)
}

// assessment returns a deep copy of as, each text through mask. The
// engine masks the secrets of the call in its assessments already
// (maskAssessment); the trail masks them again (masker.known), so that an
// assessment a recorder changed, or one the engine did not mask, is
// masked too.
func assessment(as *risk.Assessment, mask func(string) string) *risk.Assessment {
	cp := *as
	cp.Findings = slices.Clone(as.Findings)
	for i := range cp.Findings {
		f := &cp.Findings[i]
		f.Reason, f.Resource = mask(f.Reason), mask(f.Resource)
	}
	cp.Reasons, cp.AffectedResources, cp.Recommendations = texts(as.Reasons, mask), texts(as.AffectedResources, mask), texts(as.Recommendations, mask)
	cp.EstimatedImpact = mask(as.EstimatedImpact)
	return &cp
}
