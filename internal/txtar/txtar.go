// Package txtar reads and writes the text archives of warden's script and
// golden tests: a comment, then files, each introduced by a line
// "-- NAME --".
package txtar

import (
	"fmt"
	"strings"
)

// Archive is a comment and named files, in order.
type Archive struct {
	Comment string
	Files   map[string]string
	Order   []string // the names of Files, as they appear
}

// Parse reads an archive. It never fails: text before the first file
// line is the comment, and a file runs to the next file line.
func Parse(data string) Archive {
	a := Archive{Files: map[string]string{}}
	name, cur := "", &strings.Builder{}
	flush := func() {
		if name == "" {
			a.Comment = cur.String()
		} else {
			a.Files[name] = cur.String()
			a.Order = append(a.Order, name)
		}
		cur = &strings.Builder{}
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		cur.WriteString(line)
	}
	flush()
	return a
}

// Format writes a as Parse reads it.
func (a Archive) Format() string {
	var b strings.Builder
	b.WriteString(a.Comment)
	for _, n := range a.Order {
		fmt.Fprintf(&b, "-- %s --\n%s", n, a.Files[n])
	}
	return b.String()
}
