package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
)

// sealer returns a seal callback that seals evs after the head, with a
// checkpoint (unsigned: these tests check storage, not signatures) over
// the last, and records the seqs it gave.
func sealer(seqs *[]int64, evs ...*audit.Event) func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
	return func(head audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		*seqs = (*seqs)[:0]
		var recs []audit.Record
		for _, ev := range evs {
			r, err := audit.Seal(ev, head)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, r)
			*seqs = append(*seqs, r.Seq)
			head = audit.Head{Seq: r.Seq, Hash: r.Hash, First: head.First}
		}
		return recs, &audit.Checkpoint{Seq: head.Seq, Hash: head.Hash, Time: time.Now(), KeyID: "test", Sig: []byte("sig")}, nil
	}
}

func checkEvent(session, tool string, v risk.Verdict, l risk.Level) *audit.Event {
	return &audit.Event{Time: time.Now(), Kind: audit.KindCheck, Session: session, Agent: "agent", Tool: tool,
		Action:     &risk.Action{Tool: tool},
		Assessment: &risk.Assessment{Level: l}, Decision: &risk.Decision{Verdict: v}}
}

// checkChain reads every record of b and checks that each decodes, names
// the hash of the one before, and that they run from first to last
// without a gap.
func checkChain(t *testing.T, b audit.Backend, first, last int64) {
	t.Helper()
	var prev []byte
	next := first
	err := b.Scan(t.Context(), audit.Filter{}, func(r *audit.Record) error {
		ev, err := audit.Decode(r)
		if err != nil {
			return err
		}
		if r.Seq != next {
			return fmt.Errorf("event %d where %d was next", r.Seq, next)
		}
		if prev != nil && ev.Prev != fmt.Sprintf("%x", prev) {
			return fmt.Errorf("event %d does not name event %d's hash", r.Seq, r.Seq-1)
		}
		if !slices.Equal(audit.RecordHash(r.Data), r.Hash) {
			return fmt.Errorf("event %d: wrong hash", r.Seq)
		}
		prev, next = r.Hash, next+1
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if next-1 != last {
		t.Fatalf("the chain ends at %d, want %d", next-1, last)
	}
}

func TestAuditAppendAndRead(t *testing.T) {
	ctx := t.Context()
	a := open(t, testDSN(t), session.Config{}).Audit()
	if h, err := a.Head(ctx); err != nil || h.Seq != 0 || h.First != 0 || h.Hash != nil {
		t.Fatalf("empty head: %+v, %v", h, err)
	}
	var seqs []int64
	evs := []*audit.Event{
		checkEvent("s1", "Bash", risk.Allow, risk.Safe),
		checkEvent("s1", "Write", risk.Ask, risk.High),
		checkEvent("s2", "Bash", risk.Deny, risk.Critical),
		{Time: time.Now(), Kind: audit.KindReject, Session: "s2", Error: "not an action"},
	}
	if err := a.Append(ctx, sealer(&seqs, evs[0])); err != nil || !slices.Equal(seqs, []int64{1}) {
		t.Fatalf("%v %v", seqs, err)
	}
	if err := a.Append(ctx, sealer(&seqs, evs[1:]...)); err != nil || !slices.Equal(seqs, []int64{2, 3, 4}) {
		t.Fatalf("%v %v", seqs, err)
	}
	h, err := a.Head(ctx)
	if err != nil || h.Seq != 4 || h.First != 1 || len(h.Hash) != 32 {
		t.Fatalf("head %+v, %v", h, err)
	}
	r, err := a.Get(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := audit.Decode(&r); err != nil || ev.Session != "s2" || r.Verdict != risk.Deny || r.Level != risk.Critical || r.Time.Location() != time.UTC {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := a.Get(ctx, 5); !errors.Is(err, audit.ErrNotFound) {
		t.Fatalf("Get(5): %v", err)
	}
	checkChain(t, a, 1, 4)

	at := evs[1].Time
	for name, c := range map[string]struct {
		f    audit.Filter
		want []int64
	}{
		"all":      {audit.Filter{}, []int64{1, 2, 3, 4}},
		"seqs":     {audit.Filter{FromSeq: 2, ToSeq: 3}, []int64{2, 3}},
		"session":  {audit.Filter{Session: "s2"}, []int64{3, 4}},
		"agent":    {audit.Filter{Agent: "agent"}, []int64{1, 2, 3}},
		"tool":     {audit.Filter{Tool: "Bash"}, []int64{1, 3}},
		"kinds":    {audit.Filter{Kinds: []audit.Kind{audit.KindReject, audit.KindApprove}}, []int64{4}},
		"verdict":  {audit.Filter{Verdict: risk.Ask}, []int64{2}},
		"level":    {audit.Filter{MinLevel: risk.High}, []int64{2, 3, 4}},
		"since":    {audit.Filter{Since: at}, []int64{2, 3, 4}},
		"until":    {audit.Filter{Until: at}, []int64{1}},
		"far":      {audit.Filter{Since: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}, []int64{1, 2, 3, 4}},
		"first":    {audit.Filter{Limit: 2}, []int64{1, 2}},
		"last":     {audit.Filter{Limit: 2, Last: true}, []int64{3, 4}},
		"lastsel":  {audit.Filter{Tool: "Bash", Limit: 1, Last: true}, []int64{3}},
		"injected": {audit.Filter{Session: "' OR 1=1 --"}, nil},
	} {
		var got []int64
		if err := a.Scan(ctx, c.f, func(r *audit.Record) error { got = append(got, r.Seq); return nil }); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
	stop := errors.New("stop")
	n := 0
	if err := a.Scan(ctx, audit.Filter{}, func(*audit.Record) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("a scan fn's error: %v after %d", err, n)
	}

	var cps []int64
	if err := a.Checkpoints(ctx, 2, func(c *audit.Checkpoint) error {
		cps = append(cps, c.Seq)
		if c.KeyID != "test" || string(c.Sig) != "sig" || len(c.Hash) != 32 {
			t.Errorf("checkpoint %+v", c)
		}
		return nil
	}); err != nil || !slices.Equal(cps, []int64{4}) {
		t.Fatalf("checkpoints from 2: %v, %v", cps, err)
	}
}

func TestAuditSealErrorWritesNothing(t *testing.T) {
	ctx := t.Context()
	a := open(t, testDSN(t), session.Config{}).Audit()
	boom := errors.New("boom")
	if err := a.Append(ctx, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { return nil, nil, boom }); err != boom {
		t.Fatalf("%v", err)
	}
	// a record that does not continue the head
	var seqs []int64
	bad := func(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
		recs, c, err := sealer(&seqs, checkEvent("s", "Bash", risk.Allow, risk.Safe))(h)
		recs[0].Seq = 7
		return recs, c, err
	}
	if err := a.Append(ctx, bad); err == nil || !strings.Contains(err.Error(), "continues with 1") {
		t.Fatalf("%v", err)
	}
	far := checkEvent("s", "Bash", risk.Allow, risk.Safe)
	far.Time = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := a.Append(ctx, sealer(&seqs, far)); err == nil || !strings.Contains(err.Error(), "outside the years") {
		t.Fatalf("%v", err)
	}
	// a seal that panics: the connection, released inside its
	// transaction, is closed, and the server rolls it back (else the
	// append after would wait for the lock, LockTimeout, and fail)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("no panic")
			}
		}()
		a.Append(ctx, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error) { panic("seal") })
	}()
	if h, err := a.Head(ctx); err != nil || h.Seq != 0 {
		t.Fatalf("%+v %v", h, err)
	}
	if err := a.Append(ctx, sealer(&seqs, checkEvent("s", "Bash", risk.Allow, risk.Safe))); err != nil || seqs[0] != 1 {
		t.Fatalf("%v %v", seqs, err)
	}
}

// TestAuditInUpdate: an append in the fn of an Update commits with the
// conversation's state, and neither is written when fn fails.
func TestAuditInUpdate(t *testing.T) {
	ctx := t.Context()
	s := open(t, testDSN(t), session.Config{})
	a := s.Audit()
	if a.Joins(ctx) {
		t.Fatal("Joins outside an Update")
	}
	var seqs []int64
	err := s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		if !a.Joins(ctx) {
			t.Error("no Joins inside an Update")
		}
		if other := open(t, testDSN(t), session.Config{}).Audit(); other.Joins(ctx) {
			t.Error("another store's trail joins")
		}
		if err := step(ctx, st); err != nil {
			return err
		}
		return a.Append(ctx, sealer(&seqs, checkEvent("conv", "Bash", risk.Allow, risk.Safe)))
	})
	if err != nil || !slices.Equal(seqs, []int64{1}) {
		t.Fatalf("%v %v", seqs, err)
	}
	boom := errors.New("boom")
	err = s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		if err := step(ctx, st); err != nil {
			return err
		}
		if err := a.Append(ctx, sealer(&seqs, checkEvent("conv", "Bash", risk.Deny, risk.High))); err != nil {
			return err
		}
		return boom
	})
	if err != boom || !slices.Equal(seqs, []int64{2}) {
		t.Fatalf("%v %v", seqs, err)
	}
	st, err := s.Get(ctx, "conv")
	if err != nil || st.Steps() != 1 {
		t.Fatalf("state after a failed update: %v %v", st, err)
	}
	if h, err := a.Head(ctx); err != nil || h.Seq != 1 {
		t.Fatalf("head after a failed update: %+v %v", h, err)
	}
	// the trail's lock was released with the rolled-back transaction
	if err := a.Append(ctx, sealer(&seqs, checkEvent("conv", "Bash", risk.Allow, risk.Safe))); err != nil || seqs[0] != 2 {
		t.Fatalf("%v %v", seqs, err)
	}
	checkChain(t, a, 1, 2)

	// An append that fails in the database (a checkpoint without a hash)
	// is undone, and releases the lock, while the Update goes on and
	// saves its state.
	err = s.Update(ctx, "conv", func(ctx context.Context, st *session.State) error {
		if err := step(ctx, st); err != nil {
			return err
		}
		seal := sealer(&seqs, checkEvent("conv", "Bash", risk.Deny, risk.High))
		err := a.Append(ctx, func(h audit.Head) ([]audit.Record, *audit.Checkpoint, error) {
			recs, c, err := seal(h)
			c.Hash = nil
			return recs, c, err
		})
		if err == nil || !strings.Contains(err.Error(), "hash") {
			t.Errorf("an append failing in the database: %v", err)
		}
		// another connection appends: the lock is free
		return a.Append(context.Background(), sealer(&seqs, checkEvent("other", "Bash", risk.Allow, risk.Safe)))
	})
	if err != nil || seqs[0] != 3 {
		t.Fatalf("%v %v", seqs, err)
	}
	if st, err := s.Get(ctx, "conv"); err != nil || st.Steps() != 2 {
		t.Fatalf("state after a failed append: %v %v", st, err)
	}
	checkChain(t, a, 1, 3)
	if r, err := a.Get(ctx, 3); err != nil || r.Session != "other" {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestAuditPrune(t *testing.T) {
	ctx := t.Context()
	a := open(t, testDSN(t), session.Config{}).Audit()
	var seqs []int64
	for range 5 {
		if err := a.Append(ctx, sealer(&seqs, checkEvent("s", "Bash", risk.Allow, risk.Safe))); err != nil {
			t.Fatal(err)
		}
	}
	noop := func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error) {
		t.Error("seal called for a prune out of bounds")
		return nil, nil, nil
	}
	for _, before := range []int64{0, 1, 6} {
		if err := a.Prune(ctx, before, noop); err == nil {
			t.Errorf("prune before %d: no error", before)
		}
	}
	boom := errors.New("boom")
	if err := a.Prune(ctx, 3, func(audit.Head, audit.Record) ([]audit.Record, []audit.Checkpoint, error) { return nil, nil, boom }); err != boom {
		t.Fatal(err)
	}
	checkChain(t, a, 1, 5)
	err := a.Prune(ctx, 4, func(head audit.Head, last audit.Record) ([]audit.Record, []audit.Checkpoint, error) {
		if head.Seq != 5 || head.First != 1 || last.Seq != 3 {
			t.Errorf("head %+v, last %d", head, last.Seq)
		}
		ev := &audit.Event{Time: time.Now(), Kind: audit.KindPrune, Pruned: &audit.Pruned{First: 1, Before: 4, Count: 3, Anchor: fmt.Sprintf("%x", last.Hash)}}
		r, err := audit.Seal(ev, head)
		return []audit.Record{r}, []audit.Checkpoint{
			{Seq: last.Seq, Hash: last.Hash, Time: time.Now(), KeyID: "test", Sig: []byte("anchor")},
			{Seq: r.Seq, Hash: r.Hash, Time: time.Now(), KeyID: "test", Sig: []byte("new")},
		}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := a.Head(ctx); err != nil || h.Seq != 6 || h.First != 4 {
		t.Fatalf("%+v %v", h, err)
	}
	if _, err := a.Get(ctx, 3); !errors.Is(err, audit.ErrNotFound) {
		t.Fatal(err)
	}
	var cps []string
	if err := a.Checkpoints(ctx, 0, func(c *audit.Checkpoint) error { cps = append(cps, fmt.Sprintf("%d:%s", c.Seq, c.Sig)); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"3:sig", "3:anchor", "4:sig", "5:sig", "6:new"}; !slices.Equal(cps, want) {
		t.Fatalf("checkpoints %v, want %v", cps, want)
	}
	checkChain(t, a, 4, 6)
}

// TestAuditMigratesV1: a store of schema version 1 (sessions only) gains
// the audit tables when opened, and keeps its conversations and key.
func TestAuditMigratesV1(t *testing.T) {
	ctx := t.Context()
	dsn := testDSN(t)
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// the tables a version 1 warden made, and a conversation it saved
	key := session.NewKey()
	if _, err := pool.Exec(ctx, migrations[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO warden_meta (name, value) VALUES ('schema', '1'), ('hash_key', $1)`, key); err != nil {
		t.Fatal(err)
	}
	v1 := &Store{pool: pool, host: "v1", cfg: session.Config{}.WithDefaults(), key: key}
	if err := v1.Update(ctx, "conv", step); err != nil {
		t.Fatal(err)
	}

	s := open(t, dsn, session.Config{})
	var version []byte
	if err := pool.QueryRow(ctx, `SELECT value FROM warden_meta WHERE name = 'schema'`).Scan(&version); err != nil || string(version) != "2" {
		t.Fatalf("schema %q, %v", version, err)
	}
	if !slices.Equal(s.key, key) {
		t.Error("the hash key changed")
	}
	if st, err := s.Get(ctx, "conv"); err != nil || st == nil || st.Steps() != 1 {
		t.Fatalf("the conversation after migrating: %v, %v", st, err)
	}
	var seqs []int64
	if err := s.Audit().Append(ctx, sealer(&seqs, checkEvent("conv", "Bash", risk.Allow, risk.Safe))); err != nil || seqs[0] != 1 {
		t.Fatalf("%v %v", seqs, err)
	}
	// opening again migrates nothing and keeps the trail
	if h, err := open(t, dsn, session.Config{}).Audit().Head(ctx); err != nil || h.Seq != 1 {
		t.Fatalf("%+v %v", h, err)
	}
}

// TestAuditErrors: a trail whose tables are gone, or whose lock row is,
// fails every call (an append never writes without the lock), and no
// error shows the DSN's password.
func TestAuditErrors(t *testing.T) {
	ctx := t.Context()
	dsn := testDSN(t)
	if !strings.Contains(dsn, "://postgres@") {
		t.Skipf("the DSN is not postgres://postgres@…: cannot add a password to it")
	}
	// trust authentication ignores the password; errors must not show it
	s := open(t, strings.Replace(dsn, "://postgres@", "://postgres:hunter2@", 1), session.Config{})
	a := s.Audit()
	var seqs []int64
	ev := func() *audit.Event { return checkEvent("s", "Bash", risk.Allow, risk.Safe) }
	if err := a.Append(ctx, sealer(&seqs, ev())); err != nil {
		t.Fatal(err)
	}
	noPassword := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error shows the password: %v", what, err)
		}
	}

	if _, err := s.Pool().Exec(ctx, `DELETE FROM warden_audit_head`); err != nil {
		t.Fatal(err)
	}
	err := a.Append(ctx, sealer(&seqs, ev()))
	noPassword("append without the lock row", err)
	if err != nil && !strings.Contains(err.Error(), "warden_audit_head") {
		t.Errorf("append without the lock row: %v", err)
	}
	noPassword("prune without the lock row", a.Prune(ctx, 1, nil))

	if _, err := s.Pool().Exec(ctx, `DROP TABLE warden_audit, warden_audit_checkpoints, warden_audit_head`); err != nil {
		t.Fatal(err)
	}
	noPassword("append", a.Append(ctx, sealer(&seqs, ev())))
	_, err = a.Head(ctx)
	noPassword("head", err)
	_, err = a.Get(ctx, 1)
	noPassword("get", err)
	noPassword("scan", a.Scan(ctx, audit.Filter{Session: "s"}, func(*audit.Record) error { return nil }))
	noPassword("checkpoints", a.Checkpoints(ctx, 0, func(*audit.Checkpoint) error { return nil }))

	a.Close()
	noPassword("append after close", a.Append(ctx, sealer(&seqs, ev())))
	s.Close()
	_, err = s.Audit().Head(ctx)
	noPassword("head after the store's close", err)
}
