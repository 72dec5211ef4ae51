// Command storehook measures what a hook process pays for the store: the
// phases of one call on a store (open, one Update, close), in wall time
// and CPU time, printed as JSON. bench/store.sh runs it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
	"github.com/agentwarden/warden/tool"
)

func main() {
	dsn := flag.String("store", "", "the store's DSN")
	noClose := flag.Bool("noclose", false, "exit without closing the store")
	flag.Parse()
	ctx := context.Background()
	c0, t0 := cpu(), time.Now()
	s, err := store.Open(ctx, *dsn, session.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c1, t1 := cpu(), time.Now()
	err = s.Update(ctx, "hook", func(_ context.Context, st *session.State) error {
		c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Cwd: "/w", Shell: []string{"ls"}}
		st.Enter(c, false)
		st.Record(c, &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow})
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	c2, t2 := cpu(), time.Now()
	if !*noClose {
		s.Close()
	}
	c3, t3 := cpu(), time.Now()
	json.NewEncoder(os.Stdout).Encode(map[string]float64{
		"open_ms": ms(t1.Sub(t0)), "update_ms": ms(t2.Sub(t1)), "close_ms": ms(t3.Sub(t2)),
		"open_cpu_ms": ms(c1 - c0), "update_cpu_ms": ms(c2 - c1), "close_cpu_ms": ms(c3 - c2),
	})
}

// cpu returns the CPU time the process has used, user and system.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
