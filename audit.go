package warden

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
)

// WithAudit records every step the engine answers in the audit trail l:
// each Check, Reject, Approve, Decline, Observe and Report becomes exactly
// one audit.Event (see the event's fields for what it holds; every text
// that came from the agent is masked), appended before the engine
// answers. An event that cannot be appended denies the action
// (risk.StageRecord), as any recorder's failure does; an approval that
// cannot be recorded is not made.
//
// Inside a conversation of a session store (WithStore), the event is
// appended with the context the store's Update hands the engine, which
// carries the store's transaction: a backend of the same database writes
// the event in it, so that the conversation's state and its trail commit
// together.
//
// The trail's store is warden's own: when its backend names its files
// (a Files method, as the SQLite store has), the guard protects them from
// the agent, as it does the session store's; so it does the key file
// where audit.DefaultKeyPath says it is ($WARDEN_AUDIT_KEY_FILE, read
// once, here). A key file kept elsewhere is named with WithGuardedFiles.
func WithAudit(l *audit.Log) Option {
	return func(e *Engine) error {
		if l == nil || l.Keys() == nil {
			return fmt.Errorf("warden: WithAudit: nil audit log or keys")
		}
		if f, ok := l.Backend().(interface{ Files() []string }); ok {
			e.guarded = append(e.guarded, f.Files()...)
		}
		e.keys, e.trail = l.Keys(), l.Backend()
		if p, err := audit.DefaultKeyPath(); err == nil {
			if abs, err := filepath.Abs(p); err == nil { // a relative path is read from here
				e.guarded = append(e.guarded, filepath.ToSlash(abs))
			}
		}
		return WithRecorder(func(next Recorder) Recorder {
			return &auditRecorder{e: e, log: l, next: next}
		})(e)
	}
}

// WithGuardedFiles adds files (or whole directories) that are warden's own
// and that no agent may change, beside those the guard knows (warden's
// directories under the home directory and $XDG_CONFIG_HOME and
// $XDG_STATE_HOME, the session store's files): the audit key file of a
// server, kept where $WARDEN_AUDIT_KEY_FILE says, or a policy file
// outside them. Paths must be absolute.
func WithGuardedFiles(paths ...string) Option {
	return func(e *Engine) error {
		for _, p := range paths {
			if !filepath.IsAbs(p) {
				return fmt.Errorf("warden: WithGuardedFiles: %q is not an absolute path", p)
			}
			e.guarded = append(e.guarded, filepath.ToSlash(filepath.Clean(p)))
		}
		return nil
	}
}

// WithClock sets the clock that times the engine's audit events (default
// time.Now): tests use a fixed one.
func WithClock(now func() time.Time) Option {
	return func(e *Engine) error {
		if now == nil {
			return fmt.Errorf("warden: WithClock: nil clock")
		}
		e.now = now
		return nil
	}
}

// auditRecorder is the recorder WithAudit adds: the recorders added
// before it record first, then it appends the step's event. When they
// fail, no event is appended (the engine denies, and the step was not
// recorded).
type auditRecorder struct {
	e    *Engine
	log  *audit.Log
	next Recorder
	// hashed is the last policy hashed and its hash: the engine's policy
	// changes only when a project approval extends it.
	hashed atomic.Pointer[policyHash]
}

type policyHash struct {
	p    *policy.Policy
	hash string
}

// Record implements Recorder.
func (r *auditRecorder) Record(ctx context.Context, s *Step) error {
	if err := r.next.Record(ctx, s); err != nil {
		return err
	}
	p := s.policy
	if p == nil { // a step no policy decided: the policy in force
		p = r.e.policy.Load()
	}
	ev := stepEvent(s, r.log.Keys(), r.e.now(), p, r.hash(p))
	if _, err := r.log.Append(ctx, ev); err != nil {
		return fmt.Errorf("audit trail: %w", err)
	}
	return nil
}

// hash returns the hash of p, computed once for each policy in turn.
func (r *auditRecorder) hash(p *policy.Policy) string {
	if h := r.hashed.Load(); h != nil && h.p == p {
		return h.hash
	}
	h := &policyHash{p: p, hash: p.Hash()}
	r.hashed.Store(h)
	return h.hash
}
