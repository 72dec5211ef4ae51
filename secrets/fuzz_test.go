package secrets

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSecrets: any text scans without a panic; findings lie inside the
// text, in order, with a masked match that does not hold the secret; and
// Redact leaves none of the secrets found.
func FuzzSecrets(f *testing.F) {
	rules := yamlRules(f)
	for _, r := range rules {
		for _, s := range append(append([]string{}, r.Match...), r.NoMatch...) {
			f.Add(s)
		}
	}
	g := yamlCLI(f)
	for _, c := range g.Commands {
		for _, s := range append(append([]string{}, c.Match...), c.NoMatch...) {
			f.Add(s)
		}
	}
	for _, s := range append(append(append([]string{}, g.Env.Match...), g.Generic.Match...), g.Generic.NoMatch...) {
		f.Add(s)
	}
	f.Add("mysql -p'unterminated")
	f.Add("curl -u \\\x00 a:\\")
	f.Add("cfg=Z2hvX1JuSDdQOXc4QUdIR1Z1eFdMRHF5cTRHRzZzamFOdjFmWUF2Zw==")
	f.Add("%41%4B%49%41 password=%70%61%73%73")
	d := Default()
	f.Fuzz(func(t *testing.T, text string) {
		fs := d.ScanString("f", text)
		prevStart := -1
		for _, fd := range fs {
			if fd.Start < 0 || fd.End > len(text) || fd.Start >= fd.End || fd.Start < prevStart {
				t.Fatalf("finding span [%d,%d) in %d bytes (previous start %d)", fd.Start, fd.End, len(text), prevStart)
			}
			prevStart = fd.Start
			secret := text[fd.Start:fd.End]
			if fd.Line < 1 || fd.Column < 1 || fd.Type == "" || !strings.HasSuffix(fd.Match, "…[redacted]") {
				t.Fatalf("malformed finding %+v", fd)
			}
			if len(secret) > 8 && strings.Contains(fd.Match, secret[4:]) {
				t.Fatalf("the match shows the secret: %q", fd.Match)
			}
		}
		red := d.Redact(text)
		if utf8.ValidString(text) && !utf8.ValidString(red) {
			t.Fatalf("Redact broke UTF-8: %q", red)
		}
		for _, fd := range d.find([]byte(red), true) {
			if !strings.Contains(red[fd.Start:fd.End], "…[redacted]") && fd.End-fd.Start >= 16 {
				// a secret Redact left whole (masking may join text into new candidates; those hold the mark)
				t.Fatalf("Redact left %q in %q", red[fd.Start:fd.End], red)
			}
		}
	})
}
