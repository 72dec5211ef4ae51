// Command rulesnew prints what the first rules.New of a process costs:
// "ns allocs bytes" (bench/rules.sh runs it many times).
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/agentwarden/warden/analyze/rules"
)

func main() {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := rules.New()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(d.Nanoseconds(), after.Mallocs-before.Mallocs, after.TotalAlloc-before.TotalAlloc)
}
