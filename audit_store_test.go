package warden_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store/postgres"
	"github.com/agentwarden/warden/store/sqlite"
)

// pgSchema returns the DSN of a schema of the test's own in the database
// WARDEN_TEST_POSTGRES_DSN names, dropped when the test ends; it skips
// the test when the variable is unset.
func pgSchema(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("WARDEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("WARDEN_TEST_POSTGRES_DSN is not set: the engine's trail in PostgreSQL is not tested (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("warden_engine_%d_%d", os.Getpid(), time.Now().UnixNano())
	exec := func(sql string) {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatalf("WARDEN_TEST_POSTGRES_DSN: %v", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	exec("CREATE SCHEMA " + schema)
	t.Cleanup(func() { exec("DROP SCHEMA " + schema + " CASCADE") })
	if strings.Contains(dsn, "?") {
		return dsn + "&search_path=" + schema
	}
	return dsn + "?search_path=" + schema
}

// With the conversations and the trail in one SQLite file, each check of
// a conversation appends its event in the transaction of the
// conversation's update (SQLite has one writer: an append outside it
// would wait for the lock the update holds).
func TestAuditSQLiteStore(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"), session.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	storeTrail(t, st, st.Audit())
}

// The same with PostgreSQL, when WARDEN_TEST_POSTGRES_DSN names one.
func TestAuditPostgresStore(t *testing.T) {
	st, err := postgres.Open(context.Background(), pgSchema(t), session.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	storeTrail(t, st, st.Audit())
}

// storeTrail checks an engine keeping its conversations in st and its
// trail in backend, of the same database: concurrent conversations,
// approvals and observations each leave exactly one event, in one
// unbroken, signed chain.
func storeTrail(t *testing.T, st session.Store, backend audit.Backend) {
	ctx := context.Background()
	keys, _ := audit.KeysFromSeed(make([]byte, 32))
	eng := corpusEngine(t, warden.WithStore(st), warden.WithAudit(audit.NewLog(backend, keys)))
	const sessions, steps = 4, 6
	var wg sync.WaitGroup
	verdicts := make([][]risk.Verdict, sessions)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("c%d", i)
			for j := range steps {
				_, d, err := eng.Check(ctx, bashAction(fmt.Sprintf("echo %d >> log.txt", j), id))
				if err != nil {
					t.Error(err)
				}
				verdicts[i] = append(verdicts[i], d.Verdict)
			}
		}()
	}
	wg.Wait()
	push := bashAction("git push --force origin main", "c0")
	if _, err := eng.Approve(ctx, push, policy.ScopeSession, warden.By("ana")); err != nil {
		t.Fatal(err)
	}
	if _, d, _ := eng.Check(ctx, push); d.Verdict != risk.Allow {
		t.Errorf("approved push: %v", d)
	}
	if _, err := eng.Observe(ctx, bashAction("cat .env", "c1"), "TOKEN=x"); err != nil {
		t.Fatal(err)
	}
	if err := eng.Decline(ctx, bashAction("rm -rf ~", "c2"), warden.By("bob")); err != nil {
		t.Fatal(err)
	}
	if err := eng.Report(ctx, push, audit.Outcome{Error: "rejected"}); err != nil {
		t.Fatal(err)
	}
	var n, prev int64
	perSession := map[string]int{}
	err := backend.Scan(ctx, audit.Filter{}, func(r *audit.Record) error {
		ev, err := audit.Decode(r)
		if err != nil {
			return err
		}
		if r.Seq != prev+1 {
			return fmt.Errorf("event %d after %d", r.Seq, prev)
		}
		prev = r.Seq
		n++
		if ev.Kind == audit.KindCheck {
			perSession[ev.Session]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(sessions*steps + 5); n != want {
		t.Errorf("%d events, want %d", n, want)
	}
	verify(t, backend, keys, n)
	for i := range sessions {
		id := fmt.Sprintf("c%d", i)
		want := steps
		if i == 0 {
			want++ // the approved push
		}
		if perSession[id] != want {
			t.Errorf("session %s: %d checks recorded, want %d (%v)", id, perSession[id], want, verdicts[i])
		}
	}
}
