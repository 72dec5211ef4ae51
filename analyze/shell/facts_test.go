package shell

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestFacts checks that every script of a call has its fact once the
// preparer ran (the lines it adds included), or once Facts did without
// it, and that readers get the commands from the facts.
func TestFacts(t *testing.T) {
	scripts := []string{"ls ~", "echo hi && rm -rf $HOME/x", "npm test &&", "git status"}
	for _, prepared := range []bool{true, false} {
		c := &tool.Call{Shell: append([]string(nil), scripts...), OwnShell: len(scripts), Class: tool.Execute, Known: true,
			Cwd: testEnv.Cwd, Home: testEnv.Home, Work: tool.NewBudget(tool.DefaultWork)}
		if prepared {
			if _, err := (Preparer{}).Prepare(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			if len(c.Shell) <= len(scripts) {
				t.Fatalf("the preparer added no line: %q", c.Shell)
			}
		}
		Facts(c)
		if len(c.Scripts) != len(c.Shell) {
			t.Fatalf("prepared %v: %d facts for %d scripts", prepared, len(c.Scripts), len(c.Shell))
		}
		for _, script := range c.Shell {
			s, ok := c.Script(script)
			if !ok {
				t.Fatalf("prepared %v: no fact for %q", prepared, script)
			}
			if (s.Err != nil) != (script == "npm test &&") {
				t.Errorf("prepared %v: %q: error %v", prepared, script, s.Err)
			}
			if s.Err == nil && len(s.Commands) == 0 {
				t.Errorf("prepared %v: %q: no commands", prepared, script)
			}
		}
		cmds, err := Commands(c, "ls ~")
		if err != nil || len(cmds) != 1 || cmds[0].Args[1] != testEnv.Home {
			t.Errorf("prepared %v: Commands(ls ~) = %v, %v", prepared, cmds, err)
		}
		if _, err := Commands(c, "npm test &&"); err == nil {
			t.Errorf("prepared %v: a script that does not parse resolved", prepared)
		}
		if _, ok := Resolved(c, "npm test &&"); ok {
			t.Errorf("prepared %v: a script that does not parse resolved", prepared)
		}
		if cmds, ok := Resolved(c, "git status"); !ok || len(cmds) != 1 {
			t.Errorf("prepared %v: Resolved(git status) = %v, %v", prepared, cmds, ok)
		}
	}
}

// TestFactsUnreadWhenSpent checks that a script resolved after the work
// budget ran out is recorded as unread, never as a script without
// commands.
func TestFactsUnreadWhenSpent(t *testing.T) {
	c := &tool.Call{Shell: []string{"rm -rf /"}, OwnShell: 1, Work: tool.NewBudget(1)}
	c.Work.Charge(10, "test")
	Facts(c)
	s, ok := c.Script("rm -rf /")
	if !ok || !errors.Is(s.Err, tool.ErrWorkSpent) {
		t.Fatalf("fact %+v, %v: want ErrWorkSpent", s, ok)
	}
}

// TestFactsSetsVariables checks the fact that a script may set a shell
// variable, which keeps allow rules from approving it.
func TestFactsSetsVariables(t *testing.T) {
	for script, want := range map[string]bool{
		"npm test":                            false,
		"go test -run=TestX ./...":            false,
		`echo "a=b" c=d`:                      false,
		`test "$x" = y && npm test`:           false,
		"git log --format='%H %s' -n 1":       false,
		"CI=1 npm test":                       true,
		"PATH=/tmp/evil:$PATH; npm test":      true,
		"export NODE_OPTIONS=--require=x":     true,
		"declare -x LD_PRELOAD=/tmp/x.so":     true,
		"let i++":                             true,
		"for PATH in /tmp; do npm test; done": true,
		"for x in a b":                        true, // does not parse
		"npm test $((i=1))":                   true,
		`npm test "${PATH:=/tmp}"`:            true,
		`bash -c 'PATH=/tmp/evil npm test'`:   true,
		`eval 'PATH=/tmp/evil npm test'`:      true,
		"sudo eval PATH=/tmp/evil":            true,
		"f() { PATH=/tmp; }; f":               true,
		"bash <<EOF\nPATH=/tmp npm test\nEOF": true,
	} {
		c := &tool.Call{Shell: []string{script}, OwnShell: 1, Cwd: testEnv.Cwd, Home: testEnv.Home}
		Facts(c)
		if s, _ := c.Script(script); s == nil || s.SetsVariables != want {
			t.Errorf("%q: fact %+v, want SetsVariables %v", script, s, want)
		}
	}
}

// TestFirstWord holds firstWord, which plainSets reads, to the first
// field of strings.FieldsFunc on blanks.
func TestFirstWord(t *testing.T) {
	for _, s := range []string{"", " ", "\t", "ls", " ls -l", "\t\texport X", "a\tb c", "for  x", "  \t", "x ", "if\tthen"} {
		want := ""
		if f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }); len(f) > 0 {
			want = f[0]
		}
		if got := firstWord(s); got != want {
			t.Errorf("firstWord(%q) = %q, want %q", s, got, want)
		}
	}
}
