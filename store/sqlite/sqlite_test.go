package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/session/storetest"
	"github.com/agentwarden/warden/tool"
)

func open(t *testing.T, path string, cfg session.Config) *Store {
	t.Helper()
	s, err := Open(t.Context(), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "warden.db")
	clock := &storetest.Clock{}
	storetest.Run(t, func(t *testing.T) session.Store {
		return open(t, path, session.Config{Now: clock.Now})
	}, storetest.WithClock(clock), storetest.WithCorrupt(func(t *testing.T, id string) {
		s := open(t, path, session.Config{})
		if _, err := s.DB().Exec(`UPDATE warden_sessions SET data = substr(data, 1, length(data) - 9) || x'00' || substr(data, length(data) - 7) WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}), storetest.WithStored(func(t *testing.T, id string, version int, data []byte) {
		s := open(t, path, session.Config{Now: clock.Now})
		if _, err := s.DB().Exec(`INSERT INTO warden_sessions (id, version, data, updated_at) VALUES (?, ?, ?, ?)`, id, version, data, clock.Now().UnixNano()); err != nil {
			t.Fatal(err)
		}
	}))
}

func TestFileModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "warden.db")
	s := open(t, path, session.Config{})
	if err := s.Update(t.Context(), "x", func(_ context.Context, st *session.State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), want)
		}
	}
	var mode string
	s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal mode %q", mode)
	}
	// every connection syncs the WAL at each commit (2: FULL)
	conns := make([]*sql.Conn, 4)
	for i := range conns {
		c, err := s.DB().Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
		var sync int
		if err := c.QueryRowContext(t.Context(), `PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
			t.Errorf("connection %d: synchronous %d (%v), want 2 (FULL)", i, sync, err)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello, this is not a database at all\n"), 0o600)
	other := filepath.Join(dir, "other.db")
	s := open(t, filepath.Join(dir, "ok.db"), session.Config{})
	s.Close()
	// an SQLite database of some other program
	if _, err := s.DB().Exec("SELECT 1"); err == nil {
		t.Fatal("closed store's database still usable")
	}
	func() {
		o, err := Open(t.Context(), other, session.Config{})
		if err != nil {
			t.Fatal(err)
		}
		o.DB().Exec(`DROP TABLE warden_sessions; DROP TABLE warden_meta; CREATE TABLE photos (id INTEGER)`)
		o.Close()
	}()
	for name, c := range map[string]struct{ path, want string }{
		"empty name":     {"", "no file named"},
		"directory":      {dir, "is a directory"},
		"text file":      {text, "not a warden store"},
		"other database": {other, "not a warden store"},
	} {
		if _, err := Open(t.Context(), c.path, session.Config{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

// TestPathsWithOddCharacters: a file name is a file name, not a URI.
func TestPathsWithOddCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?x=1#frag", "w%20arden.db")
	s := open(t, path, session.Config{})
	if err := s.Update(t.Context(), "x", func(_ context.Context, st *session.State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the store is not at %s: %v", path, err)
	}
}

func step(_ context.Context, st *session.State) error {
	c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Cwd: "/w", Shell: []string{"true"}}
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow})
	return nil
}

// TestConcurrentStores: stores of their own on one file (as processes
// have), updating one conversation at once, lose no update.
func TestConcurrentStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	const stores, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, stores)
	for range stores {
		s := open(t, path, session.Config{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := s.Update(context.Background(), "conv", step); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st, err := open(t, path, session.Config{}).Get(t.Context(), "conv")
	if err != nil || st == nil || st.Steps() != stores*each {
		t.Fatalf("%d updates: state %v, %v", stores*each, st, err)
	}
}

// TestConcurrentProcesses: this test binary, started again as helper
// processes, updates one conversation in one file with the test at once.
func TestConcurrentProcesses(t *testing.T) {
	if p := os.Getenv("WARDEN_SQLITE_HELPER"); p != "" {
		n, _ := strconv.Atoi(os.Getenv("WARDEN_SQLITE_STEPS"))
		s, err := Open(context.Background(), p, session.Config{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for range n {
			if err := s.Update(context.Background(), "conv", step); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		s.Close()
		return
	}
	path := filepath.Join(t.TempDir(), "w.db")
	const procs, each = 3, 30
	var cmds []*exec.Cmd
	for range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
		cmd.Env = append(os.Environ(), "WARDEN_SQLITE_HELPER="+path, "WARDEN_SQLITE_STEPS="+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	s := open(t, path, session.Config{})
	for range each {
		if err := s.Update(t.Context(), "conv", step); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper process: %v", err)
		}
	}
	st, err := s.Get(t.Context(), "conv")
	if err != nil || st == nil || st.Steps() != (procs+1)*each {
		t.Fatalf("%d processes × %d updates: %d steps (%v)", procs+1, each, st.Steps(), err)
	}
}

// TestOversizedRowRefused: a row larger than MaxBytes is an error, and is
// not read into memory.
func TestOversizedRowRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	s := open(t, path, session.Config{})
	if _, err := s.DB().Exec(`INSERT INTO warden_sessions VALUES ('big', ?, zeroblob(1000000), ?)`, session.Version, s.cfg.Now().UnixNano()); err != nil {
		t.Fatal(err)
	}
	small := open(t, path, session.Config{MaxBytes: 1 << 16})
	if _, err := small.Get(t.Context(), "big"); err == nil || !strings.Contains(err.Error(), "more than MaxBytes") {
		t.Errorf("Get of a 1 MB row with MaxBytes 64 KiB: %v", err)
	}
	if err := small.Update(t.Context(), "big", step); err == nil {
		t.Error("Update of an oversized row: no error")
	}
}

// retryBusy tries again while SQLite answers "database is locked" at once
// (a connection without a busy timeout meets another's write
// transaction), until the lock is released or its wait is over, and
// returns any other error at once.
func TestRetryBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	holder, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.Exec(`PRAGMA journal_mode=WAL; CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	waiter, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	write := func() error {
		tx, err := waiter.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO t VALUES (1)`); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	lock := func() *sql.Tx {
		tx, err := holder.Begin()
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}

	tx := lock()
	if err := write(); !isBusy(err) {
		t.Fatalf("a write meeting another's transaction: %v, want SQLITE_BUSY", err)
	}
	if err := retryBusy(t.Context(), 50*time.Millisecond, write); !isBusy(err) {
		t.Fatalf("retryBusy while the lock is held past its wait: %v, want SQLITE_BUSY", err)
	}
	go func() { time.Sleep(100 * time.Millisecond); tx.Commit() }()
	if err := retryBusy(t.Context(), 10*time.Second, write); err != nil {
		t.Fatalf("retryBusy after the lock is released: %v", err)
	}

	calls := 0
	other := errors.New("not busy")
	if err := retryBusy(t.Context(), time.Second, func() error { calls++; return other }); err != other || calls != 1 {
		t.Fatalf("another error: %v after %d calls, want it at once", err, calls)
	}
}
