package sql

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// BenchmarkCall measures what the SQL of a database call costs the engine:
// the preparer (its facts: personal data) and the analyzer, on a call
// with a few KB of SQL.
func BenchmarkCall(b *testing.B) {
	text := strings.Repeat(strings.Join(benchSQL, "\n"), 6)
	a := &risk.Action{Tool: "query", Arguments: map[string]any{"sql": text, "database": "app_production"}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		c := tool.Normalize(a, "/home/user/project", "/home/user")
		if _, err := (Preparer{}).Prepare(ctx, c); err != nil {
			b.Fatal(err)
		}
		if _, err := (Analyzer{}).Analyze(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
}
