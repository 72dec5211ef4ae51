package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestUnknownCommand: a program no knowledge names and nothing else
// judges is low (shell.unknown_command), as an unknown tool is; a known
// program, a builtin, an alias or function of the script, or a command
// another finding already speaks for is not.
func TestUnknownCommand(t *testing.T) {
	for _, script := range []string{
		"frobnicate --all",
		"./build.sh",
		"/opt/tools/bin/sync-data --fast",
		"cd sub && ./configure --prefix=/usr/local",
		"sudo frob",
		"timeout 5 mystery-tool run",
		"ls | wc -l && zz-report",
	} {
		if l, ok := levelOf(analyzeScript(t, script), RuleUnknownCommand); !ok || l != risk.Low {
			t.Errorf("%q: %s %v, want low", script, l, ok)
		}
	}
	for _, script := range []string{
		"ls -la", "cat README.md", "git status", "go test ./...", "npm run build", "make", "pytest -q",
		"python3 x.py", "cd /tmp", "export X=1", "echo hi", "f() { ls; }; f", "alias ll='ls -l'; ll",
		"docker ps", "kubectl get pods", "rm -rf build", "curl -s https://example.com", "true", "[ -f x ]",
		"frob delete prod-db", // the verb grammar speaks for it
		"uname -a", "sha256sum dist/app.tar.gz", "seq 1 10", "mktemp -d",
	} {
		if _, ok := levelOf(analyzeScript(t, script), RuleUnknownCommand); ok {
			t.Errorf("%q: %s fires", script, RuleUnknownCommand)
		}
	}
}
