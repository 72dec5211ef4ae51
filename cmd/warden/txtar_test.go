package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/txtar"
)

// archive is a txtar file: a comment, then files introduced by
// "-- name --" lines.
type archive struct {
	comment string
	files   map[string]string
	order   []string
}

func parseTxtar(data string) archive {
	a := txtar.Parse(data)
	return archive{comment: a.Comment, files: a.Files, order: a.Order}
}

// TestPolicyScripts runs the CLI on each testdata/policy/*.txtar: the
// files other than the special sections are written to a temporary
// directory ($DIR), "args" are the command line, "env" extra variables,
// "stdin" the input. "want" lists, for each output line of assess, the
// decision and the start of its rule; "exit", "stdout" and "stderr" (each
// line the start of an output line) check other commands.
func TestPolicyScripts(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/policy/*.txtar")
	if len(scripts) < 5 {
		t.Fatalf("only %d scripts", len(scripts))
	}
	special := map[string]bool{"args": true, "env": true, "stdin": true, "want": true, "exit": true, "stdout": true, "stderr": true}
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			data, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			a := parseTxtar(string(data))
			dir := t.TempDir()
			subst := func(s string) string { return strings.ReplaceAll(s, "$DIR", dir) }
			for _, name := range a.order {
				if special[name] {
					continue
				}
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(subst(a.files[name])), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// no organization policy unless the script sets one: an empty
			// file (a named file that does not exist stops warden)
			org := filepath.Join(dir, ".org-policy.yaml")
			if err := os.WriteFile(org, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("WARDEN_ORG_POLICY", org)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "no-xdg"))
			for _, kv := range strings.Split(strings.TrimSpace(a.files["env"]), "\n") {
				if k, v, ok := strings.Cut(kv, "="); ok {
					t.Setenv(k, subst(v))
				}
			}
			if d := os.Getenv("WARDEN_TEST_CHDIR"); d != "" {
				t.Chdir(d)
			}
			args := splitArgs(subst(a.files["args"]))
			var out, errb bytes.Buffer
			code := run(args, strings.NewReader(subst(a.files["stdin"])), &out, &errb)
			wantCode := 0
			if s, ok := a.files["exit"]; ok {
				wantCode, _ = strconv.Atoi(strings.TrimSpace(s))
			}
			if code != wantCode {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantCode, out.String(), errb.String())
			}
			prefixes(t, "stdout", out.String(), subst(a.files["stdout"]))
			prefixes(t, "stderr", errb.String(), subst(a.files["stderr"]))
			want, ok := a.files["want"]
			if !ok {
				return
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			wants := strings.Split(strings.TrimSpace(subst(want)), "\n")
			if len(lines) != len(wants) {
				t.Fatalf("%d output lines, want %d:\n%s", len(lines), len(wants), out.String())
			}
			for i, w := range wants {
				var o struct {
					Decision string `json:"decision"`
					Rule     string `json:"decision_rule"`
					Reasons  []string
				}
				if err := json.Unmarshal([]byte(lines[i]), &o); err != nil {
					t.Fatalf("line %d: %v", i+1, err)
				}
				verdict, rule, _ := strings.Cut(w, " ")
				if o.Decision != verdict || !strings.HasPrefix(o.Rule, rule) {
					t.Errorf("line %d: %s by %q, want %s by %q…\n%s", i+1, o.Decision, o.Rule, verdict, rule, lines[i])
				}
			}
		})
	}
}

// prefixes checks that each line of want starts the same line of got.
func prefixes(t *testing.T, what, got, want string) {
	t.Helper()
	if strings.TrimSpace(want) == "" {
		return
	}
	gl := strings.Split(strings.TrimSpace(got), "\n")
	for i, w := range strings.Split(strings.TrimSpace(want), "\n") {
		if i >= len(gl) || !strings.HasPrefix(gl[i], w) {
			t.Errorf("%s line %d: want it to start with %q; %s:\n%s", what, i+1, w, what, got)
			return
		}
	}
}

// splitArgs splits a command line on blanks, keeping what single quotes
// enclose together.
func splitArgs(s string) []string {
	var out []string
	var cur strings.Builder
	in, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, any = !in, true
		case !in && (r == ' ' || r == '\n' || r == '\t'):
			if any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}
