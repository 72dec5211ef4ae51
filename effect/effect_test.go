package effect_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

var env = paths.Env{Cwd: "/home/user/project", Home: "/home/user"}

// TestSamples: every file sample is of its target's class.
func TestSamples(t *testing.T) {
	for tg, ss := range effect.Samples {
		for _, s := range ss {
			if strings.Contains(s, "://") {
				continue // network samples: checked by the routes' test
			}
			got := effect.File(env, s)
			if tg == effect.Secret {
				got = effect.Reading(env, s)
			}
			if got != tg {
				t.Errorf("%s: target %s, want %s", s, got, tg)
			}
		}
	}
}

// TestTable holds the levels the project relies on: what must hold
// whatever the calibration of the rest.
func TestTable(t *testing.T) {
	for _, tc := range []struct {
		op     effect.Op
		target effect.Target
		level  risk.Level
		locked bool
	}{
		{effect.DeleteTree, effect.Root, risk.Critical, true},
		{effect.DeleteTree, effect.Home, risk.Critical, true},
		{effect.DeleteTree, effect.HomeData, risk.Critical, true},
		{effect.DeleteTree, effect.System, risk.Critical, true},
		{effect.DeleteTree, effect.Credential, risk.Critical, true},
		{effect.DeleteTree, effect.Guard, risk.Critical, true},
		{effect.DeleteTree, effect.Dynamic, risk.High, false},
		{effect.DeleteTree, effect.Outside, risk.High, false},
		{effect.DeleteTree, effect.WorkspaceRoot, risk.High, false},
		{effect.DeleteTree, effect.Workspace, risk.Medium, false},
		{effect.DeleteTree, effect.Cache, risk.Medium, false},
		{effect.DeleteTree, effect.Temp, risk.Low, false},
		{effect.Delete, effect.Credential, risk.Critical, true},
		{effect.Delete, effect.System, risk.High, false},
		{effect.Delete, effect.Startup, risk.High, false},
		{effect.Delete, effect.Workspace, risk.Medium, false},
		{effect.Delete, effect.Temp, risk.Low, false},
		{effect.Write, effect.Device, risk.Critical, true},
		{effect.Write, effect.Credential, risk.Critical, true},
		{effect.Write, effect.Guard, risk.Critical, true},
		{effect.Write, effect.Kernel, risk.Critical, true},
		{effect.Read, effect.Kernel, risk.Safe, false},
		{effect.Write, effect.System, risk.High, false},
		{effect.Write, effect.Startup, risk.High, false},
		{effect.Write, effect.Dynamic, risk.Medium, false},
		{effect.Write, effect.Workspace, risk.Medium, false},
		{effect.Write, effect.Temp, risk.Medium, false},
		{effect.Write, effect.Null, risk.Safe, false},
		{effect.DeleteTree, effect.History, risk.High, false},
		{effect.Read, effect.History, risk.Safe, false},
		{effect.Read, effect.Credential, risk.High, false},
		{effect.Read, effect.Workspace, risk.Safe, false},
		{effect.Read, effect.Secret, risk.Medium, false},
		{effect.Fetch, effect.Metadata, risk.Critical, true},
		{effect.Fetch, effect.Loopback, risk.Low, false},
		{effect.Fetch, effect.Private, risk.Medium, false},
		{effect.Fetch, effect.Control, risk.High, false},
	} {
		v, ok := effect.Judge(tc.op, tc.target)
		if !ok || v.Level != tc.level || v.Locked != tc.locked || v.Why == "" {
			t.Errorf("%s × %s: %+v %v, want %s locked %v", tc.op, tc.target, v, ok, tc.level, tc.locked)
		}
	}
	// every file operation judges every file target: a route never finds
	// the table silent about a path
	for _, op := range []effect.Op{effect.Read, effect.Write, effect.Delete, effect.DeleteTree} {
		for tg := effect.Temp; tg <= effect.Null; tg++ {
			if _, ok := effect.Judge(op, tg); !ok {
				t.Errorf("%s × %s: not judged", op, tg)
			}
		}
		for _, tg := range []effect.Target{effect.History, effect.Kernel} {
			if _, ok := effect.Judge(op, tg); !ok {
				t.Errorf("%s × %s: not judged", op, tg)
			}
		}
	}
	if _, ok := effect.Judge(effect.Service, effect.System); ok {
		t.Errorf("service × system is judged: the table has no service rows yet")
	}
}

func TestJudgeFile(t *testing.T) {
	for _, tc := range []struct {
		op    effect.Op
		t     effect.Target
		glob  bool
		level risk.Level
	}{
		{effect.Delete, effect.Root, false, risk.Safe}, // rm -- -rf /: rm refuses a directory
		{effect.Delete, effect.Home, false, risk.Safe}, // rm ~
		{effect.Delete, effect.Home, true, risk.High},  // rm ~/*
		{effect.Delete, effect.Root, true, risk.High},  // rm /*
		{effect.DeleteTree, effect.Root, false, risk.Critical},
		{effect.Delete, effect.System, false, risk.High},
	} {
		if v, ok := effect.JudgeFile(tc.op, tc.t, tc.glob); !ok || v.Level != tc.level {
			t.Errorf("%s × %s glob %v: %v, want %s", tc.op, tc.t, tc.glob, v.Level, tc.level)
		}
	}
}

func TestNames(t *testing.T) {
	for op := effect.Read; op <= effect.Service; op++ {
		if got, ok := effect.ParseOp(op.String()); !ok || got != op {
			t.Errorf("ParseOp(%q) = %v", op, got)
		}
	}
	for tg := effect.Temp; tg <= effect.Kernel; tg++ {
		if got, ok := effect.ParseTarget(tg.String()); !ok || got != tg {
			t.Errorf("ParseTarget(%q) = %v", tg, got)
		}
	}
	// the file targets are named as the path classes are
	for c := paths.Temp; c <= paths.Cache; c++ {
		if effect.FileOf(c).String() != c.String() {
			t.Errorf("class %s is target %s", c, effect.FileOf(c))
		}
	}
}

// Reading asks only a path's name whether it holds secrets once its class
// is known: that holds because a credential path's read is judged above
// Safe (so a credential path never reaches the name test).
func TestReadingCredentialJudged(t *testing.T) {
	if v, _ := effect.Judge(effect.Read, effect.FileOf(paths.Credential)); v.Level <= risk.Safe {
		t.Fatalf("reading a credential path is %s: Reading must ask Env.Secret, not SecretName", v.Level)
	}
}

// A history store is the directory (and .git's objects, refs and logs),
// not what lies in it, and only where a path's class says nothing more
// (scratch space stays temp, a guarded or credential path keeps its class).
func TestHistoryStore(t *testing.T) {
	for p, want := range map[string]effect.Target{
		"/home/user/project/.git":              effect.History,
		"/home/user/project/sub/.git/refs":     effect.History,
		"/home/user/project/.git/logs":         effect.History,
		"/srv/app/.jj":                         effect.History,
		"/home/user/project/.git/index.lock":   effect.Workspace,
		"/home/user/project/.git/refs/heads/x": effect.Workspace,
		"/home/user/project/objects":           effect.Workspace,
		"/home/user/project/.gitignore":        effect.Workspace,
		"/home/user/project/git":               effect.Workspace,
		"/tmp/scratch/.git":                    effect.Temp,
	} {
		if got := effect.File(env, p); got != want {
			t.Errorf("%s: %s, want %s", p, got, want)
		}
	}
	if got := effect.File(env, "/home/user/project/.git/hooks"); got == effect.History {
		t.Errorf(".git/hooks is %s: its scripts run on their own, which its own class says", got)
	}
}

// A shell's or a REPL's history is read as a credential, wherever it is;
// a file merely named history is not, and writing a history file is
// judged by its class (tampering has findings of its own).
func TestReadingHistory(t *testing.T) {
	for _, p := range []string{"/home/user/.bash_history", "/home/user/.zsh_history", "/root/.python_history", "/home/user/.local/share/fish/fish_history", "/home/user/project/.psql_history"} {
		if got := effect.Reading(env, p); got != effect.Credential {
			t.Errorf("reading %s: %s, want credential", p, got)
		}
		if got := effect.File(env, p); got == effect.Credential {
			t.Errorf("%s is a credential for writes too", p)
		}
	}
	for _, p := range []string{"/home/user/project/docs/history.md", "/home/user/project/history", "/home/user/.bashrc"} {
		if got := effect.Reading(env, p); got == effect.Credential {
			t.Errorf("reading %s: credential", p)
		}
	}
}
