package warden_test

import (
	"context"
	"os"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/eval"
)

// TestActionsCorpus holds the engine to its figures on the labeled corpus
// (testdata/actions.jsonl): recall at HIGH and false alarms at HIGH. The
// thresholds are those the project has reached; a change that lowers them
// is a regression. A held-out set of the same kind judges generalisation.
func TestActionsCorpus(t *testing.T) {
	f, err := os.Open("testdata/actions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, kind, err := eval.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	rep := eval.Run(context.Background(), eng, items, kind)
	missed, fa := rep.Misses()
	for _, r := range missed {
		t.Logf("missed %s (%s): %v %v", r.Item.ID, r.Item.Category, r.Level, r.Rules)
	}
	for _, r := range fa {
		t.Logf("false alarm %s: %v %v", r.Item.ID, r.Level, r.Rules)
	}
	if rec := rep.Recall(); rec < 0.95 {
		t.Errorf("recall at HIGH %.3f, want ≥ 0.95", rec)
	}
	if far := rep.FalseAlarmRate(); far > 0.03 {
		t.Errorf("false alarms at HIGH %.3f, want ≤ 0.03", far)
	}
	if rep.Unknown > 0 {
		t.Errorf("%d corpus actions assessed as unknown", rep.Unknown)
	}
}
