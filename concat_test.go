package warden

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestConcatFindings checks concatFindings against slices.Concat on parts
// of every shape: none, all empty, empty ones before, between and after
// those with findings.
func TestConcatFindings(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		parts := make([][]risk.Finding, r.IntN(14))
		for j := range parts {
			switch r.IntN(4) {
			case 0: // nil
			case 1:
				parts[j] = []risk.Finding{}
			default:
				if r.IntN(3) == 0 {
					for k := range 1 + r.IntN(3) {
						parts[j] = append(parts[j], risk.Finding{Rule: strconv.Itoa(j) + "." + strconv.Itoa(k), Level: risk.Level(r.IntN(5))})
					}
				}
			}
		}
		got, want := concatFindings(parts), slices.Concat(parts...)
		if !reflect.DeepEqual(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("case %d: %v: concatFindings gave %v, slices.Concat %v", i, parts, got, want)
		}
		if len(got) > 0 && len(parts) > 0 {
			// the result is a copy: the parts are not changed through it
			got[0].Rule = "changed"
			if slices.ContainsFunc(parts, func(p []risk.Finding) bool { return len(p) > 0 && p[0].Rule == "changed" }) {
				t.Fatalf("case %d: the result shares a part's array", i)
			}
		}
	}
}
