package shell

import (
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestMassTruncate holds the class of truncations applied to many files:
// high outside the workspace (home, its data, system places), nothing
// added for the workspace's own files (its logs) or one named file.
func TestMassTruncate(t *testing.T) {
	run := func(script string) (string, bool) {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatalf("Resolve(%q): %v", script, err)
		}
		fs := DefaultKnowledge().analyze(nil, cmds, testEnv, &tool.Call{Shell: []string{script}})
		l, ok := levelOf(fs, RuleMassTruncate)
		return l.String(), ok
	}
	for _, s := range []string{
		"find ~/data -type f -exec truncate -s 0 {} +",
		"for f in ~/Documents/*; do : > \"$f\"; done",
		"for f in ~/Documents/*; do cp /dev/null \"$f\"; done",
		"truncate -s0 ~/*.db",
		"find ~/data -type f | xargs truncate -s 0",
		"truncate --size=0 /srv/data/*.csv",
	} {
		if l, ok := run(s); !ok || l != "high" {
			t.Errorf("%q: %s = %s (fired %v), want high", s, RuleMassTruncate, l, ok)
		}
	}
	for _, s := range []string{
		"truncate -s 0 logs/*.log", // the app's own logs, in the workspace
		"for f in logs/*.log; do : > \"$f\"; done",
		"find . -name '*.log' -exec truncate -s 0 {} +",
		"truncate -s 0 ~/notes.txt", // one named file: the row judges it
		"truncate -s 1G ~/*.img",    // grows, does not empty
		"find /tmp/x -exec truncate -s 0 {} +",
		": > app.log",
	} {
		if l, ok := run(s); ok {
			t.Errorf("%q fires %s (%s)", s, RuleMassTruncate, l)
		}
	}
}
