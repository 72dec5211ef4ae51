package warden

import (
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
)

// WithWork sets the work budget of every call (tool.DefaultWork unless
// set), for the benchmarks that measure analysis past the default budget.
func WithWork(n int64) Option { return func(e *Engine) error { e.work = n; return nil } }

// StepEvent is stepEvent, for the tests of the event a step becomes: the
// policy's hash is computed here.
func StepEvent(s *Step, k *audit.Keys, now time.Time, p *policy.Policy) *audit.Event {
	hash := ""
	if p != nil {
		hash = p.Hash()
	}
	return stepEvent(s, k, now, p, hash)
}
