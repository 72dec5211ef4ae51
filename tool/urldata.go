package tool

import (
	"net/url"
	"strings"
)

// URLData returns the parts of u that can carry data out with a plain
// request: the credentials of its userinfo, long query values, long path
// segments and long host labels (DNS exfiltration). Short values (ids,
// page numbers, flags) and ordinary words are not data. It returns nil for
// a URL that carries none or cannot be parsed.
func URLData(u string) []string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Host == "" {
		return nil
	}
	var out []string
	if p.User != nil {
		out = append(out, p.User.String())
	}
	for _, vs := range p.Query() {
		for _, v := range vs {
			if len(v) >= minURLData {
				out = append(out, v)
			}
		}
	}
	for _, seg := range strings.Split(p.Path, "/") {
		if len(seg) >= 2*minURLData && blob(seg) {
			out = append(out, seg)
		}
	}
	for _, label := range strings.Split(p.Hostname(), ".") {
		if len(label) >= 2*minURLData && blob(label) {
			out = append(out, label)
		}
	}
	return out
}

// minURLData is the shortest query value taken for data.
const minURLData = 16

// blob reports text that looks encoded rather than written: no word
// separators, and digits among the letters.
func blob(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' || c == '_' || c == '.' || c == '~':
			if strings.Count(s, string(c)) > 3 {
				return false // words-joined-by-dashes
			}
		}
	}
	return digits > 0
}
