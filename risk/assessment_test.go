package risk_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// finding builds a Finding; reason and rule derive from the level unless
// the options set them.
func finding(l risk.Level, opts ...func(*risk.Finding)) risk.Finding {
	f := risk.Finding{Analyzer: "test", Rule: "test." + l.String(), Level: l, Reason: "reason " + l.String(), Reversible: true}
	for _, o := range opts {
		o(&f)
	}
	return f
}

func irreversible(f *risk.Finding) { f.Reversible = false }

func resource(r string) func(*risk.Finding) { return func(f *risk.Finding) { f.Resource = r } }

func reason(s string) func(*risk.Finding) { return func(f *risk.Finding) { f.Reason = s } }

// seedImpact is seed 004's estimated-impact table.
var seedImpact = map[risk.Level]string{
	risk.Critical: "Potentially severe and irreversible impact",
	risk.High:     "Significant impact, may require manual intervention to undo",
	risk.Medium:   "Moderate impact, generally reversible",
	risk.Low:      "Minor impact, easily reversible",
	risk.Safe:     "No significant impact expected",
}

func TestImpactMatchesSeed(t *testing.T) {
	for l, want := range seedImpact {
		if got := risk.Impact(l); got != want {
			t.Errorf("Impact(%v) = %q, want %q", l, got, want)
		}
		a := risk.Combine([]risk.Finding{finding(l)})
		if a.EstimatedImpact != want {
			t.Errorf("Combine(%v).EstimatedImpact = %q, want %q", l, a.EstimatedImpact, want)
		}
	}
	unk := risk.Impact(risk.Unknown)
	for l, text := range seedImpact {
		if unk == "" || unk == text {
			t.Errorf("Impact(unknown) = %q, the same as %v's; want its own text", unk, l)
		}
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		name       string
		findings   []risk.Finding
		extra      []string
		level      risk.Level
		unknown    bool
		reversible bool
		reasons    []string
		resources  []string
	}{
		{
			name: "nothing found is safe", level: risk.Safe, reversible: true,
			reasons: []string{}, resources: []string{},
		},
		{
			name:     "one medium finding",
			findings: []risk.Finding{finding(risk.Medium, resource("file:/tmp/out.txt"))},
			level:    risk.Medium, reversible: true,
			reasons: []string{"reason medium"}, resources: []string{"file:/tmp/out.txt"},
		},
		{
			name: "highest level wins, in any order",
			findings: []risk.Finding{
				finding(risk.Medium, reason("Executing system commands")),
				finding(risk.High, reason("File deletion may cause data loss"), irreversible),
				finding(risk.Low, reason("Reading files")),
			},
			level: risk.High, reversible: false,
			reasons:   []string{"Executing system commands", "File deletion may cause data loss", "Reading files"},
			resources: []string{},
		},
		{
			name:     "critical beats high",
			findings: []risk.Finding{finding(risk.Critical, irreversible), finding(risk.High)},
			level:    risk.Critical, reversible: false,
			reasons: []string{"reason critical", "reason high"}, resources: []string{},
		},
		{
			name:     "reversible only if all are",
			findings: []risk.Finding{finding(risk.Low), finding(risk.Low, irreversible, reason("other"))},
			level:    risk.Low, reversible: false,
			reasons: []string{"reason low", "other"}, resources: []string{},
		},
		{
			name:     "all reversible",
			findings: []risk.Finding{finding(risk.High), finding(risk.Medium)},
			level:    risk.High, reversible: true,
			reasons: []string{"reason high", "reason medium"}, resources: []string{},
		},
		{
			name:     "reasons de-duplicated in order",
			findings: []risk.Finding{finding(risk.Low, reason("a")), finding(risk.Medium, reason("b")), finding(risk.High, reason("a"))},
			level:    risk.High, reversible: true,
			reasons: []string{"a", "b"}, resources: []string{},
		},
		{
			name:     "unknown only",
			findings: []risk.Finding{finding(risk.Unknown, reason("analyzer x failed"))},
			level:    risk.Unknown, unknown: true, reversible: false,
			reasons: []string{"analyzer x failed"}, resources: []string{},
		},
		{
			name:     "unknown and concrete: concrete level, unknown flag",
			findings: []risk.Finding{finding(risk.Unknown, reason("x failed")), finding(risk.Medium)},
			level:    risk.Medium, unknown: true, reversible: true,
			reasons: []string{"x failed", "reason medium"}, resources: []string{},
		},
		{
			name:     "an unknown finding does not make a concrete assessment irreversible",
			findings: []risk.Finding{finding(risk.High), finding(risk.Unknown, irreversible)},
			level:    risk.High, unknown: true, reversible: true,
			reasons: []string{"reason high", "reason unknown"}, resources: []string{},
		},
		{
			name: "resources de-duplicated, extra after findings",
			findings: []risk.Finding{
				finding(risk.Low, resource("file:/a")), finding(risk.Low, resource("url:https://x.test/")),
				finding(risk.Low, resource("file:/a")), finding(risk.Low),
			},
			extra: []string{"table:users", "file:/a", ""},
			level: risk.Low, reversible: true,
			reasons: []string{"reason low"}, resources: []string{"file:/a", "url:https://x.test/", "table:users"},
		},
		{
			name:     "resources capped",
			findings: manyResources(8),
			extra:    []string{"extra:1", "extra:2", "extra:3", "extra:4"},
			level:    risk.Low, reversible: true,
			reasons:   []string{"reason low"},
			resources: []string{"file:/f0", "file:/f1", "file:/f2", "file:/f3", "file:/f4", "file:/f5", "file:/f6", "file:/f7", "extra:1", "extra:2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := risk.Combine(tt.findings, tt.extra...)
			if a.Level != tt.level {
				t.Errorf("Level = %v, want %v", a.Level, tt.level)
			}
			if a.Unknown != tt.unknown {
				t.Errorf("Unknown = %v, want %v", a.Unknown, tt.unknown)
			}
			if a.Reversible != tt.reversible {
				t.Errorf("Reversible = %v, want %v", a.Reversible, tt.reversible)
			}
			if !reflect.DeepEqual(a.Reasons, tt.reasons) {
				t.Errorf("Reasons = %q, want %q", a.Reasons, tt.reasons)
			}
			if !reflect.DeepEqual(a.AffectedResources, tt.resources) {
				t.Errorf("AffectedResources = %q, want %q", a.AffectedResources, tt.resources)
			}
			if len(a.AffectedResources) > risk.MaxResources {
				t.Errorf("%d resources, more than %d", len(a.AffectedResources), risk.MaxResources)
			}
			if len(a.Findings) != len(tt.findings) {
				t.Errorf("Findings has %d entries, want %d", len(a.Findings), len(tt.findings))
			}
			if a.EstimatedImpact != risk.Impact(tt.level) {
				t.Errorf("EstimatedImpact = %q, want %q", a.EstimatedImpact, risk.Impact(tt.level))
			}
			if a.SecurityRisk != tt.level.SecurityRisk() {
				t.Errorf("SecurityRisk = %q, want %q", a.SecurityRisk, tt.level.SecurityRisk())
			}
			if tt.level != risk.Unknown && a.Score.Level() != tt.level {
				t.Errorf("Score %d is in the %v band, want %v", a.Score, a.Score.Level(), tt.level)
			}
			if a.Findings == nil || a.Reasons == nil || a.AffectedResources == nil || a.Recommendations == nil {
				t.Errorf("a list is nil (would encode as null): %+v", a)
			}
			if a.RequiresApproval() != tt.level.AtLeast(risk.High) {
				t.Errorf("RequiresApproval = %v for %v", a.RequiresApproval(), tt.level)
			}
		})
	}
}

func manyResources(n int) []risk.Finding {
	var out []risk.Finding
	for i := range n {
		out = append(out, finding(risk.Low, resource(fmt.Sprintf("file:/f%d", i))))
	}
	return out
}

func TestCombineCapsFindingResources(t *testing.T) {
	a := risk.Combine(manyResources(25))
	if len(a.AffectedResources) != risk.MaxResources {
		t.Fatalf("%d resources, want %d", len(a.AffectedResources), risk.MaxResources)
	}
	for i, r := range a.AffectedResources {
		if want := fmt.Sprintf("file:/f%d", i); r != want {
			t.Errorf("resource %d = %q, want %q (the first ones, in order)", i, r, want)
		}
	}
	if len(a.Findings) != 25 {
		t.Errorf("findings were dropped: %d", len(a.Findings))
	}
}

// TestRecommendations checks seed 004: precautions for high and critical
// levels only.
func TestRecommendations(t *testing.T) {
	for _, l := range ordered {
		for _, rev := range []bool{true, false} {
			f := finding(l)
			f.Reversible = rev
			a := risk.Combine([]risk.Finding{f})
			if got, want := len(a.Recommendations) > 0, l.AtLeast(risk.High); got != want {
				t.Errorf("%v (reversible %v): recommendations %q, want some: %v", l, rev, a.Recommendations, want)
			}
			if !slices.Equal(a.Recommendations, nonNil(risk.Recommendations(l, rev))) {
				t.Errorf("%v: Combine's recommendations %q differ from Recommendations %q", l, a.Recommendations, risk.Recommendations(l, rev))
			}
		}
	}
	if !slices.Contains(risk.Recommendations(risk.High, true), "Review carefully before approving") {
		t.Errorf("high: %q lacks seed 004's advice", risk.Recommendations(risk.High, true))
	}
	// An irreversible high action is warned about more than a reversible one.
	if len(risk.Recommendations(risk.High, false)) <= len(risk.Recommendations(risk.High, true)) {
		t.Errorf("irreversible high adds no advice: %q", risk.Recommendations(risk.High, false))
	}
	// Unassessable parts are pointed out even below high.
	a := risk.Combine([]risk.Finding{finding(risk.Medium), finding(risk.Unknown)})
	if len(a.Recommendations) == 0 {
		t.Error("medium with an unknown part has no recommendation to review it")
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestUnknownAssessment(t *testing.T) {
	a := risk.UnknownAssessment("engine", "engine.invalid_input", "action is too deep")
	if a.Level != risk.Unknown || !a.Unknown || a.Reversible {
		t.Errorf("got level %v unknown %v reversible %v; want unknown, true, false", a.Level, a.Unknown, a.Reversible)
	}
	if a.SecurityRisk != risk.SecurityRiskUnknown {
		t.Errorf("SecurityRisk = %q", a.SecurityRisk)
	}
	if !slices.Equal(a.Reasons, []string{"action is too deep"}) {
		t.Errorf("Reasons = %q", a.Reasons)
	}
	if len(a.Findings) != 1 || a.Findings[0].Analyzer != "engine" || a.Findings[0].Rule != "engine.invalid_input" {
		t.Errorf("Findings = %+v", a.Findings)
	}
}

func TestAssessmentJSON(t *testing.T) {
	a := risk.Combine([]risk.Finding{
		finding(risk.High, resource("file:/home/user/data"), irreversible),
		finding(risk.Medium, resource("url:https://api.example.com/data")),
		finding(risk.Unknown),
	}, "table:users")
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"level", "score", "unknown", "findings", "reasons", "affected_resources",
		"reversible", "estimated_impact", "recommendations", "security_risk"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if string(fields["level"]) != `"high"` || string(fields["security_risk"]) != `"HIGH"` {
		t.Errorf("level %s, security_risk %s", fields["level"], fields["security_risk"])
	}
	var back risk.Assessment
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, a) {
		t.Errorf("round trip changed the assessment:\n got %+v\nwant %+v", back, a)
	}

	// Empty lists encode as [], never null.
	b, _ = json.Marshal(risk.Combine(nil))
	if strings.Contains(string(b), "null") {
		t.Errorf("empty assessment encodes a null: %s", b)
	}
}

func TestFindingJSON(t *testing.T) {
	f := risk.Finding{Analyzer: "shell", Rule: "shell.recursive_delete", Level: risk.Critical,
		Reason: "Recursive file deletion", Resource: "file:/home/user", Reversible: false}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"analyzer":"shell","rule":"shell.recursive_delete","level":"critical","reason":"Recursive file deletion","resource":"file:/home/user","reversible":false}`
	if string(b) != want {
		t.Errorf("Marshal = %s\nwant      %s", b, want)
	}
	var back risk.Finding
	if err := json.Unmarshal(b, &back); err != nil || back != f {
		t.Errorf("round trip = %+v, %v", back, err)
	}
	// Input accepts the level in any case.
	in := strings.Replace(want, `"critical"`, `"CRITICAL"`, 1)
	back = risk.Finding{}
	if err := json.Unmarshal([]byte(in), &back); err != nil || back != f {
		t.Errorf("Unmarshal(%s) = %+v, %v", in, back, err)
	}
	if err := json.Unmarshal([]byte(`{"level":"extreme"}`), &back); err == nil {
		t.Error("a bad level was accepted")
	}
}

func TestDecisionString(t *testing.T) {
	tests := []struct {
		d    risk.Decision
		want string
	}{
		{risk.Decision{Verdict: risk.Allow}, "allow"},
		{risk.Decision{Verdict: risk.Ask, Rule: "confirm_risky"}, "ask (confirm_risky)"},
		{risk.Decision{Verdict: risk.Deny, Rule: "mode.dontAsk", Reasons: []string{"x"}}, "deny (mode.dontAsk)"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestResourceKind(t *testing.T) {
	tests := map[string]string{
		"file:/x": "file", "url:https://a.test/b": "url", "table:users": "table", "plain": "", "": "",
	}
	for in, want := range tests {
		if got := risk.ResourceKind(in); got != want {
			t.Errorf("ResourceKind(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIncomplete(t *testing.T) {
	for _, tc := range []struct {
		in, want risk.Level
	}{{risk.Safe, risk.Unknown}, {risk.Low, risk.Unknown}, {risk.Medium, risk.Unknown}, {risk.High, risk.High}, {risk.Critical, risk.Critical}} {
		a := risk.Combine([]risk.Finding{{Analyzer: "x", Rule: "x.y", Level: tc.in, Reason: "r"}})
		a.Incomplete()
		if a.Level != tc.want || !a.Unknown {
			t.Errorf("%s: Incomplete gives %s (unknown %v), want %s", tc.in, a.Level, a.Unknown, tc.want)
		}
	}
}
