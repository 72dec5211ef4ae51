package secrets

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// containsNeedle is holdsNeedle as first written: each needle searched
// for in the whole of rest.
func containsNeedle(c *cliCommand, rest []byte) bool {
	for _, nd := range c.needles {
		if bytes.Contains(rest, nd) {
			return true
		}
	}
	return false
}

// sameNeedles fails when holdsNeedle and containsNeedle differ on rest,
// for a command of the built-in grammar.
func sameNeedles(t *testing.T, rest []byte) {
	t.Helper()
	for _, c := range builtinCLI().Commands {
		if got, want := c.holdsNeedle(rest), containsNeedle(c, rest); got != want {
			t.Fatalf("%v: holdsNeedle(%q) = %v, searching each needle: %v", c.Names, rest, got, want)
		}
	}
}

// TestHoldsNeedle holds holdsNeedle to the search of each needle, on
// lines made of the built-in grammar's flags, pieces of them and dashes.
func TestHoldsNeedle(t *testing.T) {
	var parts []string
	dash := false
	for _, c := range builtinCLI().Commands {
		dash = dash || c.dash
		for _, nd := range c.needles {
			parts = append(parts, string(nd), string(nd[:len(nd)/2+1]), string(nd[1:]))
		}
	}
	if !dash {
		t.Log("no command has a '-' needle")
	}
	parts = append(parts, " ", "-", "--", "x", "=", "\t", "é")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b []byte
		for n := rng.IntN(8); n > 0; n-- {
			b = append(b, parts[rng.IntN(len(parts))]...)
		}
		sameNeedles(t, b)
	}
}

// FuzzHoldsNeedle is TestHoldsNeedle on any line.
func FuzzHoldsNeedle(f *testing.F) {
	for _, s := range []string{"-u root -p", "--password=x", "-", "--", "x-y", "-pPW"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameNeedles(t, []byte(s)) })
}
