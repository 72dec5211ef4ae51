package shell

import (
	"path"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// sampleWords splits a sample command line into its words, as bash would
// (quotes removed; ~ kept as written).
func sampleWords(t *testing.T, line string) ([]string, []bool) {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("sample %q: %v", line, err)
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("sample %q: not a simple command", line)
	}
	var words []string
	for _, w := range call.Args {
		s, err := expand.Literal(nil, w)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		words = append(words, s)
	}
	return words, make([]bool, len(words))
}

// describePiece renders the first thing a wrapper runs, as the samples write
// it: the command's words, a script's text (LANG: TEXT for a program of
// another language), <stdin> or <dynamic>.
func describePiece(w *Wrapper, args []string, p piece) string {
	switch p.kind {
	case pArgv:
		return strings.Join(args[p.at:], " ")
	case pScript:
		if w.Lang != "" {
			return w.Lang + ": " + p.text
		}
		return p.text
	case pStdin:
		return "<stdin>"
	}
	return "<dynamic>"
}

// TestWrapperSamples checks every row of wrappers.yaml against its samples.
func TestWrapperSamples(t *testing.T) {
	rows, err := loadWrappers(wrappersYAML)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*Wrapper]bool{}
	for name, ws := range rows {
		for _, w := range ws {
			if seen[w] {
				continue
			}
			seen[w] = true
			if len(w.Match) == 0 && w.Run != "none" {
				t.Errorf("row %v (%s) has no match samples", w.Cmd, name)
			}
			for line, want := range w.Match {
				args, dyn := sampleWords(t, line)
				got := "<nothing>"
				for _, r := range rows[path.Base(args[0])] {
					if ps := r.read(nil, args, dyn); len(ps) > 0 {
						got = describePiece(r, args, ps[0])
						break
					}
				}
				if got != want {
					t.Errorf("%s: unwraps to %q, want %q", line, got, want)
				}
			}
			for _, line := range w.NoMatch {
				args, dyn := sampleWords(t, line)
				if ps := w.read(nil, args, dyn); len(ps) > 0 {
					t.Errorf("%s: unwraps to %q, want nothing", line, describePiece(w, args, ps[0]))
				}
			}
		}
	}
}

func TestCutPattern(t *testing.T) {
	for _, tt := range []struct {
		v, pat, rest string
		ok           bool
	}{
		{"core.sshCommand=x", "core.sshcommand=", "x", true},
		{"alias.x=!rm", "alias.*=!", "rm", true},
		{"alias.x=status", "alias.*=!", "", false},
		{"filter.lfs.clean=git-lfs clean", "filter.*.clean=", "git-lfs clean", true},
		{"user.name=x", "core.pager=", "", false},
	} {
		rest, ok := cutPattern(tt.v, tt.pat)
		if ok != tt.ok || rest != tt.rest {
			t.Errorf("cutPattern(%q, %q) = %q, %v", tt.v, tt.pat, rest, ok)
		}
	}
}

// FuzzWrapperRead: any words after any wrapper's name are read without a
// panic, and a command found starts inside them, after the name.
func FuzzWrapperRead(f *testing.F) {
	for _, s := range []string{"sudo -u", "timeout", "kubectl exec -it pod --", "git -c", "tar -I", "ssh -o", "perl -MFoo -e",
		"screen -dmS", "xargs -I", "bwrap --bind a", "env -S", "xterm -e", "tmux -L x new", "sed -i -e", "at now", "nice -n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		dyn := make([]bool, len(args))
		for i := range args {
			dyn[i] = strings.HasPrefix(args[i], "$")
		}
		for _, w := range wrapperRows()[path.Base(args[0])] {
			for _, p := range w.read(nil, args, dyn) {
				if p.kind == pArgv && (p.at < 1 || p.at >= len(args)) {
					t.Fatalf("%q: command at %d of %d words", line, p.at, len(args))
				}
			}
		}
	})
}
