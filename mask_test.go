package warden

import (
	"reflect"
	"slices"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestMaskAssessmentShortcut checks maskAssessment, which skips an
// assessment that holds no @ when no secret is known, against maskAll on
// assessments with and without secrets, URL passwords and @s anywhere.
func TestMaskAssessmentShortcut(t *testing.T) {
	texts := []string{
		"", "plain", "mail user@example.com", "https://user:hunter2@example.com/x",
		"postgres://app:s3cret@db:5432/prod", "ssh git@github.com", "key AKIAABCDEFGHIJKLMNOP here",
		"https://example.com/@scope/pkg", "a:b@c", "://@", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
	}
	raws := [][]string{nil, {"hunter2"}, {"AKIAABCDEFGHIJKLMNOP"}, {"s3cret", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}
	n := 0
	for _, raw := range raws {
		for i, a := range texts {
			for j, b := range texts {
				for field := range 6 {
					as := risk.Combine([]risk.Finding{
						{Analyzer: "x", Rule: "x.a", Level: risk.High, Reason: "reason", Resource: "file:/x"},
						{Analyzer: "x", Rule: "x.b", Level: risk.Low, Reason: "other"},
					})
					switch field {
					case 0:
						as.Findings[0].Reason = a
						as.Findings[1].Resource = b
					case 1:
						as.Reasons = append(as.Reasons, a, b)
					case 2:
						as.AffectedResources = append(as.AffectedResources, a, b)
					case 3:
						as.Recommendations = append(as.Recommendations, a, b)
					case 4:
						as.EstimatedImpact = a + b
					case 5:
						as.Findings[1].Reason, as.Findings[0].Resource = texts[(i+j)%len(texts)], a+" "+b
					}
					want := clone(as)
					maskAll(&want, raw)
					got := clone(as)
					maskAssessment(&got, raw)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("raw %q, texts %q %q, field %d:\n got %+v\nwant %+v", raw, a, b, field, got, want)
					}
					n++
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing compared")
	}
}

// clone copies the texts of as that masking rewrites.
func clone(as risk.Assessment) risk.Assessment {
	as.Findings = slices.Clone(as.Findings)
	as.Reasons = slices.Clone(as.Reasons)
	as.AffectedResources = slices.Clone(as.AffectedResources)
	as.Recommendations = slices.Clone(as.Recommendations)
	return as
}
