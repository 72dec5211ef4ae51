package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/secrets"
)

// decided is what approve's tests read of an answer of assess.
type decided struct {
	Decision string `json:"decision"`
	Rule     string `json:"decision_rule"`
	Ref      string `json:"decision_ref"`
}

// bashLine is an assess input line running cmd in session, in dir.
func bashLine(cmd, session, dir string) string {
	b, _ := json.Marshal(map[string]any{"tool": "Bash", "arguments": map[string]any{"command": cmd}, "session_id": session, "cwd": dir})
	return string(b)
}

// assessOne runs warden assess --store dsn on one line, as a hook's
// process does, and returns its answer.
func assessOne(t *testing.T, dsn, line string) decided {
	t.Helper()
	code, stdout, stderr := runCLI(t, line+"\n", "assess", "--store", dsn, "--home", "/home/user")
	if code != 0 {
		t.Fatalf("assess --store: exit %d: %s", code, stderr)
	}
	var d decided
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("assess: %v: %s", err, stdout)
	}
	return d
}

// approveCLI runs warden approve with args and --store dsn; it fails the
// test unless the exit code is want.
func approveCLI(t *testing.T, want int, dsn string, args ...string) (stdout, stderr string) {
	t.Helper()
	return storeCLI(t, want, dsn, append([]string{"approve"}, args...)...)
}

// storeCLI runs warden with args and --store dsn; it fails the test
// unless the exit code is want.
func storeCLI(t *testing.T, want int, dsn string, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", append(args, "--store", dsn)...)
	if code != want {
		t.Fatalf("warden %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	return stdout, stderr
}

// TestApproveCommand: warden approve REF, on each store, approves exactly
// the action recorded under REF, once, for the session or in the
// project; refuses what it must; and every approval and refusal is an
// event of the trail, which still verifies.
func TestApproveCommand(t *testing.T) {
	for name, dsn := range auditStores(t) {
		t.Run(name, func(t *testing.T) {
			skipStore(t, dsn)
			dir := t.TempDir()
			push := bashLine("git push --force origin main", "s1", dir)
			d := assessOne(t, dsn, push)
			if d.Decision != "ask" || len(d.Ref) < audit.RefLen || audit.ShortRef(d.Ref) != d.Ref {
				t.Fatalf("before: %+v", d)
			}
			out, _ := approveCLI(t, 0, dsn, d.Ref, "--by", "ana", "--reason", "the release")
			if !strings.HasPrefix(out, "approved once: Bash git push --force origin main") || !strings.Contains(out, "session s1") {
				t.Errorf("approve printed:\n%s", out)
			}
			if d := assessOne(t, dsn, push); d.Decision != "allow" || d.Rule != "allow: exact action "+d.Ref {
				t.Errorf("approved once: %+v", d)
			}
			if d := assessOne(t, dsn, push); d.Decision != "ask" {
				t.Errorf("approved once, allowed twice: %+v", d)
			}

			// one argument differs: the approval of the other does not apply
			other := bashLine("git push --force origin main2", "s1", dir)
			approveCLI(t, 0, dsn, assessOne(t, dsn, other).Ref, "--session")
			if d := assessOne(t, dsn, push); d.Decision != "ask" {
				t.Errorf("the approval of %q allowed %q: %+v", other, push, d)
			}
			for range 2 {
				if d := assessOne(t, dsn, other); d.Decision != "allow" {
					t.Errorf("approved for the session, asked again: %+v", d)
				}
			}
			if d := assessOne(t, dsn, bashLine("git push --force origin main2", "s2", dir)); d.Decision != "ask" {
				t.Errorf("the session approval leaks into s2: %+v", d)
			}

			// the project: the rule is written, and holds in other sessions
			kube := bashLine("kubectl delete deployment web-1 -n staging", "s3", dir)
			out, _ = approveCLI(t, 0, dsn, assessOne(t, dsn, kube).Ref, "--project", "--by", "ana")
			if !strings.Contains(out, "allow rule Bash(kubectl delete deployment web-1 -n staging) written to "+filepath.Join(dir, ".warden", "policy.yaml")+"\n") {
				t.Errorf("approve --project printed:\n%s", out)
			}
			data, err := os.ReadFile(filepath.Join(dir, ".warden", "policy.yaml"))
			if err != nil || !strings.Contains(string(data), "Bash(kubectl delete deployment web-1 -n staging)") {
				t.Fatalf("project file: %q, %v", data, err)
			}
			// (assess reads the project's policy of its --cwd)
			code, stdout, stderr := runCLI(t, bashLine("kubectl delete deployment web-1 -n staging", "s4", dir)+"\n", "assess", "--store", dsn, "--home", "/home/user", "--cwd", dir)
			if code != 0 || !strings.HasPrefix(stdout, `{"level":"high"`) || !strings.Contains(stdout, `"decision":"allow"`) {
				t.Errorf("approved for the project, asked in another session: %s %s", stdout, stderr)
			}

			// refused: a locked action for the project, an action recorded
			// masked for the project, a lone action once
			locked := assessOne(t, dsn, bashLine("rm -rf /home/user", "s5", dir))
			_, stderr = approveCLI(t, 1, dsn, locked.Ref, "--project")
			if !strings.Contains(stderr, "not approved") || !strings.Contains(stderr, "locked") {
				t.Errorf("a locked action for the project: %s", stderr)
			}
			masked := assessOne(t, dsn, `{"tool":"Write","session_id":"s5","arguments":{"file_path":"`+dir+`/deploy.env","content":"GITLAB_TOKEN=glpat-PJJrPvgRTT2PQCPXvySs"}}`)
			if _, stderr := approveCLI(t, 1, dsn, masked.Ref, "--project"); !strings.Contains(stderr, "masked") {
				t.Errorf("an action recorded masked for the project: %s", stderr)
			}
			lone := assessOne(t, dsn, bashLine("git push --force origin main", "", dir))
			if _, stderr := approveCLI(t, 1, dsn, lone.Ref, "--once"); !strings.Contains(stderr, "no session_id") {
				t.Errorf("a lone action once: %s", stderr)
			}

			// not a reference, no such reference, two scopes
			if _, stderr := approveCLI(t, 1, dsn, "0123456789ab"); !strings.Contains(stderr, "no action") {
				t.Errorf("an unknown reference: %s", stderr)
			}
			approveCLI(t, 2, dsn, "42")
			approveCLI(t, 2, dsn, d.Ref, "--once", "--session")

			// every approval and refusal was recorded, with who and why
			out, _ = auditCLI(t, 0, dsn, "list", "--kind", "approve")
			if n := len(listSeqs(t, out)); n != 6 {
				t.Errorf("%d approval events, want 3 approvals and 3 refusals:\n%s", n, out)
			}
			if !strings.Contains(out, "by ana: git push --force origin main [exact action "+d.Ref+"] (the release)") {
				t.Errorf("the first approval's event:\n%s", out)
			}
			auditCLI(t, 0, dsn, "verify")
		})
	}
}

// TestApproveOnceProcesses: approved once, the action is checked by
// several processes at the same instant, on one store: one of them is
// allowed.
func TestApproveOnceProcesses(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			line := bashLine("git push --force origin main", "race-"+name, t.TempDir())
			for round := range 4 {
				d := assessOne(t, dsn, line)
				if d.Decision != "ask" {
					t.Fatalf("round %d: %+v", round, d)
				}
				approveCLI(t, 0, dsn, d.Ref, "--once")
				answers := raceProcesses(t, 3, line, "assess", "--store", dsn, "--home", "/home/user")
				allowed := 0
				for _, a := range answers {
					var d decided
					if err := json.Unmarshal([]byte(a), &d); err != nil {
						t.Fatalf("%v: %q", err, a)
					}
					if d.Decision == "allow" {
						allowed++
					}
				}
				if allowed != 1 {
					t.Fatalf("round %d: %d of %d processes allowed by one approval: %q", round, allowed, len(answers), answers)
				}
			}
			auditCLI(t, 0, dsn, "verify")
		})
	}
}

// raceProcesses starts n warden processes with args, then gives each
// the same line at once, and returns their outputs.
func raceProcesses(t *testing.T, n int, line string, args ...string) []string {
	t.Helper()
	type proc struct {
		cmd      *exec.Cmd
		out, err bytes.Buffer
		in       interface{ Close() error }
		write    func(string) error
	}
	procs := make([]*proc, n)
	for i := range procs {
		p := &proc{cmd: exec.Command(os.Args[0], args...)}
		p.cmd.Env = append(os.Environ(), "WARDEN_TEST_AS_CLI=1")
		p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
		w, err := p.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		p.in, p.write = w, func(s string) error { _, err := w.Write([]byte(s)); return err }
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
	}
	time.Sleep(200 * time.Millisecond) // every process started and waiting for its line
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() { p.write(line + "\n"); p.in.Close() })
	}
	wg.Wait()
	outs := make([]string, n)
	for i, p := range procs {
		if err := p.cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v: %s", i, err, p.err.String())
		}
		outs[i] = strings.TrimSpace(p.out.String())
	}
	return outs
}

// The agent running warden approve, by any route, is a critical finding
// of the guard: it would answer warden's question in a person's place.
func TestApproveByTheAgent(t *testing.T) {
	for _, cmd := range []string{
		"warden approve 3f9a1c0d2b7e --once",
		"/usr/local/bin/warden approve 3f9a1c0d2b7e --session",
		"warden --by me approve 3f9a1c0d2b7e",
		"warden --reason 'ok' approve 3f9a1c0d2b7e --project",
		"warden approve 3f9a1c0d2b7e --reason --help",
		"warden -m x approve 3f9a1c0d2b7e",
		"sh -c 'warden approve 3f9a1c0d2b7e'",
		"bash -lc \"warden approve 3f9a1c0d2b7e --once\"",
		"env WARDEN_X=1 warden approve 3f9a1c0d2b7e",
		"nohup warden approve 3f9a1c0d2b7e &",
		"timeout 5 warden approve 3f9a1c0d2b7e",
		"echo 3f9a1c0d2b7e | xargs warden approve",
		"python3 -c 'import subprocess; subprocess.run([\"warden\", \"approve\", \"3f9a1c0d2b7e\"])'",
		"python3 -c 'import os; os.system(\"warden approve 3f9a1c0d2b7e --once\")'",
		"w=warden; $w approve 3f9a1c0d2b7e",
		"warden reject 3f9a1c0d2b7e --reason changed-my-mind",
	} {
		code, stdout, _ := runCLI(t, bashLine(cmd, "", "/home/user/project")+"\n", "assess", "--home", "/home/user")
		if code != 0 {
			t.Fatalf("%s: exit %d", cmd, code)
		}
		var o struct {
			Level    string `json:"level"`
			Decision string `json:"decision"`
			Findings []struct {
				Rule  string `json:"rule"`
				Level string `json:"level"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatal(err)
		}
		critical := false
		for _, f := range o.Findings {
			critical = critical || strings.HasPrefix(f.Rule, "guard.") && f.Level == "critical"
		}
		if !critical || o.Decision == "allow" {
			t.Errorf("%s: %s, %s, findings %+v", cmd, o.Level, o.Decision, o.Findings)
		}
	}
}

// refField is the field assess --store adds to an answer: the action's
// reference in the trail.
var refField = regexp.MustCompile(`,"decision_ref":"[0-9a-f]+"`)

// withoutRef returns an answer of assess --store as assess without a
// store writes it.
func withoutRef(line string) string { return refField.ReplaceAllString(line, "") }

// TestApproveExplainNoRawSecret: the actions of TestAuditNoRawSecret,
// carrying every labelled secret of the corpus, each in a conversation,
// are approved by reference (once; for the project, which is refused:
// the trail holds them masked), with the secret as the reason, and
// explained (text and JSON): no raw secret in anything printed, nor in
// the store's files.
func TestApproveExplainNoRawSecret(t *testing.T) {
	cases := corpus.Secrets(t, filepath.Join("..", "..", "testdata", "secrets.jsonl"), secrets.Default().Values)
	dir := filepath.Join(t.TempDir(), "state")
	dsn := filepath.Join(dir, "warden.db")
	project := t.TempDir()
	var in strings.Builder
	for i, c := range cases {
		for _, a := range []map[string]any{
			bash("echo " + shellQuote(c.Text) + " >> config.txt"),
			fetch("https://x.example/c?v=" + strings.ReplaceAll(c.Text, " ", "+")),
		} {
			a["session_id"], a["cwd"] = fmt.Sprintf("secret-%d", i), project
			b, _ := json.Marshal(a)
			in.Write(b)
			in.WriteByte('\n')
		}
	}
	code, stdout, stderr := runCLI(t, in.String(), "assess", "--store", dsn, "--home", "/home/user", "--cwd", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	texts := map[string]string{}
	refs := 0
	for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var d decided
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		if d.Ref == "" {
			t.Fatalf("line %d has no reference: %s", i+1, line)
		}
		refs++
		reason := cases[i/2].Text
		for _, args := range [][]string{
			{"approve", d.Ref, "--reason", reason},
			{"approve", d.Ref, "--project", "--reason", reason},
			{"explain", d.Ref},
			{"explain", d.Ref, "--json"},
		} {
			_, o, e := runCLI(t, "", append(args, "--store", dsn)...)
			key := fmt.Sprintf("%s (line %d)", strings.Join(args[:min(3, len(args))], " "), i+1)
			texts[key+" stdout"], texts[key+" stderr"] = o, e
		}
	}
	approved, refused := 0, 0
	for what, text := range texts {
		switch {
		case strings.HasPrefix(what, "approve") && strings.HasSuffix(what, "stdout") && strings.HasPrefix(text, "approved once: "):
			approved++
		case strings.HasPrefix(what, "approve") && strings.HasSuffix(what, "stderr") && strings.Contains(text, "the trail holds it masked"):
			refused++
		}
	}
	if approved != refs || refused == 0 {
		t.Errorf("%d actions: %d approved once, %d refused for the project as masked", refs, approved, refused)
	}
	t.Logf("%d actions: %d approved once, %d refused for the project as masked", refs, approved, refused)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		texts[e.Name()] = string(b)
	}
	if !strings.Contains(texts["explain "+firstRef(stdout)+" (line 1) stdout"], "answers") {
		t.Errorf("the first explanation names no answer:\n%s", texts["explain "+firstRef(stdout)+" (line 1) stdout"])
	}
	noCorpusSecret(t, texts, cases)
}

// noCorpusSecret fails the test for each text (by what it is) that holds a
// raw secret of cases, as is or as JSON escapes it.
func noCorpusSecret(t *testing.T, texts map[string]string, cases []corpus.Secret) {
	t.Helper()
	for what, text := range texts {
		for _, c := range cases {
			for _, raw := range c.Raws {
				for _, form := range secretForms(raw) {
					if strings.Contains(text, form) {
						t.Errorf("%s holds the raw secret %q", what, raw)
					}
				}
			}
		}
	}
}

// firstRef is the reference of assess's first answer.
func firstRef(stdout string) string {
	var d decided
	json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &d)
	return d.Ref
}
