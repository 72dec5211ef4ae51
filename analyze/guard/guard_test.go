package guard

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

func call(a Analyzer, tl string, args map[string]any) []risk.Finding {
	c := tool.Normalize(&risk.Action{Tool: tl, Arguments: args}, "/home/user/project", "/home/user")
	f, _ := a.Analyze(context.Background(), c)
	return f
}

// TestFiles: the places only the running process knows (its binary, the
// XDG directories, the organization policy) are guarded through Files,
// and a directory above them counts when removed as a whole.
func TestFiles(t *testing.T) {
	a := Analyzer{Files: []string{"/opt/acme/warden-1.2", "/srv/org/warden.yaml", "/data/xdg/warden"}}
	must := []string{"rm /opt/acme/warden-1.2", "cp /tmp/x /srv/org/warden.yaml", "echo x > /data/xdg/warden/policy.yaml",
		"rm -rf /srv/org", "/opt/acme/warden-1.2 policy allow Bash"}
	not := []string{"cat /srv/org/warden.yaml", "cp /tmp/x /srv/org/other.yaml", "/opt/acme/warden-1.2 policy show"}
	for _, cmd := range must {
		if f := call(a, "Bash", map[string]any{"command": cmd}); len(f) == 0 || f[0].Level != risk.Critical || !f[0].Locked {
			t.Errorf("%q: %+v, want a critical locked finding", cmd, f)
		}
	}
	for _, cmd := range not {
		if f := call(a, "Bash", map[string]any{"command": cmd}); len(f) != 0 {
			t.Errorf("%q: %+v, want none", cmd, f)
		}
	}
	if f := call(Analyzer{}, "Bash", map[string]any{"command": "rm /srv/org/warden.yaml"}); len(f) != 0 {
		t.Errorf("without Files: %+v", f)
	}
}

// TestHooks: agents' settings the environment moves (Hooks) are guarded
// as hook settings, files and whole directories, and a directory above
// them counts when removed as a whole; reading them, or a file beside
// one, is no finding.
func TestHooks(t *testing.T) {
	a := Analyzer{Hooks: []string{"/srv/cfg/codex", "/srv/cfg/claude/settings.json"}}
	must := []string{"echo x > /srv/cfg/codex/hooks.json", "sed -i s/a/b/ /srv/cfg/claude/settings.json", "rm -rf /srv/cfg",
		"cp /tmp/x /srv/cfg/codex/config.toml", "mv /srv/cfg/codex /tmp/old", "python3 -c \"open('/srv/cfg/claude/settings.json','w')\""}
	not := []string{"cat /srv/cfg/codex/hooks.json", "cp /srv/cfg/claude/settings.json /tmp/x", "echo x > /srv/cfg/claude/notes.md"}
	for _, cmd := range must {
		f := call(a, "Bash", map[string]any{"command": cmd})
		if len(f) == 0 || f[0].Level != risk.Critical || !f[0].Locked || f[0].Rule != RuleHooks && !strings.Contains(cmd, "rm -rf") {
			t.Errorf("%q: %+v, want a critical locked hook-settings finding", cmd, f)
		}
	}
	for _, cmd := range not {
		if f := call(a, "Bash", map[string]any{"command": cmd}); len(f) != 0 {
			t.Errorf("%q: %+v, want none", cmd, f)
		}
	}
	if f := call(a, "Write", map[string]any{"file_path": "/srv/cfg/claude/settings.json", "content": "{}"}); len(f) == 0 || f[0].Rule != RuleHooks {
		t.Errorf("Write: %+v", f)
	}
}

func TestChanges(t *testing.T) {
	yes := []string{"write_file", "move_file", "delete_entry", "createDirectory", "edit_file", "fs.rename", "put-object", "removeFile", "setPermissions"}
	no := []string{"read_text_file", "list_directory", "search_files", "get_file_info", "directory_tree", "reset_view", "readme"}
	for _, n := range yes {
		if !changes(n) {
			t.Errorf("changes(%q) = false", n)
		}
	}
	for _, n := range no {
		if changes(n) {
			t.Errorf("changes(%q) = true", n)
		}
	}
}

func TestLiteralPaths(t *testing.T) {
	got := literalPaths(`open(os.path.join(os.path.expanduser("~"), ".claude", "settings.json"), "w"); print('x' if a else "y")`)
	for _, want := range []string{"~/.claude/settings.json", "~/.claude", ".claude"} {
		if !slices.Contains(got, want) {
			t.Errorf("literalPaths: %q missing from %q", want, got)
		}
	}
	if slices.Contains(got, "x/y") || slices.Contains(got, "w") {
		t.Errorf("literalPaths joined literals apart, or kept a word that names no path: %q", got)
	}
}

// BenchmarkAnalyze measures the guard on typical calls: a plain command
// (resolved again here), a pipeline, an edit and a Python cell.
func BenchmarkAnalyze(b *testing.B) {
	calls := []*tool.Call{
		tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "go test ./..."}}, "/home/user/project", "/home/user"),
		tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": `find . -name '*.go' | xargs grep -n "TODO" > /tmp/todo.txt`}}, "/home/user/project", "/home/user"),
		tool.Normalize(&risk.Action{Tool: "Edit", Arguments: map[string]any{"file_path": "/home/user/project/main.go", "old_string": "a", "new_string": "b"}}, "/home/user/project", "/home/user"),
		tool.Normalize(&risk.Action{Tool: "execute_ipython_cell", Arguments: map[string]any{"code": "import pandas as pd\ndf = pd.read_csv('data.csv')\ndf.to_csv('out.csv')\n"}}, "/home/user/project", "/home/user"),
	}
	a := Analyzer{Files: []string{"/usr/local/bin/warden"}}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range calls {
			a.Analyze(context.Background(), c)
		}
	}
}

// TestFromEnvironment: the process's own places are read once, from the
// environment and the executable's path.
func TestFromEnvironment(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/data/cfg")
	t.Setenv("XDG_STATE_HOME", "/data/state")
	t.Setenv("WARDEN_ORG_POLICY", "/srv/org/policy.yaml")
	a := FromEnvironment()
	for _, want := range []string{"/data/cfg/warden", "/data/state/warden", "/srv/org/policy.yaml"} {
		if !slices.Contains(a.Files, want) {
			t.Errorf("Files = %q, want %q in it", a.Files, want)
		}
	}
	t.Setenv("WARDEN_ORG_POLICY", "relative.yaml") // not a place warden would read
	if a := FromEnvironment(); slices.Contains(a.Files, "relative.yaml") {
		t.Errorf("a relative path is kept: %q", a.Files)
	}
	// the agents' directories the environment moves
	t.Setenv("CLAUDE_CONFIG_DIR", "/data/claude")
	t.Setenv("CODEX_HOME", "/data/codex")
	t.Setenv("COPILOT_HOME", "relative/copilot")
	a = FromEnvironment()
	for _, want := range []string{"/data/claude/settings.json", "/data/claude/settings.local.json", "/data/claude/hooks", "/data/claude/.claude.json", "/data/codex"} {
		if !slices.Contains(a.Hooks, want) {
			t.Errorf("Hooks = %q, want %q in it", a.Hooks, want)
		}
	}
	if len(a.Hooks) != 5 {
		t.Errorf("Hooks = %q: a relative $COPILOT_HOME is kept, or more", a.Hooks)
	}
	t.Setenv("COPILOT_HOME", "/data/copilot")
	if a := FromEnvironment(); !slices.Contains(a.Hooks, "/data/copilot/hooks") || !slices.Contains(a.Hooks, "/data/copilot/permissions-config.json") {
		t.Errorf("Hooks = %q, want $COPILOT_HOME's", a.Hooks)
	}
}

// TestTables: every read-only command, every agent CLI and every warden
// subcommand has samples that must and must not be findings; every row
// of the tables is reached by one.
func TestTables(t *testing.T) {
	must := []string{
		"sed -i s/a/b/ .warden/policy.yaml", "sed -Ei s/a/b/ .warden/policy.yaml", "sed --in-place=.bak s/a/b/ .warden/policy.yaml",
		"yq -i '.allow += [\"Bash\"]' .warden/policy.yaml", "sort -o .warden/policy.yaml x", "find .warden -delete",
		"find .warden -fprint .warden/x", "git checkout .warden/policy.yaml", "git -C . restore .warden/policy.yaml",
		"tar -xf x.tar -C .warden", "tar -cf .warden/x.tar src", "cp x .warden/", "scp host:x .warden/policy.yaml",
		"rsync -a src/ .warden/", "install x .warden/policy.yaml", "zip .warden/x.zip src", "7z x a.7z -o.warden",
		"mv a .warden", "rm .warden/x", "shred .warden/policy.yaml", "chgrp -R x .warden",
		"claude mcp add x -- y", "claude config set a b", "codex mcp add x", "gemini extensions install x", "gemini mcp add x y",
		"cursor-agent mcp login x", "copilot config set x", "warden policy allow Bash", "warden audit prune", "warden install codex",
		"warden uninstall", "warden approve 1", "warden reject 1",
		"warden --by me approve 1", "warden -x 1 approve 2", "warden approve 1 --reason --help", "warden --cwd /x policy allow Bash", "warden approve -- --help",
		`echo '{"disableAllHooks": true}' > .github/copilot/settings.local.json`, "rm .github/copilot/settings.json",
		"unzip -o x.zip -d .claude", "tar -xf x.tar -C ~", "bsdtar -xf x.tar -C ~/.config", "cpio -idm -D ~/.config",
	}
	not := []string{"sed -n p .warden/policy.yaml", "yq .allow .warden/policy.yaml", "sort .warden/policy.yaml", "find .warden -name x",
		"git log .warden/policy.yaml", "git show HEAD:.warden/policy.yaml", "tar -tf x.tar .warden", "tar -cf /tmp/x.tar .warden",
		"cp .warden/policy.yaml /tmp/x", "claude mcp list", "codex mcp list", "gemini mcp list", "copilot config get x",
		"warden policy show", "warden audit verify", "warden version", "warden --help", "warden policy allow --help",
		"warden explain 3f9a1c0d2b7e", "warden --cwd /x policy show",
		"unzip site.zip -d public", "tar -xzf deps.tgz -C vendor", "tar -xf x.tar"}
	for name := range readOnly {
		if name != "git" { // git with no subcommand it knows: not read-only
			not = append(not, name+" .warden/policy.yaml")
		}
	}
	for _, cmd := range must {
		if f := call(Analyzer{}, "Bash", map[string]any{"command": cmd}); len(f) == 0 || f[0].Level != risk.Critical {
			t.Errorf("%q: %+v, want a critical finding", cmd, f)
		}
	}
	for _, cmd := range not {
		if f := call(Analyzer{}, "Bash", map[string]any{"command": cmd}); len(f) != 0 {
			t.Errorf("%q: %+v, want none", cmd, f)
		}
	}
	for name := range agentCLIs {
		found := false
		for _, cmd := range must {
			found = found || strings.HasPrefix(cmd, name+" ")
		}
		if !found {
			t.Errorf("agent CLI %s has no sample", name)
		}
	}
}

// TestHostile: inputs shaped to make the guard work hard cost it a bounded
// amount of counted work, and a spent budget is an error (Unknown), never
// a silent pass.
func TestHostile(t *testing.T) {
	for _, tc := range []struct {
		act  risk.Action
		most int64
	}{
		{risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm " + strings.Repeat(".c* ", 50000)}}, 250000 + 4*pathWork},
		{risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm " + strings.Repeat("a ", 50000)}}, 100000 + 50001*(pathWork+2)},
		{risk.Action{Tool: "execute_ipython_cell", Arguments: map[string]any{"code": "open('x', 'w')\nx = [" + strings.Repeat(`"a.b", `, 200000) + "]"}},
			1400000 + maxLiteralPaths*(pathWork+64)},
	} {
		c := tool.Normalize(&tc.act, "/home/user/project", "/home/user")
		// prepared as the engine does (the guard reads the resolved
		// scripts), on a budget the preparation cannot spend: the guard's
		// own cost is what is measured
		c.Work = tool.NewBudget(1 << 40)
		if _, err := (shell.Preparer{}).Prepare(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		prepared := c.Work.Used()
		if _, err := (Analyzer{}).Analyze(context.Background(), c); err != nil {
			t.Fatalf("%v", err)
		}
		if u := c.Work.Used() - prepared; u > tc.most {
			t.Errorf("%.40v: %d units of work, want at most %d", tc.act.Arguments, u, tc.most)
		}
	}
	c := tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm a b c"}}, "/home/user/project", "/home/user")
	c.Work = tool.NewBudget(pathWork)
	if _, err := (Analyzer{}).Analyze(context.Background(), c); err == nil {
		t.Error("a spent budget is not an error")
	}
}

// TestRoles: roles says of every command what the tables it is built
// from say.
func TestRoles(t *testing.T) {
	names := map[string]bool{}
	for _, s := range []map[string]bool{destroyers, recursiveOnly, copiers, extractors} {
		for n := range s {
			names[n] = true
		}
	}
	for n := range names {
		r := roles[n]
		if r&destroys != 0 != destroyers[n] || r&recursive != 0 != recursiveOnly[n] || r&copies != 0 != copiers[n] || r&extracts != 0 != extractors[n] {
			t.Errorf("roles[%q] = %b", n, r)
		}
	}
	if len(roles) != len(names) {
		t.Errorf("roles holds %d commands, the tables %d", len(roles), len(names))
	}
}

// commands holds what each table says of each command, and nothing else.
func TestCommandsTable(t *testing.T) {
	for n, c := range commands {
		ro, reads := readOnly[n]
		cli, agent := agentCLIs[n]
		if c.reads != reads || reads && (ro == nil) != (c.readOnly == nil) || c.role != roles[n] || c.setsEnv != envSetters[n] ||
			agent != (c.agent != nil) || agent && c.agent.what != cli.what || c.lang != interpreters[n] {
			t.Errorf("commands[%q] = %+v", n, c)
		}
	}
	for _, m := range []map[string]bool{envSetters, destroyers, recursiveOnly, copiers, extractors} {
		for n := range m {
			if _, ok := commands[n]; !ok {
				t.Errorf("%q is not in commands", n)
			}
		}
	}
	for n := range readOnly {
		if !commands[n].reads {
			t.Errorf("%q does not read in commands", n)
		}
	}
	for n := range agentCLIs {
		if commands[n].agent == nil {
			t.Errorf("%q is no agent in commands", n)
		}
	}
	for n, l := range interpreters {
		if commands[n].lang != l {
			t.Errorf("%q is no %s interpreter in commands", n, l)
		}
	}
}

// TestInterpreterLang holds interpreterLang, which reads the table of
// commands, to the list it was written as.
func TestInterpreterLang(t *testing.T) {
	ref := func(name string) string {
		switch {
		case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
			return "python"
		case name == "node" || name == "nodejs" || name == "deno" || name == "bun":
			return "javascript"
		case name == "perl" || name == "ruby" || name == "php" || name == "lua" || name == "osascript" || name == "pwsh" || name == "powershell":
			return name
		case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
			return "awk"
		}
		return ""
	}
	words := []string{"python", "python3", "python3.12", "pypy", "pypy3", "py", "pythonx", "xpython", "Python", "node", "nodejs", "deno", "bun",
		"perl", "ruby", "php", "lua", "osascript", "pwsh", "powershell", "awk", "gawk", "mawk", "nawk", "sh", "bash", "", "nod", "perl5", "rm"}
	for n := range commands {
		words = append(words, n)
	}
	for _, w := range words {
		if got, want := interpreterLang(w, nameOf(&shell.Command{Args: []string{w}, Dynamic: []bool{false}}).info), ref(w); got != want {
			t.Errorf("interpreterLang(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestNameOf checks that nameOf finds the entry of every command of the
// tables, past its filter by length and first byte, and none for others.
func TestNameOf(t *testing.T) {
	same := func(a, b command) bool {
		return a.reads == b.reads && (a.readOnly == nil) == (b.readOnly == nil) && a.role == b.role && a.setsEnv == b.setsEnv && a.agent == b.agent && a.lang == b.lang
	}
	words := []string{"x", "rmx", "npm", "python3", "", "/", "c", "catt", strings.Repeat("r", 70)}
	for n := range commands {
		words = append(words, n, "/usr/bin/"+n, n+"x", strings.ToUpper(n))
	}
	found := 0
	for _, w := range words {
		got := nameOf(&shell.Command{Args: []string{w}, Dynamic: []bool{false}})
		want, ok := commands[got.name]
		if !same(*got.info, want) {
			t.Errorf("nameOf(%q) = %q %+v, want %+v", w, got.name, got.info, want)
		}
		if ok {
			found++
		}
	}
	if found < 2*len(commands) {
		t.Errorf("only %d of the words name a command of the tables", found)
	}
}

// TestIdentByte checks identByte's table against the bytes it stands for.
func TestIdentByte(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		letter := b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
		if identByte(b, false) != letter || identByte(b, true) != (letter || b >= '0' && b <= '9') {
			t.Errorf("identByte(%q) = %v, %v", b, identByte(b, false), identByte(b, true))
		}
	}
}
