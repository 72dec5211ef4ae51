package audit

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The texts of the key files. A private key file is keyHeader, a newline,
// the base64 Ed25519 seed and a newline; a public key is publicPrefix and
// the base64 public key on one line.
const (
	keyHeader    = "warden-audit-key v1"
	publicPrefix = "warden-audit-ed25519 "
)

// maxKeyFile bounds what LoadKeys reads: a key file is about 70 bytes.
const maxKeyFile = 4096

// DefaultKeyPath returns where the audit key is kept:
// $WARDEN_AUDIT_KEY_FILE, else $XDG_CONFIG_HOME/warden/audit.key, else
// ~/.config/warden/audit.key.
func DefaultKeyPath() (string, error) {
	if p := os.Getenv("WARDEN_AUDIT_KEY_FILE"); p != "" {
		return p, nil
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) { // the XDG spec ignores a relative path
		return filepath.Join(d, "warden", "audit.key"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("audit: no place for the audit key: set WARDEN_AUDIT_KEY_FILE: %w", err)
	}
	return filepath.Join(home, ".config", "warden", "audit.key"), nil
}

// KeysFromEnv reads the key from $WARDEN_AUDIT_KEY, the base64 seed (for
// servers, whose secrets come in the environment); false when it is
// unset or empty.
func KeysFromEnv() (*Keys, bool, error) {
	v := strings.TrimSpace(os.Getenv("WARDEN_AUDIT_KEY"))
	if v == "" {
		return nil, false, nil
	}
	seed, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, true, errors.New("audit: WARDEN_AUDIT_KEY is not the base64 of a 32-byte key seed")
	}
	k, err := KeysFromSeed(seed)
	return k, true, err
}

// LoadKeys reads the key file at path. It refuses a file that group or
// others may read or write (the key would not be the user's alone) and a
// file not in the format of the key file; its errors never quote the
// file's contents.
func LoadKeys(path string) (*Keys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("audit: reading the audit key: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("audit: reading the audit key: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("audit: the audit key %s is not a regular file", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("audit: the audit key %s may be read or written by others (mode %04o): run chmod 600 on it", path, perm)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("audit: reading the audit key: %w", err)
	}
	seed, err := parseKeyFile(data)
	if err != nil {
		return nil, fmt.Errorf("audit: the audit key %s: %w", path, err)
	}
	return KeysFromSeed(seed)
}

// parseKeyFile returns the seed a key file holds. Its errors say what is
// wrong, never what the file holds.
func parseKeyFile(data []byte) ([]byte, error) {
	if len(data) > maxKeyFile {
		return nil, errors.New("too long to be a key file")
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != keyHeader {
		return nil, fmt.Errorf("not a key file: its first line is not %q", keyHeader)
	}
	if len(lines) != 2 {
		return nil, errors.New("malformed key file: want two lines, the header and the base64 seed")
	}
	seed, err := base64.StdEncoding.DecodeString(lines[1])
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, errors.New("malformed key file: its second line is not the base64 of a 32-byte seed")
	}
	return seed, nil
}

// keyFileText returns the key file of seed.
func keyFileText(seed []byte) []byte {
	return []byte(keyHeader + "\n" + base64.StdEncoding.EncodeToString(seed) + "\n")
}

// OpenKeys loads the key file at path, creating it with a new key when
// there is none: mode 0600, in a directory created 0700. Two processes
// creating it at once end up with the same key: the file appears whole
// or not at all, and the loser loads the winner's.
func OpenKeys(path string) (*Keys, error) {
	k, err := LoadKeys(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: creating the audit key: %w", err)
	}
	k, err = GenerateKeys()
	if err != nil {
		return nil, err
	}
	if err := createKeyFile(path, keyFileText(k.ed.priv.Seed())); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return LoadKeys(path)
		}
		return nil, fmt.Errorf("audit: creating the audit key: %w", err)
	}
	return k, nil
}

// createKeyFile writes data to a new file at path, mode 0600, synced:
// written whole to a temporary file first and linked into place, so that
// nobody reads it half written. It fails with fs.ErrExist when path
// exists.
func createKeyFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".audit-key-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil { // make the new name durable too
		d.Sync()
		d.Close()
	}
	return nil
}

// PublicText returns the public key as a line of text:
// "warden-audit-ed25519 <base64>", which ParsePublicKey reads.
func (k *Keys) PublicText() string {
	return publicPrefix + base64.StdEncoding.EncodeToString(k.Public()) + "\n"
}

// ParsePublicKey reads a public key written by PublicText, or the public
// key of a private key file. Its errors never quote the text.
func ParsePublicKey(text []byte) (ed25519.PublicKey, error) {
	if bytes.HasPrefix(text, []byte(keyHeader)) {
		seed, err := parseKeyFile(text)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		return ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey), nil
	}
	s, ok := strings.CutPrefix(strings.TrimSpace(string(text)), publicPrefix)
	if !ok {
		return nil, fmt.Errorf("audit: not a public key: want a line %q and the base64 key, or a key file", strings.TrimSpace(publicPrefix))
	}
	pub, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return nil, errors.New("audit: malformed public key: not the base64 of a 32-byte Ed25519 key")
	}
	return ed25519.PublicKey(pub), nil
}
