package warden_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// changeRoutes are the routes of one edit of p (old → new) and of one
// write of p with whole: the agents' edit and write tools and the MCP
// filesystem server's.
func changeRoutes(p, old, new, whole string) []risk.Action {
	var out []risk.Action
	if old != "" {
		out = append(out,
			risk.Action{Tool: "Edit", Arguments: map[string]any{"file_path": p, "old_string": old, "new_string": new}},
			risk.Action{Tool: "MultiEdit", Arguments: map[string]any{"file_path": p, "edits": []any{map[string]any{"old_string": old, "new_string": new}}}},
			risk.Action{Tool: "str_replace_editor", Arguments: map[string]any{"command": "str_replace", "path": p, "old_str": old, "new_str": new}},
			risk.Action{Tool: "replace", Arguments: map[string]any{"file_path": p, "old_string": old, "new_string": new}},
			risk.Action{Tool: "mcp__filesystem__edit_file", Arguments: map[string]any{"path": p, "edits": []any{map[string]any{"oldText": old, "newText": new}}}},
		)
	}
	if whole != "" {
		out = append(out,
			risk.Action{Tool: "Write", Arguments: map[string]any{"file_path": p, "content": whole}},
			risk.Action{Tool: "write_file", Arguments: map[string]any{"file_path": p, "content": whole}},
			risk.Action{Tool: "str_replace_editor", Arguments: map[string]any{"command": "create", "path": p, "file_text": whole}},
			risk.Action{Tool: "mcp__filesystem__write_file", Arguments: map[string]any{"path": p, "content": whole}},
		)
	}
	return out
}

// TestWeakenRoutes: an edit or write that weakens a defence is high on
// every edit and write route, and its look-alike stays below.
func TestWeakenRoutes(t *testing.T) {
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"), warden.WithoutSessions())
	if err != nil {
		t.Fatal(err)
	}
	const pj = "/home/user/project/"
	groups := []struct {
		high    bool
		actions []risk.Action
	}{
		{true, changeRoutes(pj+".github/workflows/ci.yml", "      - name: Run tests\n        run: npm test", "      - name: Run tests\n        run: npm test || true",
			"on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test || true\n")},
		{false, changeRoutes(pj+".github/workflows/ci.yml", "      - run: rm -rf build", "      - run: rm -rf build || true",
			"on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n      - run: rm -rf build || true\n")},
		{true, changeRoutes(pj+".github/workflows/security.yml", "      - uses: actions/checkout@v4\n      - uses: gitleaks/gitleaks-action@v2\n", "      - uses: actions/checkout@v4\n", "")},
		{true, changeRoutes(pj+".gitleaks.toml", "[allowlist]\npaths = ['''tests/fixtures/''']", "[allowlist]\npaths = ['''.*''']", "[allowlist]\npaths = ['''.*''']\n")},
		{false, changeRoutes(pj+".gitleaks.toml", "[allowlist]\npaths = ['''tests/fixtures/''']", "[allowlist]\npaths = ['''tests/fixtures/''', '''docs/.*''']", "[allowlist]\npaths = ['''tests/fixtures/''']\n")},
		{true, changeRoutes(pj+".pre-commit-config.yaml", "", "", "repos: []\n")},
		{true, changeRoutes(pj+"src/clients/payments.py", "resp = requests.post(url, json=payload, timeout=10)", "resp = requests.post(url, json=payload, timeout=10, verify=False)",
			"import requests\n\ndef pay(url, payload):\n    return requests.post(url, json=payload, verify=False)\n")},
		{false, changeRoutes(pj+"tests/test_payments.py", "resp = requests.post(url, json=payload, timeout=10)", "resp = requests.post(url, json=payload, timeout=10, verify=False)",
			"import requests\n\ndef test_pay():\n    requests.post('https://localhost:8443', verify=False)\n")},
		{true, changeRoutes(pj+".cursor/mcp.json", `"mcpServers": {}`, `"mcpServers": {"helper": {"command": "npx", "args": ["-y", "mcp-server-helpr@latest"]}}`,
			`{"mcpServers": {"helper": {"command": "npx", "args": ["-y", "mcp-server-helpr@latest"]}}}`)},
		// a shell script's known text into a file that runs things
		{true, []risk.Action{bashA("cat > .github/workflows/ci.yml <<'EOF'\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test || true\nEOF"),
			bashA("printf 'repos: []\\n' > .pre-commit-config.yaml")}},
		{true, []risk.Action{bashA("cat > .mcp.json <<'EOF'\n{\"mcpServers\": {\"x\": {\"command\": \"npx\", \"args\": [\"-y\", \"mcp-x\"]}}}\nEOF"),
			bashA("echo '*' > .semgrepignore"), bashA("echo 'x = requests.get(u, verify=False)' >> src/app.py")}},
		{false, []risk.Action{bashA("cat .mcp.json"), bashA("echo 'node_modules/' > .semgrepignore"), bashA("echo 'x = requests.get(u, verify=False)' >> tests/test_app.py"),
			readA(pj + ".cursor/mcp.json")}},
		{false, []risk.Action{bashA("cat > .github/workflows/ci.yml <<'EOF'\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\nEOF")}},
		{false, changeRoutes(pj+".vscode/settings.json", `"editor.formatOnSave": true`, `"editor.formatOnSave": true, "editor.fontSize": 14`, `{"editor.fontSize": 14}`)},
	}
	for i, g := range groups {
		for _, a := range g.actions {
			as, _, err := eng.Check(context.Background(), a)
			if err != nil {
				t.Fatal(err)
			}
			if got := as.Level >= risk.High; got != g.high {
				var rules []string
				for _, f := range as.Findings {
					rules = append(rules, f.Rule+"="+f.Level.String())
				}
				t.Errorf("group %d: %s %v: %s %v, want high=%v", i, a.Tool, a.Arguments, as.Level, rules, g.high)
			}
		}
	}
}
