package warden_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/sqlite"
)

// filed is a backend that names its files, as a store of files does.
type filed struct {
	*audit.Memory
	files []string
}

func (f filed) Files() []string { return f.files }

// The trail's key file and store are warden's own: an agent's write,
// deletion or redirection onto them is locked, critical and never
// allowed, wherever they are kept, and its event is marked as a bypass
// attempt. Without WithGuardedFiles, a key file outside warden's
// directories is not guarded (the test fails without the option).
func TestAuditFilesGuarded(t *testing.T) {
	ctx := context.Background()
	t.Setenv("WARDEN_AUDIT_KEY_FILE", "") // the default place, below
	const key, db = "/srv/keys/warden-audit.key", "/srv/data/audit.db"
	keys, _ := audit.KeysFromSeed(make([]byte, 32))
	mem := audit.NewMemory()
	lg := audit.NewLog(filed{mem, []string{db, db + "-wal"}}, keys)
	eng := corpusEngine(t, warden.WithAudit(lg), warden.WithGuardedFiles(key), warden.WithMode("bypassPermissions"))
	acts := []risk.Action{
		guardAct("Write", "file_path", key, "content", "warden-audit-key v1\nAAAA\n"),
		guardAct("Edit", "file_path", key, "old_string", "A", "new_string", "B"),
		bash("echo AAAA > " + key),
		bash("rm -f " + db),
		bash("sqlite3 " + db + " 'delete from audit'"),
		bash("cp /tmp/forged.db " + db),
		bash("truncate -s0 " + db + "-wal"),
		bash("mv /srv/keys /tmp/k"),
	}
	for _, a := range acts {
		as, d, err := eng.Check(ctx, a)
		if err != nil || !as.Locked || as.Level != risk.Critical || d.Verdict == risk.Allow || !hasPrefix(as, "guard.") {
			t.Errorf("%s %v: %v locked=%v %v (%v), want a locked critical guard finding, not allowed", a.Tool, a.Arguments, as.Level, as.Locked, d, err)
		}
	}
	var n int
	mem.Scan(ctx, audit.Filter{}, func(r *audit.Record) error {
		ev, err := audit.Decode(r)
		if err != nil || !ev.Bypass {
			t.Errorf("event %d: bypass not marked (%v)", r.Seq, err)
		}
		n++
		return nil
	})
	if n != len(acts) {
		t.Errorf("%d events for %d checks", n, len(acts))
	}
	// without the option, the key file outside warden's directories is
	// not known to the guard
	plain := corpusEngine(t, warden.WithAudit(audit.NewLog(audit.NewMemory(), keys)))
	if as, _, _ := plain.Check(ctx, acts[0]); hasPrefix(as, "guard.") {
		t.Errorf("a key file no option names is guarded: %v", as.Findings)
	}
	// the key file $WARDEN_AUDIT_KEY_FILE names is guarded without the
	// option
	t.Setenv("WARDEN_AUDIT_KEY_FILE", "/srv/other/audit.key")
	env := corpusEngine(t, warden.WithAudit(audit.NewLog(audit.NewMemory(), keys)))
	if as, d, _ := env.Check(ctx, bash("rm /srv/other/audit.key")); !as.Locked || d.Verdict == risk.Allow || !hasPrefix(as, "guard.") {
		t.Errorf("the key file of WARDEN_AUDIT_KEY_FILE: %v %v", as.Findings, d)
	}
	if _, err := warden.New(warden.WithGuardedFiles("keys/audit.key")); err == nil {
		t.Error("a relative guarded path was accepted")
	}
}

// An engine given a SQLite trail alone, its conversations in memory,
// guards the trail's file: the backend names it (sqlite.Audit.Files).
func TestAuditSQLiteFilesGuarded(t *testing.T) {
	ctx := context.Background()
	t.Setenv("WARDEN_AUDIT_KEY_FILE", "")
	db := filepath.ToSlash(filepath.Join(t.TempDir(), "trail.db"))
	st, err := sqlite.Open(ctx, db, session.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, _ := audit.KeysFromSeed(make([]byte, 32))
	eng := corpusEngine(t, warden.WithAudit(audit.NewLog(st.Audit(), keys)))
	for _, a := range []risk.Action{bash("rm -f " + db), bash("truncate -s0 " + db + "-wal"), guardAct("Write", "file_path", db, "content", "x")} {
		as, d, err := eng.Check(ctx, a)
		if err != nil || !as.Locked || d.Verdict == risk.Allow || !hasPrefix(as, "guard.") {
			t.Errorf("%v: %v locked=%v %v (%v), want a locked guard finding", a.Arguments, as.Level, as.Locked, d, err)
		}
	}
}
