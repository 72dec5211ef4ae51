package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestInstallScripts runs testdata/install/*.txtar: scripts of warden
// install and warden doctor. The files of an archive are written below
// a temporary directory $DIR first; its comment is the script, a command
// a line:
//
//	warden ARGS...     run warden (in this process); it must exit 0
//	warden ARGS < F    with the file F ($DIR-relative) as its stdin
//	! warden ARGS...   it must exit non-zero
//	stdout RE          the last command's stdout matches the regexp RE
//	! stdout RE        it does not
//	stderr RE          the last command's stderr matches RE
//	cmp A B            files A and B ($DIR-relative) are equal
//	exists F / ! exists F
//	rm F               remove a file
//	cp FROM TO         copy a file ($DIR-relative), making TO's directories
//	cd DIR             the current directory (the project's)
//	env K=V            set a variable
//	symlink LINK TARGET
//	mode F OCTAL       F has this mode
//	set NAME RE        $NAME is, from now on, what RE's first group
//	                   matches in the last command's stdout, else stderr
//
// HOME is $DIR/home, the XDG directories and the organization policy are
// below $DIR, $PATH is $DIR/bin then /usr/bin:/bin, and the current
// directory is $DIR/project: nothing outside $DIR is read or written. A
// fake warden binary is $DIR/bin/warden, made by the runner: it runs
// this test binary as the CLI.
func TestInstallScripts(t *testing.T) { runScripts(t, "testdata/install/*.txtar") }

// runScripts runs each script the pattern names with runScript, as a
// subtest; none is an error.
func runScripts(t *testing.T, pattern string) {
	scripts, _ := filepath.Glob(pattern)
	if len(scripts) < 1 {
		t.Fatalf("no script %s", pattern)
	}
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			data, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			runScript(t, parseTxtar(string(data)))
		})
	}
}

func runScript(t *testing.T, a archive) {
	dir := t.TempDir()
	vars := map[string]string{"DIR": dir}
	subst := func(s string) string {
		for k, v := range vars {
			s = strings.ReplaceAll(s, "$"+k, v)
		}
		return s
	}
	for _, name := range a.order {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(subst(a.files[name])), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "bin/") {
			os.Chmod(p, 0o755)
		}
	}
	for _, d := range []string{"home", "project", "bin", "xdg/config", "xdg/state"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	// the hook's binary: this test binary, as the CLI
	fake := "#!/bin/sh\nWARDEN_TEST_AS_CLI=1 exec " + strconv.Quote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "bin", "warden"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	org := filepath.Join(dir, ".org-policy.yaml")
	os.WriteFile(org, nil, 0o644)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg", "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "xdg", "state"))
	t.Setenv("WARDEN_ORG_POLICY", org)
	t.Setenv("PATH", filepath.Join(dir, "bin")+":/usr/bin:/bin")
	for _, k := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Chdir(filepath.Join(dir, "project"))

	var stdout, stderr string
	for n, line := range strings.Split(a.comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		neg := false
		if rest, ok := strings.CutPrefix(line, "! "); ok {
			neg, line = true, rest
		}
		args := splitArgs(subst(line))
		where := "line " + strconv.Itoa(n+1) + ": " + line
		switch args[0] {
		case "warden":
			var out, errb bytes.Buffer
			var in []byte
			if n := len(args); n > 2 && args[n-2] == "<" {
				var err error
				if in, err = os.ReadFile(filepath.Join(dir, args[n-1])); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				args = args[:n-2]
			}
			code := run(args[1:], bytes.NewReader(in), &out, &errb)
			stdout, stderr = out.String(), errb.String()
			if (code != 0) != neg {
				t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", where, code, stdout, stderr)
			}
		case "stdout", "stderr":
			got := stdout
			if args[0] == "stderr" {
				got = stderr
			}
			re, err := regexp.Compile("(?m)" + args[1])
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if re.MatchString(got) == neg {
				t.Fatalf("%s: %s is\n%s", where, args[0], got)
			}
		case "cmp":
			x, err1 := os.ReadFile(filepath.Join(dir, args[1]))
			y, err2 := os.ReadFile(filepath.Join(dir, args[2]))
			if err1 != nil || err2 != nil || (!bytes.Equal(x, y)) != neg {
				t.Fatalf("%s: %v %v\n--- %s\n%s\n--- %s\n%s", where, err1, err2, args[1], x, args[2], y)
			}
		case "exists":
			_, err := os.Lstat(filepath.Join(dir, args[1]))
			if (err == nil) == neg {
				t.Fatalf("%s: %v", where, err)
			}
		case "cd":
			t.Chdir(filepath.Join(dir, args[1]))
		case "env":
			k, v, _ := strings.Cut(args[1], "=")
			t.Setenv(k, v)
		case "rm":
			if err := os.Remove(filepath.Join(dir, args[1])); err != nil {
				t.Fatal(err)
			}
		case "cp":
			data, err := os.ReadFile(filepath.Join(dir, args[1]))
			if err != nil {
				t.Fatal(err)
			}
			to := filepath.Join(dir, args[2])
			os.MkdirAll(filepath.Dir(to), 0o755)
			if err := os.WriteFile(to, data, 0o644); err != nil {
				t.Fatal(err)
			}
		case "symlink":
			if err := os.Symlink(args[2], filepath.Join(dir, args[1])); err != nil {
				t.Fatal(err)
			}
		case "set":
			m := regexp.MustCompile(args[2]).FindStringSubmatch(stdout)
			if m == nil {
				m = regexp.MustCompile(args[2]).FindStringSubmatch(stderr)
			}
			if len(m) < 2 {
				t.Fatalf("%s: no match in\n%s", where, stdout)
			}
			vars[args[1]] = m[1]
		case "mode":
			st, err := os.Stat(filepath.Join(dir, args[1]))
			want, _ := strconv.ParseUint(args[2], 8, 32)
			if err != nil || uint64(st.Mode().Perm()) != want {
				t.Fatalf("%s: %v %v", where, err, st.Mode())
			}
		default:
			t.Fatalf("%s: unknown command", where)
		}
	}
}
