package postgres

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentwarden/warden/audit"
)

// queueRecords queues the insertion of recs, one statement whatever their
// number, after checking that they continue head and that their times
// fit the time column (Unix nanoseconds: years 1678 to 2262).
func queueRecords(b *pgx.Batch, head audit.Head, recs []audit.Record) error {
	if len(recs) == 0 {
		return nil
	}
	var (
		seq, tm                       = make([]int64, len(recs)), make([]int64, len(recs))
		kind, sess, agent, tool, verd = make([]string, len(recs)), make([]string, len(recs)), make([]string, len(recs)), make([]string, len(recs)), make([]string, len(recs))
		level                         = make([]int16, len(recs))
		data, hash                    = make([][]byte, len(recs)), make([][]byte, len(recs))
	)
	for i, r := range recs {
		if want := head.Seq + 1 + int64(i); r.Seq != want {
			return fmt.Errorf("audit: sealed record %d where the chain continues with %d", r.Seq, want)
		}
		ns, err := unixNano(r.Time)
		if err != nil {
			return fmt.Errorf("audit: record %d: %w", r.Seq, err)
		}
		seq[i], tm[i] = r.Seq, ns
		kind[i], sess[i], agent[i], tool[i], verd[i] = string(r.Kind), r.Session, r.Agent, r.Tool, string(r.Verdict)
		level[i] = int16(r.Level)
		data[i], hash[i] = r.Data, r.Hash
	}
	b.Queue(`INSERT INTO warden_audit (seq, time, kind, session, agent, tool, verdict, level, data, hash)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::smallint[], $9::bytea[], $10::bytea[])`,
		seq, tm, kind, sess, agent, tool, verd, level, data, hash)
	return nil
}

// queueCheckpoints queues the insertion of cps, in order.
func queueCheckpoints(b *pgx.Batch, cps []audit.Checkpoint) error {
	for _, c := range cps {
		ns, err := unixNano(c.Time)
		if err != nil {
			return fmt.Errorf("audit: checkpoint %d: %w", c.Seq, err)
		}
		b.Queue(`INSERT INTO warden_audit_checkpoints (seq, hash, time, key_id, sig) VALUES ($1, $2, $3, $4, $5)`,
			c.Seq, c.Hash, ns, c.KeyID, c.Sig)
	}
	return nil
}

// unixNano returns t in Unix nanoseconds, or an error when they cannot
// hold it.
func unixNano(t time.Time) (int64, error) {
	ns := t.UnixNano()
	if !time.Unix(0, ns).Equal(t) {
		return 0, fmt.Errorf("its time %s is outside the years 1678 to 2262 the store can hold", t.Format(time.RFC3339))
	}
	return ns, nil
}

// fromUnixNano is the time of a time column.
func fromUnixNano(ns int64) time.Time { return time.Unix(0, ns).UTC() }
