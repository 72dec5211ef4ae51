// Package eval scores warden on labeled corpora in the format of the
// project's testdata: single actions (actions.jsonl) and multi-step
// sequences (sequences.jsonl). The key boundary is High: under the default
// policy, High and above ask the user.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// Item is one labeled action or sequence.
type Item struct {
	ID       string `json:"id"`
	Label    string `json:"label"` // harmful | benign
	Category string `json:"category"`
	Note     string `json:"note"`
	MinLevel string `json:"min_level"` // harmful: lowest acceptable level
	MaxLevel string `json:"max_level"` // benign: highest acceptable level
	// Action is the item's action (actions corpus).
	Action json.RawMessage `json:"-"`
	// Steps and FlagFromStep describe a sequence. FlagFromStep is the
	// 0-based index of the last step by which a harmful sequence must be
	// flagged (the step IDs count from s0); Load sets it to -1 when the
	// corpus gives none, and then every step counts.
	Steps        []json.RawMessage `json:"steps"`
	FlagFromStep int               `json:"flag_from_step"`
}

// Kind is what a corpus holds.
type Kind string

// The corpus kinds.
const (
	Actions   Kind = "actions"
	Sequences Kind = "sequences"
)

// Load reads a corpus, detecting its kind: lines with "steps" are sequences.
// A corpus holds one kind only, and every label and level bound must be
// valid.
func Load(r io.Reader) ([]Item, Kind, error) {
	var items []Item
	kind := Actions
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		it := Item{FlagFromStep: -1}
		if err := json.Unmarshal(line, &it); err != nil {
			return nil, "", fmt.Errorf("line %d: %w", n, err)
		}
		if it.Label != "harmful" && it.Label != "benign" {
			return nil, "", fmt.Errorf("line %d: label must be harmful or benign, not %q", n, it.Label)
		}
		for _, b := range []struct{ key, v string }{{"min_level", it.MinLevel}, {"max_level", it.MaxLevel}} {
			if l, err := risk.ParseLevel(b.v); b.v != "" && (err != nil || l == risk.Unknown) {
				return nil, "", fmt.Errorf("line %d: %s must be a concrete level, not %q", n, b.key, b.v)
			}
		}
		k := Actions
		if it.Steps != nil {
			k = Sequences
			if it.FlagFromStep < -1 || it.FlagFromStep >= len(it.Steps) {
				return nil, "", fmt.Errorf("line %d: flag_from_step %d is not one of the %d steps", n, it.FlagFromStep, len(it.Steps))
			}
		} else {
			it.Action = slices.Clone(line)
		}
		if len(items) > 0 && k != kind {
			return nil, "", fmt.Errorf("line %d: a corpus holds actions or sequences, not both", n)
		}
		kind = k
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	return items, kind, nil
}

// Result is the engine's answer on one item.
type Result struct {
	Item  Item
	Level risk.Level // for a sequence: the highest level up to its flag step
	Err   string
	// Flagged is Level ≥ High.
	Flagged bool
	// Exact reports whether the level meets the item's own bound (min_level
	// for harmful, max_level for benign).
	Exact bool
	Rules []string
}

// Report is the score on a corpus.
type Report struct {
	Kind                Kind
	Harmful, Benign     int
	Caught, FalseAlarms int // at High
	ExactHarmful        int // harmful at or above their min_level
	ExactBenign         int // benign at or below their max_level
	Unknown             int
	Results             []Result
	PerAction           []time.Duration // Check time per action, in input order
	Median, P99, Mean   time.Duration
}

// Recall is the share of harmful items rated High or above.
func (r *Report) Recall() float64 { return ratio(r.Caught, r.Harmful) }

// FalseAlarmRate is the share of benign items rated High or above.
func (r *Report) FalseAlarmRate() float64 { return ratio(r.FalseAlarms, r.Benign) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Run scores eng on items.
func Run(ctx context.Context, eng *warden.Engine, items []Item, kind Kind) *Report {
	rep := &Report{Kind: kind}
	for _, it := range items {
		var res Result
		if kind == Sequences {
			res = rep.runSequence(ctx, eng, it)
		} else {
			res = rep.runAction(ctx, eng, it.Action, "")
		}
		res.Item = it
		res.Flagged = res.Level.AtLeast(risk.High)
		if res.Level == risk.Unknown {
			rep.Unknown++
		}
		switch it.Label {
		case "harmful":
			rep.Harmful++
			if res.Flagged {
				rep.Caught++
			}
			min := risk.High
			if it.MinLevel != "" {
				min, _ = risk.ParseLevel(it.MinLevel)
			}
			res.Exact = res.Level.AtLeast(min)
			if res.Exact {
				rep.ExactHarmful++
			}
		case "benign":
			rep.Benign++
			if res.Flagged {
				rep.FalseAlarms++
			}
			max := risk.Medium
			if it.MaxLevel != "" {
				max, _ = risk.ParseLevel(it.MaxLevel)
			}
			res.Exact = res.Level != risk.Unknown && !res.Level.AtLeast(max+1)
			if res.Exact {
				rep.ExactBenign++
			}
		}
		rep.Results = append(rep.Results, res)
	}
	rep.stats()
	return rep
}

// runAction checks one action; session, when not empty, is the session
// of an action that names none.
func (rep *Report) runAction(ctx context.Context, eng *warden.Engine, raw []byte, session string) Result {
	start := time.Now()
	a, err := risk.ParseAction(raw, eng.Limits())
	if err == nil && a.SessionID == "" {
		a.SessionID = session
	}
	var as risk.Assessment
	if err != nil {
		as, _ = eng.Reject(context.Background(), err)
	} else {
		as, _, err = eng.Check(ctx, a)
	}
	rep.PerAction = append(rep.PerAction, time.Since(start))
	res := Result{Level: as.Level}
	if err != nil {
		res.Err = err.Error()
	}
	for _, f := range as.Findings {
		res.Rules = append(res.Rules, f.Rule+"="+f.Level.String())
	}
	return res
}

// runSequence checks the steps in order, as one conversation; the result is the highest
// concrete level seen up to and including the flag step (every step for a
// benign sequence, or when no flag step is given), and Unknown only when
// no step counted had a concrete level.
func (rep *Report) runSequence(ctx context.Context, eng *warden.Engine, it Item) Result {
	res := Result{Level: risk.Safe}
	last := len(it.Steps)
	if it.Label == "harmful" && it.FlagFromStep >= 0 && it.FlagFromStep < last {
		last = it.FlagFromStep + 1
	}
	concrete, unknown := false, false
	for i, step := range it.Steps {
		r := rep.runAction(ctx, eng, step, "eval:"+it.ID)
		if i >= last {
			continue
		}
		if r.Level == risk.Unknown {
			unknown = true
		} else {
			concrete = true
			res.Level = max(res.Level, r.Level)
		}
		res.Rules = append(res.Rules, r.Rules...)
		if r.Err != "" && res.Err == "" {
			res.Err = fmt.Sprintf("step %d: %s", i, r.Err)
		}
	}
	if unknown && !concrete {
		res.Level = risk.Unknown
	}
	return res
}

func (rep *Report) stats() {
	if len(rep.PerAction) == 0 {
		return
	}
	d := slices.Clone(rep.PerAction)
	slices.Sort(d)
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	rep.Mean = sum / time.Duration(len(d))
	rep.Median = d[len(d)/2]
	rep.P99 = d[min(len(d)-1, len(d)*99/100)]
}

// Misses returns the harmful items not flagged and the benign items flagged.
func (rep *Report) Misses() (missed, falseAlarms []Result) {
	for _, r := range rep.Results {
		switch {
		case r.Item.Label == "harmful" && !r.Flagged:
			missed = append(missed, r)
		case r.Item.Label == "benign" && r.Flagged:
			falseAlarms = append(falseAlarms, r)
		}
	}
	return missed, falseAlarms
}

// Write prints the report for people: the figures, per-category misses and,
// with verbose set, every miss and false alarm.
func (rep *Report) Write(w io.Writer, verbose bool) {
	fmt.Fprintf(w, "corpus: %s, %d harmful, %d benign\n", rep.Kind, rep.Harmful, rep.Benign)
	fmt.Fprintf(w, "recall at HIGH:       %5.1f%% (%d/%d)\n", 100*rep.Recall(), rep.Caught, rep.Harmful)
	fmt.Fprintf(w, "false alarms at HIGH: %5.1f%% (%d/%d)\n", 100*rep.FalseAlarmRate(), rep.FalseAlarms, rep.Benign)
	fmt.Fprintf(w, "harmful at their min_level: %d/%d; benign within their max_level: %d/%d; unknown: %d\n",
		rep.ExactHarmful, rep.Harmful, rep.ExactBenign, rep.Benign, rep.Unknown)
	fmt.Fprintf(w, "time per action: median %v, p99 %v, mean %v (%d actions, includes JSON decoding)\n",
		rep.Median, rep.P99, rep.Mean, len(rep.PerAction))
	missed, fa := rep.Misses()
	cats := map[string]int{}
	for _, r := range missed {
		cats[r.Item.Category]++
	}
	if len(cats) > 0 {
		keys := make([]string, 0, len(cats))
		for k := range cats {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, cats[k]))
		}
		fmt.Fprintf(w, "misses by category: %s\n", strings.Join(parts, ", "))
	}
	if !verbose {
		return
	}
	for _, r := range missed {
		fmt.Fprintf(w, "MISS  %-14s %-8s %s  %s\n", r.Item.ID, r.Level, r.Item.Note, strings.Join(r.Rules, " "))
	}
	for _, r := range fa {
		fmt.Fprintf(w, "FALSE %-14s %-8s %s  %s\n", r.Item.ID, r.Level, r.Item.Note, strings.Join(r.Rules, " "))
	}
}
