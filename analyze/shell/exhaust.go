package shell

import (
	"strconv"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Resource exhaustion by writers without an end: a program whose output
// never ends (yes, /dev/zero, /dev/urandom) written into a file fills the
// disk; dd from such a source without count= does the same; fallocate of
// a size no workspace needs takes the disk at once, and so do dd (bs= ×
// count=) and head -c of such a size written into a file.

// endless are the sources whose output never ends.
var endless = map[string]bool{"/dev/zero": true, "/dev/urandom": true, "/dev/random": true, "/dev/full": true}

// exhaustRule is the rule of the findings below.
const exhaustRule = "res.unbounded_write"

// hugeAllocation is the size from which fallocate (which takes the space
// at once, unlike a sparse truncate), or a bounded copy (dd, head -c), is
// judged to exhaust the disk.
const hugeAllocation = 64 << 30

// exhaustion appends the findings of command c, given its command name.
func exhaustion(out []risk.Finding, c *Command, name string) []risk.Finding {
	switch name {
	case "yes", "cat", "pv", "tail", "dd", "fallocate", "head":
	default:
		return out
	}
	file := writtenFile(c)
	switch name {
	case "yes":
		if file != "" {
			out = append(out, exhaustFinding("yes writes the same line forever into "+file+", until the disk is full", file))
		}
	case "cat", "pv", "tail":
		if file == "" {
			return out
		}
		for j := 1; j < len(c.Args); j++ {
			if endless[c.Args[j]] && !c.Dynamic[j] {
				out = append(out, exhaustFinding(name+" copies "+c.Args[j]+", which never ends, into "+file+", until the disk is full", file))
				break
			}
		}
	case "dd":
		var in, of string
		counted := false
		bs, count := int64(512), int64(-1) // dd's block size, and count= (-1: none)
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case strings.HasPrefix(a, "if="):
				in = a[3:]
			case strings.HasPrefix(a, "of="):
				of = a[3:]
			case strings.HasPrefix(a, "bs="), strings.HasPrefix(a, "obs="):
				if n, ok := parseSize(a[strings.IndexByte(a, '=')+1:]); ok {
					bs = n
				}
			case strings.HasPrefix(a, "count="):
				counted = true
				if n, ok := parseSize(a[len("count="):]); ok {
					count = n
				}
			case strings.HasPrefix(a, "iflag=count_bytes"):
				counted = true
			}
		}
		if of == "" {
			of = file
		}
		if of == "" || device(of) {
			return out
		}
		switch {
		case endless[in] && !counted:
			out = append(out, exhaustFinding("dd copies "+in+", which never ends, into "+of+" without count=, until the disk is full", of))
		case count > 0 && bs > 0 && count >= (hugeAllocation+bs-1)/bs:
			out = append(out, exhaustFinding("dd writes "+strconv.FormatInt(count, 10)+" blocks of "+strconv.FormatInt(bs, 10)+
				" bytes (64 GiB or more) into "+of+", which fills the disk", of))
		}
	case "head":
		if file == "" {
			return out
		}
		if v, ok := hugeSize(c, "-c", "--bytes"); ok {
			out = append(out, exhaustFinding("head writes "+v+" into "+file+", which fills the disk", file))
		}
	case "fallocate":
		if v, ok := hugeSize(c, "-l", "--length"); ok {
			out = append(out, exhaustFinding("fallocate takes "+v+" of disk at once", ""))
		}
	}
	return out
}

// hugeSize returns the size c gives by option short or long (-c 100G,
// -c100G, --bytes 100G, --bytes=100G) when it is hugeAllocation or more.
func hugeSize(c *Command, short, long string) (string, bool) {
	for j := 1; j < len(c.Args); j++ {
		a, v := c.Args[j], ""
		switch {
		case (a == short || a == long) && j+1 < len(c.Args) && !c.Dynamic[j+1]:
			v = c.Args[j+1]
		case strings.HasPrefix(a, long+"="):
			v = a[len(long)+1:]
		case strings.HasPrefix(a, short) && len(a) > len(short):
			v = a[len(short):]
		}
		if n, ok := parseSize(v); ok && n >= hugeAllocation {
			return v, true
		}
	}
	return "", false
}

func exhaustFinding(reason, file string) risk.Finding {
	f := risk.Finding{Analyzer: "shell", Rule: exhaustRule, Level: risk.High, Reversible: true, Reason: reason}
	if file != "" {
		f.Resource = "file:" + file
	}
	return f
}

// writtenFile returns the file c's redirections write into ("" when none
// does, or only a device such as /dev/null).
func writtenFile(c *Command) string {
	for _, rd := range c.Redirs {
		if rd.Writes() && rd.Target != "" && !device(rd.Target) {
			return rd.Target
		}
	}
	return ""
}

// device reports a path under /dev that is not a file system: a stream
// (/dev/null), a disk, a terminal. /dev/shm is one (tmpfs, in memory, as
// /run/shm and /run/user/UID are): an endless writer fills the machine's
// memory there, which is no better than filling its disk.
func device(p string) bool {
	return paths.Within(p, "/dev") && !paths.Within(p, "/dev/shm")
}

// parseSize reads a size as fallocate and truncate do: a number with an
// optional K, M, G, T, P, E suffix (KiB powers; KB, MB … powers of 1000).
func parseSize(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9') {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	suffix := strings.ToUpper(s[i:])
	base := int64(1024)
	if strings.HasSuffix(suffix, "B") && !strings.HasSuffix(suffix, "IB") && len(suffix) == 2 {
		base = 1000
	}
	suffix = strings.TrimSuffix(strings.TrimSuffix(suffix, "B"), "I")
	pow := strings.Index("KMGTPE", suffix)
	if suffix != "" && (len(suffix) != 1 || pow < 0) {
		return 0, false
	}
	for range pow + 1 {
		if suffix == "" {
			break
		}
		if n > (1<<62)/base {
			return 1 << 62, true
		}
		n *= base
	}
	return n, true
}
