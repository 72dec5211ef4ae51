package session_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/session/storetest"
)

func TestMemoryStore(t *testing.T) {
	clock := &storetest.Clock{}
	storetest.Run(t, func(t *testing.T) session.Store {
		s := session.NewMemoryStore(session.Config{Now: clock.Now})
		t.Cleanup(func() { s.Close() })
		return s
	}, storetest.WithClock(clock))
}

func TestMemoryStoreEvictsLeastRecentlyUsed(t *testing.T) {
	s := session.NewMemoryStore(session.Config{MaxSessions: 3})
	touch := func(id string) {
		if err := s.Update(t.Context(), id, func(_ context.Context, st *session.State) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"a", "b", "c", "a", "d"} { // b is the least recently used
		touch(id)
	}
	for id, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if st, _ := s.Get(t.Context(), id); (st != nil) != want {
			t.Errorf("%s kept: %v, want %v", id, st != nil, want)
		}
	}
}
