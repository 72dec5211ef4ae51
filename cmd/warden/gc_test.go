package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestDeferGC: no collection before the heap reaches startHeap; the first
// one restores the process's settings.
func TestDeferGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	const percent = 123
	old := debug.SetGCPercent(percent)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.NumGC
	deferGC()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Fatalf("GC percent %d after deferGC, want off", p)
	}
	if l := debug.SetMemoryLimit(-1); l != startHeap {
		t.Fatalf("memory limit %d, want %d", l, startHeap)
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
	// past startHeap: a collection, whose finalizer restores the settings
	for i := 0; ms.NumGC == before && i < 1000; i++ {
		keep[i%4] = make([]byte, 1<<20)
		runtime.ReadMemStats(&ms)
	}
	if ms.NumGC == before {
		t.Fatal("no collection past startHeap")
	}
	restored := false
	for i := 0; i < 1000 && !restored; i++ {
		runtime.GC() // the finalizer runs on its own goroutine after a cycle
		runtime.Gosched()
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		restored = p == percent
	}
	if !restored {
		t.Fatal("the first collection did not restore the GC percent")
	}
	if l := debug.SetMemoryLimit(-1); l == startHeap {
		t.Error("the first collection did not restore the memory limit")
	}
	runtime.KeepAlive(keep)
}

// TestDeferGCRespectsEnv: GOGC or GOMEMLIMIT set by the user are kept.
func TestDeferGCRespectsEnv(t *testing.T) {
	t.Setenv("GOGC", "100")
	p := debug.SetGCPercent(77)
	defer debug.SetGCPercent(p)
	deferGC()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Errorf("GC percent %d, want the user's 77", got)
	}
}
