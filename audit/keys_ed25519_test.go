package audit

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"testing"
	"time"
)

// TestEdKeyIsEd25519: the key derived from a seed, and every signature
// it makes, are crypto/ed25519's, byte for byte: the first signatures,
// made without crypto/ed25519's table, and those after the hand-over to
// crypto/ed25519 (see edKey).
func TestEdKeyIsEd25519(t *testing.T) {
	for i := range 64 {
		seed := make([]byte, ed25519.SeedSize)
		rand.Read(seed)
		if i == 0 {
			seed = make([]byte, ed25519.SeedSize) // all zeros
		}
		std := ed25519.NewKeyFromSeed(seed)
		k := newEdKey(seed)
		if !bytes.Equal(k.priv, std) || !k.public().Equal(std.Public()) || k.id != PublicKeyID(std.Public().(ed25519.PublicKey)) {
			t.Fatalf("seed %x: the key is not crypto/ed25519's", seed)
		}
		for j := range 5 {
			msg := make([]byte, (i*7+j*31)%200)
			rand.Read(msg)
			if got, want := k.sign(msg), ed25519.Sign(std, msg); !bytes.Equal(got, want) {
				t.Fatalf("seed %x, signature %d of %x: %x, crypto/ed25519's is %x", seed, j, msg, got, want)
			}
		}
	}
}

// TestEdKeyHandsOver: a key that signs again builds crypto/ed25519's
// table in the background and signs with crypto/ed25519 once it is
// ready, the same signatures before and after.
func TestEdKeyHandsOver(t *testing.T) {
	k := newEdKey(bytes.Repeat([]byte{3}, 32))
	msg := []byte("checkpoint")
	first := k.sign(msg)
	if k.std.Load() {
		t.Fatal("the first signature handed over")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !k.std.Load() {
		if time.Now().After(deadline) {
			t.Fatal("no hand-over after many signatures")
		}
		if !bytes.Equal(k.sign(msg), first) {
			t.Fatal("the same message signed twice gives two signatures")
		}
		time.Sleep(time.Millisecond)
	}
	if !bytes.Equal(k.sign(msg), first) {
		t.Fatal("after the hand-over, the signature changed")
	}
}

// FuzzEdKey: any seed and message sign as crypto/ed25519 signs them.
func FuzzEdKey(f *testing.F) {
	f.Add(bytes.Repeat([]byte{1}, 32), []byte(""))
	f.Add(bytes.Repeat([]byte{0xff}, 32), []byte("warden audit checkpoint v1\n1\n00\n0"))
	f.Fuzz(func(t *testing.T, seed, msg []byte) {
		if len(seed) != ed25519.SeedSize {
			return
		}
		std := ed25519.NewKeyFromSeed(seed)
		k := newEdKey(seed)
		if !bytes.Equal(k.priv, std) {
			t.Fatalf("seed %x: the key is not crypto/ed25519's", seed)
		}
		if got, want := k.sign(msg), ed25519.Sign(std, msg); !bytes.Equal(got, want) {
			t.Fatalf("seed %x, message %x: %x, crypto/ed25519's is %x", seed, msg, got, want)
		}
	})
}

// BenchmarkKeysFromSeedSign: what a hook's process pays for its audit
// key: derive it from the seed, sign one checkpoint. crypto/ed25519
// would also build its table of the base point's multiples once per
// process (about 10M instructions), which a benchmark's loop cannot show.
func BenchmarkKeysFromSeedSign(b *testing.B) {
	seed := bytes.Repeat([]byte{7}, 32)
	hash := bytes.Repeat([]byte{9}, 32)
	now := time.Now()
	for b.Loop() {
		k, err := KeysFromSeed(seed)
		if err != nil {
			b.Fatal(err)
		}
		k.Sign(1, hash, now)
	}
}
