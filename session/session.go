// Package session follows one conversation of an agent across its tool
// calls, so that harm split into innocent-looking steps is seen at the
// step that completes it.
//
// A State holds what earlier calls left behind: the working directory of
// the agent's persistent shell, its variables, aliases, functions and git
// aliases, the variables of its Python kernel, the files the agent wrote
// or edited (with their text), downloaded or made executable, the files
// that hold sensitive data (credentials copied, the environment dumped,
// database rows saved), the listings of files it saved, and the sensitive
// data read into the agent's context (Reads), with keyed hashes of the
// values seen in tool outputs (Observe). The engine lends that state to
// the analyzers of the next call (tool.Call.Prior, Cwd, Workspace), asks
// the State which chains the call completes (Analyze), and then replays
// the call's effects into it (Record).
//
// Memory is bounded: the Store keeps at most MaxSessions states, evicting
// the least recently used and those idle longer than TTL; each State keeps
// at most MaxFiles files of at most MaxFileBytes each, MaxNames variables,
// aliases and functions, and the last Window actions of history.
package session

import (
	"container/list"
	"sync"
	"time"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Config bounds the sessions kept. Zero fields take the defaults.
type Config struct {
	// Window is how many recent actions each session's history keeps
	// (default 20: what the guardrail judge reads).
	Window int
	// MaxSessions is how many sessions are kept at once (default 10,000);
	// beyond it the least recently used is forgotten.
	MaxSessions int
	// TTL forgets sessions idle for longer (default 24h).
	TTL time.Duration
	// MaxFiles and MaxFileBytes bound the files tracked per session
	// (default 128 files, 64 KiB of text each); MaxNames bounds the
	// variables, aliases and functions of each kind (default 256).
	MaxFiles     int
	MaxFileBytes int
	MaxNames     int
}

// DefaultConfig returns the default bounds.
func DefaultConfig() Config {
	return Config{Window: 20, MaxSessions: 10000, TTL: 24 * time.Hour, MaxFiles: 128, MaxFileBytes: 64 << 10, MaxNames: 256}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Window <= 0 {
		c.Window = d.Window
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = d.MaxSessions
	}
	if c.TTL <= 0 {
		c.TTL = d.TTL
	}
	if c.MaxFiles <= 0 {
		c.MaxFiles = d.MaxFiles
	}
	if c.MaxFileBytes <= 0 {
		c.MaxFileBytes = d.MaxFileBytes
	}
	if c.MaxNames <= 0 {
		c.MaxNames = d.MaxNames
	}
	return c
}

// Store holds the states of the conversations in progress. It is safe for
// concurrent use.
type Store struct {
	cfg Config
	now func() time.Time

	mu  sync.Mutex
	m   map[string]*list.Element // of *State
	lru *list.List               // front: most recently used
}

// NewStore returns an empty store with the bounds cfg.
func NewStore(cfg Config) *Store {
	return &Store{cfg: cfg.withDefaults(), now: time.Now, m: map[string]*list.Element{}, lru: list.New()}
}

// Config returns the store's bounds.
func (s *Store) Config() Config { return s.cfg }

// Get returns the state of session id, creating it when it is new or was
// forgotten. The caller locks the state (Lock, Unlock) while it uses it.
func (s *Store) Get(id string) *State {
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

func (s *Store) evict(el *list.Element) {
	s.lru.Remove(el)
	delete(s.m, el.Value.(*State).id)
}

// Peek returns the state of session id without creating or refreshing
// it, or nil.
func (s *Store) Peek(id string) *State {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		return el.Value.(*State)
	}
	return nil
}

// Delete forgets session id.
func (s *Store) Delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[id]; ok {
		s.evict(el)
	}
}

// Len returns how many sessions the store holds.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Entry is one action of a session's history.
type Entry struct {
	Step     int           `json:"step"`
	Tool     string        `json:"tool"`
	Summary  string        `json:"summary"` // what the action does, shortened (≤ 300 bytes)
	Level    risk.Level    `json:"level"`
	Verdict  risk.Verdict  `json:"verdict"`
	Resource []string      `json:"resources,omitempty"`
	Time     time.Time     `json:"time"`
	Effects  []tool.Effect `json:"-"`
}
