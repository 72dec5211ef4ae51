package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

// TestMain lets the tests run this test binary as the warden command, in
// a process of its own (WARDEN_TEST_AS_CLI=1). The tests keep their audit
// key in a temporary directory ($WARDEN_AUDIT_KEY_FILE), so that none
// reads or creates the user's own; HOME and the XDG directories stay as
// they are, since the guard's answers depend on them (the golden files).
func TestMain(m *testing.M) {
	if os.Getenv("WARDEN_TEST_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(withTestKey(m))
}

// withTestKey runs the tests with $WARDEN_AUDIT_KEY_FILE in a temporary
// directory, removed after, and $WARDEN_AUDIT_KEY unset.
func withTestKey(m *testing.M) int {
	dir, err := os.MkdirTemp("", "warden-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	os.Setenv("WARDEN_AUDIT_KEY_FILE", filepath.Join(dir, "config", "audit.key"))
	os.Unsetenv("WARDEN_AUDIT_KEY")
	return m.Run()
}

// cliProcess runs warden with args in a process of its own.
func cliProcess(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WARDEN_TEST_AS_CLI=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("warden %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// stores are the stores the tests run on: a SQLite file, and, when
// WARDEN_TEST_POSTGRES_DSN is set, a schema of its own in that database
// (dropped after the test), so that the audit trail every assess --store
// records stays the test's.
func stores(t *testing.T) map[string]string {
	dsns := auditStores(t)
	if dsns["postgres"] == "" {
		delete(dsns, "postgres")
		t.Log("WARDEN_TEST_POSTGRES_DSN is unset: the PostgreSQL store is not tested (set it to a postgres:// DSN, as .ci/run does)")
	}
	return dsns
}

// conversationLines returns the steps of the conversation corpora as
// assess input, each session named with prefix so that runs on a shared
// database do not meet.
func conversationLines(t *testing.T, prefix string, files ...string) []string {
	var lines []string
	for _, name := range files {
		for _, c := range corpusCases(t, name, func(m map[string]any) []map[string]any {
			m["id"] = prefix + m["id"].(string)
			return steps(m)
		}) {
			lines = append(lines, c...)
		}
	}
	return lines
}

// A conversation split over processes, one step each with --store, gets
// the answers it gets in one process without a store.
func TestStoreSplitConversation(t *testing.T) {
	env := []string{"--home", "/home/user", "--cwd", "/home/user/project"}
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			prefix := fmt.Sprintf("split-%d-", time.Now().UnixNano())
			lines := conversationLines(t, prefix, "sequences.jsonl", "session_chains.jsonl")
			code, whole, stderr := runCLI(t, strings.Join(lines, "\n")+"\n", append([]string{"assess"}, env...)...)
			if code != 0 {
				t.Fatal(stderr)
			}
			want := strings.Split(strings.TrimSuffix(whole, "\n"), "\n")
			args := append([]string{"assess", "--store", dsn}, env...)
			for i, line := range lines {
				var got string
				if i < 39 { // the first corpus in real processes, the rest with a new engine each
					got = cliProcess(t, line+"\n", args...)
				} else {
					code, out, stderr := runCLI(t, line+"\n", args...)
					if code != 0 {
						t.Fatal(stderr)
					}
					got = out
				}
				if withoutRef(strings.TrimSuffix(got, "\n")) != want[i] {
					t.Fatalf("step %d (%s):\n split %s\n whole %s", i, line, got, want[i])
				}
			}
		})
	}
}

// Two processes writing one conversation at once lose no step.
func TestStoreConcurrentProcesses(t *testing.T) {
	const each = 25
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			id := fmt.Sprintf("concurrent-%d", time.Now().UnixNano())
			var in strings.Builder
			for i := range each {
				fmt.Fprintf(&in, `{"tool":"Bash","arguments":{"command":"echo %d >> log.txt"},"session_id":%q}`+"\n", i, id)
			}
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					out := cliProcess(t, in.String(), "assess", "--store", dsn, "--home", "/home/user", "--cwd", "/home/user/project")
					if n := strings.Count(out, "\n"); n != each {
						t.Errorf("%d answers for %d lines", n, each)
					}
				})
			}
			wg.Wait()
			s, err := store.Open(context.Background(), dsn, session.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			st, err := s.Get(context.Background(), id)
			if err != nil || st == nil {
				t.Fatalf("the conversation was not kept: %v", err)
			}
			if st.Steps() != 2*each {
				t.Errorf("%d steps recorded, want %d: updates were lost", st.Steps(), 2*each)
			}
			// one chain, every answer of both processes in it
			out, _ := auditCLI(t, 0, dsn, "verify")
			if !strings.Contains(out, fmt.Sprintf("events       %d (seq 1 to %d)", 2*each, 2*each)) {
				t.Errorf("verify after two processes:\n%s", out)
			}
			out, _ = auditCLI(t, 0, dsn, "list", "--session", id)
			if n := len(listSeqs(t, out)); n != 2*each {
				t.Errorf("%d events of the conversation, want %d", n, 2*each)
			}
			s.Delete(context.Background(), id)
		})
	}
}

// A store that cannot be opened is refused before any line is read; one
// that fails while assessing denies.
func TestStoreBad(t *testing.T) {
	dir := t.TempDir()
	for _, dsn := range []string{dir, "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"} {
		code, _, stderr := runCLI(t, `{"tool":"Bash","arguments":{"command":"ls"},"session_id":"a"}`+"\n", "assess", "--store", dsn)
		if code != 2 || !strings.Contains(stderr, "store") {
			t.Errorf("--store %s: exit %d, %q", dsn, code, stderr)
		}
	}
	notStore := filepath.Join(dir, "notes.txt")
	os.WriteFile(notStore, []byte("my notes, not a database\n"), 0o600)
	code, _, stderr := runCLI(t, "", "assess", "--store", notStore)
	if code != 2 {
		t.Errorf("--store on a text file: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(notStore); string(b) != "my notes, not a database\n" {
		t.Error("--store changed a file that is not a store")
	}
}

// The files of a store given with --store are warden's own, wherever they
// are: no agent may delete, edit or rewrite them (it would wipe what its
// conversation is known to have done).
func TestStoreGuarded(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "custom.sqlite")
	for _, a := range []string{
		fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"rm -f %s"}}`, db),
		fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"sqlite3 %s 'DELETE FROM warden_sessions'"}}`, db),
		fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"cp /tmp/empty.db %s-wal"}}`, db),
		fmt.Sprintf(`{"tool":"Write","arguments":{"file_path":%q,"content":"x"}}`, db),
	} {
		code, out, stderr := runCLI(t, a+"\n", "assess", "--store", db, "--home", "/home/user", "--cwd", "/home/user/project")
		if code != 0 {
			t.Fatal(stderr)
		}
		o := parseOutput(t, out)[0]
		if o.Level != "critical" || o.Decision == "allow" || !hasRule(o, "guard.self_modification") {
			t.Errorf("%s: %s %s %v, want critical, not allowed, guard.self_modification", a, o.Level, o.Decision, o.Findings)
		}
	}
	// so is the audit key, wherever it is kept
	key := os.Getenv("WARDEN_AUDIT_KEY_FILE")
	for _, a := range []string{
		fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"rm -f %s"}}`, key),
		fmt.Sprintf(`{"tool":"Write","arguments":{"file_path":%q,"content":"warden-audit-key v1\nAAAA\n"}}`, key),
	} {
		code, out, stderr := runCLI(t, a+"\n", "assess", "--store", db, "--home", "/home/user", "--cwd", "/home/user/project")
		if code != 0 {
			t.Fatal(stderr)
		}
		if o := parseOutput(t, out)[0]; o.Decision == "allow" || !hasRule(o, "guard.self_modification") {
			t.Errorf("%s: %s %s %v, want not allowed, guard.self_modification", a, o.Level, o.Decision, o.Findings)
		}
	}
	// without --store the same file is no one's
	code, out, _ := runCLI(t, fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"rm -f %s"}}`, db)+"\n", "assess", "--home", "/home/user", "--cwd", "/home/user/project")
	if o := parseOutput(t, out)[0]; code != 0 || hasRule(o, "guard.self_modification") {
		t.Errorf("without --store: %v", o.Findings)
	}
}

func hasRule(o output, rule string) bool {
	for _, f := range o.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}
