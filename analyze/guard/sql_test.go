package guard_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// SQL that changes warden's own tables is the guard's, through any
// client; reading them, or tables merely named alike, is not.
func TestSQLOnWardenTables(t *testing.T) {
	eng, err := warden.New(warden.WithHome("/home/user"), warden.WithCwd("/home/user/project"), warden.WithoutSessions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, arg, text string
		want            bool
	}{
		{"mcp__postgres__query", "sql", "DELETE FROM warden_sessions", true},
		{"mcp__postgres__query", "sql", "UPDATE public.warden_sessions SET data = NULL WHERE id = 's1'", true},
		{"mcp__postgres__query", "sql", `DROP TABLE "WARDEN_META"`, true},
		{"mcp__postgres__query", "sql", "TRUNCATE warden_sessions", true},
		{"Bash", "command", `psql "$DATABASE_URL" -c 'DELETE FROM warden_sessions'`, true},
		{"mcp__postgres__query", "sql", "SELECT id, updated_at FROM warden_sessions", false},
		{"mcp__postgres__query", "sql", "DELETE FROM wardens WHERE retired", false},
		{"mcp__postgres__query", "sql", "INSERT INTO prison_warden_shifts VALUES (1)", false},
	} {
		as, _, err := eng.Check(context.Background(), risk.Action{Tool: tc.tool, Arguments: map[string]any{tc.arg: tc.text}})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, f := range as.Findings {
			if f.Rule == "guard.self_modification" {
				got = f.Level == risk.Critical && f.Locked
			}
		}
		if got != tc.want {
			t.Errorf("%s %q: guard.self_modification %v, want %v (%v)", tc.tool, tc.text, got, tc.want, as.Findings)
		}
	}
}
