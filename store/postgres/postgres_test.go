package postgres

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/session/storetest"
	"github.com/agentwarden/warden/tool"
)

// testDSN returns the DSN of a schema of the test's own in the database
// WARDEN_TEST_POSTGRES_DSN names, dropped when the test ends.
func testDSN(t testing.TB) string {
	dsn := baseDSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("WARDEN_TEST_POSTGRES_DSN: %v", err)
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("warden_test_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	if !strings.Contains(dsn, "://") {
		return dsn + " search_path=" + schema
	}
	return dsn + sep + "search_path=" + schema
}

// baseDSN returns WARDEN_TEST_POSTGRES_DSN, or skips t when it is unset.
func baseDSN(t testing.TB) string {
	dsn := os.Getenv("WARDEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("WARDEN_TEST_POSTGRES_DSN is not set: no PostgreSQL to test against (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	return dsn
}

func open(t testing.TB, dsn string, cfg session.Config) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	dsn := testDSN(t)
	clock := &storetest.Clock{}
	storetest.Run(t, func(t *testing.T) session.Store {
		return open(t, dsn, session.Config{Now: clock.Now})
	}, storetest.WithClock(clock), storetest.WithCorrupt(func(t *testing.T, id string) {
		s := open(t, dsn, session.Config{})
		if _, err := s.Pool().Exec(t.Context(), `UPDATE warden_sessions SET data = overlay(data placing '\x00'::bytea from octet_length(data) - 8) WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}), storetest.WithStored(func(t *testing.T, id string, version int, data []byte) {
		s := open(t, dsn, session.Config{Now: clock.Now})
		if _, err := s.Pool().Exec(t.Context(), `INSERT INTO warden_sessions (id, version, data, updated_at) VALUES ($1, $2, $3, $4)`, id, version, data, clock.Now().UnixNano()); err != nil {
			t.Fatal(err)
		}
	}))
}

func step(_ context.Context, st *session.State) error {
	c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Cwd: "/w", Shell: []string{"true"}}
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow})
	return nil
}

// TestConcurrentFirstUse: stores opened at once on an empty schema create
// the tables once, share one key, and lose no update of one conversation.
func TestConcurrentFirstUse(t *testing.T) {
	dsn := testDSN(t)
	const stores, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, stores)
	for range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), dsn, session.Config{})
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
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
	st, err := open(t, dsn, session.Config{}).Get(t.Context(), "conv")
	if err != nil || st == nil || st.Steps() != stores*each {
		t.Fatalf("%d updates: %v, %v", stores*each, st, err)
	}
}

func TestOpenErrors(t *testing.T) {
	for name, c := range map[string]struct{ dsn, want string }{
		"empty":       {"", "no database named"},
		"invalid":     {"postgres://u:hunter2@[::1", "not valid"},
		"unreachable": {"postgres://u:hunter2@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", "127.0.0.1:1/x"},
	} {
		_, err := Open(t.Context(), c.dsn, session.Config{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error shows the password: %v", name, err)
		}
	}
}

// TestNotAWardenStore: a warden_meta table of someone else's is refused.
func TestNotAWardenStore(t *testing.T) {
	dsn := testDSN(t)
	s := open(t, dsn, session.Config{})
	if _, err := s.Pool().Exec(t.Context(), `DELETE FROM warden_meta WHERE name = 'schema'`); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(t.Context(), dsn, session.Config{}); err == nil || !strings.Contains(err.Error(), "not a warden store") {
		t.Errorf("%v", err)
	}
}
