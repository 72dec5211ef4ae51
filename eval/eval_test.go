package eval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/eval"
	"github.com/agentwarden/warden/netguard"
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
		{"an id twice", []string{seqItem("s", "benign", -1, "low"), seqItem("t", "benign", -1, "low"), "", seqItem("s", "harmful", -1, "high")}, `line 4: id "s" is the id of line 1 too`},
		{"an action id twice", []string{actionItem("a", "benign", "", "low", "c"), actionItem("a", "harmful", "", "high", "c")}, `line 2: id "a"`},
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

func TestLoadSSRF(t *testing.T) {
	items, kind := load(t,
		`{"url":"http://127.0.0.1/","expect":"block","why":"loopback","category":"ipv4","needs_dns":false}`,
		`{"url":"https://example.com/","expect":"allow","why":"public","category":"public","needs_dns":true}`)
	if kind != eval.SSRF || len(items) != 2 {
		t.Fatalf("kind %q, %d items", kind, len(items))
	}
	if it := items[0]; it.Label != "harmful" || it.URL != "http://127.0.0.1/" || it.Note != "loopback" || it.Category != "ipv4" || it.ID != "line1" || it.NeedsDNS {
		t.Errorf("item 0 = %+v", it)
	}
	if it := items[1]; it.Label != "benign" || !it.NeedsDNS || it.Action != nil {
		t.Errorf("item 1 = %+v", it)
	}
}

func TestLoadSecrets(t *testing.T) {
	items, kind := load(t,
		`{"text":"token: x","expect_type":"github_token","context":"yaml","note":"n"}`,
		`{"text":"key = AKIAXXXXXXXXXXXXXXXX","expect_type":null,"context":"ini","note":"placeholder"}`)
	if kind != eval.Secrets || len(items) != 2 {
		t.Fatalf("kind %q, %d items", kind, len(items))
	}
	if it := items[0]; it.Label != "harmful" || it.ExpectType == nil || *it.ExpectType != "github_token" || it.Category != "github_token" {
		t.Errorf("item 0 = %+v", it)
	}
	if it := items[1]; it.Label != "benign" || it.ExpectType != nil || it.Category != "near-miss" || it.Context != "ini" {
		t.Errorf("item 1 = %+v", it)
	}
}

func TestLoadErrorsURLsAndTexts(t *testing.T) {
	url := `{"url":"http://10.0.0.1/","expect":"block"}`
	text := `{"text":"abc","expect_type":null}`
	tests := []struct {
		name  string
		lines []string
		says  string
	}{
		{"bad verdict", []string{url, `{"url":"http://x/","expect":"deny"}`}, `line 2: expect must be block or allow, not "deny"`},
		{"no verdict", []string{`{"url":"http://x/"}`}, "line 1: expect must be block or allow"},
		{"empty url", []string{`{"url":"","expect":"allow"}`}, "line 1: url is empty"},
		{"url not a string", []string{`{"url":7,"expect":"allow"}`}, "line 1: json"},
		{"needs_dns not a bool", []string{`{"url":"http://x/","expect":"allow","needs_dns":"yes"}`}, "line 1: json"},
		{"no expect_type", []string{text, `{"text":"abc","context":"ini"}`}, "line 2: expect_type is missing"},
		{"empty expect_type", []string{`{"text":"abc","expect_type":""}`}, "line 1: expect_type is empty"},
		{"empty text", []string{`{"text":"","expect_type":"x"}`}, "line 1: text is empty"},
		{"expect_type not a string", []string{`{"text":"abc","expect_type":3}`}, "line 1: json"},
		{"URLs and texts mixed", []string{url, text}, "line 2: a secrets line in a corpus of ssrf"},
		{"actions and URLs mixed", []string{actionItem("a", "benign", "", "low", "c"), url}, "line 2: a ssrf line in a corpus of actions"},
		{"not an object", []string{`["url"]`}, "line 1: json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, _, err := eval.Load(strings.NewReader(strings.Join(tt.lines, "\n")))
			if err == nil {
				t.Fatalf("Load accepted it: %+v", items)
			}
			var le *eval.LineError
			if !errors.As(err, &le) {
				t.Errorf("error %v is not a *LineError", err)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(p, []byte(`{"url":"http://x/","expect":"allow"}`+"\n\n"+`{"url":"http://y/","expect":"nope"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err := eval.LoadFile(p)
	if err == nil || !strings.HasPrefix(err.Error(), p+":3: expect must be") {
		t.Errorf("LoadFile: %v, want %s:3: …", err, p)
	}
	if _, _, err := eval.LoadFile(filepath.Join(dir, "none.jsonl")); err == nil || !strings.Contains(err.Error(), "none.jsonl") {
		t.Errorf("LoadFile of a missing file: %v", err)
	}
}

func TestRunSSRF(t *testing.T) {
	items, kind := load(t,
		`{"id":"caught","url":"http://127.0.0.1:6379/","expect":"block","category":"ipv4"}`,
		`{"id":"missed","url":"http://8.8.8.8/","expect":"block","category":"labelled-wrong"}`,
		`{"id":"allowed","url":"http://93.184.215.14/","expect":"allow","category":"public"}`,
		`{"id":"alarm","url":"http://user:hunter2@localhost/","expect":"allow","category":"bad"}`,
		// the guard's Config asks for resolution: eval must not resolve, so
		// these are judged by their names; counted apart
		`{"id":"dns-block","url":"http://lvh.me/","expect":"block","category":"dns","needs_dns":true}`,
		`{"id":"dns-allow","url":"https://name.invalid/","expect":"allow","category":"public","needs_dns":true}`,
		`{"id":"dns-wrong","url":"https://also.invalid/","expect":"block","category":"dns","needs_dns":true}`)
	g, err := eval.NoDNS(netguard.Config{ResolveDNS: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := eval.Judges{Guard: g}.Run(context.Background(), items, kind)
	if rep.Harmful != 2 || rep.Caught != 1 || rep.Benign != 2 || rep.FalseAlarms != 1 || rep.ExactHarmful+rep.ExactBenign != 2 {
		t.Errorf("counts %+v", rep.Counts)
	}
	if a := rep.Apart; a.Harmful != 2 || a.Caught != 1 || a.Benign != 1 || a.FalseAlarms != 0 {
		t.Errorf("apart %+v", a)
	}
	missed, fa := rep.Misses()
	if got := resultIDs(missed); !slices.Equal(got, []string{"missed"}) {
		t.Errorf("missed %v", got)
	}
	if got := resultIDs(fa); !slices.Equal(got, []string{"alarm"}) {
		t.Errorf("false alarms %v", got)
	}
	if len(rep.PerAction) != len(items) {
		t.Errorf("%d times for %d URLs", len(rep.PerAction), len(items))
	}
	var out bytes.Buffer
	rep.Write(&out, true)
	s := out.String()
	for _, want := range []string{"corpus: ssrf, 2 to block, 2 to allow", "recall (blocked):", "50.0% (1/2)", "needing DNS", "1/2 to block blocked, 0/1 to allow blocked",
		"time per URL", "misses by category: labelled-wrong 1", "false alarms by category: bad 1", "MISS  missed", "FALSE alarm", "DNS   dns-wrong"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "hunter2") {
		t.Errorf("the report shows a URL's password:\n%s", s)
	}
	// the zero Judges judge URLs with the default guard, without DNS
	if rep := (eval.Judges{}).Run(context.Background(), items, kind); rep.Caught != 1 || rep.Apart.Caught != 1 {
		t.Errorf("zero Judges: %+v %+v", rep.Counts, rep.Apart)
	}
}

func TestRunSecrets(t *testing.T) {
	const tok = "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"
	items, kind := load(t,
		`{"id":"found","text":"token: `+tok+`","expect_type":"github_token","context":"yaml","note":"oauth"}`,
		`{"id":"other-type","text":"token: `+tok+`","expect_type":"slack_token","context":"yaml","note":"wrong type"}`,
		`{"id":"nothing","text":"hello world","expect_type":"aws_access_key","context":"text","note":"absent"}`,
		`{"id":"quiet","text":"key = AKIAXXXXXXXXXXXXXXXX","expect_type":null,"context":"ini","note":"placeholder"}`,
		`{"id":"alarm","text":"x = `+tok+`","expect_type":null,"context":"code","note":"flagged"}`)
	rep := eval.Judges{}.Run(context.Background(), items, kind)
	if rep.Harmful != 3 || rep.Caught != 1 || rep.Benign != 2 || rep.FalseAlarms != 1 || rep.Unknown != 0 {
		t.Errorf("counts %+v", rep.Counts)
	}
	missed, fa := rep.Misses()
	if got := resultIDs(missed); !slices.Equal(got, []string{"other-type", "nothing"}) {
		t.Errorf("missed %v", got)
	}
	if got := resultIDs(fa); !slices.Equal(got, []string{"alarm"}) {
		t.Errorf("false alarms %v", got)
	}
	var out bytes.Buffer
	rep.Write(&out, true)
	s := out.String()
	for _, want := range []string{"corpus: secrets, 3 with a secret, 2 near-misses", "recall (found):", "33.3% (1/3)", "time per text",
		"misses by category: aws_access_key 1, slack_token 1", "false alarms by category: near-miss 1", "MISS  other-type", "github_token", "FALSE alarm"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "RnH7P9w8") {
		t.Errorf("the report shows a secret:\n%s", s)
	}
}

func TestThresholds(t *testing.T) {
	rep := &eval.Report{Kind: eval.Actions, Counts: eval.Counts{Harmful: 242, Caught: 96, Benign: 235, FalseAlarms: 3, ExactHarmful: 96, ExactBenign: 232}}
	bounds := func(kv ...string) eval.Thresholds {
		var th eval.Thresholds
		for i := 0; i < len(kv); i += 2 {
			if err := th.Set(kv[i], kv[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		return th
	}
	for _, tt := range []struct {
		th   eval.Thresholds
		fail []string
	}{
		{bounds(), nil},
		{bounds("min-recall", "39.6", "max-false-alarms", "1.3", "min-at-level", "68.7"), nil}, // today's figures, rounded
		{bounds("min-recall", "39.7"), []string{"recall at HIGH 39.7% (96/242) is below --min-recall 39.7%"}},
		{bounds("max-false-alarms", "1.2"), []string{"false alarms at HIGH 1.3% (3/235) are above --max-false-alarms 1.2%"}},
		{bounds("min-at-level", "70%"), []string{"items within their own level bound 68.8% (328/477) are below --min-at-level 70%"}},
		{bounds("min-recall", "100", "max-false-alarms", "0"), []string{"recall", "false alarms"}},
	} {
		got := tt.th.Check(rep)
		if len(got) != len(tt.fail) {
			t.Errorf("%+v: %q, want %q", tt.th, got, tt.fail)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tt.fail[i]) {
				t.Errorf("%+v: %q, want %q", tt.th, got[i], tt.fail[i])
			}
		}
	}
	// exact figures hold at their own bound
	full := &eval.Report{Kind: eval.SSRF, Counts: eval.Counts{Harmful: 36, Caught: 36, Benign: 5, ExactHarmful: 36, ExactBenign: 5}}
	if got := bounds("min-recall", "100", "max-false-alarms", "0", "min-at-level", "100").Check(full); got != nil {
		t.Errorf("100/0/100 on a perfect report: %q", got)
	}
	// a bound with nothing to measure is not met
	if got := bounds("min-recall", "0").Check(&eval.Report{Counts: eval.Counts{Benign: 3}}); len(got) != 1 {
		t.Errorf("min-recall on a corpus without harmful items: %q", got)
	}
	var th eval.Thresholds
	for _, bad := range [][2]string{{"min-recall", "101"}, {"min-recall", "-1"}, {"max-false-alarms", "NaN"}, {"min-recall", "lots"}, {"max-recall", "3"}} {
		if err := th.Set(bad[0], bad[1]); err == nil {
			t.Errorf("Set(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestParseThresholds(t *testing.T) {
	bs, err := eval.ParseThresholds("th", strings.NewReader(`# comment
a.jsonl  min-recall=39.6 max-false-alarms=1.3   # trailing comment

peers/b.jsonl min-at-level=100
c.jsonl skip=not an eval corpus, see x_test.go
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 3 || bs[0].Corpus != "a.jsonl" || *bs[0].MinRecall != 39.6 || *bs[0].MaxFalseAlarms != 1.3 || bs[0].MinAtLevel != nil || bs[0].Line != 2 ||
		bs[1].Corpus != "peers/b.jsonl" || *bs[1].MinAtLevel != 100 || bs[2].Skip != "not an eval corpus, see x_test.go" || !bs[2].Empty() {
		t.Errorf("bounds %+v", bs)
	}
	for _, tt := range []struct{ text, says string }{
		{"a.jsonl\n", "th:1: a.jsonl: no thresholds"},
		{"a.jsonl min-recall=1\na.jsonl min-recall=2\n", "th:2: a.jsonl has thresholds already on line 1"},
		{"a.jsonl min-recall\n", `th:1: "min-recall" is not key=value`},
		{"a.jsonl min-recal=3\n", `th:1: unknown threshold "min-recal"`},
		{"a.jsonl min-recall=300\n", "th:1: min-recall"},
		{"a.jsonl skip=\n", "th:1: skip needs a reason"},
		{"a.jsonl min-recall=3 skip=why\n", "th:1: a corpus skipped has no thresholds"},
		{"# nothing\n", "th: no corpus"},
	} {
		if _, err := eval.ParseThresholds("th", strings.NewReader(tt.text)); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.says)
		}
	}
}
