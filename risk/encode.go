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
	dst = append(dst, `"level":`...)
	dst, err := a.Level.appendJSON(dst)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"score":`...)
	dst = strconv.AppendInt(dst, int64(a.Score), 10)
	dst = append(dst, `,"unknown":`...)
	dst = jsonenc.Bool(dst, a.Unknown)
	dst = append(dst, `,"findings":`...)
	if a.Findings == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range a.Findings {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = a.Findings[i].appendJSON(dst); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"reasons":`...)
	dst = jsonenc.Strings(dst, a.Reasons)
	dst = append(dst, `,"affected_resources":`...)
	dst = jsonenc.Strings(dst, a.AffectedResources)
	dst = append(dst, `,"reversible":`...)
	dst = jsonenc.Bool(dst, a.Reversible)
	if a.Locked {
		dst = append(dst, `,"locked":true`...)
	}
	dst = append(dst, `,"estimated_impact":`...)
	dst = jsonenc.String(dst, a.EstimatedImpact)
	dst = append(dst, `,"recommendations":`...)
	dst = jsonenc.Strings(dst, a.Recommendations)
	dst = append(dst, `,"security_risk":`...)
	dst = jsonenc.String(dst, string(a.SecurityRisk))
	return dst, nil
}

// appendJSON appends f's JSON object, as encoding/json writes it.
func (f *Finding) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"analyzer":`...)
	dst = jsonenc.String(dst, f.Analyzer)
	dst = append(dst, `,"rule":`...)
	dst = jsonenc.String(dst, f.Rule)
	dst = append(dst, `,"level":`...)
	dst, err := f.Level.appendJSON(dst)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"reason":`...)
	dst = jsonenc.String(dst, f.Reason)
	if f.Resource != "" {
		dst = append(dst, `,"resource":`...)
		dst = jsonenc.String(dst, f.Resource)
	}
	dst = append(dst, `,"reversible":`...)
	dst = jsonenc.Bool(dst, f.Reversible)
	if f.Locked {
		dst = append(dst, `,"locked":true`...)
	}
	return append(dst, '}'), nil
}

// appendJSON appends l as its MarshalText makes it a JSON string.
func (l Level) appendJSON(dst []byte) ([]byte, error) {
	if !l.Valid() {
		_, err := l.MarshalText()
		return dst, err
	}
	dst = append(dst, '"')
	dst = append(dst, levelNames[l]...)
	return append(dst, '"'), nil
}
