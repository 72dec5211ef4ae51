package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

// recording is the audit trail warden assess --store records in: the
// store's backend, and the engine options that record in it.
type recording struct {
	b    audit.Backend
	opts []warden.Option
}

func (r *recording) Close() error { return r.b.Close() }

// openRecording opens the store dsn names and what records every answer
// in its audit trail: the store's backend and the audit key (keyFile,
// else as signingKeys finds it, created on first use). A store without
// an audit trail, or a key that cannot be read, is an error: assess
// --store never assesses unrecorded.
//
// The key is loaded while the store opens, on another goroutine (reading
// it and deriving its Ed25519 key cost about 0.7M instructions, see
// audit.KeysFromSeed), which a hook's process would otherwise wait for. A
// key that fails is reported once the store is open (a store created by
// then stays, empty).
func openRecording(ctx context.Context, dsn, keyFile string) (session.Store, *recording, error) {
	type loaded struct {
		k     *audit.Keys
		where string
		err   error
	}
	key := make(chan loaded, 1)
	go func() {
		k, where, err := signingKeys(keyFile, true)
		key <- loaded{k, where, err}
	}()
	st, err := store.Open(ctx, dsn, session.DefaultConfig())
	if err != nil {
		return nil, nil, fmt.Errorf("--store: %w", err)
	}
	b, err := store.Audit(st)
	if err != nil {
		st.Close()
		return nil, nil, fmt.Errorf("--store %s: %w; assess --store records every decision, and will not assess unrecorded", shownDSN(dsn), err)
	}
	k := <-key
	if k.err != nil {
		b.Close()
		st.Close()
		return nil, nil, fmt.Errorf("the audit key: %w", k.err)
	}
	r := &recording{b: b, opts: []warden.Option{warden.WithAudit(audit.NewLog(b, k.k))}}
	if k.where != envKey { // a key file: the agent may not touch it, wherever it is
		if abs, err := filepath.Abs(k.where); err == nil {
			r.opts = append(r.opts, warden.WithGuardedFiles(abs))
		}
	}
	return st, r, nil
}
