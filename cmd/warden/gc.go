package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// startHeap is the memory a warden process uses before its first garbage
// collection. Most warden processes are short: an agent's hook starts one
// per tool call, which assesses one action and exits. With the default
// settings such a process collects once or twice on its way to a few MB of
// heap, for about a fifth of its CPU time; below startHeap it never
// collects. The first collection restores the default settings, so a long
// process (a stream of actions, a server, a scan of a large tree) runs as
// any Go program does, and memory stays bounded: no process holds more than
// startHeap of garbage, inside the 64 MB that hostile inputs may use.
const startHeap = 32 << 20

// deferGC lets the heap grow to startHeap before the first collection,
// then restores the settings the process started with. A GOGC or
// GOMEMLIMIT in the environment is the user's choice and is left alone.
func deferGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startHeap)
	// the first collection finds the sentinel unreachable and runs its
	// finalizer, which restores the settings (the sentinel holds a pointer
	// so that it is not a tiny allocation, whose finalizer may never run)
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

type sentinel struct{ _ *int }
