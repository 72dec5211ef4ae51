package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Policy decides on assessed calls. The order is fixed (DESIGN.md §5):
// deny rules ▸ ask rules ▸ allow rules ▸ the permission mode ▸ the
// confirmation policy.
//
//   - A deny rule always wins, in every mode.
//   - A person's approval of that exact action (an Entry with Exact, see
//     ActionKey) allows it, whatever else would decide: it is the answer
//     an ask rule, a locked assessment or the mode asked a person for.
//   - An ask rule asks, except in bypassPermissions (which allows
//     everything but deny rules) and in dontAsk, where nobody is asked:
//     the rule's action is denied.
//   - An allow rule allows, unless the assessment is locked
//     (risk.Assessment.Locked: guard self-modification, cloud-metadata
//     access, secrets sent off the machine, critical destruction): then
//     only a person's approval of that exact action (an Entry with
//     Exact, see ActionKey) allows it.
//   - The mode and the confirmation policy decide everything else; no
//     mode and no confirmation policy allows a locked assessment: it is
//     asked about, or denied in dontAsk, where nobody can be asked.
//
// A Policy is a value: the rule lists are read when it decides. Compile
// prepares them for fast matching; a list changed after Compile (an
// entry appended, removed or replaced in place) is still decided as it
// now reads, only more slowly, until Compile is called again. A Policy
// must not be changed while it decides; Clone gives an independent copy.
type Policy struct {
	Mode    Mode
	Confirm ConfirmationPolicy
	// DisableBypass refuses bypassPermissions: the default mode applies instead.
	DisableBypass bool
	// Shadow is shadow mode (the file's enforce: false, or SetShadow):
	// every call is decided and recorded as usual, and the decisions are
	// marked as not enforced (risk.Decision.Shadow): the caller does not
	// block on them. A decision that could not be recorded is enforced
	// whatever this says.
	Shadow bool
	// Environment labels where the agent works ("prod", "staging"):
	// session.env in conditions.
	Environment string
	// Deny, Ask and Allow are the rule lists, every layer's entries in
	// order (organization first).
	Deny, Ask, Allow []Entry

	Netguard  netguard.Config
	Analyzers AnalyzerSettings
	Secrets   SecretsSettings
	MCP       MCPSettings

	// Origins says where each setting a file set comes from
	// ("confirmation.threshold" → "/repo/.warden/policy.yaml:4:14").
	Origins map[string]string
	// Layers are the files read, lowest first.
	Layers []Layer

	bypassLocked  bool   // the organization layer set disable_bypass
	enforceLocked bool   // the organization layer set enforce: true
	idx           *index // the rule lists prepared (Compile)
}

// Entry is one rule of a rule list: a permission rule, a condition, or
// both (the rule must match and the condition hold).
type Entry struct {
	Rule   *Rule
	If     *Condition
	Reason string // shown with the decision; "" for the default
	Origin string // "file:line:col", "built-in", "approved for session s1"
	Org    bool   // from the organization layer: no lower layer weakens it
	// Exact, when set, makes the entry a person's approval of one exact
	// action: it matches only the call whose ActionKey it is, and is the
	// only kind of allow entry that opens a locked assessment. Rule and If
	// are then unused.
	Exact string
	// Ref, when set, is how Text names an exact approval instead of the
	// start of its ActionKey (which is not keyed: a short secret in the
	// action could be found from it): the action's reference in the
	// audit trail. It decides nothing.
	Ref string
}

// Text is the entry as a person reads it.
func (e *Entry) Text() string {
	switch {
	case e.Rule != nil && e.If != nil:
		return e.Rule.Text + " if " + e.If.Src
	case e.Rule != nil:
		return e.Rule.Text
	case e.If != nil:
		return "if " + e.If.Src
	case e.Exact != "" && e.Ref != "":
		return "exact action " + e.Ref
	case e.Exact != "":
		return "exact action " + e.Exact[:min(len(e.Exact), 12)]
	}
	return ""
}

// AnalyzerSettings turns analyzers and rules off.
type AnalyzerSettings struct {
	// Disabled are analyzers the engine does not run (rules, sql,
	// secrets, netguard, hints, shell, code).
	Disabled []string `yaml:"disabled,omitempty"`
	// DisabledRules are finding rule IDs dropped from every assessment
	// ("net.fetch", "secrets.generic_secret").
	DisabledRules []string `yaml:"disabled_rules,omitempty"`
}

// SecretsSettings configures the secrets detector.
type SecretsSettings struct {
	// AllowMarker, when set, is a comment that silences warden scan on
	// its line (none is honoured by default).
	AllowMarker string `yaml:"allow_marker,omitempty"`
}

// MCPSettings says whose MCP annotations are believed.
type MCPSettings struct {
	// TrustAnnotations lists the MCP servers ("github") and tools
	// ("mcp__github__get_issue", "mcp__github__*") whose readOnlyHint
	// makes a tool read-only for plan mode. Annotations are hints a
	// server gives about itself; by default none is believed.
	TrustAnnotations []string `yaml:"trust_annotations,omitempty"`
}

// Trusts reports whether the annotations of the tool (its full name,
// mcp__server__tool) are believed.
func (m MCPSettings) Trusts(toolName string) bool {
	server := ""
	if rest, ok := strings.CutPrefix(toolName, "mcp__"); ok {
		server, _, _ = strings.Cut(rest, "__")
	}
	for _, t := range m.TrustAnnotations {
		switch {
		case t == toolName, t == server && server != "", t == "mcp__"+server && server != "":
			return true
		case strings.HasSuffix(t, "__*") && server != "" && strings.TrimSuffix(t, "__*") == "mcp__"+server:
			return true
		}
	}
	return false
}

// Default returns the built-in policy: default mode, ConfirmRisky(High,
// true), no rules.
func Default() *Policy {
	p := &Policy{Mode: ModeDefault, Confirm: DefaultConfirmRisky(), Origins: map[string]string{}}
	p.Compile()
	return p
}

// Decide decides on call c assessed as a, alone (no conversation), in
// the order of the Policy type's documentation: a locked assessment is
// allowed by no allow rule and no mode, only by an exact approval.
func (p *Policy) Decide(a *risk.Assessment, c *tool.Call) risk.Decision {
	return p.DecideFacts(&Facts{Assessment: a, Call: c, Session: SessionFacts{ID: c.Action.SessionID, Env: p.Environment}})
}

// DecideFacts decides on the facts of one call, in the order of the
// Policy type's documentation. Approved are the allow entries remembered
// for the call's conversation (Engine.Approve). It does not modify f.
func (p *Policy) DecideFacts(f *Facts, approved ...Entry) risk.Decision {
	x := p.lists()
	if x.deny.n == 0 && x.ask.n == 0 && x.allow.n == 0 && len(approved) == 0 {
		return p.modeDecision(f.Assessment, f.Call) // no rule to match: nothing to prepare
	}
	return p.decideRules(x, *f, approved)
}

// decideRules is DecideFacts for a policy or conversation with rules to
// match. It takes the facts as a copy, which the rules' conditions may
// keep: the common call without rules allocates none.
func (p *Policy) decideRules(x *index, f Facts, approved []Entry) risk.Decision {
	a, c := f.Assessment, f.Call
	if f.Session.Env == "" {
		f.Session.Env = p.Environment
	}
	s := NewSubject(c)
	if e := x.deny.any(s, &f); e != nil {
		return ruleDecision(risk.Deny, "deny", e, "denied by the policy rule")
	}
	if e := x.allow.exactly(c, approved); e != nil {
		return ruleDecision(risk.Allow, "allow", e, "a person approved this exact action")
	}
	bypass := p.Mode == ModeBypassPermissions && !p.DisableBypass
	if e := x.ask.any(s, &f); e != nil && !bypass {
		if p.Mode == ModeDontAsk {
			d := ruleDecision(risk.Deny, "ask", e, "the policy rule asks for a person")
			d.Reasons = append(d.Reasons, "dontAsk mode: nobody is asked, so it is denied")
			return d
		}
		return ruleDecision(risk.Ask, "ask", e, "the policy rule asks for a person")
	}
	e := x.allow.all(s, &f, approved)
	if e != nil && !a.Locked {
		return ruleDecision(risk.Allow, "allow", e, "allowed by the policy rule")
	}
	d := p.modeDecision(a, c)
	if e != nil { // locked: say why the rule did not allow it
		d.Reasons = append(d.Reasons, fmt.Sprintf("the allow rule %s does not open it: %s; only a person's approval of this exact action does", e.Text(), lockedBy(a)))
	}
	return d
}

// exactly returns the entry of l or of approved that approves exactly
// call c (Entry.Exact).
func (l *ruleList) exactly(c *tool.Call, approved []Entry) *Entry {
	key := ""
	for i := range approved {
		if e := &approved[i]; e.Exact != "" {
			if key == "" {
				key = ActionKey(c)
			}
			if e.Exact == key {
				return e
			}
		}
	}
	if len(l.exact) == 0 {
		return nil
	}
	if key == "" {
		key = ActionKey(c)
	}
	return l.exact[key]
}

func ruleDecision(v risk.Verdict, list string, e *Entry, what string) risk.Decision {
	why := e.Reason
	if why == "" {
		why = fmt.Sprintf("%s %s", what, e.Text())
	}
	if e.Origin != "" {
		why += " (" + e.Origin + ")"
	}
	return risk.Decision{Verdict: v, Rule: list + ": " + e.Text(), Reasons: []string{why}, Origin: e.Origin}
}

// ruleList is a rule list prepared for matching: its rule-only entries
// in one indexed RuleSet, its entries with conditions apart (their rules
// indexed too, used when their conditions hold).
type ruleList struct {
	n         int               // entries it was built from
	exact     map[string]*Entry // the exact-action entries, by ActionKey
	plain     *RuleSet
	owner     map[*Rule]*Entry
	cond      []*Entry
	condRules *RuleSet // the rules of cond's entries that have one, in order
	condOf    []int    // condRules.list[i] belongs to cond[condOf[i]]
	union     []*Rule  // plain.list then condRules.list
}

func newRuleList(list []Entry) *ruleList {
	l := &ruleList{n: len(list), owner: make(map[*Rule]*Entry, len(list))}
	var rules, condRules []*Rule
	for i := range list {
		e := &list[i]
		if e.Exact != "" {
			if l.exact == nil {
				l.exact = map[string]*Entry{}
			}
			l.exact[e.Exact] = e
			continue
		}
		if e.If != nil {
			if e.Rule != nil {
				condRules = append(condRules, e.Rule)
				l.condOf = append(l.condOf, len(l.cond))
				l.owner[e.Rule] = e
			}
			l.cond = append(l.cond, e)
			continue
		}
		if e.Rule != nil {
			rules = append(rules, e.Rule)
			l.owner[e.Rule] = e
		}
	}
	l.plain, l.condRules = NewRuleSet(rules), NewRuleSet(condRules)
	l.union = append(append([]*Rule{}, l.plain.list...), l.condRules.list...)
	return l
}

// index holds the prepared rule lists of a policy.
type index struct {
	deny, ask, allow *ruleList
	src              [3][]Entry // the lists they were prepared from (Deny, Ask, Allow)
}

// Compile prepares the rule lists for matching. Load, Parse and the
// engine call it. The lists are read again at every decision: one
// changed after Compile (an entry appended, removed or replaced in
// place) is decided as it now reads, only more slowly, until Compile is
// called again.
func (p *Policy) Compile() {
	p.idx = &index{deny: newRuleList(p.Deny), ask: newRuleList(p.Ask), allow: newRuleList(p.Allow),
		src: [3][]Entry{slices.Clone(p.Deny), slices.Clone(p.Ask), slices.Clone(p.Allow)}}
}

// lists returns the prepared rule lists, prepared anew when the lists
// are no longer, entry for entry, those Compile prepared.
func (p *Policy) lists() *index {
	if x := p.idx; x != nil && same(x.src[0], p.Deny) && same(x.src[1], p.Ask) && same(x.src[2], p.Allow) {
		return x
	}
	return &index{deny: newRuleList(p.Deny), ask: newRuleList(p.Ask), allow: newRuleList(p.Allow)}
}

// same reports whether list still holds, entry for entry, what was
// prepared from it. It compares identities, not text: a string or rule
// replaced by an equal one counts as a change (the lists are then
// prepared anew, which is correct, only slower). Comparing every string's
// bytes would cost as much as a decision.
func same(prepared, list []Entry) bool {
	if len(prepared) != len(list) {
		return false
	}
	for i := range list {
		a, b := &prepared[i], &list[i]
		if a.Rule != b.Rule || a.If != b.If || a.Org != b.Org || !sameString(a.Exact, b.Exact) ||
			!sameString(a.Reason, b.Reason) || !sameString(a.Origin, b.Origin) {
			return false
		}
	}
	return true
}

func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// Clone returns a copy of p that shares nothing p's owner may change:
// its rule lists, settings lists and origins are copied.
func (p *Policy) Clone() *Policy {
	cp := *p
	cp.Deny, cp.Ask, cp.Allow = slices.Clone(p.Deny), slices.Clone(p.Ask), slices.Clone(p.Allow)
	cp.Analyzers.Disabled = slices.Clone(p.Analyzers.Disabled)
	cp.Analyzers.DisabledRules = slices.Clone(p.Analyzers.DisabledRules)
	cp.MCP.TrustAnnotations = slices.Clone(p.MCP.TrustAnnotations)
	cp.Netguard.Schemes = slices.Clone(p.Netguard.Schemes)
	cp.Netguard.AllowedHosts = slices.Clone(p.Netguard.AllowedHosts)
	cp.Netguard.AllowPrivate = slices.Clone(p.Netguard.AllowPrivate)
	cp.Netguard.ExtraBlockedHosts = slices.Clone(p.Netguard.ExtraBlockedHosts)
	cp.Origins = maps.Clone(p.Origins)
	cp.Layers = slices.Clone(p.Layers)
	cp.Compile()
	return &cp
}

// any returns an entry of l that matches some part of the call (deny
// and ask). A condition that cannot be evaluated holds.
func (l *ruleList) any(s *Subject, f *Facts) *Entry {
	if l.n == 0 {
		return nil
	}
	if r := l.plain.Any(s); r != nil {
		return l.owner[r]
	}
	for _, e := range l.cond {
		if e.Rule != nil && Any([]*Rule{e.Rule}, s) == nil {
			continue
		}
		if ok, err := e.If.Eval(f); err == nil && !ok {
			continue
		}
		return e
	}
	return nil
}

// all returns an entry that allows the call: a condition-only entry that
// holds, or rules (of entries whose conditions hold, and of the
// approvals) that together match every part of the call. A condition
// that cannot be evaluated does not hold.
func (l *ruleList) all(s *Subject, f *Facts, approved []Entry) *Entry {
	var holds []bool // by index in cond
	anyHolds := false
	for i, e := range l.cond {
		ok, err := e.If.Eval(f)
		if err != nil || !ok {
			continue
		}
		if e.Rule == nil {
			return e
		}
		if holds == nil {
			holds = make([]bool, len(l.cond))
		}
		holds[i], anyHolds = true, true
	}
	var more *RuleSet
	var owner map[*Rule]*Entry
	for i := range approved {
		if e := &approved[i]; e.Rule != nil {
			if owner == nil {
				owner = map[*Rule]*Entry{}
			}
			owner[e.Rule] = e
		}
	}
	if owner != nil {
		rules := make([]*Rule, 0, len(owner))
		for i := range approved {
			if approved[i].Rule != nil {
				rules = append(rules, approved[i].Rule)
			}
		}
		more = NewRuleSet(rules) // a few rules, remembered for the conversation
	}
	var r *Rule
	var ok bool
	switch {
	case !anyHolds && more == nil:
		if len(l.plain.list) == 0 {
			return nil
		}
		r, ok = l.plain.All(s)
	default:
		// the plain rules, those of conditions that hold and the
		// approvals, as one list, without indexing them anew
		c := append([]int32{}, l.plain.candidates(s)...)
		n := int32(len(l.plain.list))
		if anyHolds {
			for _, i := range l.condRules.candidates(s) {
				if holds[l.condOf[i]] {
					c = append(c, n+i)
				}
			}
		}
		list := l.union
		if more != nil {
			m := int32(len(l.union))
			for _, i := range more.candidates(s) {
				c = append(c, m+i)
			}
			list = append(append(make([]*Rule, 0, len(l.union)+len(more.list)), l.union...), more.list...)
		}
		r, ok = s.all(list, c)
	}
	if !ok {
		return nil
	}
	if e := owner[r]; e != nil {
		return e
	}
	return l.owner[r]
}
