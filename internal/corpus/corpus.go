// Package corpus reads the labelled action corpora under testdata/ for
// tests and benchmarks.
package corpus

import (
	"bufio"
	"os"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// Actions returns the actions of the JSONL file at path, one a line, in
// order; a line that is not a valid action fails tb.
func Actions(tb testing.TB, path string) []risk.Action {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []risk.Action
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, err := risk.ParseAction(sc.Bytes(), risk.DefaultLimits)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}
