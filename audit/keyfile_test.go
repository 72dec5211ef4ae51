package audit_test

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden/audit"
)

// keyFile returns the text of the key file of seedOf(b).
func keyFile(b byte) string {
	return "warden-audit-key v1\n" + base64.StdEncoding.EncodeToString(seedOf(b)) + "\n"
}

func TestOpenKeysCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "config", "warden")
	path := filepath.Join(dir, "audit.key")
	k, err := audit.OpenKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s has mode %04o, want %04o", p, info.Mode().Perm(), want)
		}
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	if len(lines) != 3 || lines[0] != "warden-audit-key v1" || lines[2] != "" {
		t.Fatalf("key file has %d lines", len(lines))
	}
	if seed, err := base64.StdEncoding.DecodeString(lines[1]); err != nil || len(seed) != 32 {
		t.Fatal("the key file's second line is not a base64 seed")
	}
	again, err := audit.OpenKeys(path)
	if err != nil || again.ID() != k.ID() {
		t.Fatalf("reopening gave another key (%v)", err)
	}
	loaded, err := audit.LoadKeys(path)
	if err != nil || loaded.ID() != k.ID() {
		t.Fatalf("loading gave another key (%v)", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the key's directory holds %d files, want the key alone", len(entries))
	}
}

// Processes starting for the first time at once share one key.
func TestOpenKeysRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w", "audit.key")
	ids := make([]string, 16)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			k, err := audit.OpenKeys(path)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = k.ID()
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent OpenKeys made two keys: %v", ids)
		}
	}
}

func TestLoadKeysRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // past the umask
		return p
	}
	seedText := base64.StdEncoding.EncodeToString(seedOf(7))
	for _, c := range []struct {
		name, text string
		mode       os.FileMode
		want       string
	}{
		{"group", keyFile(7), 0o640, "chmod 600"},
		{"others", keyFile(7), 0o604, "chmod 600"},
		{"groupwrite", keyFile(7), 0o620, "chmod 600"},
		{"header", "warden-audit-key v2\n" + seedText + "\n", 0o600, "first line"},
		{"bare", seedText + "\n", 0o600, "first line"},
		{"nobody", "warden-audit-key v1\n", 0o600, "two lines"},
		{"extra", keyFile(7) + "more\n", 0o600, "two lines"},
		{"base64", "warden-audit-key v1\n" + seedText[:20] + "!!" + seedText[22:] + "\n", 0o600, "not the base64"},
		{"short", "warden-audit-key v1\n" + base64.StdEncoding.EncodeToString(seedOf(7)[:31]) + "\n", 0o600, "32-byte"},
		{"crlf", "warden-audit-key v1\r\n" + seedText + "\r\n", 0o600, "first line"},
		{"huge", keyFile(7) + strings.Repeat("x", 5000), 0o600, "too long"},
	} {
		p := write(c.name, c.text, c.mode)
		_, err := audit.LoadKeys(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), seedText[:12]) {
			t.Errorf("%s: the error quotes the key: %v", c.name, err)
		}
		if _, err := audit.OpenKeys(p); err == nil {
			t.Errorf("%s: OpenKeys accepts what LoadKeys refuses", c.name)
		}
	}
	if _, err := audit.LoadKeys(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing key file: %v", err)
	}
	if _, err := audit.LoadKeys(dir); err == nil {
		t.Error("a directory is a key file")
	}
	k, err := audit.LoadKeys(write("ok", keyFile(7), 0o600))
	if err != nil || k.ID() != keysOf(t, 7).ID() {
		t.Fatalf("a good key file: %v", err)
	}
	if k, err := audit.LoadKeys(write("nonl", strings.TrimSuffix(keyFile(7), "\n"), 0o600)); err != nil || k.ID() != keysOf(t, 7).ID() {
		t.Fatalf("a key file without its last newline: %v", err)
	}
}

func TestDefaultKeyPath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("WARDEN_AUDIT_KEY_FILE", "")
	for _, c := range []struct{ file, xdg, want string }{
		{"", "", "/home/u/.config/warden/audit.key"},
		{"", "/x/cfg", "/x/cfg/warden/audit.key"},
		{"", "relative", "/home/u/.config/warden/audit.key"},
		{"/etc/warden/key", "/x/cfg", "/etc/warden/key"},
	} {
		t.Setenv("WARDEN_AUDIT_KEY_FILE", c.file)
		t.Setenv("XDG_CONFIG_HOME", c.xdg)
		if got, err := audit.DefaultKeyPath(); err != nil || got != c.want {
			t.Errorf("file %q xdg %q: %q %v, want %q", c.file, c.xdg, got, err, c.want)
		}
	}
}

func TestKeysFromEnv(t *testing.T) {
	t.Setenv("WARDEN_AUDIT_KEY", "")
	if k, ok, err := audit.KeysFromEnv(); k != nil || ok || err != nil {
		t.Fatalf("unset: %v %v %v", k, ok, err)
	}
	seedText := base64.StdEncoding.EncodeToString(seedOf(3))
	t.Setenv("WARDEN_AUDIT_KEY", seedText+"\n")
	if k, ok, err := audit.KeysFromEnv(); err != nil || !ok || k.ID() != keysOf(t, 3).ID() {
		t.Fatalf("set: %v %v", ok, err)
	}
	for _, bad := range []string{seedText[:30], "not base64!", base64.StdEncoding.EncodeToString(seedOf(3)[:16])} {
		t.Setenv("WARDEN_AUDIT_KEY", bad)
		_, ok, err := audit.KeysFromEnv()
		if err == nil || !ok || strings.Contains(err.Error(), bad[:8]) {
			t.Errorf("%d bytes of junk: %v", len(bad), err)
		}
	}
}

func TestParsePublicKey(t *testing.T) {
	k := keysOf(t, 4)
	text := k.PublicText()
	if !strings.HasPrefix(text, "warden-audit-ed25519 ") || !strings.HasSuffix(text, "\n") || strings.Count(text, "\n") != 1 {
		t.Fatalf("public text %q", text)
	}
	for _, in := range []string{text, strings.TrimSpace(text), "  " + text + "\n", keyFile(4)} {
		pub, err := audit.ParsePublicKey([]byte(in))
		if err != nil || !pub.Equal(k.Public()) {
			t.Errorf("%q: %v", in[:10], err)
		}
	}
	for _, bad := range []string{"", "warden-audit-ed25519", "warden-audit-ed25519 AAAA", "ssh-ed25519 " + strings.Fields(text)[1],
		"warden-audit-key v1\nAAAA\n", strings.Fields(text)[1]} {
		if _, err := audit.ParsePublicKey([]byte(bad)); err == nil {
			t.Errorf("%q is a public key", bad)
		}
	}
}
