package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// TestAssessParallelOrder checks that warden assess answers in input
// order whatever the number of workers, and that the lines of each
// session, interleaved with lines of other sessions and lone lines, are
// judged as the conversation they are: the output on many workers is the
// output on one.
func TestAssessParallelOrder(t *testing.T) {
	var lines []string
	for _, c := range corpusCases(t, "actions.jsonl", goldenCorpora["actions.jsonl"]) {
		lines = append(lines, c...)
	}
	sessions := corpusCases(t, "session_chains.jsonl", steps)
	// interleave: the steps of each session keep their order
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range sessions {
		at := 0
		for _, step := range s {
			at += rng.IntN(len(lines)-at+1) / 4
			lines = append(lines[:at], append([]string{step}, lines[at:]...)...)
			at++
		}
	}
	lines = append(lines, `not json`, `{"tool":"Bash","arguments":{"command":"cat ~/.ssh/id_rsa"},"session_id":"obs","output":"x"}`)
	in := strings.Join(lines, "\n") + "\n"

	run := func(procs int) string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		code, stdout, stderr := runCLI(t, in, "assess", "--home", "/home/user", "--cwd", "/home/user/project")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout
	}
	one, many := run(1), run(8)
	if got := strings.Count(one, "\n"); got != len(lines) {
		t.Fatalf("%d output lines for %d input lines", got, len(lines))
	}
	if one != many {
		a, b := strings.Split(one, "\n"), strings.Split(many, "\n")
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("line %d differs on 8 workers:\n one   %s\n eight %s\n input %s", i+1, a[i], b[i], lines[i])
			}
		}
	}
}

// TestAssessBatchesReused checks that the answer to each line is its own
// when the batches' arrays are used again for the lines read later (see
// stream.recycle): lines that report what a call returned, answered
// {"observed":…}, among lines to assess, over many batches, each output
// line answers its input line, on one worker and on several.
func TestAssessBatchesReused(t *testing.T) {
	var lines []string
	for i := range 5 * batchLines {
		switch {
		case i%7 == 0:
			lines = append(lines, fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"cat notes%d.txt"},"output":"x"}`, i))
		case i%11 == 0:
			lines = append(lines, `not json`)
		default:
			lines = append(lines, fmt.Sprintf(`{"tool":"Bash","arguments":{"command":"ls # %d"}}`, i))
		}
	}
	in := strings.Join(lines, "\n") + "\n"
	for _, procs := range []int{1, 3} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			code, stdout, stderr := runCLI(t, in, "assess", "--home", "/home/user", "--cwd", "/home/user/project")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(out) != len(lines) {
				t.Fatalf("%d workers: %d output lines for %d input lines", procs, len(out), len(lines))
			}
			for i, o := range out {
				observed := strings.HasPrefix(o, `{"observed":`)
				invalid := strings.Contains(o, `"error":`) && strings.Contains(o, `"level":"unknown"`)
				if observed != strings.Contains(lines[i], `"output"`) || invalid != (lines[i] == `not json`) {
					t.Fatalf("%d workers: line %d answered\n %s\nfor\n %s", procs, i+1, o, lines[i])
				}
			}
		}()
	}
}
