package eval

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Thresholds are the figures a corpus must hold, in percent; a nil bound
// is not checked.
type Thresholds struct {
	MinRecall      *float64 // recall at least this
	MaxFalseAlarms *float64 // false alarms at most this
	MinAtLevel     *float64 // items within their own bound (Counts.AtLevel) at least this
}

// The names of the bounds, as flags of warden eval and keys of a
// thresholds file.
const (
	MinRecallKey      = "min-recall"
	MaxFalseAlarmsKey = "max-false-alarms"
	MinAtLevelKey     = "min-at-level"
)

// Set sets the bound named key (MinRecallKey …) to the percentage v.
func (t *Thresholds) Set(key, v string) error {
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 100 {
		return fmt.Errorf("%s: %q is not a percentage from 0 to 100", key, v)
	}
	switch key {
	case MinRecallKey:
		t.MinRecall = &f
	case MaxFalseAlarmsKey:
		t.MaxFalseAlarms = &f
	case MinAtLevelKey:
		t.MinAtLevel = &f
	default:
		return fmt.Errorf("unknown threshold %q (want %s, %s or %s)", key, MinRecallKey, MaxFalseAlarmsKey, MinAtLevelKey)
	}
	return nil
}

// Empty reports whether no bound is set.
func (t Thresholds) Empty() bool {
	return t.MinRecall == nil && t.MaxFalseAlarms == nil && t.MinAtLevel == nil
}

// slack absorbs the rounding of a percentage computed from counts: a
// threshold written as 39.6 holds 96/242 (39.669…) and 100 holds n/n.
const slack = 1e-9

// Check returns what rep falls short of, one sentence each, or nothing.
// A bound on recall needs harmful items and one on false alarms benign
// items: a corpus without them does not meet it.
func (t Thresholds) Check(rep *Report) []string {
	var out []string
	wd := rep.Kind.wording()
	if b := t.MinRecall; b != nil {
		got := 100 * rep.Recall()
		if rep.Harmful == 0 || got < *b-slack {
			out = append(out, fmt.Sprintf("recall %s %.1f%% (%d/%d) is below --%s %g%%", wd.flag, got, rep.Caught, rep.Harmful, MinRecallKey, *b))
		}
	}
	if b := t.MaxFalseAlarms; b != nil {
		got := 100 * rep.FalseAlarmRate()
		if rep.Benign == 0 || got > *b+slack {
			out = append(out, fmt.Sprintf("false alarms %s %.1f%% (%d/%d) are above --%s %g%%", wd.flag, got, rep.FalseAlarms, rep.Benign, MaxFalseAlarmsKey, *b))
		}
	}
	if b := t.MinAtLevel; b != nil {
		got := 100 * rep.AtLevel()
		n := rep.Harmful + rep.Benign
		if n == 0 || got < *b-slack {
			out = append(out, fmt.Sprintf("items within their own level bound %.1f%% (%d/%d) are below --%s %g%%", got, rep.ExactHarmful+rep.ExactBenign, n, MinAtLevelKey, *b))
		}
	}
	return out
}

// Bound is one line of a thresholds file: a corpus, by its path relative
// to the file's folder, and its thresholds, or the reason it is not scored.
type Bound struct {
	Corpus string
	Line   int
	Thresholds
	Skip string // not empty: the corpus is not an eval corpus, for this reason
}

// ParseThresholds reads a thresholds file: one corpus a line,
//
//	actions.jsonl  min-recall=100 max-false-alarms=0 min-at-level=100
//	migrated_samples.jsonl  skip=rule samples, checked by corpus_test.go
//
// with "#" starting a comment and blank lines ignored. Every corpus line
// sets at least one bound, or skip with its reason (the rest of the line).
// Errors read "name:line: message".
func ParseThresholds(name string, r io.Reader) ([]Bound, error) {
	var out []Bound
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		b := Bound{Corpus: fields[0], Line: n}
		if prev, ok := seen[b.Corpus]; ok {
			return nil, fail("%s has thresholds already on line %d", b.Corpus, prev)
		}
		seen[b.Corpus] = n
		for i, f := range fields[1:] {
			key, v, ok := strings.Cut(f, "=")
			if !ok {
				return nil, fail("%q is not key=value", f)
			}
			if key == "skip" {
				b.Skip = strings.TrimSpace(strings.Join(append([]string{v}, fields[2+i:]...), " "))
				if b.Skip == "" {
					return nil, fail("skip needs a reason")
				}
				break
			}
			if err := b.Set(key, v); err != nil {
				return nil, fail("%v", err)
			}
		}
		if b.Skip != "" && !b.Empty() {
			return nil, fail("a corpus skipped has no thresholds")
		}
		if b.Skip == "" && b.Empty() {
			return nil, fail("%s: no thresholds (set %s, %s or %s, or skip=REASON)", b.Corpus, MinRecallKey, MaxFalseAlarmsKey, MinAtLevelKey)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no corpus", name)
	}
	return out, nil
}

// ReadThresholds is ParseThresholds on the file at path.
func ReadThresholds(path string) ([]Bound, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseThresholds(path, f)
}
