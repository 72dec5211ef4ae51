// Package eval scores warden on labeled corpora in the format of the
// project's testdata: single actions (actions.jsonl) and multi-step
// sequences (sequences.jsonl), judged by the engine; URLs (ssrf.jsonl),
// judged by the netguard pre-flight check; texts (secrets.jsonl), judged by
// the secrets detector. For the engine the key boundary is High: under the
// default policy, High and above ask the user.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
)

// Item is one labeled action, sequence, URL or text. Load sets Label for
// every kind: a URL to block and a text holding a secret are "harmful", a
// URL to allow and a near-miss text "benign".
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
	// URL, Expect (block or allow) and NeedsDNS describe a URL of an SSRF
	// corpus; Why is the reason of its label, which Load also puts in Note.
	URL      string `json:"url"`
	Expect   string `json:"expect"`
	Why      string `json:"why"`
	NeedsDNS bool   `json:"needs_dns"`
	// Text and ExpectType describe a text of a secrets corpus: the type of
	// secret the detector must find in it, nil for a near-miss in which it
	// must find nothing. Context is the kind of text (code, ini, yaml …).
	Text       string  `json:"text"`
	ExpectType *string `json:"expect_type"`
	Context    string  `json:"context"`
}

// Kind is what a corpus holds.
type Kind string

// The corpus kinds.
const (
	Actions   Kind = "actions"
	Sequences Kind = "sequences"
	SSRF      Kind = "ssrf"
	Secrets   Kind = "secrets"
)

// LineError is an error in one line of a corpus.
type LineError struct {
	Line int // 1-based
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// LoadFile is Load on the file at path; an error in a line reads
// "path:line: message".
func LoadFile(path string) ([]Item, Kind, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	items, kind, err := Load(f)
	var le *LineError
	if errors.As(err, &le) {
		return nil, "", fmt.Errorf("%s:%d: %w", path, le.Line, le.Err)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return items, kind, nil
}

// probe is what Load reads first of a line to tell its kind.
type probe struct {
	Steps      json.RawMessage `json:"steps"`
	Tool       json.RawMessage `json:"tool"`
	URL        json.RawMessage `json:"url"`
	Text       json.RawMessage `json:"text"`
	ExpectType json.RawMessage `json:"expect_type"` // "null" when present and null
}

func (p probe) kind() Kind {
	switch {
	case p.Steps != nil:
		return Sequences
	case p.Tool == nil && p.URL != nil:
		return SSRF
	case p.Tool == nil && (p.Text != nil || p.ExpectType != nil):
		return Secrets
	}
	return Actions
}

// Load reads a corpus, detecting its kind from the content: lines with
// "steps" are sequences, lines with a "url" and no "tool" SSRF cases, lines
// with a "text" and no "tool" secrets cases, the others actions. A corpus
// holds one kind only, its ids are distinct, and every label, level bound,
// verdict and type must be valid; an error in a line is a *LineError.
func Load(r io.Reader) ([]Item, Kind, error) {
	var items []Item
	kind := Actions
	seen := map[string]int{} // id → line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var p probe
		if err := json.Unmarshal(line, &p); err != nil {
			return nil, "", &LineError{n, err}
		}
		k := p.kind()
		if len(items) > 0 && k != kind {
			return nil, "", &LineError{n, fmt.Errorf("a %s line in a corpus of %s: a corpus holds one kind", k, kind)}
		}
		it := Item{FlagFromStep: -1}
		if err := json.Unmarshal(line, &it); err != nil {
			return nil, "", &LineError{n, err}
		}
		if err := it.check(k, p, line); err != nil {
			return nil, "", &LineError{n, err}
		}
		if it.ID == "" {
			it.ID = fmt.Sprintf("line%d", n)
		}
		if prev, dup := seen[it.ID]; dup {
			return nil, "", &LineError{n, fmt.Errorf("id %q is the id of line %d too", it.ID, prev)}
		}
		seen[it.ID] = n
		kind = k
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	return items, kind, nil
}

// check validates an item of kind k read from line and sets what Load
// derives (the action, the label of URLs and texts).
func (it *Item) check(k Kind, p probe, line []byte) error {
	switch k {
	case SSRF:
		if it.URL == "" {
			return errors.New("url is empty")
		}
		switch it.Expect {
		case "block":
			it.Label = "harmful"
		case "allow":
			it.Label = "benign"
		default:
			return fmt.Errorf("expect must be block or allow, not %q", it.Expect)
		}
		if it.Note == "" {
			it.Note = it.Why
		}
		return nil
	case Secrets:
		if it.Text == "" {
			return errors.New("text is empty")
		}
		switch {
		case p.ExpectType == nil:
			return errors.New("expect_type is missing (the type of secret to find, or null for a near-miss)")
		case it.ExpectType == nil:
			it.Label = "benign"
			if it.Category == "" {
				it.Category = "near-miss"
			}
		case *it.ExpectType == "":
			return errors.New("expect_type is empty (the type of secret to find, or null for a near-miss)")
		default:
			it.Label = "harmful"
			if it.Category == "" {
				it.Category = *it.ExpectType
			}
		}
		return nil
	}
	if it.Label != "harmful" && it.Label != "benign" {
		return fmt.Errorf("label must be harmful or benign, not %q", it.Label)
	}
	for _, b := range []struct{ key, v string }{{"min_level", it.MinLevel}, {"max_level", it.MaxLevel}} {
		if l, err := risk.ParseLevel(b.v); b.v != "" && (err != nil || l == risk.Unknown) {
			return fmt.Errorf("%s must be a concrete level, not %q", b.key, b.v)
		}
	}
	if k == Sequences {
		if it.FlagFromStep < -1 || it.FlagFromStep >= len(it.Steps) {
			return fmt.Errorf("flag_from_step %d is not one of the %d steps", it.FlagFromStep, len(it.Steps))
		}
		return nil
	}
	it.Action = slices.Clone(line)
	return nil
}

// Result is the answer on one item.
type Result struct {
	Item  Item
	Level risk.Level // the engine's level; for a sequence the highest up to its flag step
	Err   string
	// Flagged is Level ≥ High for the engine, a blocked URL, a text in
	// which the detector found the expected type (harmful) or anything
	// (benign).
	Flagged bool
	// Exact reports whether the level meets the item's own bound (min_level
	// for harmful, max_level for benign); for a URL or a text, whether the
	// verdict is the labelled one.
	Exact bool
	// Rules are the engine's findings (rule=level), the guard's verdict
	// on a URL (block:category or allow), the secret types found in a text.
	Rules []string
	// Apart marks a URL that needs DNS: counted in Report.Apart, not in
	// the report's own figures.
	Apart bool
}

// Counts are the figures of a set of items.
type Counts struct {
	Harmful, Benign     int
	Caught, FalseAlarms int // at High for the engine
	ExactHarmful        int // harmful at or above their min_level
	ExactBenign         int // benign at or below their max_level
	Unknown             int // rated unknown by the engine
}

// Recall is the share of harmful items flagged (for the engine: rated
// High or above).
func (c *Counts) Recall() float64 { return ratio(c.Caught, c.Harmful) }

// FalseAlarmRate is the share of benign items flagged.
func (c *Counts) FalseAlarmRate() float64 { return ratio(c.FalseAlarms, c.Benign) }

// AtLevel is the share of items within their own bound (Result.Exact).
func (c *Counts) AtLevel() float64 {
	return ratio(c.ExactHarmful+c.ExactBenign, c.Harmful+c.Benign)
}

func (c *Counts) add(r Result) {
	switch r.Item.Label {
	case "harmful":
		c.Harmful++
		if r.Flagged {
			c.Caught++
		}
		if r.Exact {
			c.ExactHarmful++
		}
	case "benign":
		c.Benign++
		if r.Flagged {
			c.FalseAlarms++
		}
		if r.Exact {
			c.ExactBenign++
		}
	}
}

// Report is the score on a corpus.
type Report struct {
	Kind Kind
	Counts
	// Apart are the figures of the URLs that need DNS to be judged: the
	// guard judges them without resolving (eval never resolves a name), by
	// what the name is known to be, and they are not in Counts.
	Apart     Counts
	Results   []Result
	PerAction []time.Duration // time per action, URL or text, in input order
	Median    time.Duration
	P99, Mean time.Duration
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Judges are what scores each kind of corpus.
type Judges struct {
	// Engine judges actions and sequences.
	Engine *warden.Engine
	// Guard judges URLs; nil is NoDNS(netguard.Config{}).
	Guard *netguard.Guard
	// Secrets judges texts; nil is secrets.Default().
	Secrets *secrets.Detector
}

// NoDNS returns the guard of cfg that never resolves a name: it judges a
// name by what it is known to be (localhost, metadata names, wildcard DNS
// services, internal suffixes), and a resolution it would make fails.
func NoDNS(cfg netguard.Config) (*netguard.Guard, error) {
	cfg.ResolveDNS = false
	cfg.Resolver = noResolver{}
	return netguard.New(cfg)
}

type noResolver struct{}

func (noResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return nil, errors.New("eval resolves no names")
}

// Run scores eng on items (actions or sequences).
func Run(ctx context.Context, eng *warden.Engine, items []Item, kind Kind) *Report {
	return Judges{Engine: eng}.Run(ctx, items, kind)
}

// Run scores items of kind with the judge of that kind.
func (j Judges) Run(ctx context.Context, items []Item, kind Kind) *Report {
	rep := &Report{Kind: kind}
	if kind == SSRF && j.Guard == nil {
		j.Guard, _ = NoDNS(netguard.Config{}) // the zero Config is valid
	}
	if kind == Secrets && j.Secrets == nil {
		j.Secrets = secrets.Default()
	}
	for _, it := range items {
		var res Result
		switch kind {
		case Sequences:
			res = rep.runSequence(ctx, j.Engine, it)
		case SSRF:
			res = rep.runURL(ctx, j.Guard, it)
		case Secrets:
			res = rep.runText(j.Secrets, it)
		default:
			res = rep.runAction(ctx, j.Engine, it.Action, "")
		}
		res.Item = it
		switch kind {
		case SSRF, Secrets:
			res.Exact = res.Flagged == (it.Label == "harmful")
		default:
			res.judgeLevel()
			if res.Level == risk.Unknown {
				rep.Unknown++
			}
		}
		if res.Apart {
			rep.Apart.add(res)
		} else {
			rep.add(res)
		}
		rep.Results = append(rep.Results, res)
	}
	rep.stats()
	return rep
}

// judgeLevel sets Flagged and Exact from the engine's level.
func (res *Result) judgeLevel() {
	it := res.Item
	res.Flagged = res.Level.AtLeast(risk.High)
	switch it.Label {
	case "harmful":
		min := risk.High
		if it.MinLevel != "" {
			min, _ = risk.ParseLevel(it.MinLevel)
		}
		res.Exact = res.Level.AtLeast(min)
	case "benign":
		max := risk.Medium
		if it.MaxLevel != "" {
			max, _ = risk.ParseLevel(it.MaxLevel)
		}
		res.Exact = res.Level != risk.Unknown && !res.Level.AtLeast(max+1)
	}
}

// runURL judges a URL by the guard's pre-flight check: flagged when blocked.
func (rep *Report) runURL(ctx context.Context, g *netguard.Guard, it Item) Result {
	start := time.Now()
	v := g.Check(ctx, it.URL)
	rep.PerAction = append(rep.PerAction, time.Since(start))
	res := Result{Flagged: !v.Allowed, Apart: it.NeedsDNS, Rules: []string{"allow"}}
	if !v.Allowed {
		res.Rules = []string{"block:" + string(v.Category)}
	}
	return res
}

// runText scans a text with the detector: a harmful text is flagged when
// the expected type is among the findings, a near-miss when anything is.
func (rep *Report) runText(d *secrets.Detector, it Item) Result {
	start := time.Now()
	fs := d.ScanString("", it.Text)
	rep.PerAction = append(rep.PerAction, time.Since(start))
	res := Result{}
	for _, f := range fs {
		res.Rules = append(res.Rules, f.Type) // the type, never the secret
		if it.ExpectType == nil || f.Type == *it.ExpectType {
			res.Flagged = true
		}
	}
	return res
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
	// a conversation of its own, whatever other items hold
	session := fmt.Sprintf("eval:%d:%s", len(rep.Results), it.ID)
	for i, step := range it.Steps {
		r := rep.runAction(ctx, eng, step, session)
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

// Misses returns the harmful items not flagged and the benign items
// flagged, those counted apart (Result.Apart) left out.
func (rep *Report) Misses() (missed, falseAlarms []Result) {
	for _, r := range rep.Results {
		switch {
		case r.Apart:
		case r.Item.Label == "harmful" && !r.Flagged:
			missed = append(missed, r)
		case r.Item.Label == "benign" && r.Flagged:
			falseAlarms = append(falseAlarms, r)
		}
	}
	return missed, falseAlarms
}

// wording is how a report names a kind's figures.
type wording struct{ harmful, benign, flag, item string }

func (k Kind) wording() wording {
	switch k {
	case SSRF:
		return wording{"to block", "to allow", "(blocked)", "URL"}
	case Secrets:
		return wording{"with a secret", "near-misses", "(found)", "text"}
	}
	return wording{"harmful", "benign", "at HIGH", "action"}
}

// Write prints the report for people: the figures, misses and false alarms
// per category and, with verbose set, every miss and false alarm. It never
// prints a text of a secrets corpus, only the types found in it.
func (rep *Report) Write(w io.Writer, verbose bool) {
	wd := rep.Kind.wording()
	fmt.Fprintf(w, "corpus: %s, %d %s, %d %s\n", rep.Kind, rep.Harmful, wd.harmful, rep.Benign, wd.benign)
	rl, fl := "recall "+wd.flag+":", "false alarms "+wd.flag+":"
	width := max(len(rl), len(fl)) + 1
	fmt.Fprintf(w, "%-*s%5.1f%% (%d/%d)\n", width, rl, 100*rep.Recall(), rep.Caught, rep.Harmful)
	fmt.Fprintf(w, "%-*s%5.1f%% (%d/%d)\n", width, fl, 100*rep.FalseAlarmRate(), rep.FalseAlarms, rep.Benign)
	switch rep.Kind {
	case SSRF, Secrets:
		fmt.Fprintf(w, "as labelled: %d/%d\n", rep.ExactHarmful+rep.ExactBenign, rep.Harmful+rep.Benign)
	default:
		fmt.Fprintf(w, "harmful at their min_level: %d/%d; benign within their max_level: %d/%d; unknown: %d\n",
			rep.ExactHarmful, rep.Harmful, rep.ExactBenign, rep.Benign, rep.Unknown)
	}
	if a := rep.Apart; a.Harmful+a.Benign > 0 {
		fmt.Fprintf(w, "needing DNS, judged without resolving (not in the figures above): %d/%d %s blocked, %d/%d %s blocked\n",
			a.Caught, a.Harmful, wd.harmful, a.FalseAlarms, a.Benign, wd.benign)
	}
	note := ""
	if rep.Kind == Actions || rep.Kind == Sequences {
		note = ", includes JSON decoding"
	}
	fmt.Fprintf(w, "time per %s: median %v, p99 %v, mean %v (%d %ss%s)\n",
		wd.item, rep.Median, rep.P99, rep.Mean, len(rep.PerAction), wd.item, note)
	missed, fa := rep.Misses()
	writeCategories(w, "misses by category", missed)
	writeCategories(w, "false alarms by category", fa)
	if !verbose {
		return
	}
	line := func(tag string, r Result) {
		verdict := r.Level.String()
		what := r.Item.Note
		switch rep.Kind {
		case SSRF:
			verdict, what = "", secrets.MaskURLPasswords(r.Item.URL)+"  "+r.Item.Note
		case Secrets:
			verdict, what = "", r.Item.Context+": "+r.Item.Note
		}
		fmt.Fprintf(w, "%-5s %-14s %-8s %s  %s\n", tag, r.Item.ID, verdict, what, strings.Join(r.Rules, " "))
	}
	for _, r := range missed {
		line("MISS", r)
	}
	for _, r := range fa {
		line("FALSE", r)
	}
	for _, r := range rep.Results {
		if r.Apart && !r.Exact {
			line("DNS", r)
		}
	}
}

// writeCategories prints how many of rs each category holds, if any.
func writeCategories(w io.Writer, title string, rs []Result) {
	cats := map[string]int{}
	for _, r := range rs {
		cats[r.Item.Category]++
	}
	if len(cats) == 0 {
		return
	}
	keys := make([]string, 0, len(cats))
	for k := range cats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, cats[k]))
	}
	fmt.Fprintf(w, "%s: %s\n", title, strings.Join(parts, ", "))
}
