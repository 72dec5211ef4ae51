package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// gcSettings returns the GC percent and memory limit, unchanged.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// afterCollections collects up to n times until cond holds (the tuner's
// finalizer runs on its own goroutine after a cycle), and reports whether
// it did.
func afterCollections(n int, cond func() bool) bool {
	for range n {
		runtime.GC()
		runtime.Gosched()
		if cond() {
			return true
		}
	}
	return false
}

// TestDeferGC: no collection before the memory reaches startHeap; after
// one, the collections stay deferred to startHeap while the heap kept
// alive is small, the process's settings return while it is over half of
// startHeap, and the deferral returns once it is small again.
func TestDeferGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	const percent = 123
	old := debug.SetGCPercent(percent)
	oldLimit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(oldLimit)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC
	tuner := deferGC()
	defer tuner.stop()
	deferred := func() bool { p, l := gcSettings(); return p == -1 && l == startHeap }
	restored := func() bool { p, l := gcSettings(); return p == percent && l == oldLimit }
	if !deferred() {
		p, l := gcSettings()
		t.Fatalf("GC percent %d, memory limit %d after deferGC, want off and %d", p, l, startHeap)
	}
	// a few MB of garbage: no collection
	var keep [][]byte
	for range 4 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC != before {
		t.Errorf("%d collections below startHeap", ms.NumGC-before)
	}
	// past startHeap: a collection, after which little is alive
	for i := 0; ms.NumGC == before && i < 1000; i++ {
		keep[i%4] = make([]byte, 1<<20)
		runtime.ReadMemStats(&ms)
	}
	if ms.NumGC == before {
		t.Fatal("no collection past startHeap")
	}
	runtime.GC()
	if afterCollections(20, func() bool { return !deferred() }) {
		t.Fatal("a collection with little alive restored the settings")
	}
	// more than half of startHeap alive: the process's settings
	for range startHeap / 2 >> 20 {
		keep = append(keep, make([]byte, 1<<20))
	}
	if !afterCollections(1000, restored) {
		p, l := gcSettings()
		t.Fatalf("GC percent %d, memory limit %d with %d MB alive, want %d and %d", p, l, len(keep), percent, oldLimit)
	}
	runtime.KeepAlive(keep)
	keep = nil
	if !afterCollections(1000, deferred) {
		t.Fatal("the collections are not deferred again once little is alive")
	}
}

// TestDeferGCRespectsEnv: GOGC or GOMEMLIMIT set by the user are kept.
func TestDeferGCRespectsEnv(t *testing.T) {
	t.Setenv("GOGC", "100")
	p := debug.SetGCPercent(77)
	defer debug.SetGCPercent(p)
	if deferGC() != nil {
		t.Error("deferGC tunes the GC despite GOGC")
	}
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent %d, want the user's 77", got)
	}
}
