package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/session"
)

// walSize returns the size of the WAL file of the store at path.
func walSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// commitAndClose opens the store at path, commits one Update and closes
// it, as a hook's process does; it returns the size of the WAL before
// and after the Close.
func commitAndClose(t testing.TB, path string, i int) (before, after int64) {
	t.Helper()
	s, err := Open(context.Background(), path, session.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(context.Background(), fmt.Sprint("c", i%3), step); err != nil {
		t.Fatal(err)
	}
	before = walSize(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return before, walSize(t, path)
}

// TestNoCheckpointOnClose: Close leaves a WAL smaller than checkpointAt
// as it is, for the next process to read (it fails if the connections
// checkpoint when they close, as SQLite's do by default: the WAL would be
// emptied at every Close); once the WAL has grown to checkpointAt, Close
// checkpoints and empties it. What was committed is read back either way.
func TestNoCheckpointOnClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warden.db")
	emptied := false
	var before, after int64
	for i := 0; i < 200 && !emptied; i++ {
		before, after = commitAndClose(t, path, i)
		switch {
		case before < checkpointAt && after != before:
			t.Fatalf("Close %d: a WAL of %d bytes, under checkpointAt (%d), became %d bytes", i, before, checkpointAt, after)
		case before >= checkpointAt && after != 0:
			t.Fatalf("Close %d: a WAL of %d bytes, over checkpointAt (%d), was left with %d bytes", i, before, checkpointAt, after)
		}
		emptied = after == 0
	}
	if !emptied {
		t.Fatalf("the WAL grew to %d bytes and was never checkpointed", after)
	}
	s := open(t, path, session.Config{})
	for i := range 3 {
		st, err := s.Get(t.Context(), fmt.Sprint("c", i))
		if err != nil || st == nil {
			t.Fatalf("conversation c%d after the checkpoint: %v, %v", i, st, err)
		}
	}
}

// BenchmarkOpenWAL: what opening the store costs the process after one
// that left a WAL of so many pages (its index is rebuilt from it), with
// the Close that does not checkpoint it: the cost that checkpointAt
// weighs against a checkpoint at every Close.
func BenchmarkOpenWAL(b *testing.B) {
	for _, pages := range []int{16, 32, 64, 88} {
		b.Run(fmt.Sprint("pages=", pages), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "warden.db")
			for i := 0; i == 0 || walSize(b, path) < int64(pages)*(4096+24); i++ {
				if _, after := commitAndClose(b, path, i); after == 0 {
					b.Fatal("the WAL was checkpointed")
				}
			}
			size := walSize(b, path)
			for b.Loop() {
				s, err := Open(context.Background(), path, session.Config{})
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			if walSize(b, path) != size {
				b.Fatal("the WAL changed")
			}
			b.ReportMetric(float64(size)/(4096+24), "pages")
		})
	}
}
