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
	// SQL on production, whose findings the sql analyzer escalates: it
	// must escalate copies, never the facts the SQL preparer recorded
	data = append(data, []byte(`{"tool": "query", "arguments": {"sql": "DELETE FROM users; SELECT email FROM customers", "database": "app_production"}}
{"tool": "mcp__prod_db__query", "arguments": {"sql": "UPDATE accounts SET balance = 0"}}
{"tool": "query", "arguments": {"sql": "DROP TABLE orders", "host": "prod-db.internal"}}
`)...)
	sqlFacts := 0
	for line := range bytes.Lines(data) {
		a, err := risk.ParseAction(line, risk.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		c := tool.Normalize(&a, e.cwd, e.home)
		e.prepare(ctx, c, nil)
		sqlFacts += len(c.SQLTexts)
		before := callSnapshot(c)
		for _, an := range e.analyzers {
			runStep(an.Name(), c, func() ([]risk.Finding, error) { return an.Analyze(ctx, c) })
			if after := callSnapshot(c); after != before {
				t.Fatalf("analyzer %s changed the call of %s %v:\nbefore %s\nafter  %s", an.Name(), a.Tool, a.Arguments, before, after)
			}
		}
	}
	if sqlFacts == 0 {
		t.Error("no call recorded SQL facts: the sql analyzer read none")
	}
}

// callSnapshot renders what a call holds, but its work budget (which
// analyzers charge), the paths its Env remembered resolving (a cache
// of what Abs answers, filled by reading) and what its pointers point to.
func callSnapshot(c *tool.Call) string {
	cp := *c
	cp.Work = nil
	cp.ClearAbsMemo()
	return fmt.Sprintf("%#v", cp)
}
