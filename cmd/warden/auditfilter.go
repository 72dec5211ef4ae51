package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// filterFlags are the flags that select events, for list and export.
type filterFlags struct {
	session, agent, tool string
	kinds                []string
	decision, level      string
	since, until         string
	from, to             int64
	limit, last          int
}

func (f *filterFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.session, "session", "", "only the events of this session")
	fl.StringVar(&f.agent, "agent", "", "only the events of this agent")
	fl.StringVar(&f.tool, "tool", "", "only the events of this tool")
	fl.StringSliceVar(&f.kinds, "kind", nil, "only events of these kinds (repeatable, or a comma list): "+strings.Join(kindNames(), ", "))
	fl.StringVar(&f.decision, "decision", "", "only events decided so: allow, ask or deny")
	fl.StringVar(&f.level, "level", "", "only events assessed at this level or above (safe, low, medium, high, critical); events without a level are kept")
	fl.StringVar(&f.since, "since", "", "only events at or after this time: RFC 3339 (2026-11-25T02:00:00Z) or a duration back from now (24h, 90m)")
	fl.StringVar(&f.until, "until", "", "only events before this time: RFC 3339 or a duration back from now")
	fl.Int64Var(&f.from, "from", 0, "only events of this sequence number or later")
	fl.Int64Var(&f.to, "to", 0, "only events of this sequence number or earlier")
	fl.IntVar(&f.limit, "limit", 0, "at most this many events, the first selected")
	fl.IntVar(&f.last, "last", 0, "the last N events selected (in order)")
}

// kinds are the kinds of events a filter may name.
var kinds = []audit.Kind{audit.KindCheck, audit.KindApprove, audit.KindDecline, audit.KindObserve,
	audit.KindReport, audit.KindReject, audit.KindPrune}

func kindNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return names
}

// filter returns the audit.Filter the flags select, at now; errors name
// the flag whose value is wrong.
func (f *filterFlags) filter(now time.Time) (audit.Filter, error) {
	out := audit.Filter{Session: f.session, Agent: f.agent, Tool: f.tool, FromSeq: f.from, ToSeq: f.to}
	for _, k := range f.kinds {
		k = strings.ToLower(strings.TrimSpace(k))
		if !slices.Contains(kinds, audit.Kind(k)) {
			return out, fmt.Errorf("--kind %q: want one of %s", k, strings.Join(kindNames(), ", "))
		}
		if !slices.Contains(out.Kinds, audit.Kind(k)) {
			out.Kinds = append(out.Kinds, audit.Kind(k))
		}
	}
	switch v := risk.Verdict(strings.ToLower(f.decision)); v {
	case "":
	case risk.Allow, risk.Ask, risk.Deny:
		out.Verdict = v
	default:
		return out, fmt.Errorf("--decision %q: want allow, ask or deny", f.decision)
	}
	if f.level != "" {
		l, err := risk.ParseLevel(f.level)
		if err != nil || l == risk.Unknown {
			return out, fmt.Errorf("--level %q: want safe, low, medium, high or critical", f.level)
		}
		out.MinLevel = l
	}
	var err error
	if out.Since, err = parseWhen(f.since, now); err != nil {
		return out, fmt.Errorf("--since %q: %w", f.since, err)
	}
	if out.Until, err = parseWhen(f.until, now); err != nil {
		return out, fmt.Errorf("--until %q: %w", f.until, err)
	}
	if !out.Since.IsZero() && !out.Until.IsZero() && !out.Since.Before(out.Until) {
		return out, fmt.Errorf("--since %s is not before --until %s: no event can be selected", f.since, f.until)
	}
	switch {
	case f.from < 0:
		return out, fmt.Errorf("--from %d: a sequence number is 1 or more", f.from)
	case f.to < 0:
		return out, fmt.Errorf("--to %d: a sequence number is 1 or more", f.to)
	case f.to > 0 && f.from > f.to:
		return out, fmt.Errorf("--from %d is after --to %d", f.from, f.to)
	case f.limit < 0:
		return out, fmt.Errorf("--limit %d: want a positive number", f.limit)
	case f.last < 0:
		return out, fmt.Errorf("--last %d: want a positive number", f.last)
	case f.limit > 0 && f.last > 0:
		return out, fmt.Errorf("--limit and --last: give one of them")
	}
	out.Limit = f.limit
	if f.last > 0 {
		out.Limit, out.Last = f.last, true
	}
	return out, nil
}

// parseWhen reads a time: RFC 3339, or a duration (positive) back from
// now. "" is the zero time (no bound).
func parseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	d, err := parseAge(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want an RFC 3339 time (2026-11-25T02:00:00Z) or a duration back from now (24h, 90m, 7d)")
	}
	return now.Add(-d), nil
}

// parseAge reads a positive duration: Go's syntax (90m, 1h30m), or a
// whole number of days (7d).
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 32)
		if err != nil || n <= 0 || n > 100_000 {
			return 0, fmt.Errorf("invalid duration %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %q is not positive", s)
	}
	return d, nil
}
