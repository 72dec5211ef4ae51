// Package stored holds what the database stores of package store share:
// reading a stored session row back into a State.
package stored

import (
	"fmt"

	"github.com/agentwarden/warden/session"
)

// Decode returns the State of conversation id from its row: the encoding
// version, the data (nil when the database left it out for being larger
// than cfg.MaxBytes) and its size. A row of an encoding version this
// warden does not read (older ones it reads migrate: see session.Version),
// too large, damaged or holding another conversation is an error: the
// conversation cannot go on from what it did, and it must not start over.
func Decode(id string, version int64, data []byte, size int64, cfg session.Config, key []byte) (*session.State, error) {
	switch {
	case version < session.MinVersion || version > session.Version:
		return nil, fmt.Errorf("session %q: %w: stored in encoding version %d (this warden reads versions %d to %d)", id, session.ErrCorrupt, version, session.MinVersion, session.Version)
	case data == nil:
		return nil, fmt.Errorf("session %q: %w: %d bytes, more than MaxBytes", id, session.ErrCorrupt, size)
	}
	st, err := session.UnmarshalState(data, cfg, key)
	if err != nil {
		return nil, fmt.Errorf("session %q: %w", id, err)
	}
	if st.ID() != id {
		return nil, fmt.Errorf("session %q: %w: the row holds session %q", id, session.ErrCorrupt, st.ID())
	}
	return st, nil
}

// Key checks a hash key read from a store.
func Key(key []byte) ([]byte, error) {
	if len(key) < session.KeySize {
		return nil, fmt.Errorf("the store's hash key has %d bytes, want %d: %w", len(key), session.KeySize, session.ErrCorrupt)
	}
	return key, nil
}
