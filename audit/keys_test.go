package audit_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// seedOf returns a fixed 32-byte seed made of b.
func seedOf(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

// keysOf returns the key of seedOf(b).
func keysOf(t testing.TB, b byte) *audit.Keys {
	t.Helper()
	k, err := audit.KeysFromSeed(seedOf(b))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKeysFromSeed(t *testing.T) {
	k := keysOf(t, 1)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(k.ID()) || k.ID() != audit.PublicKeyID(k.Public()) {
		t.Fatalf("ID %q", k.ID())
	}
	if again := keysOf(t, 1); again.ID() != k.ID() || !again.Public().Equal(k.Public()) {
		t.Fatal("the same seed gives another key")
	}
	if keysOf(t, 2).ID() == k.ID() {
		t.Fatal("two seeds give one ID")
	}
	for _, n := range []int{0, 31, 33, 64} {
		if _, err := audit.KeysFromSeed(make([]byte, n)); err == nil {
			t.Errorf("a %d-byte seed is a key", n)
		}
	}
	g1, err := audit.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := audit.GenerateKeys()
	if g1.ID() == g2.ID() {
		t.Fatal("two generated keys are the same")
	}
}

func TestActionHash(t *testing.T) {
	k := keysOf(t, 1)
	a := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "curl -H 'Authorization: x'", "timeout": 5.0, "env": map[string]any{"B": "1", "A": "2"}}}
	h := k.ActionHash(a)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h) {
		t.Fatalf("hash %q", h)
	}
	same := &risk.Action{Tool: "Bash", Arguments: map[string]any{"env": map[string]any{"A": "2", "B": "1"}, "timeout": 5.0, "command": "curl -H 'Authorization: x'"}}
	if k.ActionHash(same) != h {
		t.Fatal("the same action, built in another order, hashes differently")
	}
	changed := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "curl -H 'Authorization: y'", "timeout": 5.0, "env": map[string]any{"B": "1", "A": "2"}}}
	if k.ActionHash(changed) == h {
		t.Fatal("a changed argument keeps the hash")
	}
	if keysOf(t, 2).ActionHash(a) == h {
		t.Fatal("two keys give the same hash")
	}
	// The HMAC key is derived from the seed, never the seed itself.
	data, _ := json.Marshal(a)
	m := hmac.New(sha256.New, seedOf(1))
	m.Write(data)
	if hex.EncodeToString(m.Sum(nil)) == h {
		t.Fatal("the action hash is keyed with the seed")
	}
	if got := k.ActionHash(&risk.Action{Tool: "x", Arguments: map[string]any{"f": func() {}}}); got != "" {
		t.Fatalf("an action JSON cannot hold hashes to %q", got)
	}
}

func TestSign(t *testing.T) {
	k := keysOf(t, 1)
	hash := bytes.Repeat([]byte{9}, 32)
	at := time.Date(2026, 11, 25, 3, 0, 0, 7, time.FixedZone("x", 7200))
	c := k.Sign(5, hash, at)
	if c.Seq != 5 || !bytes.Equal(c.Hash, hash) || !c.Time.Equal(at) || c.Time.Location() != time.UTC || c.KeyID != k.ID() {
		t.Fatalf("checkpoint %+v", c)
	}
	if !audit.CheckSignature(&c, k.Public()) {
		t.Fatal("a checkpoint does not verify with its key")
	}
	if audit.CheckSignature(&c, keysOf(t, 2).Public()) {
		t.Fatal("a checkpoint verifies with another key")
	}
	for name, edit := range map[string]func(*audit.Checkpoint){
		"seq":   func(c *audit.Checkpoint) { c.Seq++ },
		"hash":  func(c *audit.Checkpoint) { c.Hash = bytes.Repeat([]byte{8}, 32) },
		"time":  func(c *audit.Checkpoint) { c.Time = c.Time.Add(time.Nanosecond) },
		"key":   func(c *audit.Checkpoint) { c.KeyID = keysOf(t, 2).ID() },
		"sig":   func(c *audit.Checkpoint) { c.Sig = append([]byte{c.Sig[0] ^ 1}, c.Sig[1:]...) },
		"nosig": func(c *audit.Checkpoint) { c.Sig = nil },
	} {
		e := c
		edit(&e)
		if audit.CheckSignature(&e, k.Public()) {
			t.Errorf("a checkpoint with its %s edited verifies", name)
		}
	}
	if audit.CheckSignature(&c, nil) {
		t.Fatal("a checkpoint verifies with no key")
	}
}

func TestKeysNeverPrinted(t *testing.T) {
	k := keysOf(t, 0xab)
	secrets := []string{hex.EncodeToString(seedOf(0xab)), base64.StdEncoding.EncodeToString(seedOf(0xab)), "171 171 171", "ab ab ab", "[171"}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%d", "%q"} {
		for _, v := range []any{k, *k} {
			out := fmt.Sprintf(format, v)
			for _, s := range secrets {
				if bytes.Contains(bytes.ToLower([]byte(out)), []byte(s)) {
					t.Errorf("%s of the key shows key material: %s", format, out)
				}
			}
		}
	}
	if out, _ := json.Marshal(k); string(out) != "{}" {
		t.Errorf("the key marshals to %s", out)
	}
}
