package rules

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestPackSamples checks every rule of the default pack against its own
// samples: each must-match sample fires it, each must-not-match does not.
func TestPackSamples(t *testing.T) {
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 60 {
		t.Errorf("default pack has %d rules, want at least 60", len(rules))
	}
	for i := range rules {
		r := &rules[i]
		t.Run(r.Name, func(t *testing.T) {
			if len(r.Match) == 0 || len(r.NoMatch) == 0 {
				t.Errorf("rule needs samples that must match and samples that must not")
			}
			for _, s := range r.Match {
				ok, err := s.Matches(r)
				if err != nil {
					t.Errorf("match %q: %v", s, err)
				} else if !ok {
					t.Errorf("does not fire on must-match sample %q", s)
				}
			}
			for _, s := range r.NoMatch {
				ok, err := s.Matches(r)
				if err != nil {
					t.Errorf("no_match %q: %v", s, err)
				} else if ok {
					t.Errorf("fires on must-not-match sample %q", s)
				}
			}
		})
	}
}

// TestPackLevels checks that every rule has a concrete level and reason.
func TestPackLevels(t *testing.T) {
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.Level == risk.Unknown || r.Reason == "" {
			t.Errorf("%s: level %v, reason %q", r.Name, r.Level, r.Reason)
		}
	}
}
