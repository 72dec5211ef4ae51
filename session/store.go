package session

import (
	"container/list"
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/agentwarden/warden/tool"
)

// Store keeps the states of the conversations in progress. Implementations
// are safe for concurrent use.
type Store interface {
	// Update runs fn on the state of conversation id (a new State when the
	// store has none or it expired), serialized with every other Update of
	// the same id — in this process and, for persistent stores, in other
	// processes — and saves the state when fn returns nil. An error from
	// loading or saving is returned (the engine turns it into a deny:
	// nothing runs unrecorded); so is fn's error, and then nothing fn did
	// is saved. fn receives ctx, or a context derived from it that carries
	// the store's transaction: what fn records in the same database (the
	// audit trail) then commits with the state, or not at all.
	Update(ctx context.Context, id string, fn func(ctx context.Context, st *State) error) error
	// Get returns a copy of the state of id, or nil when the store has
	// none (or it expired).
	Get(ctx context.Context, id string) (*State, error)
	// Delete forgets conversation id; forgetting one the store does not
	// have is no error.
	Delete(ctx context.Context, id string) error
	// Close releases the store; every later call fails with ErrClosed.
	Close() error
}

// ErrClosed is the error of a Store used after Close.
var ErrClosed = errors.New("session: store closed")

// NewMemoryStore returns a Store that keeps states in this process: at
// most cfg.MaxSessions of them (the least recently used beyond it are
// forgotten), forgetting those idle longer than cfg.TTL. Its hash key is
// random: what it remembers dies with it.
func NewMemoryStore(cfg Config) Store {
	return &memoryStore{cfg: cfg.withDefaults(), key: NewKey(), m: map[string]*list.Element{}, lru: list.New()}
}

type memoryStore struct {
	cfg Config
	key []byte

	mu     sync.Mutex               // guards what follows, and every memEntry's st and seen
	m      map[string]*list.Element // of *memEntry
	lru    *list.List               // front: most recently used
	closed bool
}

type memEntry struct {
	id     string
	update sync.Mutex // serializes the Updates of id
	st     *State     // the saved state, never changed once saved; nil: none yet
	seen   time.Time  // when st was saved
}

func (s *memoryStore) Update(ctx context.Context, id string, fn func(ctx context.Context, st *State) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return ErrClosed
		}
		el, ok := s.m[id]
		if !ok {
			el = s.lru.PushFront(&memEntry{id: id, seen: s.cfg.Now()})
			s.m[id] = el
			s.evict()
		}
		s.mu.Unlock()
		if done, err := s.update(ctx, el, id, fn); done {
			return err
		}
	}
}

// update runs fn on the state of the entry el of id, unless el was
// deleted or evicted while it waited (done is false: start over).
func (s *memoryStore) update(ctx context.Context, el *list.Element, id string, fn func(context.Context, *State) error) (done bool, err error) {
	e := el.Value.(*memEntry)
	e.update.Lock()
	defer e.update.Unlock() // fn may panic: the next Update of id must not wait forever
	s.mu.Lock()
	current, saved, seen := s.m[id] == el, e.st, e.seen
	s.mu.Unlock()
	if !current {
		return false, nil
	}
	var st *State
	if saved != nil && s.cfg.Now().Sub(seen) <= s.cfg.TTL {
		st = saved.clone()
	} else {
		st = New(id, s.cfg, s.key)
	}
	if err := fn(ctx, st); err != nil {
		return true, err
	}
	s.mu.Lock()
	e.st, e.seen = st, s.cfg.Now()
	if s.m[id] == el {
		s.lru.MoveToFront(el)
	}
	s.mu.Unlock()
	return true, nil
}

// evict forgets the least recently used states beyond MaxSessions, and
// the idle. s.mu is held.
func (s *memoryStore) evict() {
	for s.lru.Len() > s.cfg.MaxSessions {
		s.remove(s.lru.Back())
	}
	now := s.cfg.Now()
	for el := s.lru.Back(); el != nil && now.Sub(el.Value.(*memEntry).seen) > s.cfg.TTL; el = s.lru.Back() {
		s.remove(el)
	}
}

func (s *memoryStore) remove(el *list.Element) {
	s.lru.Remove(el)
	delete(s.m, el.Value.(*memEntry).id)
}

func (s *memoryStore) Get(ctx context.Context, id string) (*State, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	var st *State
	if el, ok := s.m[id]; ok {
		e := el.Value.(*memEntry)
		if e.st != nil && s.cfg.Now().Sub(e.seen) <= s.cfg.TTL {
			st = e.st
		}
	}
	s.mu.Unlock()
	if st == nil {
		return nil, nil
	}
	return st.clone(), nil // a saved state never changes: no lock needed
}

func (s *memoryStore) Delete(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if el, ok := s.m[id]; ok {
		s.remove(el)
	}
	return nil
}

func (s *memoryStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.m, s.lru = nil, list.New()
	return nil
}

// clone returns a copy of st that shares nothing st's methods change.
func (st *State) clone() *State {
	cp := &State{
		id: st.id, cfg: st.cfg,
		step: st.step, workspace: st.workspace, cwd: st.cwd,
		files:     maps.Clone(st.files),
		byBase:    maps.Clone(st.byBase),
		reads:     slices.Clone(st.reads),
		marks:     maps.Clone(st.marks),
		key:       st.key,
		mk:        st.mk,
		history:   slices.Clone(st.history),
		approvals: slices.Clone(st.approvals),
		contexts:  maps.Clone(st.contexts),
	}
	p := &st.prior
	cp.prior = tool.Prior{
		Vars: maps.Clone(p.Vars), Aliases: maps.Clone(p.Aliases), Funcs: maps.Clone(p.Funcs),
		GitAliases: maps.Clone(p.GitAliases), PyVars: maps.Clone(p.PyVars),
		Lists: maps.Clone(p.Lists), // the lists themselves are replaced, never changed
		Links: maps.Clone(p.Links),
	}
	// one allocation for all the files; the lists of paths by base name
	// are never changed in place (see State.file and State.forget)
	files := make([]File, 0, len(st.files))
	for k, f := range cp.files {
		files = append(files, *f)
		files[len(files)-1].buf = nil // appends to one must not write into the other's room
		cp.files[k] = &files[len(files)-1]
	}
	return cp
}
