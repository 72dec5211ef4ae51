package risk

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// combineSlowly is Combine as it was before its reasons, resources and
// recommendations shared one array and its reasons a map only when many.
func combineSlowly(findings []Finding, extraResources ...string) Assessment {
	a := Assessment{Level: Safe, Reversible: true, Findings: findings}
	concrete := false
	seenReason := map[string]bool{}
	for _, f := range findings {
		if f.Level == Unknown {
			a.Unknown = true
		} else {
			concrete = true
			a.Level = max(a.Level, f.Level)
			a.Score = max(a.Score, f.Level.Score())
			a.Reversible = a.Reversible && f.Reversible
		}
		a.Locked = a.Locked || f.Locked
		if f.Reason != "" && !seenReason[f.Reason] {
			seenReason[f.Reason] = true
			a.Reasons = append(a.Reasons, f.Reason)
		}
		a.addResource(f.Resource)
	}
	for _, r := range extraResources {
		a.addResource(r)
	}
	if !concrete && a.Unknown {
		a.Level = Unknown
		a.Reversible = false
	}
	if a.Level != Unknown && a.Level.Score() > a.Score {
		a.Score = a.Level.Score()
	}
	a.EstimatedImpact = Impact(a.Level)
	a.Recommendations = Recommendations(a.Level, a.Reversible)
	if a.Unknown && a.Level != Unknown {
		a.Recommendations = append(a.Recommendations, partlyUnknown)
	}
	a.SecurityRisk = a.Level.SecurityRisk()
	for _, l := range []*[]string{&a.Reasons, &a.AffectedResources, &a.Recommendations} {
		if *l == nil {
			*l = []string{}
		}
	}
	if a.Findings == nil {
		a.Findings = []Finding{}
	}
	return a
}

// TestCombineSlowly holds Combine to combineSlowly on random findings:
// few and many, with repeated reasons and resources, every level.
func TestCombineSlowly(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	levels := []Level{Unknown, Safe, Low, Medium, High, Critical}
	for n := range 3000 {
		var fs []Finding
		if n%7 != 0 {
			fs = make([]Finding, r.IntN(1+n%40))
		}
		texts := 1 + r.IntN(30)
		for i := range fs {
			fs[i] = Finding{Level: levels[r.IntN(len(levels))], Reversible: r.IntN(3) > 0, Locked: r.IntN(9) == 0}
			if r.IntN(4) > 0 {
				fs[i].Reason = string(rune('a' + r.IntN(texts)))
			}
			if r.IntN(3) == 0 {
				fs[i].Resource = "file:" + string(rune('a'+r.IntN(texts)))
			}
		}
		var extra []string
		for range r.IntN(4) {
			extra = append(extra, "url:"+string(rune('a'+r.IntN(texts))))
		}
		got, want := Combine(slices.Clone(fs), extra...), combineSlowly(slices.Clone(fs), extra...)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Combine(%+v, %q):\n %+v\nbefore:\n %+v", fs, extra, got, want)
		}
		got.Incomplete()
		want.Incomplete()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Combine(%+v, %q).Incomplete():\n %+v\nbefore:\n %+v", fs, extra, got, want)
		}
	}
}
