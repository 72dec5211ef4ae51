package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/tool"
)

// A call as the engine records it: a shell command that writes a file,
// sets a variable and changes directory.
func record(st *session.State, i int) error {
	c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Known: true, Cwd: "/home/user/project", Home: "/home/user",
		Shell: []string{fmt.Sprintf("cd src && X=%d && echo step %d > notes/%d.txt", i, i, i%32)},
		Effects: []tool.Effect{
			{Kind: tool.Chdir, Path: "/home/user/project/src", Known: true},
			{Kind: tool.SetVar, Path: "X", Text: fmt.Sprint(i), Known: true},
			{Kind: tool.WriteFile, Path: fmt.Sprintf("/home/user/project/src/notes/%d.txt", i%32), Text: fmt.Sprintf("step %d\n", i), Known: true},
		}}
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.Low, AffectedResources: []string{"file:/home/user/project/src/notes"}}, &risk.Decision{Verdict: risk.Allow})
	return nil
}

// stores returns the stores to measure: memory, SQLite (a file on disk,
// WAL), and PostgreSQL when WARDEN_TEST_POSTGRES_DSN names one.
func stores(b *testing.B) map[string]func() session.Store {
	ctx := context.Background()
	dir := b.TempDir()
	out := map[string]func() session.Store{
		"memory": func() session.Store { return session.NewMemoryStore(session.Config{}) },
		"sqlite": func() session.Store {
			s, err := Open(ctx, filepath.Join(dir, "bench.db"), session.Config{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
	}
	if dsn := os.Getenv("WARDEN_TEST_POSTGRES_DSN"); dsn != "" {
		out["postgres"] = func() session.Store {
			s, err := Open(ctx, dsn, session.Config{})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	}
	return out
}

// BenchmarkUpdate: one Update (read, decode, record a call, encode,
// save) of a conversation that has 40 steps behind it (history full, 32
// files, variables), per store. The SQLite store's budget is what it adds
// to a call over memory: ≤ 1 ms.
func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	b.Run("none", func(b *testing.B) { // the call recorded on a live state: what every store adds to
		st := session.NewState(session.Config{})
		for i := range 40 {
			record(st, i)
		}
		i := 40
		for b.Loop() {
			record(st, i)
			i++
		}
	})
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		open, ok := stores(b)[name]
		if !ok {
			b.Logf("%s: skipped (WARDEN_TEST_POSTGRES_DSN not set)", name)
			continue
		}
		b.Run(name, func(b *testing.B) {
			s := open()
			defer s.Close()
			id := fmt.Sprintf("bench-%d", os.Getpid())
			defer s.Delete(ctx, id)
			for i := range 40 {
				if err := s.Update(ctx, id, func(_ context.Context, st *session.State) error { return record(st, i) }); err != nil {
					b.Fatal(err)
				}
			}
			i := 40
			for b.Loop() {
				if err := s.Update(ctx, id, func(_ context.Context, st *session.State) error { return record(st, i) }); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkOpenUpdateClose: what a hook process pays for its one call:
// open the store, one Update, close.
func BenchmarkOpenUpdateClose(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"sqlite", "postgres"} {
		open, ok := stores(b)[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			id := fmt.Sprintf("bench-open-%d", os.Getpid())
			i := 0
			for b.Loop() {
				s := open()
				if err := s.Update(ctx, id, func(_ context.Context, st *session.State) error { return record(st, i) }); err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					defer func() { s := open(); s.Delete(ctx, id); s.Close() }()
				}
				s.Close()
				i++
			}
		})
	}
}
