package walk

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ignoreList is the compiled content of one .gitignore (or
// .git/info/exclude) file. Its patterns are matched against paths
// relative to the directory the file applies to, which is depth path
// segments below the walk root.
type ignoreList struct {
	depth    int
	patterns []pattern
}

// pattern is one compiled gitignore line.
type pattern struct {
	segs     []string // one glob per path segment; "**" alone is any number of segments
	negate   bool     // "!pattern": re-include what it matches
	dirOnly  bool     // "pattern/": directories only
	anchored bool     // a slash at the start or middle: matched against the whole relative path
	multi    bool     // segs holds a "**" segment
}

// parseIgnore compiles the text of a .gitignore file whose directory is
// depth segments below the walk root. Lines that are blank, comments or
// can never match are dropped; parseIgnore never fails.
func parseIgnore(data []byte, depth int) *ignoreList {
	l := &ignoreList{depth: depth}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if p, ok := compilePattern(string(line)); ok {
			l.patterns = append(l.patterns, p)
		}
	}
	return l
}

// compilePattern compiles one line; ok is false for a line that holds no
// pattern.
func compilePattern(line string) (p pattern, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return p, false
	}
	line = trimTrailingSpaces(line)
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	// "\#" and "\!" keep their backslash: the glob reads it as an escape.
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return p, false
	}
	if !p.anchored {
		// No slash: the pattern is matched against the last segment
		// only, where "**" means the same as "*".
		p.segs = []string{line}
		return p, true
	}
	p.segs = strings.Split(line, "/")
	for _, s := range p.segs {
		if s == "**" {
			p.multi = true
		}
	}
	if n := len(p.segs); n > 1 && p.segs[n-1] == "**" {
		// A trailing "/**" matches everything inside, but not the
		// directory itself: one segment or more.
		p.segs = append(p.segs[:n-1], "*", "**")
	}
	return p, true
}

// trimTrailingSpaces removes trailing spaces that are not escaped with a
// backslash.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if end == len(s) {
				end = i // start of a run that may be trailing
			}
			continue
		case '\\':
			i++ // the escaped character, a space included, is kept
		}
		end = len(s)
	}
	return s[:end]
}

// ignored reports whether the path given by its segments below the walk
// root is ignored by the lists in stack, ordered shallow to deep: the
// last matching pattern of the deepest list that has one decides.
func ignored(stack []*ignoreList, segs []string, isDir bool) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		l := stack[i]
		if l.depth >= len(segs) {
			continue // the list's own directory or above it
		}
		rel := segs[l.depth:]
		for j := len(l.patterns) - 1; j >= 0; j-- {
			if p := &l.patterns[j]; p.match(rel, isDir) {
				return !p.negate
			}
		}
	}
	return false
}

// match reports whether the pattern matches the path whose segments,
// relative to the pattern's directory, are rel (never empty).
func (p *pattern) match(rel []string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !p.anchored {
		return matchGlob(p.segs[0], rel[len(rel)-1])
	}
	if !p.multi {
		if len(p.segs) != len(rel) {
			return false
		}
		for i, s := range p.segs {
			if !matchGlob(s, rel[i]) {
				return false
			}
		}
		return true
	}
	// Simulate the automaton whose states are positions in segs; a "**"
	// state loops on any segment and may be passed over for free.
	cur := make([]bool, len(p.segs)+1)
	next := make([]bool, len(p.segs)+1)
	cur[0] = true
	p.closure(cur)
	for _, name := range rel {
		clear(next)
		alive := false
		for i, s := range p.segs {
			switch {
			case !cur[i]:
			case s == "**":
				next[i], alive = true, true
			case matchGlob(s, name):
				next[i+1], alive = true, true
			}
		}
		if !alive {
			return false
		}
		p.closure(next)
		cur, next = next, cur
	}
	return cur[len(p.segs)]
}

// closure adds the states reached by matching "**" segments to nothing.
func (p *pattern) closure(states []bool) {
	for i, s := range p.segs {
		if states[i] && s == "**" {
			states[i+1] = true
		}
	}
}

// matchGlob matches one path segment against a glob: "*" is any run of
// characters, "?" any one character, "[...]" a class, "\" escapes the
// next character. A class that is not closed, and a trailing lone
// backslash, never match, as in git. It compares runes, where git
// compares bytes.
func matchGlob(glob, name string) bool {
	gi, ni := 0, 0
	starG, starN := -1, -1 // position after the last "*", and where its run ends
	for gi < len(glob) || ni < len(name) {
		if gi < len(glob) {
			switch glob[gi] {
			case '*':
				gi++
				starG, starN = gi, ni
				continue
			case '?':
				if ni < len(name) {
					_, w := utf8.DecodeRuneInString(name[ni:])
					gi, ni = gi+1, ni+w
					continue
				}
			case '[':
				if ni < len(name) {
					r, w := utf8.DecodeRuneInString(name[ni:])
					ok, n, valid := matchClass(glob[gi:], r)
					if !valid {
						return false
					}
					if ok {
						gi, ni = gi+n, ni+w
						continue
					}
				}
			default:
				lit := gi
				if glob[gi] == '\\' {
					if gi+1 == len(glob) {
						return false
					}
					lit++
				}
				_, gw := utf8.DecodeRuneInString(glob[lit:])
				if ni < len(name) {
					_, nw := utf8.DecodeRuneInString(name[ni:])
					if glob[lit:lit+gw] == name[ni:ni+nw] {
						gi, ni = lit+gw, ni+nw
						continue
					}
				}
			}
		}
		// Mismatch: let the last "*" take one more character.
		if starG < 0 || starN == len(name) {
			return false
		}
		_, w := utf8.DecodeRuneInString(name[starN:])
		starN += w
		gi, ni = starG, starN
	}
	return true
}

// matchClass matches r against the class that class begins with ("[").
// It returns whether r is in it, the class's length, and valid=false if
// the class is malformed (not closed, or an unknown "[:name:]").
func matchClass(class string, r rune) (ok bool, n int, valid bool) {
	i := 1
	negate := false
	if i < len(class) && (class[i] == '!' || class[i] == '^') {
		negate = true
		i++
	}
	for first := true; ; first = false {
		if i >= len(class) {
			return false, 0, false
		}
		if class[i] == ']' && !first {
			return ok != negate, i + 1, true
		}
		if strings.HasPrefix(class[i:], "[:") {
			if end := strings.Index(class[i+2:], ":]"); end >= 0 {
				is := posixClass(class[i+2 : i+2+end])
				if is == nil {
					return false, 0, false
				}
				ok = ok || is(r)
				i += 2 + end + 2
				continue
			}
		}
		lo, w := classChar(class[i:])
		if w == 0 {
			return false, 0, false
		}
		i += w
		hi := lo
		if i+1 < len(class) && class[i] == '-' && class[i+1] != ']' {
			hi, w = classChar(class[i+1:])
			if w == 0 {
				return false, 0, false
			}
			i += 1 + w
		}
		ok = ok || lo <= r && r <= hi
	}
}

// classChar decodes one, possibly escaped, character of a class; w is 0
// when s is a lone backslash.
func classChar(s string) (r rune, w int) {
	if s[0] == '\\' {
		if len(s) == 1 {
			return 0, 0
		}
		r, w = utf8.DecodeRuneInString(s[1:])
		return r, w + 1
	}
	return utf8.DecodeRuneInString(s)
}

// posixClass returns the test for a "[:name:]" class, nil if unknown.
func posixClass(name string) func(rune) bool {
	switch name {
	case "alnum":
		return func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	case "alpha":
		return unicode.IsLetter
	case "blank":
		return func(r rune) bool { return r == ' ' || r == '\t' }
	case "cntrl":
		return unicode.IsControl
	case "digit":
		return func(r rune) bool { return '0' <= r && r <= '9' }
	case "graph":
		return func(r rune) bool { return unicode.IsGraphic(r) && !unicode.IsSpace(r) }
	case "lower":
		return unicode.IsLower
	case "print":
		return unicode.IsPrint
	case "punct":
		return unicode.IsPunct
	case "space":
		return unicode.IsSpace
	case "upper":
		return unicode.IsUpper
	case "xdigit":
		return func(r rune) bool { return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F' }
	}
	return nil
}
