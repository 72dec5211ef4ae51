package warden

import (
	"context"

	"github.com/agentwarden/warden/session"
)

// sessions is where the engine keeps its conversations.
type sessions interface {
	Update(ctx context.Context, id string, fn func(*session.State) error) error
	Get(ctx context.Context, id string) (*session.State, error)
	Delete(ctx context.Context, id string) error
}

// memSessions keeps the conversations in memory.
type memSessions struct{ s *session.LegacyStore }

func (m memSessions) Update(_ context.Context, id string, fn func(*session.State) error) error {
	st := m.s.Get(id)
	st.Lock()
	defer st.Unlock()
	return fn(st)
}

func (m memSessions) Get(_ context.Context, id string) (*session.State, error) {
	return m.s.Peek(id), nil
}

func (m memSessions) Delete(_ context.Context, id string) error {
	m.s.Delete(id)
	return nil
}
