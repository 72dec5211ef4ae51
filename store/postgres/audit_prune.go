package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/agentwarden/warden/audit"
)

// Prune implements audit.Backend: in one transaction under the chain's
// lock, the records before before and the checkpoints before before-1
// are deleted and what seal returns is written.
func (a *Audit) Prune(ctx context.Context, before int64, seal func(head audit.Head, last audit.Record) ([]audit.Record, []audit.Checkpoint, error)) error {
	if err := a.check(); err != nil {
		return err
	}
	return a.chain(ctx, func(ctx context.Context, t chainTx, head audit.Head) (*pgx.Batch, error) {
		if err := audit.PruneBounds(before, head); err != nil {
			return nil, err
		}
		var last audit.Record
		err := scanRecord(t.q.QueryRow(ctx, `SELECT `+recordColumns+` FROM warden_audit WHERE seq = $1`, before-1), &last)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return nil, fmt.Errorf("audit: event %d, the last to prune, is missing", before-1)
		case err != nil:
			return nil, a.errorf("reading event %d: %w", before-1, err)
		}
		recs, cps, err := seal(head, last)
		if err != nil {
			return nil, err
		}
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM warden_audit WHERE seq < $1`, before)
		b.Queue(`DELETE FROM warden_audit_checkpoints WHERE seq < $1`, before-1)
		if err := queueRecords(b, head, recs); err != nil {
			return nil, err
		}
		if err := queueCheckpoints(b, cps); err != nil {
			return nil, err
		}
		return b, nil
	})
}

// Close implements audit.Backend: the trail is closed, the store (and its
// connections) not.
func (a *Audit) Close() error {
	a.closed.Store(true)
	return nil
}
