package warden_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/risk"
)

// The metamorphic property over every harmful shell command of the
// labeled corpora (ours, the shared one and the peer guard's): run through
// one more shell or wrapper (bash -c, sh -c under timeout, eval, env,
// sudo), a command warden rates high or above is still rated high or
// above. TestWrappingNeverLowersTheLevel stacks many wrappers on a few
// commands; this one puts one wrapper on a thousand, so that a mechanism
// that reads only the outer script (a pattern over the command line) is
// found out.
func TestCorpusWrappingKeepsHigh(t *testing.T) {
	eng := corpusEngine(t)
	ctx := context.Background()
	sq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	wrappers := []func(string) string{
		func(s string) string { return "bash -c " + sq(s) },
		func(s string) string { return "timeout 60 sh -c " + sq(s) },
		func(s string) string { return "eval " + sq(s) },
		func(s string) string { return "env FOO=1 bash -c " + sq(s) },
	}
	level := func(cmd string) risk.Level {
		as, _, err := eng.Check(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		return as.Level
	}
	n := 0
	for _, path := range []string{"testdata/actions.jsonl", "testdata/classes.jsonl", "testdata/peers/dcg-dev.jsonl"} {
		for _, cmd := range harmfulCommands(t, path) {
			if l := level(cmd); !l.AtLeast(risk.High) {
				continue // a miss of the corpus, scored by warden eval
			}
			n++
			ws := wrappers
			if !strings.ContainsAny(cmd, "|;&\n<>()$`") {
				ws = append(ws, func(s string) string { return "sudo " + s })
			}
			for _, w := range ws {
				if got := level(w(cmd)); got != risk.Unknown && !got.AtLeast(risk.High) {
					t.Errorf("%s: %s, but %s alone is high or above", w(cmd), got, cmd)
				}
			}
		}
	}
	if n < 400 {
		t.Fatalf("only %d harmful commands rated high: the corpora were not read", n)
	}
}

// harmfulCommands returns the shell commands (a string command argument)
// of the harmful lines of the corpus at path.
func harmfulCommands(t *testing.T, path string) []string {
	var out []string
	for _, a := range corpus.Labeled(t, path) {
		if cmd, ok := a.Arguments["command"].(string); ok && a.Label == "harmful" {
			out = append(out, cmd)
		}
	}
	return out
}
