// Command rulesnew prints what the first rules.New of a process costs and
// then what the first assessment of one action costs (which builds the
// keyword automaton and compiles the patterns it needs), the action
// prepared first as the engine prepares it (the shell preparer's own
// first-use cost is not counted):
// "new-ns allocs bytes first-analyze-ns" (bench/rules.sh runs it many times).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/agentwarden/warden/analyze/rules"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

func main() {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	a, err := rules.New()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c := tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "cd web && npm install && git commit -am 'deps' && git push"}},
		"/home/user/project", "/home/user")
	if _, err := (shell.Preparer{}).Prepare(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	start = time.Now()
	_, _ = a.Analyze(context.Background(), c)
	first := time.Since(start)
	fmt.Println(d.Nanoseconds(), after.Mallocs-before.Mallocs, after.TotalAlloc-before.TotalAlloc, first.Nanoseconds())
}
