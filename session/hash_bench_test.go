package session

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"github.com/agentwarden/warden/tool"
	"hash/maphash"
	"strings"
	"testing"
)

// BenchmarkObserve: a credential file read, its values remembered.
func BenchmarkObserve(b *testing.B) {
	read := normalized("Read", map[string]any{"file_path": "/home/user/.ssh/id_ed25519"})
	out := fakeKey + strings.Repeat("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEY\n", 20)
	for b.Loop() {
		st := NewState(Config{})
		st.Observe(read, out, PersonalScanner)
	}
}

// BenchmarkCarries: a 4 KiB request body compared with the values
// remembered, which it does not carry (every offset is hashed).
func BenchmarkCarries(b *testing.B) {
	st := NewState(Config{})
	st.Observe(normalized("Read", map[string]any{"file_path": "/home/user/.ssh/id_ed25519"}), fakeKey, PersonalScanner)
	body := strings.Repeat("the quick brown fox jumps over the lazy dog ", 100)[:4096]
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if st.carries(body) >= 0 {
			b.Fatal("carried")
		}
	}
}

// BenchmarkMarkHash compares, on one 12-byte window, the hash of
// remembered values (SipHash-2-4 under the store's key) with the
// per-process maphash it replaced and HMAC-SHA256 truncated to 64 bits.
func BenchmarkMarkHash(b *testing.B) {
	w := "wJalrXUtnFEM"
	b.Run("maphash", func(b *testing.B) {
		seed := maphash.MakeSeed()
		for b.Loop() {
			sink ^= maphash.String(seed, w)
		}
	})
	b.Run("siphash", func(b *testing.B) {
		k := markKey(NewKey())
		for b.Loop() {
			sink ^= k.sum(w)
		}
	})
	b.Run("hmac-sha256", func(b *testing.B) {
		m := hmac.New(sha256.New, NewKey())
		var sum [sha256.Size]byte
		for b.Loop() {
			m.Reset()
			m.Write([]byte(w))
			sink ^= binary.LittleEndian.Uint64(m.Sum(sum[:0]))
		}
	})
}

var sink uint64

// BenchmarkClone: the copy the memory store makes for each Update, of
// the state BenchmarkUpdate (package store) builds: 32 files, history full.
func BenchmarkClone(b *testing.B) {
	st := richState(b)
	for i := range 40 {
		c := call(tool.Effect{Kind: tool.WriteFile, Path: fmt.Sprintf("/p/notes/%d.txt", i%32), Text: "x", Known: true})
		st.Enter(c, false)
		st.Record(c, nil, nil)
	}
	for b.Loop() {
		st.clone()
	}
}
