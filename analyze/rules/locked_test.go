package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestPackLocked: the rules whose findings nothing but a person's approval
// of the exact action may open are locked — guard self-modification,
// cloud-metadata access, secrets sent off the machine, and every
// critical, irreversible rule — and their findings say so on their own
// samples.
func TestPackLocked(t *testing.T) {
	rules := packWithSamples(t)
	a, err := New()
	if err != nil {
		t.Fatal(err)
	}
	locked := 0
	for i := range rules {
		r := &rules[i]
		mustLock := r.Level == risk.Critical && !r.Reversible ||
			strings.HasPrefix(r.Name, "edit.agent_policy") || strings.HasPrefix(r.Name, "exfil.") || r.Name == "net.metadata_endpoint"
		if mustLock && !r.Locked {
			t.Errorf("%s (%s, reversible %v) is not locked", r.Name, r.Level, r.Reversible)
		}
		if !r.Locked {
			continue
		}
		locked++
		for _, s := range r.Match {
			fs, err := a.Analyze(context.Background(), s.Call(r))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range fs {
				if f.Rule == r.Name {
					found = true
					if !f.Locked {
						t.Errorf("%s on %q: the finding is not locked", r.Name, s)
					}
				}
			}
			if !found {
				t.Errorf("%s does not fire on %q through the assessor", r.Name, s)
			}
		}
	}
	if locked < 10 {
		t.Errorf("only %d locked rules", locked)
	}
}

// TestPackUnknownKeys: a misspelt key of a rule is an error with its
// position, not a rule that silently lacks what it says.
func TestPackUnknownKeys(t *testing.T) {
	_, err := Load("p.yaml", []byte("rules:\n  - name: x.y\n    level: critical\n    reason: r\n    pattern: 'x'\n    loked: true\n"))
	if err == nil || !strings.HasPrefix(err.Error(), `p.yaml:6:5: unknown key "loked"`) {
		t.Errorf("a misspelt key: %v", err)
	}
	if _, err := Load("p.yaml", []byte("rule:\n  - name: x.y\n")); err == nil || !strings.HasPrefix(err.Error(), `p.yaml:1:1: unknown key "rule"`) {
		t.Errorf("a misspelt top-level key: %v", err)
	}
	if _, err := Load("p.yaml", []byte("rules:\n  - name: x.y\n    level: critical\n    reason: r\n    pattern: 'x'\n    locked: true\n")); err != nil {
		t.Errorf("locked: %v", err)
	}
}
