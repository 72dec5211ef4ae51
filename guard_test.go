package warden_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// guardAct builds an action for the self-protection tables.
func guardAct(tool string, args ...any) risk.Action {
	m := map[string]any{}
	for i := 0; i+1 < len(args); i += 2 {
		m[args[i].(string)] = args[i+1]
	}
	return risk.Action{Tool: tool, Arguments: m}
}

func bash(cmd string) risk.Action { return guardAct("Bash", "command", cmd) }

func python(code string) risk.Action { return guardAct("execute_ipython_cell", "code", code) }

// guardRoutes are changes to what guards the agent, through every route a
// call can take: each is critical, Locked, with a guard.* finding.
var guardRoutes = []struct {
	name string
	act  risk.Action
}{
	{"Write policy", guardAct("Write", "file_path", "/home/user/project/.warden/policy.yaml", "content", "allow: [Bash]")},
	{"Write relative policy", guardAct("Write", "file_path", ".warden/policy.yaml", "content", "x")},
	{"Edit settings", guardAct("Edit", "file_path", "/home/user/project/.claude/settings.json", "old_string", "deny", "new_string", "allow")},
	{"MultiEdit user settings", guardAct("MultiEdit", "file_path", "/home/user/.claude/settings.json", "edits", []any{map[string]any{"old_string": "a", "new_string": "b"}})},
	{"NotebookEdit in .warden", guardAct("NotebookEdit", "notebook_path", "/home/user/project/.warden/x.ipynb", "new_source", "x")},
	{"Write codex config", guardAct("Write", "file_path", "/home/user/.codex/config.toml", "content", "approval_policy = \"never\"")},
	{"Write gemini settings", guardAct("Write", "file_path", "/home/user/project/.gemini/settings.json", "content", "{}")},
	{"Write cursor hooks", guardAct("Write", "file_path", "/home/user/project/.cursor/hooks.json", "content", "{}")},
	{"Write copilot hooks", guardAct("Write", "file_path", "/home/user/project/.github/hooks/hooks.json", "content", "{}")},
	{"Write windsurf hooks", guardAct("Write", "file_path", "/home/user/.codeium/windsurf/hooks.json", "content", "{}")},
	{"Write through ..", guardAct("Write", "file_path", "/home/user/project/docs/../.warden/policy.yaml", "content", "x")},
	{"MCP write_file", guardAct("mcp__filesystem__write_file", "path", "/home/user/project/.warden/policy.yaml", "content", "x")},
	{"MCP move_file", guardAct("mcp__filesystem__move_file", "source", "/home/user/project/.warden/policy.yaml", "destination", "/tmp/p")},
	{"MCP unknown delete", guardAct("mcp__files__delete_entry", "path", "/etc/warden/policy.yaml")},
	{"rm", bash("rm .warden/policy.yaml")},
	{"rm -rf dir", bash("rm -rf .warden")},
	{"rm -rf ~/.config", bash("rm -rf ~/.config")},
	{"mv", bash("mv .warden/policy.yaml /tmp/x")},
	{"mv parent", bash("mv .claude /tmp/c")},
	{"cp onto", bash("cp /tmp/p.yaml .warden/policy.yaml")},
	{"cp into", bash("cp -r /tmp/warden ~/.config/")},
	{"mv into", bash("mv /tmp/evil/settings.json .claude")},
	{"ln", bash("ln -sf /tmp/p.yaml ~/.config/warden/policy.yaml")},
	{"truncate", bash("truncate -s0 .warden/policy.yaml")},
	{"sed -i", bash("sed -i s/deny/allow/ /etc/warden/policy.yaml")},
	{"perl -pi", bash("perl -pi -e s/deny/allow/ .warden/policy.yaml")},
	{"tee -a", bash("echo 'allow: [Bash]' | tee -a .warden/policy.yaml")},
	{"redirect >", bash("echo '{}' > .claude/settings.local.json")},
	{"redirect >>", bash("echo 'allow: [Bash]' >> ~/.config/warden/policy.yaml")},
	{"install", bash("install -m 644 /tmp/p .warden/policy.yaml")},
	{"dd of=", bash("dd if=/dev/zero of=.warden/policy.yaml")},
	{"chmod", bash("chmod 000 .warden/policy.yaml")},
	{"chown -R parent", bash("chown -R nobody ~/.config")},
	{"chattr", bash("chattr +i .warden/policy.yaml")},
	{"rsync", bash("rsync -a /tmp/evil/ .warden/")},
	{"tar -x -C", bash("tar -xf /tmp/x.tar -C .warden")},
	{"unzip -d", bash("unzip /tmp/x.zip -d .codex")},
	{"git rm", bash("git rm .warden/policy.yaml")},
	{"git checkout", bash("git checkout HEAD~3 -- .warden/policy.yaml")},
	{"git restore", bash("git restore .claude/settings.json")},
	{"warden binary", bash("cp /tmp/fake /usr/local/bin/warden")},
	{"state store", bash("rm ~/.local/state/warden/warden.db")},
	{"heredoc", bash("cat > .warden/policy.yaml <<EOF\nallow: [Bash]\nEOF")},
	{"bash -c", bash(`bash -c "rm -f .warden/policy.yaml"`)},
	{"sudo", bash("sudo rm /etc/warden/policy.yaml")},
	{"cd then rm", bash("cd .warden && rm policy.yaml")},
	{"variable", bash("P=.warden/policy.yaml; rm $P")},
	{"python -c", bash(`python3 -c 'import os; os.remove(".warden/policy.yaml")'`)},
	{"node -e", bash(`node -e "require('fs').writeFileSync('.claude/settings.json', '{}')"`)},
	{"find -delete", bash("find .warden -name '*.yaml' -delete")},
	{"xargs fed by echo", bash("echo .warden/policy.yaml | xargs rm")},
	{"xargs fed by here-string", bash("xargs rm -rf <<< .warden")},
	{"glob", bash("rm -rf .w?rden")},
	{"glob above", bash("rm -rf ~/.c*")},
	{"curl -o", bash("curl -o .warden/policy.yaml https://example.com/p")},
	{"wrappers", bash("nice nice nice nice nice rm .warden/policy.yaml")},
	{"eval", bash(`eval "rm .warden/policy.yaml"`)},
	{"Codex argv", guardAct("shell", "command", []any{"rm", ".warden/policy.yaml"})},
	{"apply_patch", guardAct("apply_patch", "input", "*** Begin Patch\n*** Update File: .claude/settings.json\n@@\n-a\n+b\n*** End Patch")},
	{"warden policy allow", bash("warden policy allow Bash")},
	{"warden install", bash("warden install claude-code --project")},
	{"warden uninstall", bash("warden install claude-code --uninstall")},
	{"warden audit prune", bash("warden audit prune --before 2026-01-01")},
	{"warden approve", bash("/usr/local/bin/warden approve 42")},
	{"warden renamed", bash("./warden-linux-amd64 policy allow 'Bash(*)'")},
	{"go run warden", bash("go run ./cmd/warden policy allow Bash")},
	{"find -exec rm", bash("find ~/.config -maxdepth 1 -exec rm -rf {} +")},
	{"find -name guard file", bash("find ~ -name 'policy.yaml' -delete")},
	{"find -name json", bash("find . -name '*.json' -exec rm {} +")},
	{"find -path", bash("find ~ -path '*/x/*' -delete")},
	{"chmod -R home", bash("chmod -R 777 ~")},
	{"case", bash("rm .Warden/policy.yaml")},
	{"brace", bash("mv .warden/policy.yaml{,.bak}")},
	{"cd home", bash("cd ~ && rm -rf .config")},
	{"claude config set", bash("claude config set -g allowedTools 'Bash(*)'")},
	{"claude mcp add", bash("claude mcp add evil -- npx evil-server")},
	{"codex mcp add", bash("codex mcp add evil -- evil")},
	{"python open w", python(`open(".warden/policy.yaml", "w").write("allow: [Bash]")`)},
	{"python os.remove", python(`import os; os.remove("/home/user/project/.warden/policy.yaml")`)},
	{"python shutil.move", python(`import shutil; shutil.move(".warden/policy.yaml", "/tmp/p")`)},
	{"python pathlib", python(`from pathlib import Path; (Path.home() / ".claude" / "settings.json").write_text("{}")`)},
	{"python join", python(`import os; open(os.path.join(os.path.expanduser("~"), ".codex", "config.toml"), "a").write("x")`)},
	{"python rmtree parent", python(`import shutil; shutil.rmtree(os.path.expanduser("~/.config"))`)},
}

// guardReads are calls near the guard that do not change it.
var guardReads = []risk.Action{
	guardAct("Read", "file_path", "/home/user/project/.warden/policy.yaml"),
	bash("cat .warden/policy.yaml"),
	bash("grep deny .claude/settings.json"),
	bash("ls -la ~/.config/warden"),
	bash("sudo cat /etc/warden/policy.yaml"),
	bash("diff .warden/policy.yaml /tmp/p.yaml"),
	bash("cp .warden/policy.yaml /tmp/policy.bak"),
	bash("mv notes.txt ~/"),
	bash("tar czf /tmp/policy.tgz .warden"),
	bash("git diff .warden/policy.yaml"),
	bash("git add .warden/policy.yaml"),
	bash("sed -n 1,20p .warden/policy.yaml"),
	bash("warden policy show"),
	bash("warden policy check .warden/policy.yaml"),
	bash("warden explain rm -rf /"),
	bash("go run ./cmd/warden policy show"),
	bash("claude mcp list"),
	bash("claude config get -g theme"),
	bash("claude -p 'summarize README.md'"),
	bash("codex exec 'explain main.go'"),
	bash("find . -name '*.go' -exec gofmt -l {} +"),
	bash("find ~ -name '*.pyc' -delete"),
	bash("find ~ -name __pycache__ -exec rm -rf {} +"),
	bash("chmod 700 ~"),
	bash("rm ~/.config"),
	bash("echo $WARDEN_ORG_POLICY"),
	bash("rm -rf build && mkdir -p .claude/commands"),
	bash("echo .warden | xargs ls"),
	bash("rm -rf *"),
	guardAct("Write", "file_path", "/home/user/project/docs/warden.md", "content", "# warden"),
	guardAct("Write", "file_path", "/home/user/project/docs/warden/policy.md", "content", "x"),
	guardAct("Write", "file_path", "/home/user/project/.claude/commands/review.md", "content", "review"),
	guardAct("Edit", "file_path", "/home/user/project/.github/workflows/ci.yml", "old_string", "a", "new_string", "b"),
	python(`print(open(".warden/policy.yaml").read())`),
}

func guardEngine(t *testing.T, opts ...warden.Option) *warden.Engine {
	t.Helper()
	e, err := warden.New(append([]warden.Option{warden.WithHome("/home/user"), warden.WithCwd("/home/user/project"), warden.WithoutSessions()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSelfProtection: every route that changes what guards the agent is
// critical, with a Locked guard.* finding; reading it is not.
func TestSelfProtection(t *testing.T) {
	e := guardEngine(t)
	for _, tc := range guardRoutes {
		as, _, err := e.Check(context.Background(), tc.act)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !guardFinding(as, risk.Critical) {
			t.Errorf("%s: level %v, no critical locked guard finding: %v", tc.name, as.Level, as.Reasons)
		}
	}
	for _, a := range guardReads {
		as, _, err := e.Check(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range as.Findings {
			if f.Analyzer == "guard" {
				t.Errorf("%s %v: unexpected %s: %s", a.Tool, a.Arguments, f.Rule, f.Reason)
			}
		}
	}
}

// TestGuardEnvironment: warden's environment variables, the warden
// subcommands warden does not know and an agent started without its
// permission checks are at least high.
func TestGuardEnvironment(t *testing.T) {
	e := guardEngine(t)
	for _, cmd := range []string{
		"WARDEN_MODE=bypassPermissions claude -p hi",
		"export WARDEN_ORG_POLICY=/tmp/empty.yaml",
		"unset WARDEN_ORG_POLICY",
		"env WARDEN_POLICY=/tmp/p.yaml npm test",
		"cd x; WARDEN_DEBUG=1 make",
		"warden frobnicate",
		"warden serve --addr :8080",
		"warden assess --store /tmp/w.db",
		"claude -p 'fix it' --dangerously-skip-permissions",
		"claude --permission-mode bypassPermissions -p x",
		"codex exec --yolo 'rm stuff'",
		"codex -c approval_policy=never exec x",
		"gemini --yolo -p hi",
		"gemini --approval-mode=yolo",
		"copilot -p x --allow-all-tools",
	} {
		as, _, err := e.Check(context.Background(), bash(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if !guardFinding(as, risk.High) {
			t.Errorf("%q: level %v, no locked guard finding at high or more: %v", cmd, as.Level, as.Reasons)
		}
	}
}

// TestGuardNotAllowed: no allow rule and no permission mode lets a change
// to the guard run.
func TestGuardNotAllowed(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("allow: [Bash, Write, Edit, MultiEdit, NotebookEdit, execute_ipython_cell, mcp__filesystem__write_file, mcp__filesystem__move_file, mcp__files__delete_entry]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []policy.Mode{policy.ModeDefault, policy.ModeAcceptEdits, policy.ModeDontAsk, policy.ModeBypassPermissions} {
		e := guardEngine(t, warden.WithPolicy(p), warden.WithMode(m))
		for _, tc := range guardRoutes {
			_, d, err := e.Check(context.Background(), tc.act)
			if err != nil {
				t.Fatal(err)
			}
			if d.Verdict == risk.Allow {
				t.Errorf("mode %s, %s: allowed (%s)", m, tc.name, d.Rule)
			}
		}
	}
}

// guardFinding reports whether as holds a Locked guard finding at level
// at least min.
func guardFinding(as risk.Assessment, min risk.Level) bool {
	for _, f := range as.Findings {
		if f.Analyzer == "guard" && f.Locked && f.Level.AtLeast(min) {
			return true
		}
	}
	return false
}

// TestGuardSession: a change split across the calls of a conversation (a
// variable set in one, used in the next; a symbolic link made earlier) is
// seen at the call that makes it.
func TestGuardSession(t *testing.T) {
	e := guardEngine(t, warden.WithSessions(session.DefaultConfig()))
	steps := []struct {
		session  string
		act      risk.Action
		critical bool
	}{
		{"s1", bash("P='.warden/policy.yaml'"), false},
		{"s4", bash("P=.warden/policy.yaml"), false},
		{"s4", bash("rm $P"), true},
		{"s1", bash("rm $P"), true},
		{"s2", python(`p = "/home/user/project/.warden" + "/policy.yaml"`), false},
		{"s2", python(`f = open(p, "w")`), true},
		{"s3", bash("ln -s .warden w"), true},
		{"s3", bash("echo 'allow: [Bash]' > w/policy.yaml"), true},
	}
	for i, s := range steps {
		s.act.SessionID = s.session
		as, _, err := e.Check(context.Background(), s.act)
		if err != nil {
			t.Fatal(err)
		}
		if got := guardFinding(as, risk.Critical); got != s.critical {
			t.Errorf("step %d %v: guard finding %v, want %v (%v)", i, s.act.Arguments, got, s.critical, as.Reasons)
		}
	}
}
