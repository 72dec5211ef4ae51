package shell

import "testing"

// TestFdExec checks that fd's -x/-X commands are judged as find's -exec
// ones: on every match below the search paths, {} appended when absent,
// everything below a path when no pattern or test narrows the search.
func TestFdExec(t *testing.T) {
	for _, c := range []struct{ cmd, rule, level string }{
		{"fd . ~ -x rm -rf", "fs.recursive_delete", "critical"},
		{"fd -t f . ~ --exec-batch rm", "fs.delete", "high"},
		{"fdfind -e log . /var/log -X rm -f", "fs.delete", "high"},
		{"fd --search-path ~/.ssh -x cat", "cmd.credential_file_access", "high"},
		{"fd -H '^\\.env$' ~ -x shred -u {} ;", "fs.shred", "high"},
	} {
		fs := analyzeScript(t, c.cmd)
		if got, ok := levelOf(fs, c.rule); !ok || got.String() != c.level {
			t.Errorf("%q: %s gets %v (fired %v), want %s; findings:%s", c.cmd, c.rule, got, ok, c.level, describe(fs))
		}
	}
	for _, cmd := range []string{"fd -e pyc -x rm", "fd foo", "fd -x echo {} ; -e md", "fd node_modules -t d -X du -sh", "nice rm x", "parallel rm ::: a b"} {
		if fs := analyzeScript(t, cmd); len(fs) > 0 {
			for _, f := range fs {
				if f.Level.String() == "high" || f.Level.String() == "critical" {
					t.Errorf("%q: %s %s; findings:%s", cmd, f.Rule, f.Level, describe(fs))
				}
			}
		}
	}
}
