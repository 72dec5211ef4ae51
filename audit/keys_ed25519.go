package audit

import (
	"crypto/ed25519"
	"crypto/sha512"
	"sync"
	"sync/atomic"

	"filippo.io/edwards25519"
)

// edKey is an Ed25519 private key that signs without building Go's table
// of the base point's multiples. crypto/ed25519 builds that table (about
// ten million instructions, a millisecond or more of CPU) the first time
// a process derives or uses a key, and a hook's process, which derives
// its key and signs one checkpoint, would spend more on it than on
// everything else it does. edKey multiplies the base point as any other
// point (constant time, filippo.io/edwards25519's ScalarMult, about a
// twentieth of the table), and hands over to crypto/ed25519 in a process
// that signs again: the second signature builds the table in the
// background, and once it is built every signature is crypto/ed25519's.
// Ed25519 signatures are deterministic: both give the same bytes.
type edKey struct {
	priv   ed25519.PrivateKey // the seed and the public key, as crypto/ed25519 keeps them
	s      edwards25519.Scalar
	prefix [32]byte // the second half of the seed's hash: what derives each signature's nonce
	id     string

	signs atomic.Int64
	warm  sync.Once
	std   atomic.Bool // crypto/ed25519 has priv ready: sign with it
}

// newEdKey derives the key of a 32-byte seed (RFC 8032, section 5.1.5).
func newEdKey(seed []byte) *edKey {
	h := sha512.Sum512(seed)
	k := &edKey{}
	if _, err := k.s.SetBytesWithClamping(h[:32]); err != nil {
		panic("audit: " + err.Error()) // only for a slice that is not 32 bytes
	}
	copy(k.prefix[:], h[32:])
	pub := new(edwards25519.Point).ScalarMult(&k.s, edwards25519.NewGeneratorPoint()).Bytes()
	k.priv = make(ed25519.PrivateKey, 0, ed25519.PrivateKeySize)
	k.priv = append(append(k.priv, seed...), pub...)
	k.id = PublicKeyID(pub)
	return k
}

// public returns the public key.
func (k *edKey) public() ed25519.PublicKey { return k.priv.Public().(ed25519.PublicKey) }

// sign returns the Ed25519 signature of msg, the same as
// ed25519.Sign(k.priv, msg).
func (k *edKey) sign(msg []byte) []byte {
	if k.std.Load() {
		return ed25519.Sign(k.priv, msg)
	}
	if k.signs.Add(1) == 2 {
		k.warm.Do(func() {
			go func() {
				ed25519.Sign(k.priv, nil) // builds the table and caches priv's expansion
				k.std.Store(true)
			}()
		})
	}
	// RFC 8032, section 5.1.6
	pub := k.priv[ed25519.SeedSize:]
	r := k.hashScalar(k.prefix[:], msg)
	R := new(edwards25519.Point).ScalarMult(r, edwards25519.NewGeneratorPoint()).Bytes()
	c := k.hashScalar(R, pub, msg)
	S := edwards25519.NewScalar().MultiplyAdd(c, &k.s, r)
	return append(R, S.Bytes()...)
}

// hashScalar returns SHA-512 of the concatenation of parts, reduced
// modulo the group's order.
func (k *edKey) hashScalar(parts ...[]byte) *edwards25519.Scalar {
	h := sha512.New()
	for _, p := range parts {
		h.Write(p)
	}
	s, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
	if err != nil {
		panic("audit: " + err.Error()) // only for a slice that is not 64 bytes
	}
	return s
}
