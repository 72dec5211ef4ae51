package guard

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// FuzzAnalyze: no command or code text makes the guard panic, and a
// change it reports always names what it changes.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"rm -rf .warden", "echo x > ~/.claude/settings.json", "warden policy allow Bash",
		"echo .warden | xargs rm", "rm -rf .w?rden", `open(".warden/policy.yaml", "w")`, "WARDEN_MODE=x y",
		"cp -r a ~/.config/", "find ~ -exec rm {} +", "7z x a -o.codex", "claude --permission-mode bypassPermissions"} {
		f.Add(s)
	}
	a := Analyzer{Files: []string{"/opt/warden/warden"}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, act := range []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": s}},
			{Tool: "execute_ipython_cell", Arguments: map[string]any{"code": s}},
			{Tool: "Write", Arguments: map[string]any{"file_path": s, "content": "x"}},
		} {
			c := tool.Normalize(&act, "/home/user/project", "/home/user")
			fs, err := a.Analyze(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if !f.Locked || f.Resource == "" || !strings.HasPrefix(f.Rule, "guard.") {
					t.Fatalf("%q: %+v", s, f)
				}
			}
		}
	})
}

// FuzzCodeScanners holds the hand-written scanners of program text to the
// patterns they stand for: literals to '[^'\n]+'|"[^"\n]+"|`[^`\n]+`
// (FindAllStringIndex), writeMode to ["'][rbt]*[wax+][rbt+]*["'].
func FuzzCodeScanners(f *testing.F) {
	for _, s := range []string{`open(".warden/policy.yaml", "w")`, `Path.home() / ".claude" / 'settings.json'`, "''\"\"``", "'a\nb' 'c'",
		`"rb+" 'r+' 'wa' "+w" 'x' "t" 'rt+b'`, "`x` 'y\" \"z'", "\xff'\xfe'\"", `"a+" + 'w'`, "'''", `"r++"`, `'++w'`} {
		f.Add(s)
	}
	literal := regexp.MustCompile("'[^'\\n]+'|\"[^\"\\n]+\"|`[^`\\n]+`")
	mode := regexp.MustCompile(`["'][rbt]*[wax+][rbt+]*["']`)
	f.Fuzz(func(t *testing.T, s string) {
		want := literal.FindAllStringIndex(s, 8)
		got := literals(s, 8)
		if len(got) != len(want) {
			t.Fatalf("literals(%q) = %v, want %v", s, got, want)
		}
		for i := range got {
			if got[i][0] != want[i][0] || got[i][1] != want[i][1] {
				t.Fatalf("literals(%q) = %v, want %v", s, got, want)
			}
		}
		if got, want := writeMode(s), mode.MatchString(s); got != want {
			t.Fatalf("writeMode(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzGuardName holds guardName to path.Match both ways over every name
// of the guard, with and without a filter on the names.
func FuzzGuardName(f *testing.F) {
	for _, s := range []string{"*.json", "settings.json", "*.pyc", ".warden", "hooks", "h?oks.json", "[a-z]*", `\.warden`, "*", "[", "policy.y*ml", ".claude", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) { checkGuardName(t, p) })
}

func checkGuardName(t *testing.T, p string) {
	t.Helper()
	for _, keep := range []func(string) bool{nil, fileName} {
		want := false
		for _, n := range paths.GuardNames() {
			m1, _ := path.Match(p, n)
			m2, _ := path.Match(n, p)
			want = want || (m1 || m2) && (keep == nil || keep(n))
		}
		if got := guardName(p, keep); got != want {
			t.Errorf("guardName(%q, keep %v) = %v, want %v", p, keep != nil, got, want)
		}
		for range 2 { // answered, then remembered
			if got := guardNameOf(p, keep != nil); got != want {
				t.Errorf("guardNameOf(%q, %v) = %v, want %v", p, keep != nil, got, want)
			}
		}
	}
}

func TestGuardName(t *testing.T) {
	for _, n := range paths.GuardNames() {
		for _, p := range []string{n, n + "x", "x" + n, strings.ToUpper(n), n[:len(n)-1] + "?", "*" + n[1:], `\` + n, "[" + n} {
			checkGuardName(t, p)
		}
	}
}

// FuzzWardenName: wardenName, which folds case without allocating, is
// refWardenName.
func FuzzWardenName(f *testing.F) {
	for _, s := range []string{"warden", "Warden", "WARDEN-dev", "warden_x", "warden.exe", "wardens", "warde", "",
		"ward\u212an", "\u017farden", "warden\u00e9", "W\xffarden", "wardenİ", "İwarden", "go"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := wardenName(s), refWardenName(s); got != want {
			t.Errorf("wardenName(%q) = %v, want %v", s, got, want)
		}
	})
}

// refWardenName is wardenName as first written, through strings.ToLower.
func refWardenName(base string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(base), "warden")
	return ok && (rest == "" || rest[0] == '-' || rest[0] == '_' || rest[0] == '.')
}

// FuzzFlagged: flagged is refFlagged.
func FuzzFlagged(f *testing.F) {
	f.Add("-r", "--recursive=x", "r", "--recursive")
	f.Add("--recursive", "--", "R", "--recursive")
	f.Add("--recursivex", "-fr", "r", "--recursive")
	f.Fuzz(func(t *testing.T, a, b, letter, long string) {
		args := []string{a, b}
		if got, want := flagged(args, letter, long), refFlagged(args, letter, long); got != want {
			t.Errorf("flagged(%q, %q, %q) = %v, want %v", args, letter, long, got, want)
		}
	})
}

// refFlagged is flagged as first written, with long+"=".
func refFlagged(args []string, letter, long string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == long || strings.HasPrefix(a, long+"=") {
			return true
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], letter) {
			return true
		}
	}
	return false
}

// FuzzNameOf: for any program word, nameOf finds in its index what the
// commands table holds for the word's base name.
func FuzzNameOf(f *testing.F) {
	for _, s := range []string{"rm", "/bin/rm", "cat", "claude", "x", "", "/", "python3", "warden"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		got := nameOf(&shell.Command{Args: []string{w}, Dynamic: []bool{false}})
		want := commands[path.Base(w)]
		if got.name != path.Base(w) || got.info.reads != want.reads || (got.info.readOnly == nil) != (want.readOnly == nil) ||
			got.info.role != want.role || got.info.setsEnv != want.setsEnv || got.info.agent != want.agent || got.info.lang != want.lang {
			t.Fatalf("nameOf(%q) = %q %+v, want %+v", w, got.name, got.info, want)
		}
	})
}

// refOperands is operands as first written, with strings.Cut at "=".
func refOperands(out []operand, cmd *shell.Command) []operand {
	dashdash := false
	for j := 1; j < len(cmd.Args); j++ {
		a := cmd.Args[j]
		if cmd.Dynamic[j] || a == "" {
			continue
		}
		if !dashdash && a == "--" {
			dashdash = true
			continue
		}
		if !dashdash && strings.HasPrefix(a, "-") && len(a) > 1 {
			flag, v, ok := strings.Cut(a, "=")
			switch {
			case ok:
				out = append(out, operand{text: v, value: true, target: flag == "--target-directory"})
			case (a == "-t" || a == "--target-directory") && j+1 < len(cmd.Args) && !cmd.Dynamic[j+1]:
				j++
				out = append(out, operand{text: cmd.Args[j], value: true, target: true})
			case len(a) > 2 && a[1] != '-' && strings.ContainsAny(a[2:], "./~"):
				out = append(out, operand{text: a[2:], value: true})
			}
			continue
		}
		out = append(out, operand{text: a})
		if _, v, ok := strings.Cut(a, "="); ok && v != "" {
			out = append(out, operand{text: v, value: true})
		}
	}
	return out
}

// FuzzOperands holds operands to refOperands on the words of a line
// (split at spaces; a word starting with $ is dynamic).
func FuzzOperands(f *testing.F) {
	for _, s := range []string{"cp -t .claude a b", "dd if=x of=.warden/p", "cp --target-directory=.codex a", "7z x a -o.warden",
		"rm -- -x =y a=", "cp -t $D a", "x --=a -=b - -- --", "tar -cf a.tar --file=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd := &shell.Command{}
		for _, w := range strings.Split(line, " ") {
			cmd.Args = append(cmd.Args, strings.TrimPrefix(w, "$"))
			cmd.Dynamic = append(cmd.Dynamic, strings.HasPrefix(w, "$"))
		}
		got, want := operands(nil, cmd), refOperands(nil, cmd)
		if !slices.Equal(got, want) {
			t.Fatalf("operands(%q) = %+v, want %+v", line, got, want)
		}
	})
}
