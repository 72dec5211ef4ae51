package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// KeySize is the size of the key under which a store hashes the values
// its conversations remember (see Observe).
const KeySize = 32

// NewKey returns a random key of KeySize bytes for a store.
func NewKey() []byte {
	k := make([]byte, KeySize)
	rand.Read(k) // never fails (crypto/rand panics if the system has no randomness)
	return k
}

// checkKey reports a key too short to hash remembered values under.
func checkKey(key []byte) error {
	if len(key) < KeySize {
		return fmt.Errorf("session: a hash key of %d bytes; need at least %d", len(key), KeySize)
	}
	return nil
}

// sipKey is the 128-bit key of SipHash-2-4, derived from a store's key.
type sipKey struct{ k0, k1 uint64 }

// markKey derives the key of the remembered values' hashes from key:
// HMAC-SHA256(key, label), its first 16 bytes. The label names the use,
// so the store's key can serve other uses with other labels.
func markKey(key []byte) sipKey {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("warden session marks v1"))
	s := m.Sum(nil)
	return sipKey{binary.LittleEndian.Uint64(s), binary.LittleEndian.Uint64(s[8:])}
}

// sum returns SipHash-2-4 of s under k: a keyed PRF fast on short input
// (a remembered window is 12 bytes, and a request is compared at every
// offset), stable across Go versions and processes, unlike hash/maphash.
func (k sipKey) sum(s string) uint64 {
	v0 := k.k0 ^ 0x736f6d6570736575
	v1 := k.k1 ^ 0x646f72616e646f6d
	v2 := k.k0 ^ 0x6c7967656e657261
	v3 := k.k1 ^ 0x7465646279746573
	n := len(s)
	for ; len(s) >= 8; s = s[8:] {
		m := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		v3 ^= m
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0 ^= m
	}
	m := uint64(n) << 56
	for i := len(s) - 1; i >= 0; i-- {
		m |= uint64(s[i]) << (8 * uint(i))
	}
	v3 ^= m
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0 ^= m
	v2 ^= 0xff
	for range 4 {
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	}
	return v0 ^ v1 ^ v2 ^ v3
}

func sipRound(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13)
	v1 ^= v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16)
	v3 ^= v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21)
	v3 ^= v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17)
	v1 ^= v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}
