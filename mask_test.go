package warden

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/risk"
)

// TestMaskAssessmentShortcut checks maskAssessment, which skips an
// assessment that holds no @ when no secret is known, against maskAll on
// assessments risk.Combine makes (complete or not) with and without
// secrets, URL passwords and @s in every text it takes: the findings'
// reasons and resources and the extra resources.
func TestMaskAssessmentShortcut(t *testing.T) {
	texts := []string{
		"", "plain", "mail user@example.com", "https://user:hunter2@example.com/x",
		"postgres://app:s3cret@db:5432/prod", "ssh git@github.com", "key AKIAABCDEFGHIJKLMNOP here",
		"https://example.com/@scope/pkg", "a:b@c", "://@", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
	}
	raws := [][]string{nil, {"hunter2"}, {"AKIAABCDEFGHIJKLMNOP"}, {"s3cret", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}
	n, ats := 0, 0
	for _, raw := range raws {
		for i, a := range texts {
			for j, b := range texts {
				for field := range 4 {
					for _, incomplete := range []bool{false, true} {
						fs := []risk.Finding{
							{Analyzer: "x", Rule: "x.a", Level: risk.High, Reason: "reason", Resource: "file:/x"},
							{Analyzer: "x", Rule: "x.b", Level: risk.Low, Reason: "other"},
						}
						var extra []string
						switch field {
						case 0:
							fs[0].Reason = a
							fs[1].Resource = b
						case 1:
							extra = []string{a, b}
						case 2:
							fs[1].Reason, fs[0].Resource = texts[(i+j)%len(texts)], a+" "+b
						case 3:
							fs[0].Level, fs[1].Level = risk.Unknown, risk.Unknown
							fs[1].Reason = a
							extra = []string{b}
						}
						as := risk.Combine(fs, extra...)
						if incomplete {
							as.Incomplete()
						}
						if holdsAtAll(&as) {
							ats++
						}
						if got, want := holdsAt(&as), holdsAtAll(&as); got != want {
							t.Fatalf("texts %q %q, field %d: holdsAt = %v, looking at every text %v", a, b, field, got, want)
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
	}
	if n == 0 || ats == 0 || ats == n {
		t.Fatalf("%d of %d assessments hold an @: the test compares little", ats, n)
	}
}

// holdsAtAll is holdsAt looking at every text of as that maskAll masks,
// whoever made it: what holdsAt looked at before it relied on
// risk.Combine.
func holdsAtAll(as *risk.Assessment) bool {
	for _, f := range as.Findings {
		if strings.Contains(f.Reason, "@") || strings.Contains(f.Resource, "@") {
			return true
		}
	}
	for _, list := range [][]string{as.Reasons, as.AffectedResources, as.Recommendations} {
		for _, s := range list {
			if strings.Contains(s, "@") {
				return true
			}
		}
	}
	return strings.Contains(as.EstimatedImpact, "@")
}

// TestRiskTextsHoldNoAt checks what holdsAt relies on: the texts
// risk.Combine writes of its own (recommendations, the estimated impact)
// hold no @ at any level, reversible or not, complete or not, and its
// reasons are its findings'.
func TestRiskTextsHoldNoAt(t *testing.T) {
	n := 0
	for l := risk.Unknown; l <= risk.Critical; l++ {
		for _, rev := range []bool{false, true} {
			for _, unknown := range []bool{false, true} {
				for _, incomplete := range []bool{false, true} {
					fs := []risk.Finding{{Analyzer: "x", Rule: "x.a", Level: l, Reversible: rev, Reason: "one"}}
					if unknown {
						fs = append(fs, risk.Finding{Analyzer: "x", Rule: "x.u", Level: risk.Unknown, Reason: "two"})
					}
					as := risk.Combine(fs)
					if incomplete {
						as.Incomplete()
					}
					for _, s := range append(slices.Clone(as.Recommendations), as.EstimatedImpact) {
						if strings.Contains(s, "@") {
							t.Errorf("level %v: risk's own text %q holds an @", l, s)
						}
					}
					for _, r := range as.Reasons {
						if !slices.ContainsFunc(fs, func(f risk.Finding) bool { return f.Reason == r }) {
							t.Errorf("level %v: reason %q is no finding's", l, r)
						}
					}
					n++
				}
			}
		}
	}
	if n < 48 {
		t.Fatal("too few assessments")
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

// TestHoldsAtCorpus holds holdsAt to holdsAtAll on the assessments of the
// evaluation corpus.
func TestHoldsAtCorpus(t *testing.T) {
	e, err := New(WithCwd("/home/user/project"), WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	ats := 0
	for _, a := range corpus.Actions(t, "testdata/actions.jsonl") {
		as, _, _ := e.Check(context.Background(), a)
		if holdsAtAll(&as) {
			ats++
		}
		if got, want := holdsAt(&as), holdsAtAll(&as); got != want {
			t.Errorf("%s %v: holdsAt = %v, looking at every text %v", a.Tool, a.Arguments, got, want)
		}
	}
	if ats == 0 {
		t.Fatal("no assessment of the corpus holds an @: the test compares little")
	}
}
