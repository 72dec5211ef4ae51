package warden

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
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

// TestAnalyzersOnlyRead runs every default analyzer on the prepared calls
// of the corpus and checks that none changes the call: analyzers read the
// facts the preparers recorded, and only preparers write.
func TestAnalyzersOnlyRead(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	data, err := os.ReadFile("testdata/actions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(data) {
		a, err := risk.ParseAction(line, risk.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		c := tool.Normalize(&a, e.cwd, e.home)
		e.prepare(ctx, c)
		before := callSnapshot(c)
		for _, an := range e.analyzers {
			runAnalyzer(ctx, an, c)
			if after := callSnapshot(c); after != before {
				t.Fatalf("analyzer %s changed the call of %s %v:\nbefore %s\nafter  %s", an.Name(), a.Tool, a.Arguments, before, after)
			}
		}
	}
}

// callSnapshot renders what a call holds, but its work budget (which
// analyzers charge) and what its pointers point to.
func callSnapshot(c *tool.Call) string {
	cp := *c
	cp.Work = nil
	return fmt.Sprintf("%#v", cp)
}
