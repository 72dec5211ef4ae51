package main

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql on PostgreSQL, to tamper with its trail
	_ "modernc.org/sqlite"             // database/sql on SQLite, to tamper with its file

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

// auditStores returns an empty store of each kind: a SQLite file under a
// new directory, and, when WARDEN_TEST_POSTGRES_DSN is set, a schema of
// its own in that database (dropped after the test); when it is unset,
// the DSN of "postgres" is "", which skipStore skips.
func auditStores(t *testing.T) map[string]string {
	t.Helper()
	dsns := map[string]string{"sqlite": filepath.Join(t.TempDir(), "state", "warden.db"), "postgres": ""}
	base := os.Getenv("WARDEN_TEST_POSTGRES_DSN")
	if base == "" {
		return dsns
	}
	schema := fmt.Sprintf("warden_cli_%d", time.Now().UnixNano())
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		db.Close()
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
		db.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dsns["postgres"] = base + sep + "search_path=" + schema
	return dsns
}

// skipStore skips a test of the store dsn when it is "": the PostgreSQL
// store without WARDEN_TEST_POSTGRES_DSN.
func skipStore(t *testing.T, dsn string) {
	t.Helper()
	if dsn == "" {
		t.Skip("WARDEN_TEST_POSTGRES_DSN is unset: the PostgreSQL store is not tested (set it to a postgres:// DSN, as .ci/run does)")
	}
}

// trailActions are assess input lines of every kind of answer: allowed,
// asked, a session's steps, a rejected line.
var trailActions = []string{
	`{"tool":"Bash","arguments":{"command":"ls -la"},"session_id":"s1","agent":"claude-code"}`,
	`{"tool":"Bash","arguments":{"command":"rm -rf ~"},"session_id":"s1","agent":"claude-code"}`,
	`{"tool":"Write","arguments":{"file_path":"/home/user/project/notes.txt","content":"hello"},"session_id":"s2"}`,
	`{"tool":"Read","arguments":{"file_path":"/home/user/project/go.mod"}}`,
	`not an action`,
	`{"tool":"WebFetch","arguments":{"url":"http://169.254.169.254/latest/meta-data/","prompt":"x"},"session_id":"s2"}`,
}

// recordTrail runs warden assess --store dsn over trailActions, one
// action per run as a hook does (one run answers its lines on several
// workers, and records them in the order they are answered), and returns
// the answers, decoded: the events are numbered in this order.
func recordTrail(t *testing.T, dsn string) []output {
	t.Helper()
	var answers []output
	for _, a := range trailActions {
		code, stdout, stderr := runCLI(t, a+"\n", "assess", "--store", dsn, "--home", "/home/user", "--cwd", "/home/user/project")
		if code != 0 {
			t.Fatalf("assess --store: exit %d: %s", code, stderr)
		}
		answers = append(answers, parseOutput(t, stdout)...)
	}
	return answers
}

// auditCLI runs warden audit with args and --store dsn; it fails the test
// unless the exit code is want.
func auditCLI(t *testing.T, want int, dsn string, args ...string) (stdout, stderr string) {
	t.Helper()
	return storeCLI(t, want, dsn, append([]string{"audit"}, args...)...)
}

// listSeqs returns the sequence numbers list printed, in order.
func listSeqs(t *testing.T, out string) []int64 {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "SEQ") {
		t.Fatalf("list printed no header:\n%s", out)
	}
	var seqs []int64
	for _, l := range lines[1:] {
		n, err := strconv.ParseInt(strings.Fields(l)[0], 10, 64)
		if err != nil {
			t.Fatalf("list line %q: %v", l, err)
		}
		seqs = append(seqs, n)
	}
	return seqs
}

// Every answer of assess --store is recorded, and list, show, export and
// verify read the trail back.
func TestAuditTrailOfAssess(t *testing.T) {
	for name, dsn := range auditStores(t) {
		t.Run(name, func(t *testing.T) {
			skipStore(t, dsn)
			answers := recordTrail(t, dsn)
			out, _ := auditCLI(t, 0, dsn, "list")
			if seqs := listSeqs(t, out); len(seqs) != len(trailActions) || seqs[0] != 1 || seqs[len(seqs)-1] != int64(len(trailActions)) {
				t.Fatalf("%d answers, events %v:\n%s", len(answers), seqs, out)
			}
			for i, want := range []string{"ls -la", "rm -rf ~", "notes.txt", "go.mod", "invalid action", "169.254.169.254"} {
				line := strings.Split(out, "\n")[i+1]
				if !strings.Contains(line, want) || !strings.Contains(line, answers[i].Decision) {
					t.Errorf("event %d: %q, want %q and decision %s", i+1, line, want, answers[i].Decision)
				}
			}

			out, _ = auditCLI(t, 0, dsn, "show", "2")
			for _, want := range []string{"event 2\n", "hash ", "prev ", "(signature verified)", `"command": "rm -rf ~"`, `"kind": "check"`, `"session": "s1"`} {
				if !strings.Contains(out, want) {
					t.Errorf("show 2 lacks %q:\n%s", want, out)
				}
			}
			if _, stderr := auditCLI(t, 1, dsn, "show", "99"); !strings.Contains(stderr, "no event 99") {
				t.Errorf("show 99: %q", stderr)
			}
			auditCLI(t, 2, dsn, "show", "two")

			out, _ = auditCLI(t, 0, dsn, "export")
			checkExport(t, out, len(trailActions))

			out, _ = auditCLI(t, 0, dsn, "verify")
			if !strings.Contains(out, "result       OK: the chain and its signatures verify") || !strings.Contains(out, fmt.Sprintf("events       %d (seq 1 to %d)", len(trailActions), len(trailActions))) {
				t.Errorf("verify:\n%s", out)
			}
			// the public key printed, given as a file, verifies too
			pubText, _ := runCLIOK(t, "audit", "public-key")
			pubFile := filepath.Join(t.TempDir(), "audit.pub")
			os.WriteFile(pubFile, []byte(pubText), 0o644)
			if out, _ := auditCLI(t, 0, dsn, "verify", "--public-key", pubFile); !strings.Contains(out, pubFile+": signatures checked") {
				t.Errorf("verify --public-key:\n%s", out)
			}

			// another process continues the same chain
			if got := cliProcess(t, trailActions[0]+"\n", "assess", "--store", dsn, "--home", "/home/user"); strings.Count(got, "\n") != 1 {
				t.Fatalf("assess in a process: %q", got)
			}
			out, _ = auditCLI(t, 0, dsn, "list", "--last", "1")
			if seqs := listSeqs(t, out); len(seqs) != 1 || seqs[0] != int64(len(trailActions))+1 {
				t.Errorf("list --last 1 after another process: %v", seqs)
			}
			auditCLI(t, 0, dsn, "verify")
		})
	}
}

// runCLIOK runs warden with args, failing the test on a non-zero exit.
func runCLIOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("warden %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout, stderr
}

// checkExport checks export's lines: n of them, in order, each the event
// as stored with its hash, which the line's own bytes prove.
func checkExport(t *testing.T, out string, n int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("export: %d lines, want %d", len(lines), n)
	}
	for i, l := range lines {
		var line struct {
			Seq   int64           `json:"seq"`
			Hash  string          `json:"hash"`
			Event json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("export line %d: %v", i+1, err)
		}
		if line.Hash != hex.EncodeToString(audit.RecordHash(line.Event)) {
			t.Errorf("export line %d: the hash is not that of the event's bytes", i+1)
		}
		r := audit.Record{Seq: line.Seq, Data: line.Event}
		var ev audit.Event
		if err := json.Unmarshal(line.Event, &ev); err != nil || ev.Seq != line.Seq {
			t.Errorf("export line %d: event %v %+v", i+1, err, r)
		}
	}
}

func TestAuditFilters(t *testing.T) {
	for name, dsn := range auditStores(t) {
		t.Run(name, func(t *testing.T) {
			skipStore(t, dsn)
			answers := recordTrail(t, dsn)
			byDecision := map[string][]int64{}
			for i, a := range answers {
				byDecision[a.Decision] = append(byDecision[a.Decision], int64(i+1))
			}
			cases := []struct {
				args []string
				want []int64
			}{
				{[]string{"--session", "s1"}, []int64{1, 2}},
				{[]string{"--agent", "claude-code"}, []int64{1, 2}},
				{[]string{"--tool", "Write"}, []int64{3}},
				{[]string{"--kind", "reject"}, []int64{5}},
				{[]string{"--kind", "reject,check", "--session", "s2"}, []int64{3, 6}},
				{[]string{"--kind", "reject", "--kind", "check", "--to", "2"}, []int64{1, 2}},
				{[]string{"--from", "3", "--to", "4"}, []int64{3, 4}},
				{[]string{"--limit", "2"}, []int64{1, 2}},
				{[]string{"--last", "2"}, []int64{5, 6}},
				{[]string{"--since", "1h"}, []int64{1, 2, 3, 4, 5, 6}},
				{[]string{"--until", "1h"}, nil},
				{[]string{"--since", "2000-01-01T00:00:00Z", "--until", "2000-01-02T00:00:00Z"}, nil},
				{[]string{"--decision", "allow"}, byDecision["allow"]},
				{[]string{"--decision", "ask"}, byDecision["ask"]},
				{[]string{"--decision", "deny"}, byDecision["deny"]},
			}
			var critical []int64
			for i, a := range answers {
				if a.Level == "critical" || a.Level == "unknown" { // events without a level stay
					critical = append(critical, int64(i+1))
				}
			}
			cases = append(cases, struct {
				args []string
				want []int64
			}{[]string{"--level", "critical"}, critical})
			for _, c := range cases {
				code, out, stderr := runCLI(t, "", append([]string{"audit", "list", "--store", dsn}, c.args...)...)
				if code != 0 {
					t.Fatalf("list %v: exit %d: %s", c.args, code, stderr)
				}
				if got := listSeqs(t, out); fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Errorf("list %v: %v, want %v", c.args, got, c.want)
				}
				code, out, stderr = runCLI(t, "", append([]string{"audit", "export", "--store", dsn}, c.args...)...)
				if code != 0 {
					t.Fatalf("export %v: exit %d: %s", c.args, code, stderr)
				}
				if n := strings.Count(out, "\n"); n != len(c.want) {
					t.Errorf("export %v: %d lines, want %d", c.args, n, len(c.want))
				}
			}
			for _, bad := range [][]string{{"--decision", "maybe"}, {"--level", "severe"}, {"--kind", "checks"}, {"--since", "yesterday"},
				{"--until", "soon"}, {"--from", "-1"}, {"--limit", "2", "--last", "2"}, {"--from", "x"}} {
				for _, sub := range []string{"list", "export"} {
					code, out, stderr := runCLI(t, "", append([]string{"audit", sub, "--store", dsn}, bad...)...)
					if code != 2 || out != "" || !strings.Contains(stderr, bad[0]) {
						t.Errorf("%s %v: exit %d, stdout %q, stderr %q: want 2 and an error naming %s", sub, bad, code, out, stderr, bad[0])
					}
				}
			}
		})
	}
}

func TestAuditExportFile(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "warden.db")
	recordTrail(t, dsn)
	file := filepath.Join(t.TempDir(), "trail.jsonl")
	auditCLI(t, 0, dsn, "export", "--output", file)
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v: want mode 0600", err, fi)
	}
	data, _ := os.ReadFile(file)
	checkExport(t, string(data), len(trailActions))
	if _, stderr := auditCLI(t, 2, dsn, "export", "--output", file, "--kind", "reject"); !strings.Contains(stderr, "--force") {
		t.Errorf("export over a file: %s", stderr)
	}
	if again, _ := os.ReadFile(file); string(again) != string(data) {
		t.Error("a refused export changed the file")
	}
	auditCLI(t, 0, dsn, "export", "--output", file, "--kind", "reject", "--force")
	if again, _ := os.ReadFile(file); strings.Count(string(again), "\n") != 1 {
		t.Errorf("export --force: %q", again)
	}
}

// The audit commands never create a store: a missing one, the default
// or named, is an error that says how to record one.
func TestAuditStoreMissing(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	def := filepath.Join(state, "warden", "warden.db")
	named := filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{{"list"}, {"show", "1"}, {"verify"}, {"export"}, {"prune", "--before", "2", "--yes"}} {
		for _, dsn := range []string{"", named} {
			full := append([]string{"audit"}, args...)
			want := def
			if dsn != "" {
				full, want = append(full, "--store", dsn), dsn
			}
			code, out, stderr := runCLI(t, "", full...)
			if code != 2 || out != "" || !strings.Contains(stderr, "no audit store at "+want+"; warden assess --store "+want+" records one") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", full, code, out, stderr)
			}
		}
	}
	for _, p := range []string{def, filepath.Dir(def), named} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	// the default store is the one assess --store records in
	os.MkdirAll(filepath.Dir(def), 0o700)
	recordTrail(t, def)
	out, _ := runCLIOK(t, "audit", "list")
	if len(listSeqs(t, out)) != len(trailActions) {
		t.Errorf("the default store:\n%s", out)
	}
	// $XDG_STATE_HOME unset: ~/.local/state
	t.Setenv("XDG_STATE_HOME", "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	want := filepath.Join(home, ".local", "state", "warden", "warden.db")
	if code, _, stderr := runCLI(t, "", "audit", "verify"); code != 2 || !strings.Contains(stderr, "no audit store at "+want) {
		t.Errorf("without XDG_STATE_HOME: exit %d, %q", code, stderr)
	}
	if p, err := store.DefaultPath(); err != nil || p != want {
		t.Errorf("store.DefaultPath() = %q, %v", p, err)
	}
}

// assess --store records or refuses to run: a key it cannot read, or a
// store without a trail, is an error before any line is assessed.
func TestAssessStoreFailsClosed(t *testing.T) {
	dir := t.TempDir()
	dsn := filepath.Join(dir, "warden.db")
	loose := filepath.Join(dir, "loose.key")
	if _, err := audit.OpenKeys(loose); err != nil {
		t.Fatal(err)
	}
	os.Chmod(loose, 0o644)
	in := trailActions[0] + "\n"
	for _, c := range []struct {
		args []string
		env  string // WARDEN_AUDIT_KEY
		says string
	}{
		{[]string{"--audit-key", filepath.Join(dir, "missing.key")}, "", "missing.key"},
		{[]string{"--audit-key", loose}, "", "chmod 600"},
		{nil, "not base64!", "WARDEN_AUDIT_KEY"},
	} {
		t.Setenv("WARDEN_AUDIT_KEY", c.env)
		code, out, stderr := runCLI(t, in, append([]string{"assess", "--store", dsn}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(stderr, c.says) {
			t.Errorf("%v %q: exit %d, stdout %q, stderr %q: want 2, nothing assessed, an error naming %s", c.args, c.env, code, out, stderr, c.says)
		}
	}
	t.Setenv("WARDEN_AUDIT_KEY", "")
	if code, out, stderr := runCLI(t, in, "assess", "--audit-key", loose); code != 2 || out != "" || !strings.Contains(stderr, "--store") {
		t.Errorf("--audit-key without --store: exit %d, %q %q", code, out, stderr)
	}
	if _, err := store.Audit(session.NewMemoryStore(session.DefaultConfig())); err == nil {
		t.Error("the memory store claims an audit trail")
	}
	// public-key and prune never create a key: a new one would sign a trail it did not
	t.Setenv("WARDEN_AUDIT_KEY_FILE", filepath.Join(dir, "none", "audit.key"))
	if code, _, stderr := runCLI(t, "", "audit", "public-key"); code != 2 || !strings.Contains(stderr, "no audit key at") {
		t.Errorf("public-key without a key: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); err == nil {
		t.Error("public-key created a key")
	}
}

// The seq verify names as the first bad event.
var firstBad = regexp.MustCompile(`FAILED: the first bad event is seq (\d+)`)

// tamper opens the store dsn with database/sql.
func tamper(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	driver := "sqlite"
	if store.IsPostgres(dsn) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	res, err := db.Exec(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatalf("%s: no row changed", query)
	}
}

// verifyFails runs verify, which must exit 1 naming seq as the first bad
// event.
func verifyFails(t *testing.T, dsn string, seq int64, args ...string) string {
	t.Helper()
	out, _ := auditCLI(t, 1, dsn, append([]string{"verify"}, args...)...)
	m := firstBad.FindStringSubmatch(out)
	if m == nil || m[1] != strconv.FormatInt(seq, 10) {
		t.Errorf("verify names %v, want seq %d:\n%s", m, seq, out)
	}
	return out
}

// Tampering with the store's database is detected, and the first bad
// event named.
func TestAuditTamper(t *testing.T) {
	for name := range auditStores(t) {
		t.Run(name, func(t *testing.T) {
			fresh := func(t *testing.T) (string, *sql.DB) {
				d := auditStores(t)[name]
				skipStore(t, d)
				recordTrail(t, d)
				auditCLI(t, 0, d, "verify")
				return d, tamper(t, d)
			}
			t.Run("edit", func(t *testing.T) {
				d, db := fresh(t)
				var data []byte
				if err := db.QueryRow("SELECT data FROM warden_audit WHERE seq = 3").Scan(&data); err != nil {
					t.Fatal(err)
				}
				edited := strings.Replace(string(data), "notes.txt", "nodes.txt", 1)
				mustExec(t, db, "UPDATE warden_audit SET data = $1 WHERE seq = 3", []byte(edited))
				verifyFails(t, d, 3)
			})
			t.Run("delete", func(t *testing.T) {
				d, db := fresh(t)
				mustExec(t, db, "DELETE FROM warden_audit WHERE seq = 4")
				verifyFails(t, d, 4)
			})
			t.Run("recomputed", func(t *testing.T) {
				d, db := fresh(t)
				recompute(t, d, db, 2)
				// without the key the rewritten chain verifies: verify says so
				key := os.Getenv("WARDEN_AUDIT_KEY_FILE")
				t.Setenv("WARDEN_AUDIT_KEY_FILE", filepath.Join(t.TempDir(), "none.key"))
				out, stderr := auditCLI(t, 0, d, "verify")
				if !strings.Contains(out, "OK (chain only)") || !strings.Contains(out, "NOT detected") || !strings.Contains(stderr, "NOT detected") {
					t.Errorf("verify without a key:\n%s\n%s", out, stderr)
				}
				// with it, the forged signatures are found
				t.Setenv("WARDEN_AUDIT_KEY_FILE", key)
				out = verifyFails(t, d, 2)
				if !strings.Contains(out, "signatures checked") {
					t.Errorf("verify:\n%s", out)
				}
			})
		})
	}
}

// recompute rewrites the trail from event from on, as someone who can
// write the database but not read the audit key would: event from's
// action edited, every event after resealed on the new hashes, the
// checkpoints from there on replaced by one signed with another key.
func recompute(t *testing.T, dsn string, db *sql.DB, from int64) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn, session.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, err := store.Audit(st)
	if err != nil {
		t.Fatal(err)
	}
	var recs []audit.Record
	err = b.Scan(ctx, audit.Filter{}, func(r *audit.Record) error {
		c := *r
		c.Data, c.Hash = append([]byte(nil), r.Data...), append([]byte(nil), r.Hash...)
		recs = append(recs, c)
		return nil
	})
	b.Close()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	forger, err := audit.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	head := audit.Head{}
	for _, r := range recs {
		if r.Seq < from {
			head = audit.Head{Seq: r.Seq, Hash: r.Hash, First: 1}
			continue
		}
		ev, err := audit.Decode(&r)
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq == from {
			ev.Action.Arguments["command"] = "echo nothing to see"
		}
		nr, err := audit.Seal(ev, head)
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, "UPDATE warden_audit SET data = $1, hash = $2 WHERE seq = $3", nr.Data, nr.Hash, nr.Seq)
		head = audit.Head{Seq: nr.Seq, Hash: nr.Hash, First: 1}
	}
	// the checkpoints before from still hold; those after are replaced
	mustExec(t, db, "DELETE FROM warden_audit_checkpoints WHERE seq >= $1", from)
	cp := forger.Sign(head.Seq, head.Hash, time.Now())
	mustExec(t, db, "INSERT INTO warden_audit_checkpoints (seq, hash, time, key_id, sig) VALUES ($1, $2, $3, $4, $5)",
		cp.Seq, cp.Hash, cp.Time.UnixNano(), cp.KeyID, cp.Sig)
}

// Prune removes the oldest events, records that it did, and the trail
// still verifies.
func TestAuditPrune(t *testing.T) {
	for name, dsn := range auditStores(t) {
		t.Run(name, func(t *testing.T) {
			skipStore(t, dsn)
			recordTrail(t, dsn)
			if _, stderr := auditCLI(t, 2, dsn, "prune", "--before", "4"); !strings.Contains(stderr, "--yes") {
				t.Errorf("prune without --yes: %s", stderr)
			}
			auditCLI(t, 2, dsn, "prune", "--yes")
			auditCLI(t, 2, dsn, "prune", "--before", "3", "--older-than", "1h", "--yes")
			auditCLI(t, 2, dsn, "prune", "--older-than", "soon", "--yes")
			auditCLI(t, 2, dsn, "prune", "--before", "99", "--yes")
			if out, _ := auditCLI(t, 0, dsn, "prune", "--older-than", "24h", "--yes"); !strings.Contains(out, "nothing to prune") {
				t.Errorf("prune of events all recent: %s", out)
			}
			out, _ := auditCLI(t, 0, dsn, "prune", "--before", "4", "--yes", "--by", "ops", "--reason", "retention")
			for _, want := range []string{"removed 3 events (seq 1 to 3)", "recorded as event 7", "re-anchored on the hash of event 3"} {
				if !strings.Contains(out, want) {
					t.Errorf("prune said %q, want %q", out, want)
				}
			}
			out, _ = auditCLI(t, 0, dsn, "verify")
			if !strings.Contains(out, "result       OK") || !strings.Contains(out, "prune anchor at seq 3") {
				t.Errorf("verify after prune:\n%s", out)
			}
			out, _ = auditCLI(t, 0, dsn, "list")
			if seqs := listSeqs(t, out); fmt.Sprint(seqs) != "[4 5 6 7]" || !strings.Contains(out, "removed 3 events (seq 1 to 3) by ops: retention") {
				t.Errorf("list after prune:\n%s", out)
			}
			auditCLI(t, 1, dsn, "show", "2")
			// recording goes on after the prune, and a second prune re-anchors again
			recordTrail(t, dsn)
			auditCLI(t, 0, dsn, "verify")
			if out, _ := auditCLI(t, 0, dsn, "prune", "--before", "5", "--yes"); !strings.Contains(out, "removed 1 event (seq 4)") {
				t.Errorf("prune of one event: %s", out)
			}
			if out, _ := auditCLI(t, 0, dsn, "verify"); !strings.Contains(out, "prune anchor at seq 4") {
				t.Errorf("verify after a second prune:\n%s", out)
			}
		})
	}
}

// No raw secret reaches the store's files, an export, or what the
// commands print: actions carrying every secret of testdata's corpus (in
// a command, a file written, a URL, an MCP tool's arguments, input that is
// not an action) are recorded, then every file under the store's
// directory is read, with every export and everything printed.
//
// With and without session_id: a conversation's state, saved in the same
// database, keeps the files it wrote with their secrets masked too.
func TestAuditNoRawSecret(t *testing.T) {
	cases := corpus.Secrets(t, filepath.Join("..", "..", "testdata", "secrets.jsonl"), secrets.Default().Values)
	for _, sessions := range []bool{false, true} {
		t.Run(fmt.Sprintf("sessions=%v", sessions), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			dsn := filepath.Join(dir, "warden.db")
			var in strings.Builder
			for i, c := range cases {
				for _, a := range []map[string]any{
					bash("echo " + shellQuote(c.Text) + " >> config.txt"),
					write(c.Text),
					fetch("https://x.example/c?v=" + strings.ReplaceAll(c.Text, " ", "+")),
					{"tool": "mcp__notes__save_note", "arguments": map[string]any{"text": c.Text}},
				} {
					if sessions {
						a["session_id"] = fmt.Sprintf("secret-%d", i)
					}
					b, _ := json.Marshal(a)
					in.Write(b)
					in.WriteByte('\n')
				}
				in.WriteString("not json " + c.Text + "\n")
			}
			code, stdout, stderr := runCLI(t, in.String(), "assess", "--store", dsn, "--home", "/home/user", "--cwd", "/home/user/project")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			texts := map[string]string{"assess stdout": stdout, "assess stderr": stderr}
			export := filepath.Join(t.TempDir(), "trail.jsonl")
			for _, args := range [][]string{{"list"}, {"export"}, {"export", "--output", export}, {"verify"}, {"show", "1"}, {"show", "2"}, {"show", "5"}, {"prune", "--before", "2", "--yes"}} {
				o, e := auditCLI(t, 0, dsn, args...)
				texts[strings.Join(args, " ")+" stdout"], texts[strings.Join(args, " ")+" stderr"] = o, e
			}
			files := []string{export}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				files = append(files, filepath.Join(dir, e.Name()))
			}
			for _, p := range files {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				texts[p] = string(b)
			}
			if len(texts[dsn]) == 0 || len(texts[export]) == 0 {
				t.Fatalf("the store or the export was not read: %v", files)
			}
			noCorpusSecret(t, texts, cases)
		})
	}
}

// secretForms are the forms a raw secret could be stored in: as is, and
// as JSON escapes it.
func secretForms(raw string) []string {
	b, _ := json.Marshal(raw)
	forms := []string{raw}
	if esc := string(b[1 : len(b)-1]); esc != raw {
		forms = append(forms, esc)
	}
	return forms
}

// shellQuote quotes s for a POSIX shell, in single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
