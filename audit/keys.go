package audit

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentwarden/warden/risk"
)

// Keys is the audit key: an Ed25519 private key that signs checkpoints,
// and the HMAC key of ActionHash, derived from the same seed. It is kept
// outside the database (see OpenKeys and KeysFromEnv): whoever can write
// the database but not read the key cannot sign a rewritten chain.
//
// Printing a Keys with fmt shows its ID only, never key material.
type Keys struct {
	mac []byte // HMAC-SHA256 key of ActionHash
	// ed is the Ed25519 key, which signs checkpoints; nil for the zero
	// Keys.
	ed *edKey
}

// macDomain is what the HMAC key of ActionHash is derived with: a key of
// its own, so that no action hash ever depends on the signing seed
// directly, and so that the seed is never used as two kinds of key.
const macDomain = "warden audit action-hash key v1"

// GenerateKeys returns a new random key.
func GenerateKeys() (*Keys, error) {
	seed := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("audit: generating a key: %w", err)
	}
	return KeysFromSeed(seed)
}

// KeysFromSeed returns the key of a 32-byte Ed25519 seed. It costs a
// fraction of a millisecond, and spares a process that signs one
// checkpoint the table crypto/ed25519 builds (see edKey).
func KeysFromSeed(seed []byte) (*Keys, error) {
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("audit: a key seed is %d bytes, not %d", ed25519.SeedSize, len(seed))
	}
	m := hmac.New(sha256.New, seed)
	m.Write([]byte(macDomain))
	return &Keys{mac: m.Sum(nil), ed: newEdKey(seed)}, nil
}

// PublicKeyID returns the ID of a public key: the first 16 hex digits of
// its SHA-256. A checkpoint names the key that signed it with this ID.
func PublicKeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// ID returns the ID of the key (PublicKeyID of its public key).
func (k *Keys) ID() string { return k.ed.id }

// Public returns the public key, which verifies checkpoints.
func (k *Keys) Public() ed25519.PublicKey { return k.ed.public() }

// String names the key by its ID; it never shows key material. String,
// GoString and Format have value receivers so that a Keys printed by
// value hides its fields too.
func (k Keys) String() string {
	if k.ed == nil {
		return "audit key (none)"
	}
	return "audit key " + k.ed.id
}

// GoString is String, so that %#v shows no key material either.
func (k Keys) GoString() string { return k.String() }

// Format writes String whatever the verb, so that no verb of fmt prints
// the key's fields.
func (k Keys) Format(f fmt.State, _ rune) { fmt.Fprint(f, k.String()) }

// ActionHash returns the hex HMAC-SHA256, under the key's HMAC key, of
// the canonical JSON of a (Go's JSON of risk.Action: fields in a fixed
// order, map keys sorted). Give it the unmasked action: the hash binds an
// approval to the exact arguments, and without the key nobody can find a
// masked secret by hashing guesses. It returns "" for an action that
// cannot be encoded as JSON (one holding a Go value JSON has no form
// for), which no event could hold either.
func (k *Keys) ActionHash(a *risk.Action) string {
	data, err := json.Marshal(a)
	if err != nil {
		return ""
	}
	m := hmac.New(sha256.New, k.mac)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil))
}

// Sign returns a checkpoint over the chain's head at seq, whose record
// has hash, at time t (kept in UTC).
func (k *Keys) Sign(seq int64, hash []byte, t time.Time) Checkpoint {
	t = t.UTC()
	return Checkpoint{Seq: seq, Hash: append([]byte(nil), hash...), Time: t, KeyID: k.ed.id,
		Sig: k.ed.sign(CheckpointMessage(seq, hash, t))}
}

// CheckSignature reports whether c is signed by pub: its KeyID names pub
// and its signature verifies over its Seq, Hash and Time.
func CheckSignature(c *Checkpoint, pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && c.KeyID == PublicKeyID(pub) &&
		ed25519.Verify(pub, CheckpointMessage(c.Seq, c.Hash, c.Time), c.Sig)
}
