package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

// defaultStoreHelp names the default store in the help of every command
// that reads one.
const defaultStoreHelp = "$XDG_STATE_HOME/warden/warden.db, else ~/.local/state/warden/warden.db"

func newAuditCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Read, verify, export and prune the audit trail of a store",
		Long: `The audit trail is every decision warden assess --store made (and every
approval, observation and rejected input), kept in the store's database:
each event holds the hash of the one before it, and the head of the chain is
signed with the audit key (` + "`warden audit public-key`" + ` prints its public half).

Every subcommand reads the store --store names, by default the SQLite file
` + defaultStoreHelp + `.
A store that does not exist is an error: reading never creates one.`,
	}
	cmd.AddCommand(newAuditListCmd(), newAuditShowCmd(), newAuditVerifyCmd(), newAuditExportCmd(),
		newAuditPruneCmd(), newAuditPublicKeyCmd())
	return cmd
}

// storeFlag registers --store on an audit subcommand.
func storeFlag(cmd *cobra.Command, dsn *string) {
	cmd.Flags().StringVar(dsn, "store", "", "the store: a SQLite file path, or a postgres:// URL (default "+defaultStoreHelp+")")
}

// auditStore is a store opened for its audit trail.
type auditStore struct {
	st   session.Store
	b    audit.Backend
	name string // the DSN (without a password), or the default path
}

func (s *auditStore) Close() error {
	err := s.b.Close()
	if cerr := s.st.Close(); err == nil {
		err = cerr
	}
	return err
}

// openAuditStore opens the store dsn names (the default store when dsn is
// empty) for its audit trail. A SQLite file that does not exist is an
// error, never created: the audit commands read a trail that assess
// wrote.
func openAuditStore(ctx context.Context, dsn string) (*auditStore, error) {
	name := dsn
	if name == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, err
		}
		name = p
	}
	if !store.IsPostgres(name) {
		if _, err := os.Stat(name); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no audit store at %s; warden assess --store %s records one", name, name)
		}
	}
	st, err := store.Open(ctx, name, session.DefaultConfig())
	if err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	b, err := store.Audit(st)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("--store: %w", err)
	}
	return &auditStore{st: st, b: b, name: shownDSN(name)}, nil
}
