package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv returns an Env with a home and a project directory of the test.
func testEnv(t *testing.T) Env {
	dir := t.TempDir()
	e := Env{Home: filepath.Join(dir, "home"), Dir: filepath.Join(dir, "project")}
	os.MkdirAll(e.Home, 0o755)
	os.MkdirAll(e.Dir, 0o755)
	return e
}

// TestFiles: for every agent and both scopes, install writes the file
// where the agent reads it (making the directories), a second install
// writes nothing, uninstall removes the file and the directories it made
// (a directory holding anything else stays), and a file that was there
// comes back byte for byte with its mode.
func TestFiles(t *testing.T) {
	for _, a := range Agents {
		for _, s := range []Scope{User, Project} {
			t.Run(a.Name+"/"+string(s), func(t *testing.T) {
				e := testEnv(t)
				file, err := a.Path(s, e)
				if err != nil {
					t.Fatal(err)
				}
				c, err := Install(a, s, e, cmd+a.Name)
				if err != nil || !c.Changed() || c.Existed {
					t.Fatalf("%v %+v", err, c)
				}
				if err := c.Write(); err != nil {
					t.Fatal(err)
				}
				st, err := os.Stat(file)
				if err != nil {
					t.Fatal(err)
				}
				if want := map[Scope]os.FileMode{User: 0o600, Project: 0o644}[s]; st.Mode().Perm() != want {
					t.Errorf("mode %v, want %v", st.Mode().Perm(), want)
				}
				c, err = Install(a, s, e, cmd+a.Name)
				if err != nil || c.Changed() || c.Done[0] != "already installed: nothing to change" {
					t.Fatalf("second install: %v %+v", err, c)
				}
				c, err = Uninstall(a, s, e)
				if err != nil || !c.Changed() || !c.Exact || c.After != nil {
					t.Fatalf("uninstall: %v %+v", err, c)
				}
				if err := c.Write(); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(file); !os.IsNotExist(err) {
					t.Fatalf("the file stays: %v", err)
				}
				root := map[Scope]string{User: e.Home, Project: e.Dir}[s]
				if entries, _ := os.ReadDir(root); len(entries) != 0 {
					t.Errorf("left in %s: %v", root, entries)
				}
				c, err = Uninstall(a, s, e)
				if err != nil || c.Changed() || !strings.HasPrefix(c.Done[0], "not installed") {
					t.Errorf("uninstall of nothing: %v %+v", err, c)
				}

				// a file of the user's, in a directory holding more
				os.MkdirAll(filepath.Dir(file), 0o755)
				os.WriteFile(filepath.Join(filepath.Dir(file), "other"), nil, 0o644)
				before := []byte("{\n  \"hooks\": {}\n}\n")
				if a.version {
					before = []byte("{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
				}
				os.WriteFile(file, before, 0o640)
				c, _ = Install(a, s, e, cmd+a.Name)
				if err := c.Write(); err != nil {
					t.Fatal(err)
				}
				if st, _ := os.Stat(file); st.Mode().Perm() != 0o640 {
					t.Errorf("install changed the mode to %v", st.Mode().Perm())
				}
				c, _ = Uninstall(a, s, e)
				if err := c.Write(); err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(file); !bytes.Equal(got, before) || !c.Exact {
					t.Errorf("uninstall left %q, want %q", got, before)
				}
				if st, _ := os.Stat(file); st.Mode().Perm() != 0o640 {
					t.Errorf("uninstall changed the mode to %v", st.Mode().Perm())
				}
				if tmp, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*warden-*")); len(tmp) > 0 {
					t.Errorf("temporary files left: %v", tmp)
				}
			})
		}
	}
}

// TestEnvDirs: CLAUDE_CONFIG_DIR, CODEX_HOME and COPILOT_HOME move the
// user's files, as they move the agents'.
func TestEnvDirs(t *testing.T) {
	e := Env{Home: "/home/u", Getenv: func(k string) string {
		return map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex", "COPILOT_HOME": "relative/ignored"}[k]
	}}
	for name, want := range map[string]string{
		"claude-code": "/cfg/claude/settings.json", "codex": "/cfg/codex/hooks.json", "copilot": "/home/u/.copilot/hooks/warden.json",
		"gemini": "/home/u/.gemini/settings.json", "cursor": "/home/u/.cursor/hooks.json", "windsurf": "/home/u/.codeium/windsurf/hooks.json",
	} {
		a, _ := Lookup(name)
		if got, _ := a.Path(User, e); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	e.Dir = "/work/p"
	for name, want := range map[string]string{
		"claude-code": "/work/p/.claude/settings.local.json", "codex": "/work/p/.codex/hooks.json", "copilot": "/work/p/.github/hooks/warden.json",
		"gemini": "/work/p/.gemini/settings.json", "cursor": "/work/p/.cursor/hooks.json", "windsurf": "/work/p/.windsurf/hooks.json",
	} {
		a, _ := Lookup(name)
		if got, _ := a.Path(Project, e); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}

// TestRefuseFiles: a symbolic link to the file or on the way to it, a
// file too large, a directory where the file goes, and an unparsable
// file are refused and left as they were.
func TestRefuseFiles(t *testing.T) {
	a, _ := Lookup("claude-code")
	e := testEnv(t)
	file, _ := a.Path(User, e)
	elsewhere := filepath.Join(filepath.Dir(e.Home), "dotfiles")
	os.MkdirAll(elsewhere, 0o755)
	os.WriteFile(filepath.Join(elsewhere, "settings.json"), []byte("{}"), 0o644)

	os.MkdirAll(filepath.Dir(file), 0o755)
	os.Symlink(filepath.Join(elsewhere, "settings.json"), file)
	if _, err := Install(a, User, e, cmd+a.Name); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("a linked file: %v", err)
	}
	os.Remove(file)
	os.Remove(filepath.Dir(file))
	os.Symlink(elsewhere, filepath.Dir(file))
	if _, err := Install(a, User, e, cmd+a.Name); err == nil || !strings.Contains(err.Error(), ".claude is a symbolic link") {
		t.Errorf("a linked directory: %v", err)
	}
	if _, err := Uninstall(a, User, e); err == nil {
		t.Errorf("uninstall through a link")
	}
	os.Remove(filepath.Dir(file))

	os.MkdirAll(file, 0o755)
	if _, err := Install(a, User, e, cmd+a.Name); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	os.Remove(file)

	os.WriteFile(file, append([]byte(`{"a": "`), append(bytes.Repeat([]byte("x"), MaxSize), '"', '}')...), 0o644)
	if _, err := Install(a, User, e, cmd+a.Name); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("a large file: %v", err)
	}
	bad := []byte("{\n  \"hooks\": [\n}\n")
	os.WriteFile(file, bad, 0o644)
	if _, err := Install(a, User, e, cmd+a.Name); err == nil || !strings.HasPrefix(err.Error(), file+":3:1: ") {
		t.Errorf("an unparsable file: %v", err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, bad) {
		t.Errorf("the file changed")
	}
	if got, _ := os.ReadFile(filepath.Join(elsewhere, "settings.json")); string(got) != "{}" {
		t.Errorf("the link's target changed: %q", got)
	}
}

// TestWriteRace: a file that changed between the read and the write is
// not overwritten.
func TestWriteRace(t *testing.T) {
	a, _ := Lookup("gemini")
	e := testEnv(t)
	file, _ := a.Path(Project, e)
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte("{}\n"), 0o644)
	c, err := Install(a, Project, e, cmd+a.Name)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte("{\"theme\": \"dark\"}\n"), 0o644)
	if err := c.Write(); err == nil || !strings.Contains(err.Error(), "changed while warden edited it") {
		t.Errorf("Write over a changed file: %v", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "{\"theme\": \"dark\"}\n" {
		t.Errorf("the file is now %q", got)
	}
	c, _ = Install(a, Project, e, cmd+a.Name)
	os.Remove(file)
	if err := c.Write(); err == nil || !strings.Contains(err.Error(), "removed while warden edited it") {
		t.Errorf("Write over a removed file: %v", err)
	}
}
