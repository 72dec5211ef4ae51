package main

import (
	"errors"
	"fmt"
	"os/user"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
)

func newAuditPruneCmd() *cobra.Command {
	var dsn, keyFile, olderThan, by, reason string
	var before int64
	var yes bool
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove the oldest events of the audit trail, keeping the rest verifiable",
		Long: `prune removes the events before a sequence number (--before SEQ), or those
older than a duration (--older-than 90d: every event before the first one
recorded within it). At least one event is always kept. It is destructive,
so it asks for nothing but refuses to run without --yes.

The removal is itself recorded: a prune event names what went (how many,
from which seq), by whom (--by, default the user name) and why (--reason),
and the first event kept still names the hash of the last one removed, over
which a signed checkpoint stays in the store: the chain is re-anchored, and
warden audit verify passes after. Signing needs the audit key (--audit-key,
else as warden assess --store finds it).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case before == 0 && olderThan == "":
				return errors.New("say what to remove: --before SEQ or --older-than DURATION")
			case before != 0 && olderThan != "":
				return errors.New("--before and --older-than: give one of them")
			case before < 0:
				return fmt.Errorf("--before %d: a sequence number is 1 or more", before)
			}
			var age time.Duration
			if olderThan != "" {
				var err error
				if age, err = parseAge(olderThan); err != nil {
					return fmt.Errorf("--older-than %q: want a duration (24h, 90d): %w", olderThan, err)
				}
			}
			if !yes {
				return errors.New("prune removes events for good: give --yes to do it")
			}
			if by == "" {
				if u, err := user.Current(); err == nil {
					by = u.Username
				}
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			k, _, err := signingKeys(keyFile, false)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			head, err := s.b.Head(ctx)
			if err != nil {
				return fmt.Errorf("reading the audit trail of %s: %w", s.name, err)
			}
			if olderThan != "" {
				if before, err = firstSince(cmd, s.b, time.Now().Add(-age)); err != nil {
					return fmt.Errorf("reading the audit trail of %s: %w", s.name, err)
				}
				if before == 0 { // all older: keep the last
					before = head.Seq
				}
			}
			if head.Seq == 0 || before <= head.First {
				fmt.Fprintf(cmd.OutOrStdout(), "nothing to prune: the trail of %s starts at seq %d\n", s.name, head.First)
				return nil
			}
			if before > head.Seq {
				return fmt.Errorf("--before %d: the trail ends at seq %d, and at least one event is kept", before, head.Seq)
			}
			ev, err := audit.NewLog(s.b, k).Prune(ctx, before, by, reason)
			if err != nil {
				return fmt.Errorf("pruning the audit trail of %s: %w", s.name, err)
			}
			p := ev.Pruned
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s from %s\n", removed(p), s.name)
			fmt.Fprintf(cmd.OutOrStdout(), "recorded as event %d; the chain is re-anchored on the hash of event %d (%s), under a signed checkpoint\n",
				ev.Seq, p.Before-1, p.Anchor)
			return nil
		},
	}
	storeFlag(cmd, &dsn)
	cmd.Flags().Int64Var(&before, "before", 0, "remove the events of sequence number below this")
	cmd.Flags().StringVar(&olderThan, "older-than", "", "remove the events older than this duration (24h, 90d)")
	cmd.Flags().StringVar(&by, "by", "", "who prunes, for the record (default: the user name)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, for the record")
	cmd.Flags().BoolVar(&yes, "yes", false, "really remove the events")
	cmd.Flags().StringVar(&keyFile, "audit-key", "", keyHelp)
	return cmd
}

// firstSince returns the seq of the first event at or after t, 0 when
// there is none.
func firstSince(cmd *cobra.Command, b audit.Backend, t time.Time) (int64, error) {
	var seq int64
	err := b.Scan(cmd.Context(), audit.Filter{Since: t, Limit: 1}, func(r *audit.Record) error {
		seq = r.Seq
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return 0, err
	}
	return seq, nil
}
