package postgres

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// testSeed is the audit key of these tests (a test key, not a secret).
var testSeed = []byte("warden postgres audit test seed!")

func testKeys(t testing.TB) *audit.Keys {
	k, err := audit.KeysFromSeed(testSeed)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// The child processes of these tests are this test binary, run with
// childEnv set to what they are to do (see TestAuditChild), the DSN of
// the parent's schema in childDSN, and the number of events in childEach.
const (
	childEnv  = "WARDEN_AUDIT_TEST_CHILD"
	childDSN  = "WARDEN_AUDIT_TEST_CHILD_DSN"
	childEach = "WARDEN_AUDIT_TEST_CHILD_EACH"
)

// TestAuditChild is the child process of the multi-process tests; run
// by itself it does nothing. It opens the store, and appends from four
// goroutines through one Log ("append": each appends childEach events;
// "loop": until killed; "update": each records childEach events in
// Updates of the conversation "shared", with a step each), writing
// "ack SEQ" to stdout, in one write, once the event is committed.
func TestAuditChild(t *testing.T) {
	what := os.Getenv(childEnv)
	if what == "" {
		return
	}
	each, _ := strconv.Atoi(os.Getenv(childEach))
	ctx := context.Background()
	s, err := Open(ctx, os.Getenv(childDSN), session.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := audit.NewLog(s.Audit(), testKeys(t))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := 0; what == "loop" || i < each; i++ {
				ev := checkEvent(fmt.Sprintf("pid%d-%d", os.Getpid(), g), "Bash", risk.Allow, risk.Safe)
				var seq int64
				var err error
				if what == "update" {
					err = s.Update(ctx, "shared", func(ctx context.Context, st *session.State) error {
						if err := step(ctx, st); err != nil {
							return err
						}
						seq, err = l.Append(ctx, ev)
						return err
					})
				} else {
					seq, err = l.Append(ctx, ev)
				}
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := fmt.Fprintf(os.Stdout, "ack %d\n", seq); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// child starts this test binary as a child process doing what, on the
// schema of dsn, and returns it with its standard output.
func child(t *testing.T, dsn, what string, each int) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAuditChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+what, childDSN+"="+dsn, childEach+"="+strconv.Itoa(each))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// acks reads the "ack SEQ" lines of a child's output, to its end, into
// seen, failing on a seq acknowledged twice; after n acks (0: never) it
// calls at, once.
func acks(t *testing.T, out io.Reader, mu *sync.Mutex, seen map[int64]bool, n int, at func()) {
	sc := bufio.NewScanner(out)
	count := 0
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "ack ")
		if !ok {
			continue
		}
		seq, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			t.Errorf("child: %q", sc.Text())
			continue
		}
		mu.Lock()
		if seen[seq] {
			t.Errorf("event %d acknowledged twice", seq)
		}
		seen[seq] = true
		mu.Unlock()
		if count++; count == n {
			at()
		}
	}
}

// checkAcked checks that the chain of a holds every acknowledged event,
// and verifies (with the test key).
func checkAcked(t *testing.T, a audit.Backend, seen map[int64]bool) {
	t.Helper()
	h, err := a.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for seq := range seen {
		if seq < h.First {
			continue // pruned
		}
		if _, err := a.Get(t.Context(), seq); err != nil {
			t.Errorf("acknowledged event %d: %v", seq, err)
		}
	}
	if h.Seq < int64(len(seen)) && h.First <= 1 {
		t.Errorf("the chain ends at %d, and %d events were acknowledged", h.Seq, len(seen))
	}
	verify(t, a)
}

// TestAuditConcurrentProcesses: processes appending at once (each from
// goroutines through its own Log: two in groups, two in Updates of one
// conversation they share) keep one chain, holding every event
// acknowledged once, and the conversation every step.
func TestAuditConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dsn := testDSN(t)
	s := open(t, dsn, session.Config{})
	const procs, each = 4, 50
	var (
		mu   sync.Mutex
		seen = map[int64]bool{}
		wg   sync.WaitGroup
	)
	for i := range procs {
		what := "append"
		if i%2 == 1 {
			what = "update"
		}
		cmd, out := child(t, dsn, what, each)
		wg.Go(func() {
			acks(t, out, &mu, seen, 0, nil)
			if err := cmd.Wait(); err != nil {
				t.Errorf("child: %v", err)
			}
		})
	}
	wg.Wait()
	if len(seen) != procs*4*each {
		t.Errorf("%d events acknowledged, want %d", len(seen), procs*4*each)
	}
	checkAcked(t, s.Audit(), seen)
	if h, _ := s.Audit().Head(t.Context()); h.Seq != procs*4*each {
		t.Errorf("the chain ends at %d, want %d", h.Seq, procs*4*each)
	}
	if st, err := s.Get(t.Context(), "shared"); err != nil || st == nil || st.Steps() != procs/2*4*each {
		t.Errorf("the shared conversation: %v, %v; want %d steps", st, err, procs/2*4*each)
	}
}

// TestAuditConcurrentStores: stores of one process, each with its own
// Log (so their group commits contend for the chain's lock) keep one
// chain.
func TestAuditConcurrentStores(t *testing.T) {
	dsn := testDSN(t)
	const stores, writers, each = 4, 4, 25
	var (
		mu   sync.Mutex
		seen = map[int64]bool{}
		wg   sync.WaitGroup
	)
	for range stores {
		l := audit.NewLog(open(t, dsn, session.Config{}).Audit(), testKeys(t))
		for range writers {
			wg.Go(func() {
				for range each {
					seq, err := l.Append(context.Background(), checkEvent("s", "Bash", risk.Allow, risk.Safe))
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if seen[seq] {
						t.Errorf("event %d acknowledged twice", seq)
					}
					seen[seq] = true
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(seen) != stores*writers*each {
		t.Fatalf("%d events acknowledged, want %d", len(seen), stores*writers*each)
	}
	checkAcked(t, open(t, dsn, session.Config{}).Audit(), seen)
}

// TestAuditCrash: a process killed (SIGKILL) while it appends loses no
// event it acknowledged, leaves a chain that verifies, and holds no lock:
// the server rolls back its connections' transactions, and a new store
// appends after it.
func TestAuditCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dsn := testDSN(t)
	s := open(t, dsn, session.Config{})
	var (
		mu   sync.Mutex
		seen = map[int64]bool{}
	)
	cmd, out := child(t, dsn, "loop", 0)
	acks(t, out, &mu, seen, 300, func() {
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Error(err)
		}
	})
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
	if len(seen) < 300 {
		t.Fatalf("%d acknowledged events", len(seen))
	}

	// A new store appends: it waits for the lock of a transaction the
	// server may still be ending for the dead child (at most LockTimeout,
	// then it fails), and its event comes after every one acknowledged.
	after := open(t, dsn, session.Config{})
	seq, err := audit.NewLog(after.Audit(), testKeys(t)).Append(t.Context(), checkEvent("after", "Bash", risk.Allow, risk.Safe))
	if err != nil {
		t.Fatalf("append after the kill: %v", err)
	}
	for acked := range seen {
		if acked >= seq {
			t.Errorf("the append after the kill got seq %d, and %d was acknowledged before", seq, acked)
		}
	}
	seen[seq] = true
	checkAcked(t, s.Audit(), seen)
	t.Logf("%d events acknowledged before the kill, %d in the chain before the next", len(seen)-1, seq-1)
}

// verify checks the chain and its checkpoints' signatures with the test
// key (audit.Verify), and that its head is signed.
func verify(t *testing.T, b audit.Backend) {
	t.Helper()
	rep, err := audit.Verify(t.Context(), b, testKeys(t).Public())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || !rep.KeyChecked || rep.SignedThrough != rep.Last || rep.Events != rep.Last-rep.First+1 {
		t.Fatalf("verify: %+v", rep)
	}
}

// TestAuditJoinedAndGrouped: events a Log appends in the transactions of
// Updates (each alone, committed with the conversation's state) and
// events it commits in groups, at once, from one process, keep one chain
// and lose nothing; an Update that fails after its append leaves no
// event.
func TestAuditJoinedAndGrouped(t *testing.T) {
	s := open(t, testDSN(t), session.Config{})
	l := audit.NewLog(s.Audit(), testKeys(t))
	const writers, each = 4, 20
	var (
		mu   sync.Mutex
		seen = map[int64]bool{}
		wg   sync.WaitGroup
	)
	ack := func(seq int64) {
		mu.Lock()
		defer mu.Unlock()
		if seen[seq] {
			t.Errorf("event %d acknowledged twice", seq)
		}
		seen[seq] = true
	}
	failed := errors.New("failed after recording")
	for w := range writers {
		conv := fmt.Sprintf("conv%d", w)
		wg.Go(func() {
			for i := range each {
				var seq int64
				err := s.Update(context.Background(), conv, func(ctx context.Context, st *session.State) error {
					if err := step(ctx, st); err != nil {
						return err
					}
					var err error
					if seq, err = l.Append(ctx, checkEvent(conv, "Bash", risk.Allow, risk.Safe)); err != nil {
						return err
					}
					if i%5 == 4 {
						return failed // every fifth: neither the step nor the event
					}
					return nil
				})
				switch {
				case i%5 == 4 && err != failed:
					t.Errorf("%s: %v", conv, err)
				case i%5 != 4 && err != nil:
					t.Error(err)
				case err == nil:
					ack(seq)
				}
			}
		})
		wg.Go(func() {
			for range each {
				seq, err := l.Append(context.Background(), checkEvent("grouped", "Bash", risk.Allow, risk.Safe))
				if err != nil {
					t.Error(err)
					return
				}
				ack(seq)
			}
		})
	}
	wg.Wait()
	want := writers*each + writers*each*4/5
	if len(seen) != want {
		t.Errorf("%d events acknowledged, want %d", len(seen), want)
	}
	checkAcked(t, s.Audit(), seen)
	if h, _ := s.Audit().Head(t.Context()); h.Seq != int64(want) {
		t.Errorf("the chain holds %d events, want %d", h.Seq, want)
	}
	for w := range writers {
		if st, err := s.Get(t.Context(), fmt.Sprintf("conv%d", w)); err != nil || st == nil || st.Steps() != each*4/5 {
			t.Errorf("conv%d: %v, %v", w, st, err)
		}
	}
}

// TestAuditStrictDefaultIsolation: on a server (here a connection) whose
// default isolation is serializable, Updates of one conversation that
// record in its trail, and appends at once, still all succeed, and keep
// one chain: the store's transactions are read committed, as its locks
// need, whatever the default.
func TestAuditStrictDefaultIsolation(t *testing.T) {
	dsn := testDSN(t)
	sep := "&"
	if !strings.Contains(dsn, "://") {
		sep = " "
	}
	s := open(t, dsn+sep+"default_transaction_isolation=serializable", session.Config{})
	var level string
	if err := s.Pool().QueryRow(t.Context(), `SHOW default_transaction_isolation`).Scan(&level); err != nil || level != "serializable" {
		t.Fatalf("default isolation %q, %v", level, err)
	}
	l := audit.NewLog(s.Audit(), testKeys(t))
	const writers, each = 4, 15
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				err := s.Update(context.Background(), "conv", func(ctx context.Context, st *session.State) error {
					if err := step(ctx, st); err != nil {
						return err
					}
					_, err := l.Append(ctx, checkEvent("conv", "Bash", risk.Allow, risk.Safe))
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
		wg.Go(func() {
			for range each {
				if _, err := l.Append(context.Background(), checkEvent("grouped", "Bash", risk.Allow, risk.Safe)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if st, err := s.Get(t.Context(), "conv"); err != nil || st == nil || st.Steps() != writers*each {
		t.Errorf("conv: %v, %v", st, err)
	}
	if h, err := s.Audit().Head(t.Context()); err != nil || h.Seq != 2*writers*each {
		t.Errorf("head %+v, %v; want %d events", h, err, 2*writers*each)
	}
	verify(t, s.Audit())
}

// TestAuditPruneWhileAppending: prunes while processes append (the first
// after a hundred acknowledgements, then as often as they run) keep one
// chain, anchored where the last prune cut it, holding every event
// acknowledged after the cut and a prune event for each prune.
func TestAuditPruneWhileAppending(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dsn := testDSN(t)
	s := open(t, dsn, session.Config{})
	l := audit.NewLog(s.Audit(), testKeys(t))
	var (
		mu      sync.Mutex
		seen    = map[int64]bool{}
		wg      sync.WaitGroup
		pruning sync.Mutex // one prune at a time: only appends move the head on
		prunes  int64
	)
	prune := func() {
		pruning.Lock()
		defer pruning.Unlock()
		h, err := s.Audit().Head(t.Context())
		if err != nil {
			t.Error(err)
			return
		}
		if h.Seq-h.First < 2 {
			return
		}
		// appends may have moved the head on: the bounds hold all the same
		if _, err := l.Prune(t.Context(), h.First+(h.Seq-h.First)/2, "test", "while appending"); err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		prunes++
		mu.Unlock()
	}
	const procs, each = 2, 60
	done := make(chan struct{})
	for i := range procs {
		cmd, out := child(t, dsn, "append", each)
		wg.Go(func() {
			at := func() {}
			if i == 0 {
				at = prune
			}
			acks(t, out, &mu, seen, 100, at)
			if err := cmd.Wait(); err != nil {
				t.Errorf("child: %v", err)
			}
		})
	}
	var pruner sync.WaitGroup
	pruner.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
				prune()
			}
		}
	})
	wg.Wait()
	close(done)
	pruner.Wait()
	if len(seen) != procs*4*each {
		t.Errorf("%d events acknowledged, want %d", len(seen), procs*4*each)
	}
	h, err := s.Audit().Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if prunes == 0 || h.First <= 1 || h.Seq != int64(len(seen))+prunes {
		t.Errorf("%d prunes; the chain holds %d to %d, with %d events acknowledged", prunes, h.First, h.Seq, len(seen))
	}
	checkAcked(t, s.Audit(), seen)
	var kept int
	if err := s.Audit().Scan(t.Context(), audit.Filter{Kinds: []audit.Kind{audit.KindPrune}}, func(*audit.Record) error { kept++; return nil }); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d prunes (%d prune events kept); the chain holds %d to %d", prunes, kept, h.First, h.Seq)
}
