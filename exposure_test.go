package warden

import (
	"context"
	"strconv"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestServedSecrets: sensitive data written or copied into a folder a web
// server or static site publishes is exposed (high) on every route; the
// same data elsewhere, and harmless files there, are not judged so.
func TestServedSecrets(t *testing.T) {
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	bash := func(cmd string) risk.Action {
		return risk.Action{Tool: "Bash", Arguments: map[string]any{"command": cmd}}
	}
	served := []risk.Action{
		bash("env | grep -i -E 'key|token|secret|pass' > /home/user/project/public/debug-env.txt"),
		bash("env > /var/www/html/env.txt"),
		bash("printenv > static/e.txt"),
		bash(`echo "$STRIPE_SECRET_KEY" > public/k.txt`),
		bash("cat ~/.ssh/id_rsa > /var/www/html/k"),
		bash("cp .env public/"),
		bash("pg_dump prod > /var/www/html/backup.sql"),
		{Tool: "python", Arguments: map[string]any{"code": "import os, json\nopen('/home/user/project/public/env.json', 'w').write(json.dumps(dict(os.environ)))"}},
	}
	not := []risk.Action{
		bash("env | grep -c PATH > /tmp/n"),
		bash("env > /tmp/env.txt"),
		bash("cp .env.example public/"),
		bash("echo hello > public/index.html"),
		bash("cp node_modules/x/public/a.js public/"),
		bash("env > node_modules/pkg/public/env.txt"),
	}
	run := func(i int, a risk.Action) bool {
		a.Cwd, a.SessionID = "/home/user/project", "served-"+strconv.Itoa(i)
		as, _, err := e.Check(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range as.Findings {
			if f.Rule == ruleServedSecret {
				if f.Level != risk.High {
					t.Errorf("%v: %s at %v", a.Arguments, f.Rule, f.Level)
				}
				return true
			}
		}
		return false
	}
	for i, a := range served {
		if !run(i, a) {
			t.Errorf("%v: no %s", a.Arguments, ruleServedSecret)
		}
	}
	for i, a := range not {
		if run(100+i, a) {
			t.Errorf("%v: %s", a.Arguments, ruleServedSecret)
		}
	}
}

func TestServedPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/var/www/html/x": true, "/home/user/project/public/x.txt": true, "/home/user/site/public_html/a": true,
		"/home/user/project/app/static/css/x": true, "/srv/www/x": true, "/usr/share/nginx/html/i": true,
		"/home/user/project/src/x": false, "/home/user/project/public": false, "/home/user/project/node_modules/a/public/x": false,
		"/home/user/project/dist/x": false, "/home/user/project/docs/x": false, "/tmp/www-data.log": false,
	} {
		if got := servedPath(p); got != want {
			t.Errorf("servedPath(%q) = %v", p, got)
		}
	}
}
