package tool_test

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwarden/warden/tool"
)

// bashSplit has real bash split line into words: it runs
// `printf '%s\0' <line>` and splits the output on NUL.
func bashSplit(t testing.TB, line string) []string {
	t.Helper()
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", `printf '%s\0' `+line)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent", "LC_ALL=C"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", line, err)
	}
	words := strings.Split(string(out), "\x00")
	return words[:len(words)-1] // the output ends with a NUL
}

func needBash(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
}

// trickyArgvs are argument lists whose words bash would split, expand or
// interpret if they were not quoted.
var trickyArgvs = [][]string{
	{"git", "push"},
	{"echo", "hello world"},
	{"a  b", "\tc\t"},
	{"it's", "'", "''", `'\''`},
	{`say "hi"`, `"`, `\"`},
	{"$HOME", "${PATH}", "$(id)", "`id`", "$((1+2))", "$'x'", `$"y"`},
	{`back\slash`, `\`, `\\`, `a\nb`, `\'`},
	{"", "x", ""},
	{"line1\nline2", "\n", "\r\n", "tab\there"},
	{"héllo", "日本語", "emoji 🙂", "\u00a0nbsp"},
	{"*", "?", "[a-z]", "~", "~/x", "~root", "{a,b}", "a{1..3}"},
	{"#notacomment", "a#b", ";", "&&", "||", "|", "&", ">", "<", "2>&1", "<(x)", "(", ")"},
	{"!", "!!", "!$", "-n", "-e", "--", "%s", "%%", "\\0"},
	{"a=b", "FOO=bar", "x=$(id)"},
	{"=", "@", "%", "+", ",", ":", ".", "/", "-", "_"},
	{"\x01\x02\x7f", "\x1b[31mred"},
}

func TestJoinArgvRoundTripsThroughBash(t *testing.T) {
	needBash(t)
	for _, argv := range trickyArgvs {
		line := tool.JoinArgv(argv)
		got := bashSplit(t, line)
		if !slices.Equal(got, argv) {
			t.Errorf("JoinArgv(%q) = %s\nbash split it into %q", argv, line, got)
		}
	}
}

// FuzzJoinArgv checks JoinArgv against real bash: the words it quotes come
// back unchanged. The input is split on '|' into argv.
func FuzzJoinArgv(f *testing.F) {
	needBash(f)
	for _, argv := range trickyArgvs {
		if !slices.ContainsFunc(argv, func(s string) bool { return strings.Contains(s, "|") }) {
			f.Add(strings.Join(argv, "|"))
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Arguments cannot hold NUL, and bash's handling of invalid UTF-8
		// depends on the locale: not what is tested here.
		if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			t.Skip()
		}
		argv := strings.Split(s, "|")
		if got := bashSplit(t, tool.JoinArgv(argv)); !slices.Equal(got, argv) {
			t.Errorf("JoinArgv(%q) = %s\nbash split it into %q", argv, tool.JoinArgv(argv), got)
		}
	})
}

func TestQuote(t *testing.T) {
	tests := map[string]string{
		"ls":          "ls",
		"/usr/bin/go": "/usr/bin/go",
		"a=b":         "a=b",
		"--flag=1,2":  "--flag=1,2",
		"":            "''",
		"a b":         "'a b'",
		"it's":        `'it'\''s'`,
		"$HOME":       "'$HOME'",
		"~":           "'~'",
		"*.go":        "'*.go'",
		"#x":          "'#x'",
		"日本":          "'日本'",
	}
	for in, want := range tests {
		if got := tool.Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestJoinArgv(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{nil, ""},
		{[]string{"git", "push", "--force"}, "git push --force"},
		{[]string{"rm", "-rf", "my dir"}, "rm -rf 'my dir'"},
		{[]string{"echo", ""}, "echo ''"},
	}
	for _, tt := range tests {
		if got := tool.JoinArgv(tt.argv); got != tt.want {
			t.Errorf("JoinArgv(%q) = %s, want %s", tt.argv, got, tt.want)
		}
	}
}

func TestShellScript(t *testing.T) {
	tests := []struct {
		argv   []string
		script string
		ok     bool
	}{
		{[]string{"bash", "-lc", "rm -rf build"}, "rm -rf build", true},
		{[]string{"bash", "-c", "ls"}, "ls", true},
		{[]string{"sh", "-c", "ls", "arg0", "arg1"}, "ls", true},
		{[]string{"/bin/bash", "-c", "ls"}, "ls", true},
		{[]string{"/usr/bin/zsh", "-c", "ls"}, "ls", true},
		{[]string{"dash", "-ec", "ls"}, "ls", true},
		{[]string{"ksh", "-c", "ls"}, "ls", true},
		{[]string{"bash", "-e", "-x", "-c", "ls"}, "ls", true},
		{[]string{"bash", "--login", "-c", "rm -rf ~"}, "rm -rf ~", true},
		{[]string{"bash", "--noprofile", "--norc", "-c", "ls"}, "ls", true},
		{[]string{"bash", "-o", "pipefail", "-c", "a | b"}, "a | b", true},
		{[]string{"bash", "+o", "history", "-c", "ls"}, "ls", true},
		{[]string{"bash", "-c", "-e", "ls"}, "ls", true}, // -c is a flag: the script is the first word after the options
		{[]string{"bash", "-c", "--", "ls"}, "ls", true},
		{[]string{"bash", "-eo", "pipefail", "-c", "ls"}, "ls", true},
		{[]string{"bash", "-co", "pipefail", "ls"}, "ls", true},
		{[]string{"bash", "-O", "extglob", "-c", "ls"}, "ls", true},
		{[]string{"bash", "--", "-c", "ls"}, "", false}, // after "--", -c is a file name
		{[]string{"bash", "-", "-c", "ls"}, "", false},
		{[]string{"bash", "-c", "--"}, "", false},
		{[]string{"bash", "script.sh", "-c"}, "", false},
		{[]string{"bash", "-c"}, "", false},
		{[]string{"bash", "-x", "script.sh"}, "", false},
		{[]string{"bash"}, "", false},
		{[]string{"python3", "-c", "print(1)"}, "", false},
		{[]string{"env", "bash", "-c", "ls"}, "", false},
		{[]string{"git", "-c", "x=y", "push"}, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		script, ok := tool.ShellScript(tt.argv)
		if script != tt.script || ok != tt.ok {
			t.Errorf("ShellScript(%q) = %q, %v; want %q, %v", tt.argv, script, ok, tt.script, tt.ok)
		}
	}
}

// TestShellScriptArgvAgreesWithBash checks the cases ShellScript unwraps
// against what bash itself runs: the script echoes a marker.
func TestShellScriptArgvAgreesWithBash(t *testing.T) {
	needBash(t)
	for _, flags := range [][]string{{"-c"}, {"-ec"}, {"--norc", "-c"}, {"-o", "pipefail", "-c"}, {"+o", "history", "-c"},
		{"-c", "-e"}, {"-c", "--"}, {"-eo", "pipefail", "-c"}, {"-co", "pipefail"}, {"-O", "extglob", "-c"}} {
		argv := append(append([]string{"bash"}, flags...), "printf ran")
		script, ok := tool.ShellScript(argv)
		if !ok || script != "printf ran" {
			t.Errorf("ShellScript(%q) = %q, %v", argv, script, ok)
			continue
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=/nonexistent"}
		out, err := cmd.Output()
		if err != nil || !bytes.Equal(out, []byte("ran")) {
			t.Errorf("bash %q printed %q, %v: the flags do not run the script", argv[1:], out, err)
		}
	}
}
