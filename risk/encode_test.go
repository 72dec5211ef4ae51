package risk_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// checkAppendJSON fails t when AppendJSONFields, in braces, is not what
// encoding/json writes for a (HTML escaping off), error or not.
func checkAppendJSON(t *testing.T, a risk.Assessment) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	werr := enc.Encode(&a)
	got, err := a.AppendJSONFields([]byte("{"))
	if (err != nil) != (werr != nil) {
		t.Fatalf("%+v: error %v, encoding/json %v", a, err, werr)
	}
	if err != nil {
		if !strings.Contains(werr.Error(), err.Error()) {
			t.Fatalf("%+v: error %v, encoding/json %v", a, err, werr)
		}
		return
	}
	got = append(got, "}\n"...)
	if string(got) != want.String() {
		t.Fatalf("AppendJSONFields:\n %s\nencoding/json:\n %s", got, want.String())
	}
}

func TestAppendJSONFields(t *testing.T) {
	f := risk.Finding{Analyzer: "shell", Rule: "shell.recursive_delete", Level: risk.Critical, Reason: `deletes "~" <all> & more` + "\n\xff\u2028", Resource: "file:/home/u"}
	locked := f
	locked.Locked, locked.Reversible, locked.Resource = true, true, ""
	var many []risk.Finding
	for i := range 10 {
		many = append(many, risk.Finding{Analyzer: "a", Rule: "r", Level: risk.High, Reason: fmt.Sprintf("r%d", i%9)})
	}
	many[3].Reason = f.Reason
	for _, a := range []risk.Assessment{
		{},
		{Level: risk.Level(9)},
		{Findings: []risk.Finding{{Level: -1}}},
		risk.Combine(nil),
		risk.Combine([]risk.Finding{f}),
		risk.Combine([]risk.Finding{f, locked, {Analyzer: "x", Level: risk.Unknown, Reason: "could not"}}, "url:https://x/?a=<b>&c"),
		risk.UnknownAssessment("input", "input.invalid", "invalid action: not valid JSON"),
		{Level: risk.Low, Score: -3, Unknown: true, Findings: []risk.Finding{}, Reasons: []string{}, Locked: true, SecurityRisk: "LOW\t"},
		// reasons copied from the findings written before them, past the
		// eight whose place is kept too, and impacts and recommendations
		// of every kind
		{Level: risk.High, Findings: many, Reasons: []string{"r9", "r2", "x\"", "r0", "r8", f.Reason, "r2"},
			EstimatedImpact: risk.Impact(risk.Medium), Recommendations: []string{"Review carefully before approving", "Review carefully", `"`}},
		{Level: risk.High, EstimatedImpact: "Minor impact, easily reversible\n", Recommendations: []string{}},
		// every two of reversible and locked
		{Reversible: true, Locked: true, Unknown: true, Findings: []risk.Finding{{Reversible: true, Locked: true}, {Locked: true}, {Reversible: true}, {}}},
		// every security risk, written as constants, and others
		{SecurityRisk: risk.SecurityRiskLow}, {SecurityRisk: risk.SecurityRiskMedium}, {SecurityRisk: risk.SecurityRiskHigh},
		{SecurityRisk: risk.SecurityRiskUnknown}, {SecurityRisk: "high"}, {SecurityRisk: "HIGH\"<"},
	} {
		checkAppendJSON(t, a)
	}
}

func FuzzAppendJSONFields(f *testing.F) {
	f.Add("shell", "shell.x", "a reason", "file:/x", "impact", "rec", int8(3), int8(4), 50, uint8(0xff))
	f.Add("", "", "\xff\x00\u2028\"\\", "", "", "", int8(0), int8(7), -1, uint8(0))
	f.Fuzz(func(t *testing.T, analyzer, rule, reason, resource, impact, rec string, level, flevel int8, score int, flags uint8) {
		fd := risk.Finding{Analyzer: analyzer, Rule: rule, Level: risk.Level(flevel), Reason: reason, Resource: resource, Reversible: flags&1 != 0, Locked: flags&2 != 0}
		a := risk.Assessment{Level: risk.Level(level), Score: risk.Score(score), Unknown: flags&4 != 0, Reversible: flags&8 != 0, Locked: flags&16 != 0,
			EstimatedImpact: impact, SecurityRisk: risk.SecurityRisk(rec)}
		if flags&32 != 0 {
			a.Findings = []risk.Finding{fd, fd}
			a.Reasons = []string{reason, rule}
		}
		if flags&64 != 0 {
			a.AffectedResources = []string{resource}
			a.Recommendations = []string{rec}
		}
		if flags&128 != 0 {
			a.Findings, a.Reasons = []risk.Finding{}, []string{}
		}
		checkAppendJSON(t, a)
	})
}
