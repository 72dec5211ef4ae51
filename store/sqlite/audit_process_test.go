package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// The helper processes of these tests are this test binary started again
// with WARDEN_AUDIT_CHILD set to the store's path: they append through
// one Log from several goroutines (so that their appends commit in
// groups), and print "ack SEQ" on stdout, one line per write, for each
// append that returned.
const (
	childEnv   = "WARDEN_AUDIT_CHILD"
	childCount = "WARDEN_AUDIT_APPENDS" // appends per goroutine; 0: until killed
	childProcs = 4                      // goroutines per helper process
)

// appendChild is the helper process's work; it exits the process.
func appendChild(path string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "helper process:", err)
		os.Exit(2)
	}
	n, _ := strconv.Atoi(os.Getenv(childCount))
	k, err := audit.KeysFromSeed(testSeed)
	if err != nil {
		fail(err)
	}
	s, err := Open(context.Background(), path, session.Config{})
	if err != nil {
		fail(err)
	}
	l := audit.NewLog(s.Audit(), k)
	var out sync.Mutex
	var wg sync.WaitGroup
	for g := range childProcs {
		wg.Go(func() {
			for i := 0; n == 0 || i < n; i++ {
				seq, err := l.Append(context.Background(), event(fmt.Sprint("p", os.Getpid()), fmt.Sprint("g", g), "Bash", risk.Allow, risk.Low))
				if err != nil {
					fail(err)
				}
				out.Lock()
				// os.Stdout is unbuffered: the line is out when Write returns
				_, err = fmt.Fprintf(os.Stdout, "ack %d\n", seq)
				out.Unlock()
				if err != nil {
					fail(err)
				}
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		fail(err)
	}
	os.Exit(0)
}

// startChild starts a helper process appending n events per goroutine
// (0: until killed) to the store at path; acks reads its acknowledged
// seqs.
func startChild(t *testing.T, test, path string, n int) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), childEnv+"="+path, childCount+"="+strconv.Itoa(n))
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

// acks reads "ack SEQ" lines from r until EOF, or until stop (when not
// nil) says to stop after the line it was given; a last line cut short
// is not an acknowledgement. It may run on any goroutine: a line it
// cannot read is an error.
func acks(r io.Reader, stop func(n int) bool) ([]int64, error) {
	var seqs []int64
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return seqs, nil // io.EOF, or the pipe closed; a line without its \n is dropped
		}
		rest, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "ack ")
		if !ok {
			continue // the test framework's own output
		}
		seq, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return seqs, fmt.Errorf("helper process printed %q", line)
		}
		seqs = append(seqs, seq)
		if stop != nil && stop(len(seqs)) {
			return seqs, nil
		}
	}
}

// mustAcks is acks on the test's goroutine.
func mustAcks(t *testing.T, r io.Reader, stop func(n int) bool) []int64 {
	t.Helper()
	seqs, err := acks(r, stop)
	if err != nil {
		t.Fatal(err)
	}
	return seqs
}

// checkAcked fails t unless every seq in acked was acknowledged once and
// is in the chain of a.
func checkAcked(t *testing.T, a audit.Backend, acked []int64) {
	t.Helper()
	seen := map[int64]bool{}
	for _, seq := range acked {
		if seen[seq] {
			t.Fatalf("seq %d acknowledged twice", seq)
		}
		seen[seq] = true
		if _, err := a.Get(context.Background(), seq); err != nil {
			t.Fatalf("acknowledged event %d: %v", seq, err)
		}
	}
}

// TestAuditProcesses: helper processes and this one append to one file
// at once, through a Log each: every acknowledged seq is in the chain
// once, no other is, and the chain verifies with the key.
func TestAuditProcesses(t *testing.T) {
	if path := os.Getenv(childEnv); path != "" {
		appendChild(path)
	}
	path := filepath.Join(t.TempDir(), "w.db")
	const procs, each = 3, 25
	type child struct {
		cmd  *exec.Cmd
		acks chan []int64
		err  chan error
	}
	var children []child
	for range procs {
		cmd, out := startChild(t, "TestAuditProcesses", path, each)
		c := child{cmd, make(chan []int64, 1), make(chan error, 1)}
		go func() {
			seqs, err := acks(out, nil)
			c.acks <- seqs
			c.err <- err
		}()
		children = append(children, c)
	}
	s := open(t, path, session.Config{})
	k := testKeys(t)
	l := audit.NewLog(s.Audit(), k)
	var all []int64
	for range each {
		seq, err := l.Append(t.Context(), event("parent", "", "Read", risk.Allow, risk.Safe))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, seq)
	}
	for _, c := range children {
		got := <-c.acks
		if err := <-c.err; err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("helper process: %v", err)
		}
		if len(got) != childProcs*each {
			t.Fatalf("a helper process acknowledged %d appends, want %d", len(got), childProcs*each)
		}
		all = append(all, got...)
	}
	checkAcked(t, s.Audit(), all)
	if h := verify(t, s.Audit(), k.Public()); h.Seq != int64(len(all)) || h.First != 1 {
		t.Fatalf("%d appends acknowledged, head %+v", len(all), h)
	}
}

// TestAuditCrash: a helper process appending from several goroutines is
// killed (SIGKILL) once it acknowledged a few hundred appends. Every
// acknowledged event is in the file, the chain verifies with the key
// (each write's checkpoint commits with its events), and another process
// appends after.
func TestAuditCrash(t *testing.T) {
	if path := os.Getenv(childEnv); path != "" {
		appendChild(path)
	}
	path := filepath.Join(t.TempDir(), "w.db")
	cmd, out := startChild(t, "TestAuditCrash", path, 0)
	got := mustAcks(t, out, func(n int) bool { return n >= 300 })
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// what it printed before it died was acknowledged too
	got = append(got, mustAcks(t, out, nil)...)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the helper process was not killed")
	}
	if len(got) < 300 {
		t.Fatalf("the helper process acknowledged %d appends before it died, want at least 300", len(got))
	}

	k := testKeys(t)
	s := open(t, path, session.Config{})
	checkAcked(t, s.Audit(), got)
	h := verify(t, s.Audit(), k.Public())
	t.Logf("%d appends acknowledged, %d in the chain", len(got), h.Seq)

	cmd, out = startChild(t, "TestAuditCrash", path, 5)
	after := mustAcks(t, out, nil)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("a process appending after the crash: %v", err)
	}
	checkAcked(t, s.Audit(), append(got, after...))
	if h2 := verify(t, s.Audit(), k.Public()); h2.Seq != h.Seq+childProcs*5 {
		t.Fatalf("after %d more appends: head %d, was %d", childProcs*5, h2.Seq, h.Seq)
	}
}
