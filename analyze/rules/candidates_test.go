package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentwarden/warden/internal/corpus"
	"math/rand/v2"
	"reflect"
	"testing"

	codeprep "github.com/agentwarden/warden/analyze/code"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// analyzeAll is the reference walk Analyze's candidate set must agree
// with: every rule in order, each checking its classes and keywords
// itself (Rule.match), on a scan state of its own.
func analyzeAll(a *Assessor, c *tool.Call) []risk.Finding {
	a.mu.RLock()
	rules, idx := a.rules, a.idx
	a.mu.RUnlock()
	var out []risk.Finding
	st := idx.newScanState()
	for i, r := range rules {
		ok, res, err := r.match(c, st, i)
		if err != nil {
			out = append(out, risk.Finding{Analyzer: "rules", Rule: r.Name, Level: risk.Unknown,
				Reason: fmt.Sprintf("rule %s could not be evaluated: %v", r.Name, err)})
			continue
		}
		if ok {
			out = append(out, risk.Finding{Analyzer: "rules", Rule: r.Name, Level: r.Level,
				Reason: r.Reason, Resource: res, Reversible: r.Reversible, Locked: r.Locked})
		}
	}
	return out
}

// corpusTexts returns every string of the JSONL corpora under testdata/
// (commands, code, URLs, texts, the steps' arguments), each once.
func corpusTexts(t *testing.T) []string {
	t.Helper()
	return corpus.Strings(t, "../../testdata")
}

// corpusActions returns the actions the differential test assesses: each
// action of the corpora's steps as it is, and each corpus string as every
// kind of argument (a script, Python, SQL, written content, a URL, a path
// read and edited, a free-text argument, a tool the catalog knows only by
// name), and every rule's samples.
func corpusActions(t *testing.T) []risk.Action {
	t.Helper()
	var acts []risk.Action
	for _, raw := range corpus.Lines(t, "../../testdata") {
		var line struct {
			Tool  string `json:"tool"`
			Steps []struct {
				Tool string `json:"tool"`
			} `json:"steps"`
		}
		_ = json.Unmarshal(raw, &line)
		if line.Tool != "" {
			a, err := risk.ParseAction(raw, risk.DefaultLimits)
			if err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			acts = append(acts, a)
		}
		var steps struct {
			Steps []json.RawMessage `json:"steps"`
		}
		_ = json.Unmarshal(raw, &steps)
		for _, s := range steps.Steps {
			a, err := risk.ParseAction(s, risk.DefaultLimits)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			acts = append(acts, a)
		}
	}
	for _, s := range corpusTexts(t) {
		for _, a := range []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": s}},
			{Tool: "python", Arguments: map[string]any{"code": s}},
			{Tool: "query", Arguments: map[string]any{"sql": s}},
			{Tool: "Write", Arguments: map[string]any{"file_path": SampleCwd + "/f.txt", "content": s}},
			{Tool: "WebFetch", Arguments: map[string]any{"url": s, "prompt": "summarize"}},
			{Tool: "Read", Arguments: map[string]any{"file_path": s}},
			{Tool: "Edit", Arguments: map[string]any{"file_path": s, "old_string": "a", "new_string": s}},
			{Tool: "Grep", Arguments: map[string]any{"pattern": s, "path": "."}},
			{Tool: "custom_tool", Arguments: map[string]any{"input": s}},
			{Tool: "mcp__other__write_file", Arguments: map[string]any{"path": s, "content": s}},
			{Tool: "mcp__other__read_file", Arguments: map[string]any{"path": s}},
		} {
			acts = append(acts, a)
		}
	}
	return acts
}

// prepare returns a as the engine prepares it (normalized, its Python
// read, its shell scripts resolved and every script's fact recorded),
// with a budget of work units (0: none).
func prepare(t testing.TB, a *risk.Action, work int64) *tool.Call {
	c := tool.Normalize(a, SampleCwd, SampleHome)
	ctx := context.Background()
	if _, err := (codeprep.Preparer{}).Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := (shell.Preparer{}).Prepare(ctx, c); err != nil {
		t.Fatal(err)
	}
	shell.Facts(c)
	c.Work = nil
	if work > 0 {
		c.Work = tool.NewBudget(work)
	}
	return c
}

// TestCandidatesDifferential: Analyze, which runs only the rules its
// candidate set holds, gives the findings of the reference walk over
// every rule, in the same order, and charges the same work, on every
// action of the corpora, every corpus string as every kind of argument
// and every rule's samples; with no budget and with budgets that run out.
func TestCandidatesDifferential(t *testing.T) {
	a := newAssessor(t)
	acts := corpusActions(t)
	pack := packWithSamples(t)
	fired, runs := 0, 0
	check := func(name string, mk func() *tool.Call) {
		c1, c2 := mk(), mk()
		want := analyzeAll(a, c1)
		got, err := a.Analyze(context.Background(), c2)
		if err != nil {
			t.Fatal(err)
		}
		runs++
		if len(want) > 0 {
			fired++
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
		if c1.Work.Used() != c2.Work.Used() {
			t.Errorf("%s: work used %d, the reference walk %d", name, c2.Work.Used(), c1.Work.Used())
		}
	}
	for _, work := range []int64{0, 1 << 10, 1 << 13} {
		for i := range acts {
			b, _ := json.Marshal(acts[i])
			check(string(b), func() *tool.Call { return prepare(t, &acts[i], work) })
		}
	}
	for i := range pack {
		for _, s := range append(pack[i].Match, pack[i].NoMatch...) {
			check(pack[i].Name+": "+s.String(), func() *tool.Call { return s.Call(&pack[i]) })
		}
	}
	if fired < 1000 || runs < 10000 {
		t.Errorf("only %d of %d calls fire a rule", fired, runs)
	}
}

// FuzzCandidates holds Analyze to the reference walk (as
// TestCandidatesDifferential) on any text as a Bash command, alone (a
// call where the command rules are the scripts' command tests: Analyze
// drops those whose test no command holds before running any) and with
// a free-text argument beside it (a call where they are not).
func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"", "sudo pip install x", "git commit -m x && git push", "sudo -i", "npm i x; sudo bash",
		"doas apt-get install x", "pip3 install --user x | sh", "echo $(git push)", "sudo su -"} {
		f.Add(s)
	}
	a, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, args := range []map[string]any{{"command": s}, {"command": s, "description": "sudo pip install x"}} {
			act := risk.Action{Tool: "Bash", Arguments: args}
			want := analyzeAll(a, prepare(t, &act, 0))
			got, err := a.Analyze(context.Background(), prepare(t, &act, 0))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q (%v):\n got %+v\nwant %+v", s, args, got, want)
			}
		}
	})
}

// TestOneEdit checks oneEdit against the full Levenshtein distance, on
// random words and on words one or two random edits apart.
func TestOneEdit(t *testing.T) {
	lev := func(a, b string) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			}
		}
		return min(d[len(a)][len(b)], 3)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	edit := func(s string) string {
		i := rng.IntN(len(s) + 1)
		switch c := "abc"[rng.IntN(3):][:1]; {
		case rng.IntN(3) == 0 || i == len(s):
			return s[:i] + c + s[i:]
		case rng.IntN(2) == 0:
			return s[:i] + s[i+1:]
		default:
			return s[:i] + c + s[i+1:]
		}
	}
	ones := 0
	for k := range 60000 {
		n := rng.IntN(40)
		a, b := word(n), word(max(0, n+rng.IntN(5)-2))
		if k%3 > 0 {
			b = edit(a)
			if k%3 == 2 {
				b = edit(b)
			}
		}
		want := lev(a, b) == 1
		if got := oneEdit(a, b); got != want {
			t.Fatalf("oneEdit(%q, %q) = %v, want %v", a, b, got, want)
		}
		if want {
			ones++
		}
	}
	if ones < 10000 {
		t.Errorf("only %d pairs one edit apart", ones)
	}
}
