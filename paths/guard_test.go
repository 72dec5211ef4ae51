package paths

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestGuard checks the samples that must and must not be in class Guard,
// and that every guard row is reached by at least one of them.
func TestGuard(t *testing.T) {
	env := Env{Home: "/home/user", Cwd: "/home/user/project"}
	in := []string{
		".warden/policy.yaml", ".warden", ".warden/", "sub/.warden/approvals.yaml", "/srv/app/.warden/policy.yml",
		"~/.config/warden/policy.yaml", "~/.config/warden", "/etc/warden/policy.yaml", "/etc/warden",
		"~/.local/state/warden/warden.db", "~/.local/share/warden/x", "/var/lib/warden/audit.db",
		"/usr/local/bin/warden", "~/go/bin/warden", "/opt/tools/bin/warden", "/usr/sbin/warden",
		".claude/settings.json", ".claude/settings.local.json", "~/.claude/settings.json", "~/.claude.json",
		"/etc/claude-code/managed-settings.json", "/Library/Application Support/ClaudeCode/managed-settings.json",
		".codex", ".codex/config.toml", "~/.codex/hooks.json", "/etc/codex/config.toml",
		".gemini/settings.json", "~/.gemini/settings.json", "/etc/gemini-cli/settings.json",
		".cursor/hooks.json", "~/.cursor/hooks.json", ".cursor/cli.json", "~/.cursor/cli-config.json", "/etc/cursor/hooks.json",
		".github/hooks/warden.json", ".github/hooks/pre-tool.sh", ".claude/hooks/guard.sh", "~/.claude/hooks", ".cursor/hooks/check.py", "~/.copilot/config.json", "~/.copilot/hooks/a.json", "~/.copilot/settings.json",
		"~/.copilot/permissions-config.json", "~/.copilot/mcp-config.json", ".github/copilot/settings.json", ".github/copilot/settings.local.json",
		".windsurf/hooks.json", "~/.codeium/windsurf/hooks.json", "~/.codeium/hooks.json", "/etc/windsurf/hooks.json",
		"/Library/Application Support/Windsurf/hooks.json",
		// normalized: .. and a ./ prefix, another user's home
		"docs/../.warden/policy.yaml", "./.claude/settings.json", "/home/other/.claude/settings.json", "/root/.config/warden/policy.yaml",
		".Warden/policy.yaml", "/Users/Alice/.CLAUDE/settings.json", "/users/alice/.config/warden",
		".warden/*", ".w?rden", ".wa*/policy.yaml", "~/.config/w*", ".claude/settings*.json", ".c*",
	}
	out := []string{
		"docs/warden/policy.md", "docs/warden.md", "warden.go", "cmd/warden/main.go", "bin/wardenx", "warden",
		".claude/commands/x.md", ".claude/agents/a.md", ".claude", ".github/workflows/ci.yml", ".github/copilot-instructions.md", ".github/copilot/notes.md", ".claude/hooks.md", ".github/hooksx/a.json",
		".gemini/GEMINI.md", ".cursor/rules/a.mdc", ".windsurf/rules/a.md", "settings.json", ".config/warden-notes",
		"~/.config/wardenx/policy.yaml", "~/.config", "/etc/wardend.conf", "/tmp/warden-test/policy.yaml",
		"project/.wardenrc", "~/.claude.json.bak", "~/.copilot/copilot-instructions.md", "~/.copilot/logs/x.log", "*", "w*", "*/policy.yaml", ".claude/*.md",
	}
	seen := map[*guardRow]bool{}
	for _, p := range in {
		if c := env.Classify(p); c != Guard {
			t.Errorf("Classify(%q) = %v, want guard", p, c)
		}
		if r := guarded(env.Abs(Contents(p)), env.Home); r != nil {
			seen[r] = true
		}
	}
	for _, p := range out {
		if c := env.Classify(p); c == Guard {
			t.Errorf("Classify(%q) = guard, want not", p)
		}
	}
	for i := range guardRows {
		if !seen[&guardRows[i]] {
			t.Errorf("guard row %q has no sample", guardRows[i].pattern)
		}
	}
	if g, ok := env.Guarded("/home/user/project/.claude/settings.json"); !ok || !g.Hook || g.What != "Claude Code's settings" {
		t.Errorf("Guarded(.claude/settings.json) = %+v, %v", g, ok)
	}
	if g, ok := env.Guarded("/home/user/project/.warden/policy.yaml"); !ok || g.Hook {
		t.Errorf("Guarded(.warden/policy.yaml) = %+v, %v", g, ok)
	}
}

// TestGuardSymlink: a path through a link the conversation made is
// classified by its target.
func TestGuardSymlink(t *testing.T) {
	env := Env{Home: "/home/user", Cwd: "/home/user/project", Links: map[string]string{"/home/user/project/p": "/home/user/project/.warden"}}
	if c := env.Classify("p/policy.yaml"); c != Guard {
		t.Errorf("Classify(p/policy.yaml) through a link = %v, want guard", c)
	}
}

func TestHoldsGuard(t *testing.T) {
	env := Env{Home: "/home/user", Cwd: "/home/user/project"}
	holds := []string{"/", "/home", "/home/user", "/home/user/.config", "/home/user/.local", "/home/user/.local/state",
		"/home/user/project/.claude", "/home/user/project/.github", "/etc", "/home/user/.codeium",
		"/home/other", "/home/user/.cursor", "/home/user/.c*", "/home/user/.*"}
	not := []string{"/home/user/project", "/home/user/project/build", "/home/user/project/bin", "/tmp", "/usr",
		"/home/user/Documents", "/home/user/.cache", "/home/user/project/.claude/commands", "/home/user/.config/nvim", "/home/user/project/*", "/home/user/project/src*"}
	for _, p := range holds {
		if !env.HoldsGuard(p) {
			t.Errorf("HoldsGuard(%q) = false, want true", p)
		}
	}
	for _, p := range not {
		if env.HoldsGuard(p) {
			t.Errorf("HoldsGuard(%q) = true, want false", p)
		}
	}
}

// TestMayGuard: the fast test that rules paths out never rules out one
// that a guard row takes in, on the samples of TestGuard and their
// variants (other homes, upper case, globs, a key as a part of a name).
func TestMayGuard(t *testing.T) {
	for _, p := range guardSamples() {
		checkMayGuard(t, p)
	}
}

// TestMayGuardWords: mayGuardRows, which reads a path eight bytes at a
// time, finds each component of the guard, in any case, wherever it
// starts and ends in a word, in paths of every length around the words'
// ends, and gives way to mayGuardRowsBytes for a glob character or a
// non-ASCII byte at any place.
func TestMayGuardWords(t *testing.T) {
	var comps []string
	for _, k := range guardCompList {
		comps = append(comps, k.name, strings.ToUpper(k.name), strings.ToUpper(k.name[:1])+k.name[1:], k.name[1:], k.name+"x")
	}
	for _, parts := range guardParts {
		comps = append(comps, strings.Join(parts, "/"))
	}
	n := 0
	for _, c := range comps {
		for k := range 18 {
			fill := strings.Repeat("a", k)
			for _, p := range []string{fill + "/" + c, "/" + fill + "/" + c, fill + "/" + c + "/", "/" + fill + c, fill + "/" + c + "/" + fill,
				"/home/user/" + fill + "/" + c + "/b", c + "/" + fill} {
				if k == 0 || k == 8 {
					checkMayGuard(t, p)
				} else if got, want := mayGuardRows(p), refMayGuardRows(p); got != want {
					t.Fatalf("mayGuardRows(%q) = %b, want %b", p, got, want)
				}
				n++
				if k != 1 && k != 6 || len(p) > 40 {
					continue // the bytes changed in a few of them: every place in a word, every end of one
				}
				for j := range len(p) {
					for _, b := range []string{"*", "?", "[", "\xff", "\u212a", "/", "A"} {
						q := p[:j] + b + p[j+1:]
						if got, want := mayGuardRows(q), refMayGuardRows(q); got != want {
							t.Fatalf("mayGuardRows(%q) = %b, want %b", q, got, want)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d paths", n)
}

func FuzzMayGuard(f *testing.F) {
	for _, p := range guardSamples() {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) { checkMayGuard(t, p) })
}

func checkMayGuard(t *testing.T, p string) {
	t.Helper()
	rows := mayGuardRows(p)
	if want := refMayGuardRows(p); rows != want {
		t.Errorf("mayGuardRows(%q) = %b, want %b", p, rows, want)
	}
	if bytes := mayGuardRowsBytes(p); bytes != rows {
		t.Errorf("mayGuardRowsBytes(%q) = %b, mayGuardRows %b", p, bytes, rows)
	}
	for _, home := range []string{"/home/user", "/Users/Alice", "", "/", "/home/user/", "//home/user", "/home//user"} {
		// the filter never rules out a row that the walk of the rows
		// finds p under, row by row
		for i := range guardRows {
			if rows&(1<<i) == 0 && guardedRows(p, home, 1<<i) != nil {
				t.Errorf("mayGuardRows(%q) rules out row %q, which holds it in home %q", p, guardRows[i].pattern, home)
			}
		}
		want := refGuardedRow(p, home)
		if got := guardedRow(p, home); got != want {
			t.Errorf("guardedRow(%q, %q) = %v, want %v", p, home, got, want)
		}
		if got := guarded(p, home); got != want {
			t.Errorf("guarded(%q, %q) = %v, want %v", p, home, got, want)
		}
		h := strings.TrimSuffix(home, "/")
		wantHold := refHoldsGuard(p, h)
		if got := holdsGuard(p, h); got != wantHold {
			t.Errorf("holdsGuard(%q, %q) = %v, want %v", p, h, got, wantHold)
		}
		if got := (Env{Home: home}).HoldsGuard(p); got != wantHold {
			t.Errorf("HoldsGuard(%q) in home %q = %v, want %v", p, home, got, wantHold)
		}
	}
}

// refGuardedRow is guardedRow as first written (every row tried, a key
// as a substring, the components split apart): what the fast paths are
// held to.
func refGuardedRow(p, home string) *guardRow {
	if p == "" || p[0] != '/' {
		return nil
	}
	p, home = strings.ToLower(p), strings.ToLower(home)
	glob := strings.ContainsAny(p, "*?[")
	var pc []string
	var rests [][]string
	for i := range guardRows {
		if !glob && !strings.Contains(p, guardKeys[i]) {
			continue
		}
		if pc == nil {
			pc = split(p)
		}
		r, rc := &guardRows[i], guardParts[i]
		switch r.at {
		case atRoot:
			if fits(r, rc, pc, 0) {
				return r
			}
		case inHome:
			if rests == nil {
				rests = [][]string{}
				for _, h := range refHomesOf(p, home) {
					if rest, ok := strings.CutPrefix(p, h+"/"); ok {
						rests = append(rests, split(rest))
					}
				}
			}
			for _, c := range rests {
				if fits(r, rc, c, 0) {
					return r
				}
			}
		case anyDir:
			for at := 0; at+len(rc) <= len(pc); at++ {
				if fits(r, rc, pc, at) {
					return r
				}
			}
		}
	}
	return nil
}

// refHoldsGuard is holdsGuard as first written.
func refHoldsGuard(p, home string) bool {
	home = strings.ToLower(home)
	if p == "/" {
		return true
	}
	p = strings.ToLower(p)
	pc := split(p)
	var rests [][]string
	for _, h := range refHomesOf(p, home) {
		if p == h || Within(h, p) {
			return true
		}
		if rest, ok := strings.CutPrefix(p, h+"/"); ok {
			rests = append(rests, split(rest))
		}
	}
	for i := range guardRows {
		r, rc := &guardRows[i], guardParts[i]
		switch r.at {
		case atRoot:
			if len(pc) < len(rc) && matchAt(rc[:len(pc)], pc, 0) {
				return true
			}
		case inHome:
			for _, c := range rests {
				if len(c) < len(rc) && matchAt(rc[:len(c)], c, 0) {
					return true
				}
			}
		case anyDir:
			if !strings.HasPrefix(rc[0], ".") {
				continue
			}
			for n := 1; n < len(rc); n++ {
				if n <= len(pc) && matchAt(rc[:n], pc[len(pc)-n:], 0) {
					return true
				}
			}
		}
	}
	return false
}

func refHomesOf(p, home string) []string {
	var hs []string
	if home != "" && home != "/" {
		hs = append(hs, home)
	}
	for _, h := range []string{"/home/", "/Users/", "/users/"} {
		if rest, ok := strings.CutPrefix(p, h); ok {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				hs = append(hs, h+rest[:i])
			} else if rest != "" {
				hs = append(hs, h+rest)
			}
		}
	}
	if Within(p, "/root") {
		hs = append(hs, "/root")
	}
	return hs
}

// guardSamples are absolute paths in and out of the guard.
func guardSamples() []string {
	env := Env{Home: "/home/user", Cwd: "/home/user/project"}
	var out []string
	for _, r := range guardRows {
		out = append(out, "/"+r.pattern, "/home/user/"+r.pattern, "/srv/x/"+r.pattern+"/y", "/root/"+r.pattern,
			"/home/user/"+r.pattern+"x", "/home/user/x"+r.pattern, "/HOME/USER/"+r.pattern)
	}
	for _, r := range guardRows {
		// the directories above each place
		for p := "/" + r.pattern; p != "/" && p != "."; p = path.Dir(p) {
			out = append(out, p, "/home/user"+p, "/srv"+p, "/home/user/x"+p, p+"/")
		}
	}
	out = append(out, "/home", "/home/user", "/home/other", "/Users", "/users/alice", "/root", "/root/.config", "/home/user/x", "/home/userx", "/home//0", "/root//")
	for _, p := range []string{".warden/policy.yaml", ".Warden/policy.yaml", "/Users/Alice/.CLAUDE/settings.json",
		".w?rden", ".wa*/policy.yaml", "~/.config/w*", ".c*", "/usr/local/bin/warden", "/home/user/.claude.json",
		"/Library/Application Support/Windsurf/hooks.json", "/tmp/hoo\u212as.json", "/x/.claude/settings.json/",
		"/home/user//.config/warden", "/a/b/c", "/", "relative/.warden", "", "/HOME/USER/.Config", "/Home/User/PROJECT/README.md",
		"/home/user/.Claude", "/ETC", "/Users/Alice/.config", "/users/alice/.Local/State", "/root/.CODEX", "//home/user/.config/warden",
		"/home//user/.config/warden", "/home/user/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/.warden/x",
		"/home/user/project/src/main.go*", "/home/user/project/src/main.go?", "/home/user/project/[ab]", "/home/user/projeçt/.warden",
		"/a*", "/ab?", "/abcdefgh[", "/abcdefg\x80", "/ABCDEFGH/.WARDEN/X", "/home/user/project/.GitHub/Hooks/x.json",
		// globs as commands name them: a head, a tail, a class, an escape
		"/home/user/project/scripts/*.sh", "/home/user/project/src/**/*.ts", "/home/user/project/.[].title", "/home/user/project/GONOSUMDB=*",
		"/home/user/.c?aude/settings.json", "/home/user/.claude/*.json", "/home/user/.claude/s*", "/home/user/.claude/[st]ettings.json",
		"/home/user/.claude/settings.js[!x]n", "/home/user/.claude/\\settings.json", "/home/user/.claude/settings\\*", "/x/*/hooks.json",
		"/x/.github/*/settings.json", "/x/.github/copilot/*", "/etc/*/hooks.json", "/*/warden", "/usr/*bin/warden", "/x/.CURSOR/H*",
		"/home/user/.claude/settings.json]", "/home/user/.claude/[", "/home/user/.c*/hooks/x", "/home/user/*", "/home/user/.*",
		"/home/user/.docker/config.json", "/home/user/.config/pip/pip.conf", "/home/user/.config/gcloud/x.json", "/usr/local/bin/terraform",
		"/etc/hosts", "/var/lib/docker", "/home/user/project/.github/workflows/deploy.yml", "/Library/Application Support/x"} {
		out = append(out, p, env.Abs(p))
	}
	return out
}

// refMayGuardRows is mayGuardRows written plainly: p split apart and
// lowered, each row's literal components looked for among p's components
// with matchAt's rule for one component.
func refMayGuardRows(p string) uint64 {
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 {
			return allRows
		}
	}
	pc := strings.Split(strings.ToLower(p), "/")
	var rows uint64
	for i, parts := range guardParts {
		ok := true
		for _, k := range parts {
			if hasMeta(k, true) {
				continue
			}
			ok = ok && slices.ContainsFunc(pc, func(c string) bool { return c != "" && matchAt([]string{k}, []string{c}, 0) })
		}
		if ok {
			rows |= 1 << i
		}
	}
	return rows
}

// TestGlobComps holds globComps, with its filters and its answer for
// stars alone, to path.Match on every literal component (a leading dot
// only by a leading dot).
func TestGlobComps(t *testing.T) {
	globs := []string{"*", "**", "***", "*.*", ".*", "*.json", "s*", "S*", "?", "??????", ".w?rden", "[.]*", "[a-z]*", "*[", "\\*", "*x*", ".C*", "*/"}
	for _, k := range guardCompList {
		globs = append(globs, k.name[:1]+"*", "*"+k.name[len(k.name)-1:], k.name[:len(k.name)-1]+"?", strings.ToUpper(k.name[:2])+"*")
	}
	for _, c := range globs {
		var want uint64
		lc := strings.ToLower(c)
		for _, k := range guardCompList {
			if ok, err := path.Match(lc, k.name); err == nil && ok && (k.name[0] != '.' || lc[0] == '.') {
				want |= k.bit
			}
		}
		if got := globComps(c); got != want {
			t.Errorf("globComps(%q) = %b, want %b", c, got, want)
		}
	}
}
