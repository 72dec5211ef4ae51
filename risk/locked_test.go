package risk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestCombineLocked: an assessment is locked when any finding is, of any
// level; reversibility does not decide it; the JSON says so.
func TestCombineLocked(t *testing.T) {
	for _, tc := range []struct {
		name     string
		findings []risk.Finding
		want     bool
	}{
		{"none", nil, false},
		{"plain critical irreversible", []risk.Finding{{Rule: "a", Level: risk.Critical}}, false},
		{"locked and reversible", []risk.Finding{{Rule: "a", Level: risk.Low}, {Rule: "b", Level: risk.Critical, Reversible: true, Locked: true}}, true},
		{"locked at unknown", []risk.Finding{{Rule: "a", Level: risk.Unknown, Locked: true}}, true},
	} {
		a := risk.Combine(tc.findings)
		if a.Locked != tc.want {
			t.Errorf("%s: locked %v, want %v", tc.name, a.Locked, tc.want)
		}
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"locked":true`); got != tc.want {
			t.Errorf("%s: JSON %s", tc.name, b)
		}
	}
}
