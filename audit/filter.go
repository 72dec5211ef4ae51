package audit

import (
	"slices"

	"github.com/agentwarden/warden/risk"
)

// Match reports whether f selects r, by every field but Limit and Last
// (which apply to the selection as a whole). A Backend that cannot filter
// in its query language filters with it.
func (f *Filter) Match(r *Record) bool {
	switch {
	case f.FromSeq > 0 && r.Seq < f.FromSeq,
		f.ToSeq > 0 && r.Seq > f.ToSeq,
		!f.Since.IsZero() && r.Time.Before(f.Since),
		!f.Until.IsZero() && !r.Time.Before(f.Until),
		f.Session != "" && r.Session != f.Session,
		f.Agent != "" && r.Agent != f.Agent,
		f.Tool != "" && r.Tool != f.Tool,
		len(f.Kinds) > 0 && !slices.Contains(f.Kinds, r.Kind),
		f.Verdict != "" && r.Verdict != f.Verdict,
		f.MinLevel != risk.Unknown && r.Level != risk.Unknown && r.Level < f.MinLevel:
		return false
	}
	return true
}
