package sqlite

import (
	"math"
	"strings"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// selectQuery returns the query of the records f selects, in seq order,
// and its arguments. The text is made of fixed pieces only (and as many
// placeholders as f has kinds); every value is an argument.
func selectQuery(f *audit.Filter) (string, []any) {
	var where []string
	var args []any
	cond := func(c string, vs ...any) {
		where = append(where, c)
		args = append(args, vs...)
	}
	if f.FromSeq > 0 {
		cond(`seq >= ?`, f.FromSeq)
	}
	if f.ToSeq > 0 {
		cond(`seq <= ?`, f.ToSeq)
	}
	// Since <= time < Until, for bounds beyond what Unix nanoseconds hold
	// too (every record's time is within them)
	if !f.Since.IsZero() {
		switch {
		case f.Since.After(maxTime):
			cond(`0`)
		case !f.Since.Before(minTime):
			cond(`time >= ?`, f.Since.UnixNano())
		}
	}
	if !f.Until.IsZero() {
		switch {
		case !f.Until.After(minTime):
			cond(`0`)
		case !f.Until.After(maxTime):
			cond(`time < ?`, f.Until.UnixNano())
		}
	}
	for _, c := range []struct{ col, v string }{{"session", f.Session}, {"agent", f.Agent}, {"tool", f.Tool}, {"verdict", string(f.Verdict)}} {
		if c.v != "" {
			cond(c.col+` = ?`, c.v)
		}
	}
	if len(f.Kinds) > 0 {
		kinds := make([]any, len(f.Kinds))
		for i, k := range f.Kinds {
			kinds[i] = string(k)
		}
		cond(`kind IN (?`+strings.Repeat(`, ?`, len(kinds)-1)+`)`, kinds...)
	}
	if f.MinLevel != risk.Unknown {
		cond(`(level >= ? OR level = ?)`, int64(f.MinLevel), int64(risk.Unknown))
	}

	var b strings.Builder
	b.WriteString(`SELECT ` + recordColumns + ` FROM warden_audit`)
	if len(where) > 0 {
		b.WriteString(` WHERE ` + strings.Join(where, ` AND `))
	}
	switch {
	case f.Limit > 0 && f.Last:
		// the last Limit, newest first, then put back in seq order
		args = append(args, f.Limit)
		return `SELECT ` + recordColumns + ` FROM (` + b.String() + ` ORDER BY seq DESC LIMIT ?) ORDER BY seq`, args
	case f.Limit > 0:
		args = append(args, f.Limit)
		b.WriteString(` ORDER BY seq LIMIT ?`)
	default:
		b.WriteString(` ORDER BY seq`)
	}
	return b.String(), args
}

// minTime and maxTime are the first and last times Unix nanoseconds in
// an int64 hold.
var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)
