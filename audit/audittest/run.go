package audittest

import (
	"testing"

	"github.com/agentwarden/warden/audit"
)

// Tamperer edits a backend's stored chain behind its back, as someone
// who can write its database would: without the audit key, and without
// going through Append. Each method fails t when it cannot.
type Tamperer interface {
	// SetRecord overwrites the stored record of seq (which must exist)
	// with r's data, hash and columns; the row keeps seq, whatever r.Seq.
	SetRecord(t testing.TB, seq int64, r audit.Record)
	// Delete removes the record of seq.
	Delete(t testing.TB, seq int64)
	// Insert stores r at r.Seq, which no record holds.
	Insert(t testing.TB, r audit.Record)
	// DeleteCheckpoints removes every checkpoint of Seq >= from.
	DeleteCheckpoints(t testing.TB, from int64)
	// AddCheckpoint stores c.
	AddCheckpoint(t testing.TB, c audit.Checkpoint)
}

// Option changes what Run tests.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, b audit.Backend) audit.Backend
}

// Reopen gives Run a second handle on the database of a backend open
// returned (another connection, as another process would have): Run then
// appends through both at once, and checks the chain stays one. Without
// it (a Memory: each is its own chain) that test is skipped.
func Reopen(fn func(t *testing.T, b audit.Backend) audit.Backend) Option {
	return func(c *config) { c.reopen = fn }
}

// suite is one run of the conformance suite.
type suite struct {
	open   func(t *testing.T) audit.Backend
	tamper func(t *testing.T, b audit.Backend) Tamperer
	config
}

// Run runs the conformance suite. open returns an empty chain, which Run
// closes when a test ends; tamper returns a Tamperer of a backend open
// returned (nil: the tamper tests are skipped).
func Run(t *testing.T, open func(t *testing.T) audit.Backend, tamper func(t *testing.T, b audit.Backend) Tamperer, opts ...Option) {
	s := &suite{open: open, tamper: tamper}
	for _, o := range opts {
		o(&s.config)
	}
	t.Run("AppendReadBack", s.testAppendReadBack)
	t.Run("Scan", s.testScan)
	t.Run("Checkpoints", s.testCheckpoints)
	t.Run("Batch", s.testBatch)
	t.Run("SealFailure", s.testSealFailure)
	t.Run("GroupCommit", s.testGroupCommit)
	t.Run("TwoHandles", s.testTwoHandles)
	t.Run("Prune", s.testPrune)
	t.Run("VerifyPages", s.testVerifyPages)
	t.Run("Tamper", s.testTamper)
}

// backend opens an empty chain, closed when t ends.
func (s *suite) backend(t *testing.T) audit.Backend {
	t.Helper()
	b := s.open(t)
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("closing the backend: %v", err)
		}
	})
	return b
}
