package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
)

func newAuditShowCmd() *cobra.Command {
	var dsn, pubFile string
	cmd := &cobra.Command{
		Use:   "show SEQ",
		Short: "Print one event of the audit trail whole, with its hash and the checkpoint that covers it",
		Long: `show prints the event of sequence number SEQ as indented JSON (as stored:
secrets masked), its hash, the hash of the event before it (prev), and the
first signed checkpoint at or after it, which covers it: the chain from the
event to the checkpoint's head is signed. The checkpoint's signature is
checked when a public key is available (--public-key, else the audit key;
see warden audit verify). Exit 1 when there is no such event.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			seq, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || seq < 1 {
				return fmt.Errorf("SEQ %q: want an event's sequence number (1 or more)", args[0])
			}
			pub, _, err := verifyingKey(pubFile)
			if err != nil {
				return err
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			r, err := s.b.Get(cmd.Context(), seq)
			if errors.Is(err, audit.ErrNotFound) {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: %s holds no event %d\n", s.name, seq)
				return exitError{1}
			}
			if err != nil {
				return fmt.Errorf("reading event %d of %s: %w", seq, s.name, err)
			}
			var out bytes.Buffer
			fmt.Fprintf(&out, "event %d\nhash        %s\n", r.Seq, hex.EncodeToString(r.Hash))
			ev, derr := audit.Decode(&r)
			if ev != nil {
				fmt.Fprintf(&out, "prev        %s\n", orDash(ev.Prev))
			}
			if derr != nil {
				fmt.Fprintf(&out, "WARNING     %s (warden audit verify checks the whole chain)\n", derr)
			} else if !bytes.Equal(audit.RecordHash(r.Data), r.Hash) {
				fmt.Fprintf(&out, "WARNING     the stored hash is not the hash of the stored event (warden audit verify checks the whole chain)\n")
			}
			cp, err := coveringCheckpoint(cmd, s.b, seq)
			if err != nil {
				return fmt.Errorf("reading the checkpoints of %s: %w", s.name, err)
			}
			fmt.Fprintf(&out, "checkpoint  %s\n", describeCheckpoint(cp, pub))
			var data bytes.Buffer
			if err := json.Indent(&data, r.Data, "", "  "); err != nil {
				data.Reset()
				data.WriteString(strconv.Quote(string(r.Data))) // not JSON: shown as stored, quoted
			}
			out.Write(data.Bytes())
			out.WriteByte('\n')
			_, err = cmd.OutOrStdout().Write(out.Bytes())
			return err
		},
	}
	storeFlag(cmd, &dsn)
	cmd.Flags().StringVar(&pubFile, "public-key", "", "check the checkpoint's signature with this public key (or key file)")
	return cmd
}

// errFound stops a scan once it found what it looked for.
var errFound = errors.New("found")

// coveringCheckpoint returns the first checkpoint of Seq >= seq, nil when
// there is none.
func coveringCheckpoint(cmd *cobra.Command, b audit.Backend, seq int64) (*audit.Checkpoint, error) {
	var found *audit.Checkpoint
	err := b.Checkpoints(cmd.Context(), seq, func(c *audit.Checkpoint) error {
		cp := *c
		cp.Hash = bytes.Clone(c.Hash)
		cp.Sig = bytes.Clone(c.Sig)
		found = &cp
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	return found, nil
}

// describeCheckpoint says which checkpoint covers an event, and whether
// its signature holds under pub (nil: not checked).
func describeCheckpoint(c *audit.Checkpoint, pub ed25519.PublicKey) string {
	if c == nil {
		return "none: no signed checkpoint covers this event yet"
	}
	s := fmt.Sprintf("seq %d, signed %s by key %s", c.Seq, c.Time.UTC().Format(time.RFC3339), c.KeyID)
	switch {
	case pub == nil:
		return s + " (signature not checked: no public key)"
	case ed25519.Verify(pub, audit.CheckpointMessage(c.Seq, c.Hash, c.Time), c.Sig):
		return s + " (signature verified)"
	default:
		return s + " (signature does NOT verify with the public key: run warden audit verify)"
	}
}
