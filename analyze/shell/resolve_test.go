package shell

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os/exec"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/internal/hostile"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

var testEnv = Env{Home: "/home/user", Cwd: "/home/user/project"}

func lines(t *testing.T, script string) []string {
	t.Helper()
	cmds, err := Resolve(script, testEnv)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", script, err)
	}
	var out []string
	for _, c := range cmds {
		out = append(out, c.Line())
	}
	return out
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string // lines that must be among the resolved commands
	}{
		{`r''m -fr ~`, []string{"rm -fr /home/user"}},
		{`\rm -rf ~/.config`, []string{"rm -rf /home/user/.config"}},
		{`$'\x72m' -rf ~/`, []string{"rm -rf /home/user/"}},
		{`d=/; rm -rf $d`, []string{"rm -rf /"}},
		{`export DIR=/home/user && rm -rf "$DIR"`, []string{"rm -rf /home/user"}},
		{`rm -rf "$HOME"`, []string{"rm -rf /home/user"}},
		{`rm -rf /home/user/{a,b}`, []string{"rm -rf /home/user/a /home/user/b"}},
		{`sh -c "rm -rf \$HOME"`, []string{"rm -rf /home/user"}},
		{`bash -lc 'echo hi; rm -rf ~'`, []string{"echo hi", "rm -rf /home/user"}},
		{`eval "rm -rf ~"`, []string{"rm -rf /home/user"}},
		{`bash --login -o pipefail -c 'rm -rf ~'`, []string{"rm -rf /home/user"}},
		{`sudo -u root env X=1 nice -n 5 rm -rf /`, []string{"rm -rf /"}},
		{`timeout 10 rm -rf /`, []string{"rm -rf /"}},
		{`find . -print0 | xargs -0 rm -rf`, []string{"rm -rf"}},
		{`for f in a b; do rm "$f"; done`, []string{`rm "$f"`}},
		{`f() { rm -rf ~; }; f`, []string{"rm -rf /home/user"}},
		{`echo $(rm -rf ~)`, []string{"rm -rf /home/user"}},
		{`if true; then (cd /tmp && rm -rf x); fi`, []string{"cd /tmp", "rm -rf x"}},
		{`rm -rf "$UNSET"/x`, []string{`rm -rf "$UNSET"/x`}},
		{`x=$(whoami); rm -rf $x`, []string{"rm -rf $x"}},
		{"bash <<'EOF'\nrm -rf ~\nEOF", []string{"rm -rf /home/user"}},
		{`sh <<< "rm -rf ~"`, []string{"rm -rf /home/user"}},
		{`echo 'rm -rf ~' | sh`, []string{"rm -rf /home/user"}},
		{`printf 'rm -rf /' | sudo bash -s`, []string{"rm -rf /"}},
		{`ssh -p 22 host rm -rf /var/www`, []string{"rm -rf /var/www"}},
		{`ssh host 'sudo rm -rf /'`, []string{"rm -rf /"}},
		{`docker exec -u root web rm -rf /data`, []string{"rm -rf /data"}},
		{`kubectl exec -n prod db-0 -- psql -c 'DROP TABLE users'`, []string{"psql -c 'DROP TABLE users'"}},
		{`parallel -j4 rm -rf ::: ~ /tmp/x`, []string{"rm -rf /home/user", "rm -rf /tmp/x"}},
		{`ls | parallel rm -rf`, []string{"rm -rf $(stdin of parallel)"}},
		{`find . -name '*.tmp' -exec rm -f {} \;`, []string{"rm -f './{}'"}}, // {} is a file under .
		{`find . -exec rm -f {} \;`, []string{"rm -rf -f ."}},                // {} is anything under .
		{`find / -maxdepth 1 -delete`, []string{"rm -rf /"}},
		{`find ~ -name '*.pyc' -delete`, []string{"rm -f '/home/user/{}'"}},
	} {
		got := lines(t, tc.script)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: resolved %q, want a line %q", tc.script, got, w)
			}
		}
	}
}

func TestDynamicWords(t *testing.T) {
	cmds, err := Resolve(`x=$(curl -s u); $x --flag "$UNSET" lit`, testEnv)
	if err != nil {
		t.Fatal(err)
	}
	last := cmds[len(cmds)-1]
	if !slices.Equal(last.Dynamic, []bool{true, false, true, false}) {
		t.Errorf("dynamic = %v for %q", last.Dynamic, last.Args)
	}
}

func TestResolveParseError(t *testing.T) {
	for _, s := range []string{`echo "unterminated`, `if then fi (`, `bash -c 'echo "x'`} {
		if _, err := Resolve(s, testEnv); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestDepthBounded(t *testing.T) {
	s := `rm -rf /`
	for range 10 {
		s = "sh -c " + tool.Quote(s)
	}
	cmds, err := Resolve(s, testEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if c.Depth > MaxDepth {
			t.Errorf("depth %d beyond %d", c.Depth, MaxDepth)
		}
	}
}

// TestArgvMatchesBash checks, for static commands, that the words warden
// resolves are those real bash passes to the program: bash runs the
// script with the program replaced by printf '%s\0'.
func TestArgvMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	for _, script := range []string{
		`p r''m -fr '~' "a b" c\ d`,
		`p $'\x72m' -rf $'a\tb'`,
		`p {a,b}{1,2} x{,y}`,
		`d=/srv; p -rf $d "$d/x" ${d}y`,
		`p "$HOME" ~ ~/x "~"`,
		`p 'it'\''s' "q\"uote" \$HOME`,
	} {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatalf("%q: %v", script, err)
		}
		c := cmds[len(cmds)-1]
		for _, d := range cmds {
			if len(d.Via) == 0 { // p itself, not what p may run
				c = d
			}
		}
		if slices.Contains(c.Dynamic, true) {
			t.Fatalf("%q: dynamic words %v", script, c.Args)
		}
		full := "p() { printf '%s\\0' \"$@\"; }; " + script
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", full)
		cmd.Env = []string{"HOME=" + testEnv.Home, "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash %q: %v", script, err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if !slices.Equal(c.Args[1:], want) {
			t.Errorf("%q: warden %q, bash %q", script, c.Args[1:], want)
		}
	}
}

func TestPreparer(t *testing.T) {
	c := tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": `r''m -fr ~; ls`}}, testEnv.Cwd, testEnv.Home)
	f, err := Preparer{}.Prepare(context.Background(), c)
	if err != nil || len(f) != 1 || f[0].Rule != "fs.recursive_delete" || f[0].Level != risk.Critical {
		t.Fatalf("findings %v, err %v", f, err)
	}
	if !slices.Contains(c.Shell, "rm -fr /home/user") || slices.Contains(c.Shell[1:], "ls") || len(c.Shell) != 2 {
		t.Errorf("shell after prepare: %q", c.Shell)
	}
	c = tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": `echo "x`}}, "", "")
	f, _ = Preparer{}.Prepare(context.Background(), c)
	if len(f) != 1 || f[0].Rule != "shell.unparsable" || f[0].Level != risk.Unknown {
		t.Errorf("unparsable: %+v", f)
	}
	c = tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": `$(curl -s u) x`}}, "", "")
	f, _ = Preparer{}.Prepare(context.Background(), c)
	if len(f) != 1 || f[0].Rule != "shell.dynamic_command" || f[0].Level != risk.High {
		t.Errorf("dynamic command: %+v", f)
	}
}

// FuzzShell checks that resolving never panics and stays bounded.
func FuzzShell(f *testing.F) {
	for _, s := range []string{`r''m -fr ~`, `d=/; rm -rf $d`, `sh -c "eval 'rm -rf ~'"`, `a=(1 2); echo ${a[@]}`,
		`cat <<EOF\n$(x)\nEOF`, `echo {1..100000}`, `x=$x$x$x$x`, `: $(( 1 << 62 ))`} {
		f.Add(s)
	}
	for _, in := range hostile.Inputs() { // the bombs, the short ones (minimizing a long one takes minutes)
		if len(in.Script) <= 2<<10 {
			f.Add(in.Script)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		cmds, _ := Resolve(s, testEnv)
		_ = DefaultKnowledge().Analyze(cmds, testEnv)
		_ = DefaultKnowledge().Effects(cmds, testEnv)
		// the same script in a persistent shell whose aliases, functions
		// and git aliases are the script itself
		in, _, _ := ResolveIn(s, testEnv, fuzzPrior(s))
		_ = DefaultKnowledge().Effects(in, testEnv)
		for _, c := range cmds {
			_ = c.Line()
			if len(c.Args) != len(c.Dynamic) {
				t.Fatalf("args %d, dynamic %d", len(c.Args), len(c.Dynamic))
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%q took %v", s, d)
		}
	})
}

func BenchmarkResolve(b *testing.B) {
	for b.Loop() {
		_, _ = Resolve(`cd /home/user/project && rm -rf ./build && export X=1 && git push -f origin "$X"`, testEnv)
	}
}

// TestPlainNeedsNoResolution checks the preparer's shortcut: for a plain
// script, resolution yields exactly the blank-separated words of its text.
func TestPlainNeedsNoResolution(t *testing.T) {
	for _, s := range []string{"git status", "go test -race ./...", "npm run build", "docker ps -a", "df -h", "make CC=gcc", "\t ls a=b",
		"git status # 12", "ls -la\t#'unclosed \"quote $(x)", "make # a=b; rm -rf ~"} {
		if _, ok := plainWords(s); !ok {
			t.Fatalf("%q not plain", s)
		}
		cmds, err := Resolve(s, testEnv)
		if err != nil {
			t.Fatal(err)
		}
		var words []string
		for _, c := range cmds {
			words = append(words, c.Args...)
			if novel(textOf(s), c, nil) {
				t.Errorf("%q: resolution produced new text %q", s, c.Args)
			}
		}
		text, _ := plainWords(s)
		if got := strings.Join(words, " "); got != strings.Join(strings.Fields(text), " ") {
			t.Errorf("%q resolved to %q", s, got)
		}
	}
	for _, s := range []string{"rm -rf ~", "r''m x", "a;b", "$x", "echo *", "a{b,c}", `\rm`, "x #\ny", "a#b", "x # y\nrm -rf ~", "#only a comment", " # x",
		"X=1 make -j4 all", "P=.warden/policy.yaml", " FOO=1 rm -rf /", "\t X=1 ls", "a\tb=c d"} { // assignments: the fields would read X=1 as the command
		if _, ok := plainWords(s); ok {
			t.Errorf("%q taken as plain", s)
		}
	}
}

// TestWithin checks within against strings.Contains on the slices of a
// script (which it finds without a search) and on copies of them and
// other strings (which it leaves to the search): it never reports a
// string the script does not hold.
func TestWithin(t *testing.T) {
	script := "echo a b; rm -rf ~/x && echo b"
	other := script + "zz" // a copy
	for i := 0; i <= len(script); i++ {
		for j := i; j <= len(script); j++ {
			s := script[i:j]
			if got := within(s, script); got != (j > i) {
				t.Errorf("within(script[%d:%d]) = %v", i, j, got)
			}
			if within(strings.Clone(s), script) || within(other[i:j], script) {
				t.Errorf("within(%q), not of the script's bytes, = true", s)
			}
			if got, want := textOf(script).contains(s, nil), strings.Contains(script, s); got != want {
				t.Errorf("contains(%q) = %v, want %v", s, got, want)
			}
		}
	}
	if within(script+"x", script) || within(script, script[1:]) || within("", script) {
		t.Error("within holds a string longer than the script, or empty")
	}
}

// TestTextContains checks that the index of a long script answers as
// strings.Contains does.
func TestTextContains(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*shortText; i++ {
		fmt.Fprintf(&b, "echo \"line %d of $HOME\" | tee -a 'log %d'; ls dir%d\n", i, i, i)
	}
	script := b.String()
	tx := textOf(script)
	for _, s := range []string{"", "echo", "line 7 of", "of $HOME\" | tee", "'log 12'", "ls dir99\necho", "/home/user", "line 1 of /home/user", "dir999999", "\"", "\n"} {
		if got, want := tx.contains(s, nil), strings.Contains(script, s); got != want {
			t.Errorf("contains(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzSimpleFields checks simpleFields against expand.Fields, the
// general path it stands in for: on every word of a script that it
// takes, in a fresh shell and in one whose variables hold blanks (see
// fieldsShells), expandFields gives the same fields, or fails as well.
func FuzzSimpleFields(f *testing.F) {
	for _, s := range []string{`git commit -m "fix the build"`, `echo 'a b'"c d"e`, `echo "a\"b" "a\\b" "a\$b" 'x\y'`,
		`echo "" '' a""b`, `echo $'a\nb' $"x" "~" ~ "*" '{a,b}' "a{b}"`, "echo \"a\x00b\" 'c\x00d' e\x00f", `echo "a$" "$" "$(x)"`,
		`echo "ü" 'ß' "a` + "\n" + `b"`, `x="a b" y='c'd`, `echo $X "$X" ${S}x"$E"y $E "$E" ~/"$X" ~"x" ~root ~/a:~/b $TMPDIR/$U $IFS`,
		`echo $N$M "${M}" $PWD/*.go $LINENO $1 "$@" ${X:-y} ${#X} $D "$D"`, `\rm -rf ~/a\ b \; \\ x\ü "\x\\\$X\"$X"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4<<10 {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
		if err != nil {
			return
		}
		checkFields(t, file, fieldsShells())
	})
}

// TestExpandPanic checks that a word expand.Fields panics on
// ($((++A++)): it takes the operand of ++ for a word) is kept dynamic
// rather than crashing resolution.
func TestExpandPanic(t *testing.T) {
	cmds, err := Resolve(`: $((++A++%000)); $((++A++)) x`, testEnv)
	if err != nil || len(cmds) != 2 {
		t.Fatalf("got %+v, %v", cmds, err)
	}
	if !cmds[0].Dynamic[1] || !cmds[1].Dynamic[0] {
		t.Errorf("the words expand panics on are not dynamic: %+v", cmds)
	}
}

// TestShellNames checks the gate of isShell: every name of shells ends in
// "sh", so that isShell answers as the map does.
func TestShellNames(t *testing.T) {
	for name := range shells {
		if !isShell(name) {
			t.Errorf("shell %q: isShell false", name)
		}
	}
	for _, name := range []string{"fish", "csh", "tcsh", "rsh", "ssh", "sh.exe", "", "s"} {
		if isShell(name) != shells[name] {
			t.Errorf("%q: isShell %v, shells %v", name, isShell(name), shells[name])
		}
	}
	// emit asks tool.ShellScriptIndex only of shells: it must find no
	// script for another program
	for _, name := range []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox", "pwsh",
		"powershell", "nu", "elvish", "xonsh", "rc", "es", "yash", "osh", "oil", "ysh", "nsh", "hush", "bash5", "sh5", "cmd", "cmd.exe"} {
		for _, argv := range [][]string{{name, "-c", "x"}, {"/bin/" + name, "-c", "x"}, {name, "-lc", "x"}} {
			if tool.ShellScriptIndex(argv) > 0 && !isShell(path.Base(argv[0])) {
				t.Errorf("tool.ShellScriptIndex reads %q, which isShell does not take for a shell", argv)
			}
		}
	}
}

// TestReleaseEmpties checks what a pooled resolver keeps: after a
// resolution that used every list, release leaves its state as new
// (variables cleared, but for those newResolver sets) and its scratch holding no list of the resolution
// and no script, word or expansion, only the room of its lists, the
// trees and walks done with and the arenas whose items were handed out.
func TestReleaseEmpties(t *testing.T) {
	script := `cd /tmp && pushd /x; f() { A="$1" sudo rm -rf "$A"; }; f ~/y | tee z; alias g='git push'; X=$(cat k) env Y="a b" sh -c "echo $X $Y" <(ls) > out; eval "$HOME"; echo ${X:-d} $((1+1))`
	r, err := resolveText(script, Options{Env: testEnv, Prior: &tool.Prior{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.out) < 5 || len(r.changes) == 0 {
		t.Fatalf("the script resolved to %d commands and %d changes", len(r.out), len(r.changes))
	}
	r.take()
	release(r)
	st := r.state
	// the script set no variable that outlives it: the map holds what
	// newResolver set, and is kept for the next resolution (see release)
	if want := map[string]string{"HOME": testEnv.Home, "PWD": testEnv.Cwd}; !r.envVars || !maps.Equal(st.vars, want) {
		t.Errorf("variables kept: %v (whole: %t), want %v", st.vars, r.envVars, want)
	}
	// one that sets a variable leaves the map emptied
	for _, script := range []string{"X=1", "HOME=/x", "unset PWD"} {
		r2, err := resolveText(script, Options{Env: testEnv})
		if err != nil {
			t.Fatal(err)
		}
		r2.take()
		release(r2)
		if len(r2.vars) != 0 || r2.envVars {
			t.Errorf("%q: variables kept: %v (whole: %t)", script, r2.vars, r2.envVars)
		}
	}
	st.vars = nil
	if !reflect.ValueOf(st).IsZero() {
		t.Errorf("state kept: %+v", st)
	}
	kept := map[string]bool{"trees": true, "walks": true, "strs": true, "flags": true, "cmds": true}
	sc := reflect.ValueOf(r.scratch)
	for i := range sc.NumField() {
		f, name := sc.Field(i), sc.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.Slice && !kept[name] && f.Len() != 0:
			t.Errorf("scratch %s holds %d items", name, f.Len())
		case f.Kind() == reflect.Struct && name != "reader" && !f.IsZero():
			t.Errorf("scratch %s kept: %+v", name, f)
		}
	}
	if r.reader.Len() != 0 {
		t.Errorf("the reader holds %d bytes of the script", r.reader.Len())
	}
}

// TestPlainCommentAgrees holds the plain shortcut to the parser on
// scripts that end in a comment: the same commands, word for word, and
// the same answer to whether they set a variable.
func TestPlainCommentAgrees(t *testing.T) {
	scripts := []string{"git status # 12", "ls -la\t#'unclosed \"quote $(x) `y`", "make # a=b; rm -rf ~", "go test ./... #", "a b  c\t# d # e", "a=b # c", "for x # y"}
	rng := rand.New(rand.NewPCG(7, 7))
	const words, alphabet = "ab-_./:=,@%+ \t", "ab-_./:=,@%+ \t#'\"$;&|()x\n"
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(10); n > 0; n-- {
			b.WriteByte(words[rng.IntN(len(words))])
		}
		if rng.IntN(4) > 0 {
			b.WriteString(" #")
		}
		for n := rng.IntN(10); n > 0; n-- {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		scripts = append(scripts, b.String())
	}
	n := 0
	for _, s := range scripts {
		if _, ok := plainWords(s); !ok || !strings.Contains(s, "#") {
			continue
		}
		n++
		w, _ := plainWords(s)
		fast, _, fastSets, errF := resolveScript(s, w, true, Options{Env: testEnv, Work: tool.NewBudget(tool.DefaultWork)})
		slow, _, slowSets, errS := resolveScript(s, "", false, Options{Env: testEnv, Work: tool.NewBudget(tool.DefaultWork)})
		if (errF == nil) != (errS == nil) && errS == nil {
			t.Errorf("%q: shortcut error %v, parser none", s, errF)
			continue
		}
		if errS != nil {
			continue // bash refuses it too (a stray clause word)
		}
		if fastSets != slowSets {
			t.Errorf("%q: sets %v, parser %v", s, fastSets, slowSets)
		}
		if len(fast) != len(slow) {
			t.Errorf("%q: %d commands, parser %d", s, len(fast), len(slow))
			continue
		}
		for i := range fast {
			if !slices.Equal(fast[i].Args, slow[i].Args) || !slices.Equal(fast[i].Dynamic, slow[i].Dynamic) {
				t.Errorf("%q: command %d %q %v, parser %q %v", s, i, fast[i].Args, fast[i].Dynamic, slow[i].Args, slow[i].Dynamic)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d plain scripts with a comment were tried", n)
	}
}
