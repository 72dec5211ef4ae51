package audit_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// FuzzDecode decodes records of any data: never a panic, and an event
// that decodes without error agrees with its columns.
func FuzzDecode(f *testing.F) {
	r, _ := audit.Seal(checkEvent("s", "Bash", risk.Deny, risk.High), audit.Head{Seq: 4, Hash: make([]byte, 32), First: 1})
	f.Add(r.Data, int64(5))
	f.Add([]byte(`{"seq":1,"time":"2026-01-01T00:00:00Z","kind":"check","assessment":{"level":"bogus"}}`), int64(1))
	f.Add([]byte(`{"seq":1,"decision":{"verdict":7},"judge":{"latency_ns":"x"}}`), int64(1))
	f.Add([]byte("null"), int64(0))
	f.Fuzz(func(t *testing.T, data []byte, seq int64) {
		rec := audit.Record{Seq: seq, Data: data, Hash: audit.RecordHash(data)}
		ev, err := audit.Decode(&rec)
		if err == nil && ev.Seq != seq {
			t.Fatalf("decoded event %d from record %d", ev.Seq, seq)
		}
	})
}

// FuzzVerify verifies a chain whose third record holds any data: never a
// panic, and the chain is bad at 3 or before.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(`{"seq":3,"kind":"prune","pruned":{"first":1,"before":9}}`), false)
	f.Add([]byte(`{"seq":3,"prev":"zz"}`), true)
	f.Add([]byte(`{}`), false)
	f.Fuzz(func(t *testing.T, data []byte, rehash bool) {
		ctx := context.Background()
		k := keysOf(t, 1)
		m := audit.NewMemory()
		l := audit.NewLog(m, k)
		for range 5 {
			if _, err := l.Append(ctx, &audit.Event{Time: time.Unix(1, 0), Kind: audit.KindObserve}); err != nil {
				t.Fatal(err)
			}
		}
		r, _ := m.Get(ctx, 3)
		if bytes.Equal(r.Data, data) {
			return
		}
		r.Data = data
		if rehash {
			r.Hash = audit.RecordHash(data)
		}
		audit.MemoryTamperer{M: m}.SetRecord(t, 3, r)
		for _, pub := range [][]byte{nil, k.Public()} {
			rep, err := audit.Verify(ctx, m, pub)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || rep.FirstBad > 3 {
				t.Fatalf("a changed event 3 verifies (first bad %d): %s", rep.FirstBad, data)
			}
		}
	})
}

// FuzzParsePublicKey reads any text as a public key or key file: never a
// panic, a key is always 32 bytes, and no error quotes the text.
func FuzzParsePublicKey(f *testing.F) {
	k := keysOf(f, 1)
	f.Add([]byte(k.PublicText()))
	f.Add([]byte("warden-audit-key v1\n" + base64.StdEncoding.EncodeToString(seedOf(1)) + "\n"))
	f.Add([]byte("warden-audit-key v1\nQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=\n\n"))
	f.Add([]byte("warden-audit-ed25519 " + base64.StdEncoding.EncodeToString(make([]byte, 31))))
	f.Fuzz(func(t *testing.T, text []byte) {
		pub, err := audit.ParsePublicKey(text)
		if err != nil {
			if len(text) >= 24 && bytes.Contains([]byte(err.Error()), text) {
				t.Fatalf("the error quotes the text: %v", err)
			}
			return
		}
		if len(pub) != 32 {
			t.Fatalf("a %d-byte key", len(pub))
		}
	})
}
