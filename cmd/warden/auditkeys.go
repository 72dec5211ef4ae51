package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/store"
)

// envKey is where a key from the environment comes from, for messages.
const envKey = "$WARDEN_AUDIT_KEY"

// keyHelp says where the audit key comes from, for the help of --audit-key.
const keyHelp = "the audit key file (default: $WARDEN_AUDIT_KEY, the base64 seed, else the file $WARDEN_AUDIT_KEY_FILE, else $XDG_CONFIG_HOME/warden/audit.key, else ~/.config/warden/audit.key, created 0600 when missing)"

// signingKeys returns the audit key that signs: the file given with
// --audit-key (which must exist), else $WARDEN_AUDIT_KEY, else the key
// file at audit.DefaultKeyPath, created when missing if create is set
// (assess creates it on first use; prune and public-key need the key the
// trail was signed with). where says which, for messages (never the key
// itself).
func signingKeys(file string, create bool) (k *audit.Keys, where string, err error) {
	if file != "" {
		k, err := audit.LoadKeys(file)
		if err != nil {
			return nil, "", fmt.Errorf("--audit-key: %w", err)
		}
		return k, file, nil
	}
	k, ok, err := audit.KeysFromEnv()
	if ok {
		return k, envKey, err
	}
	path, err := audit.DefaultKeyPath()
	if err != nil {
		return nil, "", err
	}
	if create {
		k, err = audit.OpenKeys(path)
	} else if k, err = audit.LoadKeys(path); errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("no audit key at %s (warden assess --store creates it; or give --audit-key FILE, or set $WARDEN_AUDIT_KEY)", path)
	}
	return k, path, err
}

// verifyingKey returns the public key that checks checkpoints: the file
// given with --public-key (a public key or a key file), else that of
// $WARDEN_AUDIT_KEY, else that of the key file at audit.DefaultKeyPath
// when it exists (it is never created here). It returns nil, and no
// error, when there is none. where says which.
func verifyingKey(file string) (pub ed25519.PublicKey, where string, err error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, "", fmt.Errorf("--public-key: %w", err)
		}
		defer f.Close()
		text, err := io.ReadAll(io.LimitReader(f, 64<<10))
		if err != nil {
			return nil, "", fmt.Errorf("--public-key: %w", err)
		}
		pub, err := audit.ParsePublicKey(text)
		if err != nil {
			return nil, "", fmt.Errorf("--public-key %s: %w", file, err)
		}
		return pub, file, nil
	}
	k, ok, err := audit.KeysFromEnv()
	if ok {
		if err != nil {
			return nil, "", err
		}
		return k.Public(), envKey, nil
	}
	path, err := audit.DefaultKeyPath()
	if err != nil {
		return nil, "", nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	k, err = audit.LoadKeys(path)
	if err != nil {
		return nil, "", err
	}
	return k.Public(), path, nil
}

func newAuditPublicKeyCmd() *cobra.Command {
	var keyFile string
	cmd := &cobra.Command{
		Use:   "public-key",
		Short: "Print the public half of the audit key, which warden audit verify --public-key reads",
		Long: `public-key prints the public key of the audit key, one line:
  warden-audit-ed25519 <base64>
Keep it apart from the store (another machine, a ticket, a commit): with it,
warden audit verify --public-key FILE detects a chain recomputed by someone
who could write the store but not read the private key.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, _, err := signingKeys(keyFile, false)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), k.PublicText())
			return nil
		},
	}
	cmd.Flags().StringVar(&keyFile, "audit-key", "", keyHelp)
	return cmd
}

// shownDSN returns a store's name as messages may show it: a PostgreSQL
// URL without its password (in the user part or the query).
func shownDSN(dsn string) string {
	if !store.IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "the PostgreSQL database given"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
