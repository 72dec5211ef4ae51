package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
)

func newAuditVerifyCmd() *cobra.Command {
	var dsn, pubFile string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that the audit trail was not edited, and name the first bad event",
		Long: `verify walks the whole chain: every event's hash, its link to the event
before, its copied columns, and the signed checkpoints. It detects an edited,
deleted, inserted or reordered event and names the first bad sequence number.

With the public key it also checks every checkpoint's signature, and so
detects a chain recomputed from the start by someone who could write the
store but not read the audit key, and a chain cut short. The key is the one
--public-key names (a file written by warden audit public-key, or the key
file itself), else that of $WARDEN_AUDIT_KEY, else that of the audit key file
($WARDEN_AUDIT_KEY_FILE, else $XDG_CONFIG_HOME/warden/audit.key, else
~/.config/warden/audit.key). Without any, only the chain is checked, and the
report says loudly that a recomputed chain goes undetected.

Exit status: 0 the trail verifies; 1 a problem was found (the report names
the first bad event and lists the problems); 2 the store or the key could
not be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pub, where, err := verifyingKey(pubFile)
			if err != nil {
				return err
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			if pub == nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "warden: WARNING: no public key: checking the chain only; a chain recomputed from the start is NOT detected without the key (--public-key FILE)")
			}
			rep, err := audit.Verify(cmd.Context(), s.b, pub)
			if err != nil {
				return fmt.Errorf("verifying the audit trail of %s: %w", s.name, err)
			}
			var out bytes.Buffer
			writeReport(&out, s.name, where, rep)
			if _, err := cmd.OutOrStdout().Write(out.Bytes()); err != nil {
				return err
			}
			if !rep.OK {
				return exitError{1}
			}
			return nil
		},
	}
	storeFlag(cmd, &dsn)
	cmd.Flags().StringVar(&pubFile, "public-key", "", "the public key to check signatures with: a file written by warden audit public-key, or the audit key file")
	return cmd
}

// writeReport writes verify's report of rep on the trail of store, with
// the public key from where ("" when there was none).
func writeReport(out *bytes.Buffer, store, where string, rep *audit.Report) {
	fmt.Fprintf(out, "store        %s\n", store)
	switch {
	case rep.Events == 0:
		fmt.Fprintf(out, "events       none\n")
	default:
		fmt.Fprintf(out, "events       %d (seq %d to %d)\n", rep.Events, rep.First, rep.Last)
	}
	if rep.Pruned {
		fmt.Fprintf(out, "pruned       the chain starts after the prune anchor at seq %d\n", rep.Anchor)
	}
	fmt.Fprintf(out, "checkpoints  %d, signed through seq %d\n", rep.Checkpoints, rep.SignedThrough)
	if rep.KeyChecked {
		fmt.Fprintf(out, "key          %s: signatures checked\n", where)
	} else {
		fmt.Fprintf(out, "key          NONE: signatures NOT checked. Only the chain was verified: someone who can\n"+
			"             write the store can recompute the whole chain, and that is NOT detected without\n"+
			"             the public key (give --public-key FILE, or run where the audit key is)\n")
	}
	if rep.OK {
		if rep.KeyChecked {
			fmt.Fprintf(out, "result       OK: the chain and its signatures verify\n")
		} else {
			fmt.Fprintf(out, "result       OK (chain only): every event links to the one before\n")
		}
		return
	}
	fmt.Fprintf(out, "result       FAILED: the first bad event is seq %d\n", rep.FirstBad)
	fmt.Fprintf(out, "problems     %d listed\n", len(rep.Problems))
	for _, p := range rep.Problems {
		fmt.Fprintf(out, "  seq %d: %s\n", p.Seq, cell(p.What, 300))
	}
	if rep.More > 0 {
		fmt.Fprintf(out, "  and %d more\n", rep.More)
	}
}
