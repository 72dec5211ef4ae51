package risk

import (
	"strconv"

	"github.com/agentwarden/warden/internal/jsonenc"
)

// AppendJSONFields appends the members of a's JSON object, byte for byte
// as encoding/json writes them with HTML escaping off ("level":…,
// "security_risk":…), without the braces, so that a caller writes them
// into an object of its own (an answer with its decision) without
// reflection. It fails, as encoding/json does, on a level that is not
// valid, and dst is then to be dropped.
func (a *Assessment) AppendJSONFields(dst []byte) ([]byte, error) {
	// where the first findings' reasons are in dst, as JSON strings
	var reasonAt [8][2]int
	dst = append(dst, `"level":`...)
	dst, err := a.Level.appendJSON(dst)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"score":`...)
	dst = strconv.AppendInt(dst, int64(a.Score), 10)
	if a.Unknown {
		dst = append(dst, `,"unknown":true,"findings":`...)
	} else {
		dst = append(dst, `,"unknown":false,"findings":`...)
	}
	if a.Findings == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range a.Findings {
			if i > 0 {
				dst = append(dst, ',')
			}
			var at [2]int
			if dst, at, err = a.Findings[i].appendJSON(dst); err != nil {
				return dst, err
			}
			if i < len(reasonAt) {
				reasonAt[i] = at
			}
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"reasons":`...)
	if a.Reasons == nil {
		dst = append(dst, "null"...)
	} else {
		// a reason is most often a finding's, written already: copied
		dst = append(dst, '[')
		for i, r := range a.Reasons {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = a.appendReason(dst, r, &reasonAt)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"affected_resources":`...)
	dst = jsonenc.Strings(dst, a.AffectedResources)
	switch {
	case a.Reversible && a.Locked:
		dst = append(dst, `,"reversible":true,"locked":true,"estimated_impact":`...)
	case a.Reversible:
		dst = append(dst, `,"reversible":true,"estimated_impact":`...)
	case a.Locked:
		dst = append(dst, `,"reversible":false,"locked":true,"estimated_impact":`...)
	default:
		dst = append(dst, `,"reversible":false,"estimated_impact":`...)
	}
	dst = appendText(dst, a.EstimatedImpact)
	dst = append(dst, `,"recommendations":`...)
	if a.Recommendations == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, r := range a.Recommendations {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendText(dst, r)
		}
		dst = append(dst, ']')
	}
	switch a.SecurityRisk {
	case SecurityRiskLow:
		dst = append(dst, `,"security_risk":"LOW"`...)
	case SecurityRiskMedium:
		dst = append(dst, `,"security_risk":"MEDIUM"`...)
	case SecurityRiskHigh:
		dst = append(dst, `,"security_risk":"HIGH"`...)
	case SecurityRiskUnknown:
		dst = append(dst, `,"security_risk":"UNKNOWN"`...)
	default:
		dst = jsonenc.String(append(dst, `,"security_risk":`...), string(a.SecurityRisk))
	}
	return dst, nil
}

// appendReason appends r, a reason of a, as a JSON string: a copy of
// the string written for the first of a's findings whose reason it is,
// if that is among the first len(at), at[i] where the i-th is in dst.
func (a *Assessment) appendReason(dst []byte, r string, at *[8][2]int) []byte {
	for i := range min(len(a.Findings), len(at)) {
		if a.Findings[i].Reason == r {
			return append(dst, dst[at[i][0]:at[i][1]]...)
		}
	}
	return jsonenc.String(dst, r)
}

// appendText appends s as a JSON string; the estimated impacts and the
// recommendations Combine writes are known to need no escape.
func appendText(dst []byte, s string) []byte {
	if !plainText(s) {
		return jsonenc.String(dst, s)
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// plainText reports whether s is one of the texts of Impact,
// appendRecommendations and partlyUnknown, whose JSON string is s quoted
// (TestPlainText).
func plainText(s string) bool {
	switch s {
	case "Potentially severe and irreversible impact",
		"Significant impact, may require manual intervention to undo",
		"Moderate impact, generally reversible",
		"Minor impact, easily reversible",
		"No significant impact expected",
		"Impact could not be assessed",
		"Require explicit approval before running this action",
		"Confirm the exact targets and make a backup first",
		"Review carefully before approving",
		"The action could not be fully assessed: review it before approving",
		"This cannot be undone: verify that it is intended",
		partlyUnknown:
		return true
	}
	return false
}

// appendJSON appends f's JSON object, as encoding/json writes it, and
// returns where its reason's JSON string is in dst.
func (f *Finding) appendJSON(dst []byte) ([]byte, [2]int, error) {
	dst = append(dst, `{"analyzer":`...)
	dst = jsonenc.String(dst, f.Analyzer)
	dst = append(dst, `,"rule":`...)
	dst = jsonenc.String(dst, f.Rule)
	dst = append(dst, `,"level":`...)
	dst, err := f.Level.appendJSON(dst)
	if err != nil {
		return dst, [2]int{}, err
	}
	dst = append(dst, `,"reason":`...)
	at := [2]int{len(dst), 0}
	dst = jsonenc.String(dst, f.Reason)
	at[1] = len(dst)
	if f.Resource != "" {
		dst = append(dst, `,"resource":`...)
		dst = jsonenc.String(dst, f.Resource)
	}
	switch {
	case f.Reversible && f.Locked:
		dst = append(dst, `,"reversible":true,"locked":true}`...)
	case f.Reversible:
		dst = append(dst, `,"reversible":true}`...)
	case f.Locked:
		dst = append(dst, `,"reversible":false,"locked":true}`...)
	default:
		dst = append(dst, `,"reversible":false}`...)
	}
	return dst, at, nil
}

// levelJSON holds the JSON string of each valid level.
var levelJSON = func() (t [len(levelNames)]string) {
	for l, n := range levelNames {
		t[l] = `"` + n + `"`
	}
	return t
}()

// appendJSON appends l as its MarshalText makes it a JSON string.
func (l Level) appendJSON(dst []byte) ([]byte, error) {
	if !l.Valid() {
		_, err := l.MarshalText()
		return dst, err
	}
	return append(dst, levelJSON[l]...), nil
}
