package postgres

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// recordColumns are the columns of a record, in the order scanRecord
// reads them.
const recordColumns = `seq, time, kind, session, agent, tool, verdict, level, data, hash`

// scanRecord reads a row of recordColumns.
func scanRecord(row pgx.Row, r *audit.Record) error {
	var (
		ns            int64
		kind, verdict string
		level         int16
	)
	if err := row.Scan(&r.Seq, &ns, &kind, &r.Session, &r.Agent, &r.Tool, &verdict, &level, &r.Data, &r.Hash); err != nil {
		return err
	}
	r.Time, r.Kind, r.Verdict, r.Level = fromUnixNano(ns), audit.Kind(kind), risk.Verdict(verdict), risk.Level(level)
	return nil
}

// Head implements audit.Backend.
func (a *Audit) Head(ctx context.Context) (audit.Head, error) {
	if err := a.check(); err != nil {
		return audit.Head{}, err
	}
	var h audit.Head
	err := a.s.pool.QueryRow(ctx, readHead).Scan(&h.Seq, &h.Hash, &h.First)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return audit.Head{}, nil
	case err != nil:
		return audit.Head{}, a.errorf("reading the head: %w", err)
	}
	return h, nil
}

// Get implements audit.Backend.
func (a *Audit) Get(ctx context.Context, seq int64) (audit.Record, error) {
	if err := a.check(); err != nil {
		return audit.Record{}, err
	}
	var r audit.Record
	err := scanRecord(a.s.pool.QueryRow(ctx, `SELECT `+recordColumns+` FROM warden_audit WHERE seq = $1`, seq), &r)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return audit.Record{}, audit.ErrNotFound
	case err != nil:
		return audit.Record{}, a.errorf("reading event %d: %w", seq, err)
	}
	return r, nil
}

// Scan implements audit.Backend: one query, whose rows are read as fn
// takes them (never all at once), filtered by the database with bound
// parameters; the last Limit records are the first Limit in descending
// order, put back in order by an outer query.
func (a *Audit) Scan(ctx context.Context, f audit.Filter, fn func(*audit.Record) error) error {
	if err := a.check(); err != nil {
		return err
	}
	sql, args := scanQuery(&f)
	rows, err := a.s.pool.Query(ctx, sql, args...)
	if err != nil {
		return a.errorf("listing events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r audit.Record
		if err := scanRecord(rows, &r); err != nil {
			return a.errorf("listing events: %w", err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return a.errorf("listing events: %w", err)
	}
	return nil
}

// scanQuery returns the query of the records f selects, and its
// arguments.
func scanQuery(f *audit.Filter) (string, []any) {
	var (
		where []string
		args  []any
	)
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.FromSeq > 0 {
		where = append(where, "seq >= "+arg(f.FromSeq))
	}
	if f.ToSeq > 0 {
		where = append(where, "seq <= "+arg(f.ToSeq))
	}
	if !f.Since.IsZero() {
		where = append(where, "time >= "+arg(clampNano(f.Since)))
	}
	if !f.Until.IsZero() {
		where = append(where, "time < "+arg(clampNano(f.Until)))
	}
	if f.Session != "" {
		where = append(where, "session = "+arg(f.Session))
	}
	if f.Agent != "" {
		where = append(where, "agent = "+arg(f.Agent))
	}
	if f.Tool != "" {
		where = append(where, "tool = "+arg(f.Tool))
	}
	if len(f.Kinds) > 0 {
		kinds := make([]string, len(f.Kinds))
		for i, k := range f.Kinds {
			kinds[i] = string(k)
		}
		where = append(where, "kind = ANY("+arg(kinds)+"::text[])")
	}
	if f.Verdict != "" {
		where = append(where, "verdict = "+arg(string(f.Verdict)))
	}
	if f.MinLevel != risk.Unknown {
		where = append(where, "(level >= "+arg(int16(f.MinLevel))+" OR level = "+arg(int16(risk.Unknown))+")")
	}
	q := `SELECT ` + recordColumns + ` FROM warden_audit`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	switch {
	case f.Limit > 0 && f.Last:
		q = `SELECT * FROM (` + q + ` ORDER BY seq DESC LIMIT ` + arg(int64(f.Limit)) + `) last ORDER BY seq`
	case f.Limit > 0:
		q += ` ORDER BY seq LIMIT ` + arg(int64(f.Limit))
	default:
		q += ` ORDER BY seq`
	}
	return q, args
}

// clampNano is t in Unix nanoseconds, the nearest the column holds when
// it is out of range.
func clampNano(t time.Time) int64 {
	switch ns, err := unixNano(t); {
	case err == nil:
		return ns
	case t.Before(time.Unix(0, 0)):
		return math.MinInt64
	default:
		return math.MaxInt64
	}
}

// Checkpoints implements audit.Backend.
func (a *Audit) Checkpoints(ctx context.Context, from int64, fn func(*audit.Checkpoint) error) error {
	if err := a.check(); err != nil {
		return err
	}
	rows, err := a.s.pool.Query(ctx, `SELECT seq, hash, time, key_id, sig FROM warden_audit_checkpoints WHERE seq >= $1 ORDER BY seq, id`, from)
	if err != nil {
		return a.errorf("listing checkpoints: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			c  audit.Checkpoint
			ns int64
		)
		if err := rows.Scan(&c.Seq, &c.Hash, &ns, &c.KeyID, &c.Sig); err != nil {
			return a.errorf("listing checkpoints: %w", err)
		}
		c.Time = fromUnixNano(ns)
		if err := fn(&c); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return a.errorf("listing checkpoints: %w", err)
	}
	return nil
}
