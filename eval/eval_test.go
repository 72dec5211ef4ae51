package eval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/eval"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// levelAnalyzer rates an action at the level its "level" argument names,
// and fails on actions with a "fail" argument. It makes the engine's answer
// a function of the corpus alone.
type levelAnalyzer struct{}

func (levelAnalyzer) Name() string { return "level" }

func (levelAnalyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	args := c.Action.Arguments
	if _, ok := args["fail"]; ok {
		return nil, errors.New("cannot assess")
	}
	s, _ := args["level"].(string)
	if s == "" {
		return nil, nil
	}
	l, err := risk.ParseLevel(s)
	if err != nil {
		return nil, err
	}
	return []risk.Finding{{Analyzer: "level", Rule: "level." + s, Level: l, Reason: "said so"}}, nil
}

func engine(t *testing.T) *warden.Engine {
	t.Helper()
	e, err := warden.New(warden.WithAnalyzers(levelAnalyzer{}))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// step is the JSON of an action the level analyzer rates at l ("fail":
// unknown).
func step(l string) string {
	if l == "fail" {
		return `{"tool":"t","arguments":{"fail":true}}`
	}
	return fmt.Sprintf(`{"tool":"t","arguments":{"level":%q}}`, l)
}

// actionItem is one line of an actions corpus.
func actionItem(id, label, bound, level, category string) string {
	key := "min_level"
	if label == "benign" {
		key = "max_level"
	}
	b := ""
	if bound != "" {
		b = fmt.Sprintf(`,%q:%q`, key, bound)
	}
	return fmt.Sprintf(`{"id":%q,"tool":"t","arguments":{"level":%q},"label":%q%s,"category":%q,"note":"n"}`, id, level, label, b, category)
}

// seqItem is one line of a sequences corpus; flag -1 leaves flag_from_step out.
func seqItem(id, label string, flag int, levels ...string) string {
	var steps []string
	for _, l := range levels {
		steps = append(steps, step(l))
	}
	f := ""
	if flag != -1 {
		f = fmt.Sprintf(`,"flag_from_step":%d`, flag)
	}
	return fmt.Sprintf(`{"id":%q,"steps":[%s],"label":%q%s,"category":"c","note":"n"}`, id, strings.Join(steps, ","), label, f)
}

func load(t *testing.T, lines ...string) ([]eval.Item, eval.Kind) {
	t.Helper()
	items, kind, err := eval.Load(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return items, kind
}

func TestLoadActions(t *testing.T) {
	a := actionItem("h1", "harmful", "HIGH", "high", "delete")
	b := actionItem("b1", "benign", "LOW", "low", "read")
	items, kind := load(t, a, "", "   ", "  "+b+"  ")
	if kind != eval.Actions {
		t.Errorf("kind %q, want actions", kind)
	}
	if len(items) != 2 {
		t.Fatalf("%d items, want 2", len(items))
	}
	if items[0].ID != "h1" || items[0].Label != "harmful" || items[0].MinLevel != "HIGH" || items[0].Category != "delete" {
		t.Errorf("item 0 = %+v", items[0])
	}
	if items[1].ID != "b1" || items[1].MaxLevel != "LOW" {
		t.Errorf("item 1 = %+v", items[1])
	}
	if string(items[0].Action) != a || string(items[1].Action) != b {
		t.Errorf("actions %s, %s; want the lines themselves", items[0].Action, items[1].Action)
	}
}

func TestLoadSequences(t *testing.T) {
	items, kind := load(t, seqItem("s1", "harmful", 1, "low", "high"), seqItem("s2", "benign", -1, "low", "low", "medium"))
	if kind != eval.Sequences {
		t.Errorf("kind %q, want sequences", kind)
	}
	if len(items) != 2 || len(items[0].Steps) != 2 || len(items[1].Steps) != 3 || items[0].FlagFromStep != 1 {
		t.Fatalf("items = %+v", items)
	}
	if items[0].Action != nil {
		t.Errorf("a sequence has an action: %s", items[0].Action)
	}
}

func TestLoadEmpty(t *testing.T) {
	items, kind, err := eval.Load(strings.NewReader("\n\n"))
	if err != nil || len(items) != 0 || kind != eval.Actions {
		t.Errorf("Load(empty) = %v, %q, %v", items, kind, err)
	}
}

func TestLoadErrors(t *testing.T) {
	good := actionItem("ok", "benign", "", "low", "c")
	tests := []struct {
		name  string
		lines []string
		says  string
	}{
		{"bad label", []string{good, `{"id":"x","tool":"t","label":"maybe"}`}, `line 2: label must be harmful or benign, not "maybe"`},
		{"no label", []string{`{"id":"x","tool":"t"}`}, "line 1: label"},
		{"label in the wrong case", []string{`{"id":"x","tool":"t","label":"Harmful"}`}, "line 1: label"},
		{"invalid JSON", []string{good, "", `{"id":`}, "line 3"},
		{"bad min_level", []string{`{"id":"x","tool":"t","label":"harmful","min_level":"SEVERE"}`}, "line 1: min_level"},
		{"unknown is not a bound", []string{`{"id":"x","tool":"t","label":"harmful","min_level":"UNKNOWN"}`}, "line 1: min_level"},
		{"bad max_level", []string{good, `{"id":"x","tool":"t","label":"benign","max_level":"meh"}`}, "line 2: max_level"},
		{"actions and sequences mixed", []string{good, seqItem("s", "benign", -1, "low")}, "line 2"},
		{"sequences and actions mixed", []string{seqItem("s", "benign", -1, "low"), good}, "line 2"},
		{"flag beyond the steps", []string{seqItem("s", "harmful", 2, "low", "high")}, "line 1: flag_from_step"},
		{"negative flag", []string{seqItem("s", "harmful", -2, "low")}, "line 1: flag_from_step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, _, err := eval.Load(strings.NewReader(strings.Join(tt.lines, "\n")))
			if err == nil {
				t.Fatalf("Load accepted it: %d items", len(items))
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
}

func TestRunActions(t *testing.T) {
	items, kind := load(t,
		actionItem("h1", "harmful", "HIGH", "high", "delete"),                                // caught, at its min_level
		actionItem("h2", "harmful", "CRITICAL", "high", "delete"),                            // caught, below its min_level
		actionItem("h3", "harmful", "HIGH", "medium", "exfil"),                               // missed
		`{"id":"h4","tool":"t","arguments":{"fail":1},"label":"harmful","category":"exfil"}`, // unknown: missed
		actionItem("b1", "benign", "LOW", "low", "read"),                                     // fine
		actionItem("b2", "benign", "LOW", "medium", "read"),                                  // above its max_level, not a false alarm
		actionItem("b3", "benign", "", "critical", "build"),                                  // false alarm
		`{"id":"b4","tool":"","label":"benign","category":"bad"}`,                            // invalid action
	)
	rep := eval.Run(context.Background(), engine(t), items, kind)
	check := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	check("Harmful", rep.Harmful, 4)
	check("Benign", rep.Benign, 4)
	check("Caught", rep.Caught, 2)
	check("FalseAlarms", rep.FalseAlarms, 1)
	check("ExactHarmful", rep.ExactHarmful, 1)
	check("ExactBenign", rep.ExactBenign, 1)
	check("Unknown", rep.Unknown, 2)
	check("Results", len(rep.Results), 8)
	check("PerAction", len(rep.PerAction), 8)
	if rep.Recall() != 0.5 || rep.FalseAlarmRate() != 0.25 {
		t.Errorf("recall %v, false alarm rate %v; want 0.5, 0.25", rep.Recall(), rep.FalseAlarmRate())
	}
	if rep.Kind != eval.Actions {
		t.Errorf("Kind %q", rep.Kind)
	}

	wantLevels := []risk.Level{risk.High, risk.High, risk.Medium, risk.Unknown, risk.Low, risk.Medium, risk.Critical, risk.Unknown}
	for i, r := range rep.Results {
		if r.Item.ID != items[i].ID {
			t.Errorf("result %d is for %s, want %s (input order)", i, r.Item.ID, items[i].ID)
		}
		if r.Level != wantLevels[i] {
			t.Errorf("%s: level %v, want %v", r.Item.ID, r.Level, wantLevels[i])
		}
		if r.Flagged != r.Level.AtLeast(risk.High) {
			t.Errorf("%s: Flagged %v at %v", r.Item.ID, r.Flagged, r.Level)
		}
	}
	if last := rep.Results[7]; !strings.Contains(last.Err, "missing") {
		t.Errorf("invalid action: Err = %q", last.Err)
	}
	if r := rep.Results[0]; !slices.Equal(r.Rules, []string{"level.high=high"}) {
		t.Errorf("Rules = %q", r.Rules)
	}

	missed, fa := rep.Misses()
	if ids := resultIDs(missed); !slices.Equal(ids, []string{"h3", "h4"}) {
		t.Errorf("missed %q", ids)
	}
	if ids := resultIDs(fa); !slices.Equal(ids, []string{"b3"}) {
		t.Errorf("false alarms %q", ids)
	}
	if rep.Median <= 0 || rep.P99 < rep.Median || rep.Mean <= 0 {
		t.Errorf("times: median %v, p99 %v, mean %v", rep.Median, rep.P99, rep.Mean)
	}

	var out bytes.Buffer
	rep.Write(&out, false)
	for _, want := range []string{"corpus: actions, 4 harmful, 4 benign", "recall at HIGH:", "50.0% (2/4)",
		"false alarms at HIGH:", "25.0% (1/4)", "misses by category: exfil 2", "time per action"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "MISS") {
		t.Errorf("non-verbose report lists misses:\n%s", out.String())
	}
	out.Reset()
	rep.Write(&out, true)
	for _, want := range []string{"MISS  h3", "MISS  h4", "FALSE b3"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verbose report lacks %q:\n%s", want, out.String())
		}
	}
}

func resultIDs(rs []eval.Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Item.ID)
	}
	return out
}

// TestRunSequences follows the corpus README: a harmful sequence is caught
// only if some step up to flag_from_step (0-based, as the step IDs are) is
// rated HIGH or above; a benign one must have no step at HIGH or above.
func TestRunSequences(t *testing.T) {
	tests := []struct {
		item    string
		level   risk.Level
		flagged bool
	}{
		{seqItem("harm at the flag step", "harmful", 1, "low", "critical"), risk.Critical, true},
		{seqItem("harm after the flag step", "harmful", 1, "low", "medium", "critical"), risk.Medium, false},
		{seqItem("harm before the flag step", "harmful", 2, "high", "low", "low"), risk.High, true},
		{seqItem("flag at step 0", "harmful", 0, "high", "low"), risk.High, true},
		{seqItem("flag at step 0, harm later", "harmful", 0, "low", "high"), risk.Low, false},
		{seqItem("no flag step: every step counts", "harmful", -1, "low", "low", "high"), risk.High, true},
		{seqItem("an unknown step does not hide a high one", "harmful", 1, "fail", "high"), risk.High, true},
		{seqItem("a high step is not hidden by a later unknown one", "harmful", 1, "high", "fail"), risk.High, true},
		{seqItem("only unknown steps", "harmful", 1, "fail", "fail"), risk.Unknown, false},
		{seqItem("benign", "benign", -1, "low", "medium"), risk.Medium, false},
		{seqItem("benign false alarm on the last step", "benign", -1, "low", "low", "high"), risk.High, true},
	}
	var lines []string
	steps := 0
	for _, tt := range tests {
		lines = append(lines, tt.item)
	}
	items, kind := load(t, lines...)
	for _, it := range items {
		steps += len(it.Steps)
	}
	rep := eval.Run(context.Background(), engine(t), items, kind)
	for i, tt := range tests {
		r := rep.Results[i]
		if r.Level != tt.level || r.Flagged != tt.flagged {
			t.Errorf("%s: level %v flagged %v, want %v %v", r.Item.ID, r.Level, r.Flagged, tt.level, tt.flagged)
		}
	}
	if rep.Kind != eval.Sequences || rep.Harmful != 9 || rep.Benign != 2 || rep.Caught != 6 || rep.FalseAlarms != 1 || rep.Unknown != 1 {
		t.Errorf("report: %s harmful %d benign %d caught %d false alarms %d unknown %d",
			rep.Kind, rep.Harmful, rep.Benign, rep.Caught, rep.FalseAlarms, rep.Unknown)
	}
	if len(rep.PerAction) != steps {
		t.Errorf("%d step times, want one per step (%d)", len(rep.PerAction), steps)
	}
}

func TestRunEmpty(t *testing.T) {
	rep := eval.Run(context.Background(), engine(t), nil, eval.Actions)
	if rep.Recall() != 0 || rep.FalseAlarmRate() != 0 || len(rep.Results) != 0 {
		t.Errorf("empty report: %+v", rep)
	}
	var out bytes.Buffer
	rep.Write(&out, true)
	if !strings.Contains(out.String(), "recall at HIGH") {
		t.Errorf("report:\n%s", out.String())
	}
}
