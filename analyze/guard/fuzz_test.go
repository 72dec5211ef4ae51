package guard

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// FuzzAnalyze: no command or code text makes the guard panic, and a
// change it reports always names what it changes.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"rm -rf .warden", "echo x > ~/.claude/settings.json", "warden policy allow Bash",
		"echo .warden | xargs rm", "rm -rf .w?rden", `open(".warden/policy.yaml", "w")`, "WARDEN_MODE=x y",
		"cp -r a ~/.config/", "find ~ -exec rm {} +", "7z x a -o.codex", "claude --permission-mode bypassPermissions"} {
		f.Add(s)
	}
	a := Analyzer{Files: []string{"/opt/warden/warden"}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, act := range []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": s}},
			{Tool: "execute_ipython_cell", Arguments: map[string]any{"code": s}},
			{Tool: "Write", Arguments: map[string]any{"file_path": s, "content": "x"}},
		} {
			c := tool.Normalize(&act, "/home/user/project", "/home/user")
			fs, err := a.Analyze(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if !f.Locked || f.Resource == "" || !strings.HasPrefix(f.Rule, "guard.") {
					t.Fatalf("%q: %+v", s, f)
				}
			}
		}
	})
}
