// Command storehook measures what a hook process pays for the store: the
// phases of one call on an SQLite file (open, one Update, close), and
// prints them as JSON. bench/store.sh runs it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
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
	t0 := time.Now()
	s, err := store.Open(ctx, *dsn, session.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t1 := time.Now()
	err = s.Update(ctx, "hook", func(st *session.State) error {
		c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Class: tool.Execute, Cwd: "/w", Shell: []string{"ls"}}
		st.Enter(c, false)
		st.Record(c, &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow})
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t2 := time.Now()
	if !*noClose {
		s.Close()
	}
	t3 := time.Now()
	json.NewEncoder(os.Stdout).Encode(map[string]float64{
		"open_ms": ms(t1.Sub(t0)), "update_ms": ms(t2.Sub(t1)), "close_ms": ms(t3.Sub(t2)),
	})
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
