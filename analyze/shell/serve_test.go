package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestExposeFiles: a file server on a folder that holds credentials is
// high beyond the loopback, medium on it; a project folder is a
// development server.
func TestExposeFiles(t *testing.T) {
	for cmd, want := range map[string]risk.Level{
		"nohup python3 -m http.server 8000 --directory ~ --bind 0.0.0.0 &": risk.High,
		"cd ~ && python3 -m http.server":                                   risk.High,
		"python3 -m http.server --directory=/etc 9000":                     risk.High,
		"php -S 0.0.0.0:8080 -t /":                                         risk.High,
		"npx http-server ~ -p 9000":                                        risk.High,
		"sudo python -m SimpleHTTPServer 80 --directory /root":             risk.High,
		"python3 -m http.server 8000 --directory ~ --bind 127.0.0.1":       risk.Medium,
		"php -S localhost:8000 -t ~":                                       risk.Medium,
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), RuleExposeFiles); !ok || l != want {
			t.Errorf("%q: %s %s %v, want %s", cmd, RuleExposeFiles, l, ok, want)
		}
	}
	for _, cmd := range []string{
		"python3 -m http.server", "python3 -m http.server 8000 --directory dist", "php -S 0.0.0.0:8000 -t public",
		"npx serve ./build", "python3 -m pytest ~", "python3 -m venv ~/.venvs/x", "cd ~/project && python3 -m http.server",
	} {
		if _, ok := levelOf(analyzeScript(t, cmd), RuleExposeFiles); ok {
			t.Errorf("%q fires %s", cmd, RuleExposeFiles)
		}
	}
}
