package secrets

import (
	"strings"
	"unicode/utf8"
)

// Mask shows a secret as its first four characters and a fixed mark: the
// kind stays recognizable (AKIA…, ghp_…), the secret and its length do
// not. A secret shorter than maskShown characters (a password) is hidden
// whole: four characters of it would be half of it.
func Mask(secret string) string {
	if utf8.RuneCountInString(secret) < maskShown {
		return mark
	}
	n := 0
	for i := range secret {
		if n == 4 {
			return secret[:i] + mark
		}
		n++
	}
	return mark
}

// mark replaces a secret; maskShown is the least length of a secret whose
// first four characters are shown.
const (
	mark      = "…[redacted]"
	maskShown = 16
)

// MaskURLPasswords returns text with the password of every URL's user
// information (scheme://user:password@host) replaced by its Mask,
// whatever the password: a structural redaction that does not depend on
// the detector taking the password for a secret, nor on the password
// being long enough to be replaced by its value. Text without one is
// returned as it is.
func MaskURLPasswords(text string) string {
	if strings.IndexByte(text, '@') < 0 || !strings.Contains(text, "://") { // the rarer byte first
		return text
	}
	var b strings.Builder
	at := 0
	for i := 0; ; {
		n := strings.Index(text[i:], "://")
		if n < 0 {
			break
		}
		auth := i + n + 3
		end := auth
		for end < len(text) && !authorityEnd(text[end]) {
			end++
		}
		i = end
		userinfo := strings.LastIndexByte(text[auth:end], '@')
		if userinfo < 0 {
			continue
		}
		colon := strings.IndexByte(text[auth:auth+userinfo], ':')
		if colon < 0 {
			continue
		}
		ps, pe := auth+colon+1, auth+userinfo
		if ps == pe || strings.HasSuffix(text[ps:pe], mark) {
			continue
		}
		b.WriteString(text[at:ps])
		b.WriteString(Mask(text[ps:pe]))
		at = pe
	}
	if at == 0 {
		return text
	}
	b.WriteString(text[at:])
	return b.String()
}

// authorityEnd reports a byte that ends a URL's authority (or the text
// around a URL written in prose, a quote or markup).
func authorityEnd(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\':
		return true
	}
	return false
}

// MaskKnown returns text with each of the raw secrets given (found
// earlier, say in the action a text was made from) replaced by its Mask.
func MaskKnown(text string, raw []string) string {
	if len(raw) == 0 { // inlined: most calls carry no secret
		return text
	}
	return maskKnown(text, raw)
}

// maskKnown is MaskKnown with secrets to mask.
func maskKnown(text string, raw []string) string {
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
