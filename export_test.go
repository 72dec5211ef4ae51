package warden

// WithWork sets the work budget of every call (tool.DefaultWork unless
// set), for the benchmarks that measure analysis past the default budget.
func WithWork(n int64) Option { return func(e *Engine) error { e.work = n; return nil } }
