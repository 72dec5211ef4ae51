package main

import (
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
