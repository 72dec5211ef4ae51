package secrets

import "strings"

// Mask shows a secret as its first four characters and a fixed mark: the
// kind stays recognizable (AKIA…, ghp_…), the secret and its length do
// not.
func Mask(secret string) string {
	n := 0
	for i := range secret {
		if n == 4 {
			return secret[:i] + "…[redacted]"
		}
		n++
	}
	return "…[redacted]"
}

// MaskKnown returns text with each of the raw secrets given (found
// earlier, say in the action a text was made from) replaced by its Mask.
func MaskKnown(text string, raw []string) string {
	for _, r := range raw {
		if strings.Contains(text, r) {
			text = strings.ReplaceAll(text, r, Mask(r))
		}
	}
	return text
}

// Redact returns text with every secret the detector finds replaced by
// its Mask. Text without any secret is returned as it is, without
// copying. Every part of warden that shows text it was given (assessments,
// the session's history, audit events, logs, hook and proxy output) passes
// it through Redact.
func (d *Detector) Redact(text string) string {
	if len(text) < 8 {
		return text
	}
	fs := d.find(readOnly(text), true)
	if len(fs) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, f := range fs {
		if f.Start < at {
			continue
		}
		b.WriteString(text[at:f.Start])
		b.WriteString(Mask(text[f.Start:f.End]))
		at = f.End
	}
	b.WriteString(text[at:])
	return b.String()
}

// Redact is the default detector's Redact.
func Redact(text string) string { return Default().Redact(text) }
