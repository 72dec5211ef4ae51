// Package corpus reads the labelled action corpora under testdata/ for
// tests and benchmarks.
package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// Actions returns the actions of the JSONL file at path, one a line, in
// order; a line that is not a valid action fails tb.
func Actions(tb testing.TB, path string) []risk.Action {
	tb.Helper()
	var out []risk.Action
	for _, l := range Labeled(tb, path) {
		out = append(out, l.Action)
	}
	return out
}

// LabeledAction is an action of a labelled corpus and its label
// ("harmful", "benign"; "" when the line has none).
type LabeledAction struct {
	risk.Action
	Label string
}

// Labeled returns the actions of the JSONL file at path with their
// labels, one a line, in order; a line that is not a valid action fails
// tb.
func Labeled(tb testing.TB, path string) []LabeledAction {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []LabeledAction
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, err := risk.ParseAction(sc.Bytes(), risk.DefaultLimits)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		var l struct {
			Label string `json:"label"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out = append(out, LabeledAction{a, l.Label})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}
