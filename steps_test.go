package warden

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestRunSteps checks runSteps, which recovers once for a run of steps,
// against runStep on each step in turn, on every sequence of up to five
// steps that find something, nothing, fail or panic.
func TestRunSteps(t *testing.T) {
	behaviours := []func(i int) ([]risk.Finding, error){
		func(i int) ([]risk.Finding, error) {
			return []risk.Finding{{Analyzer: fmt.Sprint("s", i), Rule: "x.found", Level: risk.High}}, nil
		},
		func(int) ([]risk.Finding, error) { return nil, nil },
		func(i int) ([]risk.Finding, error) {
			return []risk.Finding{{Rule: "x.partial", Level: risk.Low}}, errors.New("broken")
		},
		func(i int) ([]risk.Finding, error) { panic(fmt.Sprint("boom ", i)) },
		func(int) ([]risk.Finding, error) { var m map[string]int; m["x"]++; return nil, nil },
	}
	name := func(i int) string { return fmt.Sprint("step", i) }
	compared := 0
	var seq []int
	var walk func()
	walk = func() {
		step := func(i int) ([]risk.Finding, error) { return behaviours[seq[i]](i) }
		prefix := [][]risk.Finding{{{Rule: "before"}}}
		var want [][]risk.Finding
		want = append(want, prefix...)
		for i := range seq {
			want = append(want, runStep(name(i), nil, func() ([]risk.Finding, error) { return step(i) }))
		}
		got := runSteps(append([][]risk.Finding(nil), prefix...), len(seq), name, step)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("steps %v:\n got %v\nwant %v", seq, got, want)
		}
		compared++
		if len(seq) == 5 {
			return
		}
		for b := range behaviours {
			seq = append(seq, b)
			walk()
			seq = seq[:len(seq)-1]
		}
	}
	walk()
	if compared < 3000 {
		t.Fatalf("only %d sequences compared", compared)
	}
}
