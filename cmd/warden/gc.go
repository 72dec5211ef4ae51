package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// startHeap is the memory a warden process may use before it collects
// garbage, as long as what it keeps alive is small. Most warden processes
// are short: an agent's hook starts one per tool call, which assesses one
// action and exits; below startHeap it never collects. A long one (a
// stream of actions, a server, a scan of a large tree) keeps a few MB
// alive and makes garbage at a steady rate (≈ 7 KB per action): letting
// it grow to startHeap between collections, instead of to twice what it
// keeps (Go's default), makes ~5 times fewer collections, which cost a
// sixth of its CPU time. A process that keeps more than half of startHeap
// alive (a hostile input) runs with the settings it started with, as any
// Go program does; memory stays bounded, inside the 64 MB that hostile
// inputs may use.
const startHeap = 32 << 20

// deferGC sets the GC to collect when the process's memory reaches
// startHeap, and after each collection chooses again between that and the
// settings the process started with, by the heap the collection found
// alive (with some hysteresis). A GOGC or GOMEMLIMIT in the environment
// is the user's choice and is left alone: deferGC then returns nil.
func deferGC() *gcTuner {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	t := &gcTuner{percent: debug.SetGCPercent(-1), limit: debug.SetMemoryLimit(startHeap), deferred: true}
	t.arm()
	return t
}

// gcTuner holds the GC settings the process started with, and whether
// they are deferred to startHeap now. Its finalizer, which runs once per
// collection, uses them.
type gcTuner struct {
	percent  int
	limit    int64
	deferred bool
	stopped  atomic.Bool // see stop
}

// stop ends t's choices after the collection under way, if any: the
// settings stay as they are then (for tests).
func (t *gcTuner) stop() { t.stopped.Store(true) }

// arm has the next collection call t.after, with a sentinel it finds
// unreachable and whose finalizer runs after it (the sentinel holds a
// pointer so that it is not a tiny allocation, whose finalizer may never
// run).
func (t *gcTuner) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { t.after() })
}

type sentinel struct{ _ *int }

// after a collection: the start settings when the heap kept alive is over
// half of startHeap (collecting at startHeap would come too often, or
// could not keep the process under it), startHeap again once it is under
// a quarter.
func (t *gcTuner) after() {
	if t.stopped.Load() {
		return
	}
	live := liveHeap()
	switch {
	case t.deferred && live > startHeap/2:
		debug.SetGCPercent(t.percent)
		debug.SetMemoryLimit(t.limit)
		t.deferred = false
	case !t.deferred && live < startHeap/4:
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(startHeap)
		t.deferred = true
	}
	t.arm()
}

// liveHeap returns the bytes of heap the last collection found alive.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return startHeap // unknown: as if large
	}
	return s[0].Value.Uint64()
}
