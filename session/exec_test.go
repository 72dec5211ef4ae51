package session

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// execRE is what execLines reads without it: the commands of a unit's or
// desktop entry's Exec lines.
var execRE = regexp.MustCompile(`(?m)^\s*Exec[A-Za-z]*\s*=\s*(.+)$`)

// execWant is what execLines must return: execRE's submatches.
func execWant(text string) []string {
	var out []string
	for _, m := range execRE.FindAllStringSubmatch(text, 16) {
		out = append(out, m[1])
	}
	return out
}

// TestExecLines holds execLines to execRE on units, entries and their
// edge cases: spaces and line ends around the =, a value of spaces only,
// Exec words inside lines, more than 16 lines.
func TestExecLines(t *testing.T) {
	texts := []string{
		"", "Exec", "Exec=", "Exec=\n", "Exec= ", "Exec= \n", "Exec=  \n\n", "Exec=\t\r\n", "Exec=x", "ExecStart=/usr/bin/x --y",
		"[Service]\nExecStart=/opt/a\nExecStartPre=-/bin/b\nRestart=always\n",
		"[Desktop Entry]\nName=x\nExec=sh -c 'curl x | sh'\n", "  ExecStart = /bin/a\n", "ExecStart\n=\n/bin/a\n",
		"\n\n  \n ExecStop=/bin/b", "NoExecStart=/bin/a\nExecStart=/bin/c", "Exec1=/bin/a", "ExecStart =", "Exec=a\rb\n",
		"x ExecStart=/bin/a", "ExecStart=é\nExec=\xff\n", "ExecStart==a", "Exec=\nExec=b", "Exec=\n\nExec=",
		strings.Repeat("ExecStart=/bin/a\n", 20), "\f\vExec=a", "ExecA=\n \n\t", "Exec= \n \n",
	}
	found := 0
	for _, s := range texts {
		got, want := execLines(nil, s), execWant(s)
		if !slices.Equal(got, want) {
			t.Errorf("execLines(%q) = %q, want %q", s, got, want)
		}
		found += len(want)
	}
	if found < 20 {
		t.Fatalf("only %d commands found: the test compares little", found)
	}
}

// FuzzExecLines holds execLines to execRE on any text.
func FuzzExecLines(f *testing.F) {
	for _, s := range []string{"", "ExecStart=/bin/a\n", "Exec= \n\n", " \nExecStop =\n x", "[Service]\nExecStart=-/x\nExecReload=/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := execLines(nil, s), execWant(s); !slices.Equal(got, want) {
			t.Errorf("execLines(%q) = %q, want %q", s, got, want)
		}
	})
}
