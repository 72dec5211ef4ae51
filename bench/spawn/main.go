// Command spawn times processes from spawn to exit for bench/startup.sh.
// Each argument is NAME=COMMAND (COMMAND split at spaces); every command
// runs -n times, round-robin so that all share the same noise, with stdin
// from -in and stdout discarded. It prints, per command, the median and
// p90 wall time, the median CPU time (user+system), and the ratios of the
// median wall and CPU times to the first command's (on a busy machine the
// CPU times are the steadier figure).
//
// Usage: spawn [-n 50] [-in FILE] [-exit CODE] NAME=COMMAND...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 50, "runs per command")
	in := flag.String("in", "", "file given to every command on stdin")
	maxExit := flag.Int("exit", 0, "the highest exit code that is not a failure (warden scan exits 1 on findings)")
	flag.Parse()
	type target struct {
		name      string
		argv      []string
		wall, cpu []time.Duration
	}
	var ts []*target
	for _, a := range flag.Args() {
		name, cmd, ok := strings.Cut(a, "=")
		if !ok || len(strings.Fields(cmd)) == 0 {
			fmt.Fprintf(os.Stderr, "spawn: %q is not NAME=COMMAND\n", a)
			os.Exit(2)
		}
		ts = append(ts, &target{name: name, argv: strings.Fields(cmd)})
	}
	if len(ts) == 0 {
		fmt.Fprintln(os.Stderr, "usage: spawn [-n 50] [-in FILE] NAME=COMMAND...")
		os.Exit(2)
	}
	run := func(t *target) (wall, cpu time.Duration, err error) {
		c := exec.Command(t.argv[0], t.argv[1:]...)
		if *in != "" {
			f, err := os.Open(*in)
			if err != nil {
				return 0, 0, err
			}
			defer f.Close()
			c.Stdin = f
		}
		c.Stderr = os.Stderr
		start := time.Now()
		err = c.Run()
		wall = time.Since(start)
		if c.ProcessState != nil {
			cpu = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
			if code := c.ProcessState.ExitCode(); code > 0 && code <= *maxExit {
				err = nil
			}
		}
		return wall, cpu, err
	}
	// one run of each first, not counted: page cache and binaries warm
	for _, t := range ts {
		if _, _, err := run(t); err != nil {
			fmt.Fprintf(os.Stderr, "spawn: %s: %v\n", t.name, err)
			os.Exit(1)
		}
	}
	for i := 0; i < *n; i++ {
		for _, t := range ts {
			w, c, err := run(t)
			if err != nil {
				fmt.Fprintf(os.Stderr, "spawn: %s: %v\n", t.name, err)
				os.Exit(1)
			}
			t.wall, t.cpu = append(t.wall, w), append(t.cpu, c)
		}
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }
	q := func(ds []time.Duration, p float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[int(p*float64(len(s)-1)+0.5)]
	}
	base, baseCPU := q(ts[0].wall, 0.5), q(ts[0].cpu, 0.5)
	fmt.Printf("%-16s %9s %9s %9s %9s %9s\n", "command", "median_ms", "p90_ms", "cpu_ms", "x_"+ts[0].name, "cpu_x")
	for _, t := range ts {
		med, cpu := q(t.wall, 0.5), q(t.cpu, 0.5)
		fmt.Printf("%-16s %9s %9s %9s %9.1f %9.1f\n", t.name, ms(med), ms(q(t.wall, 0.9)), ms(cpu), float64(med)/float64(base), float64(cpu)/float64(baseCPU))
	}
}
