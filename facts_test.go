package warden

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// TestFactsWithoutTheShellPreparer: the policy reads what a script runs
// from the shell facts, which the engine records even when the shell
// preparer is disabled or replaced, so that Bash rules still match.
func TestFactsWithoutTheShellPreparer(t *testing.T) {
	for _, opts := range [][]Option{
		{WithPolicy(mustPolicy(t, "allow: [\"Bash(npm test:*)\"]\nanalyzers: {disabled: [shell]}\n"))},
		{WithPolicy(mustPolicy(t, "allow: [\"Bash(npm test:*)\"]\n")), WithPreparers()},
	} {
		e := newEngine(t, opts...)
		_, d, err := e.Check(context.Background(), bash("npm test -- --ci"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != risk.Allow || d.Rule != "allow: Bash(npm test:*)" {
			t.Errorf("npm test: %v (%v), want allow by Bash(npm test:*)", d.Verdict, d.Rule)
		}
		_, d, _ = e.Check(context.Background(), bash("npm test && rm -rf ~"))
		if d.Verdict == risk.Allow {
			t.Errorf("npm test && rm -rf ~: allowed")
		}
	}
}

func mustPolicy(t *testing.T, src string) *policy.Policy {
	t.Helper()
	p, err := policy.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
