package session

import (
	"container/list"
	"sync"
	"time"
)

// LegacyStore holds the live states of the conversations in progress, in
// memory. It is safe for concurrent use.
//
// Deprecated: the engine moves to Store (NewMemoryStore); LegacyStore goes
// when nothing uses it.
type LegacyStore struct {
	cfg Config
	now func() time.Time

	mu  sync.Mutex
	m   map[string]*list.Element // of *State
	lru *list.List               // front: most recently used
}

// NewStore returns an empty store with the bounds cfg.
func NewStore(cfg Config) *LegacyStore {
	return &LegacyStore{cfg: cfg.withDefaults(), now: time.Now, m: map[string]*list.Element{}, lru: list.New()}
}

// Config returns the store's bounds.
func (s *LegacyStore) Config() Config { return s.cfg }

// Get returns the state of session id, creating it when it is new or was
// forgotten. The caller locks the state (Lock, Unlock) while it uses it.
func (s *LegacyStore) Get(id string) *State {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		st := el.Value.(*State)
		if now.Sub(st.seen) <= s.cfg.TTL {
			st.seen = now
			s.lru.MoveToFront(el)
			return st
		}
		s.lru.Remove(el)
		delete(s.m, id)
	}
	st := newState(id, s.cfg)
	st.seen = now
	s.m[id] = s.lru.PushFront(st)
	// forget the least recently used beyond the bound, and the idle
	for s.lru.Len() > s.cfg.MaxSessions {
		s.evict(s.lru.Back())
	}
	for el := s.lru.Back(); el != nil && now.Sub(el.Value.(*State).seen) > s.cfg.TTL; el = s.lru.Back() {
		s.evict(el)
	}
	return st
}

func (s *LegacyStore) evict(el *list.Element) {
	s.lru.Remove(el)
	delete(s.m, el.Value.(*State).id)
}

// Peek returns the state of session id without creating or refreshing
// it, or nil.
func (s *LegacyStore) Peek(id string) *State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		return el.Value.(*State)
	}
	return nil
}

// Delete forgets session id.
func (s *LegacyStore) Delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		s.evict(el)
	}
}

// Len returns how many sessions the store holds.
func (s *LegacyStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}
