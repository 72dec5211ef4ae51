package policy

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/tool"
)

// pathAnchor is where a path pattern starts.
type pathAnchor uint8

const (
	anchorCwd  pathAnchor = iota // ./x, ../x, x/y
	anchorAbs                    // //x
	anchorHome                   // ~/x
	anchorBase                   // /x
	anchorName                   // x: at any depth below the working directory
)

// pathPattern is a compiled path pattern: up ".." steps from its anchor,
// then segments.
type pathPattern struct {
	anchor pathAnchor
	up     int
	segs   []pathSeg
	// lit is the first nlit segments, when literal, joined by slashes
	lit  string
	nlit int
}

type pathSeg struct {
	text string
	wild bool // holds * or ?
	any  bool // **
	// pre and suf are the literal text before the first and after the
	// last wildcard of a wild segment; star says the segment is pre*suf.
	pre, suf string
	star     bool
}

func newPathSeg(text string) pathSeg {
	i := strings.IndexAny(text, "*?")
	if i < 0 {
		return pathSeg{text: text}
	}
	j := strings.LastIndexAny(text, "*?")
	return pathSeg{text: text, wild: true, pre: text[:i], suf: text[j+1:],
		star: i == j && text[i] == '*'}
}

func (g pathSeg) match(seg string) bool {
	if !g.wild {
		return g.text == seg
	}
	if len(seg) < len(g.pre)+len(g.suf) || !strings.HasPrefix(seg, g.pre) || !strings.HasSuffix(seg, g.suf) {
		return false
	}
	return g.star || matchPathSeg(g.text, seg)
}

func (g *pathPattern) parse(p string) error {
	var rest string
	switch {
	case strings.HasPrefix(p, "//"):
		g.anchor, rest = anchorAbs, p[2:]
	case p == "~" || strings.HasPrefix(p, "~/"):
		g.anchor, rest = anchorHome, strings.TrimPrefix(p[1:], "/")
	case strings.HasPrefix(p, "~"):
		return errors.New("~user paths are not supported: write //home/user/…")
	case strings.HasPrefix(p, "/"):
		g.anchor, rest = anchorBase, p[1:]
	default:
		rest = strings.TrimRight(p, "/")
		if rest == "" || rest == "." || rest == ".." || strings.Contains(rest, "/") {
			g.anchor, rest = anchorCwd, p
		} else {
			g.anchor = anchorName
		}
	}
	wildSeen := false
	for _, s := range strings.Split(rest, "/") {
		if s == ".." && wildSeen {
			return errors.New("bad pattern: .. after a wildcard")
		}
		if strings.Contains(s, "**") && s != "**" {
			return fmt.Errorf("bad pattern: ** must be a whole path segment, not %q", s)
		}
		wildSeen = wildSeen || strings.ContainsAny(s, "*?")
	}
	clean := path.Clean("/" + rest)
	if g.anchor == anchorCwd || g.anchor == anchorHome || g.anchor == anchorBase {
		clean = path.Clean(rest) // keeps leading ..
	}
	if clean == "." || clean == "/" {
		clean = ""
	}
	clean = strings.TrimPrefix(clean, "/")
	if g.anchor == anchorName {
		g.segs = append(g.segs, pathSeg{any: true})
	}
	for _, s := range strings.Split(clean, "/") {
		switch {
		case s == "":
		case s == ".." && len(g.segs) == 0:
			g.up++
		case s == "**":
			if n := len(g.segs); n == 0 || !g.segs[n-1].any {
				g.segs = append(g.segs, pathSeg{any: true})
			}
		default:
			g.segs = append(g.segs, newPathSeg(s))
		}
	}
	for _, s := range g.segs {
		if s.any || s.wild {
			break
		}
		if g.nlit > 0 {
			g.lit += "/"
		}
		g.lit += s.text
		g.nlit++
	}
	return nil
}

// match reports whether the absolute, cleaned path p matches the pattern
// anchored at dir.
func (g *pathPattern) match(dir, p string) bool {
	if dir == "" || dir[0] != '/' {
		return false
	}
	for range g.up {
		dir = pathParent(dir)
	}
	rest, ok := pathBelow(p, dir)
	return ok && g.matchRest(rest)
}

// matchRest matches the part of a path below the pattern's anchor.
func (g *pathPattern) matchRest(rest string) bool {
	if g.lit != "" {
		// the literal segments the pattern begins with
		if !strings.HasPrefix(rest, g.lit) {
			return false
		}
		if rest = rest[len(g.lit):]; rest != "" {
			if rest[0] != '/' {
				return false
			}
			rest = rest[1:]
		}
		return matchPathSegs(g.segs[g.nlit:], rest)
	}
	return matchPathSegs(g.segs, rest)
}

func pathParent(d string) string {
	if i := strings.LastIndexByte(d, '/'); i > 0 {
		return d[:i]
	}
	return "/"
}

// pathBelow returns the part of p below dir ("" for dir itself), and whether
// p is dir or below it.
func pathBelow(p, dir string) (string, bool) {
	switch {
	case p == dir:
		return "", true
	case dir == "/":
		if strings.HasPrefix(p, "/") {
			return p[1:], true
		}
	case len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir):
		return p[len(dir)+1:], true
	}
	return "", false
}

// matchPathSegs matches the segments of a relative path ("" for none).
func matchPathSegs(segs []pathSeg, rest string) bool {
	for len(segs) > 0 {
		s := segs[0]
		if s.any {
			if len(segs) == 1 {
				return true
			}
			if fixed := !hasDoubleStar(segs[1:]); fixed {
				// the segments after ** match the last ones of rest
				n, i := len(segs)-1, len(rest)
				for ; n > 0 && i >= 0; n-- {
					i = strings.LastIndexByte(rest[:max(i, 0)], '/')
				}
				if n > 0 || rest == "" {
					return false
				}
				segs, rest = segs[1:], rest[i+1:]
				continue
			}
			for {
				if matchPathSegs(segs[1:], rest) {
					return true
				}
				i := strings.IndexByte(rest, '/')
				if i < 0 {
					return false
				}
				rest = rest[i+1:]
			}
		}
		if rest == "" {
			return false
		}
		seg, tail := rest, ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			seg, tail = rest[:i], rest[i+1:]
		}
		if !s.match(seg) {
			return false
		}
		segs, rest = segs[1:], tail
	}
	return rest == ""
}

func hasDoubleStar(segs []pathSeg) bool {
	for _, s := range segs {
		if s.any {
			return true
		}
	}
	return false
}

// matchPathSeg matches one path segment against a pattern of * and ?.
func matchPathSeg(pat, s string) bool {
	px, sx := 0, 0
	starPx, starSx := -1, 0
	for px < len(pat) || sx < len(s) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				starPx, starSx = px, sx
				px++
				continue
			case '?':
				if sx < len(s) {
					_, n := utf8.DecodeRuneInString(s[sx:])
					px, sx = px+1, sx+n
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px, sx = px+1, sx+1
					continue
				}
			}
		}
		if starPx >= 0 && starSx < len(s) {
			_, n := utf8.DecodeRuneInString(s[starSx:])
			starSx += n
			px, sx = starPx+1, starSx
			continue
		}
		return false
	}
	return true
}

func (r *Rule) matchPath(s *Subject, i int) bool {
	p := &s.paths[i]
	g := &r.pat
	var dir string
	switch g.anchor {
	case anchorAbs:
		dir = "/"
	case anchorHome:
		dir = s.home
	case anchorBase:
		dir = r.base
		if dir == "" {
			dir = s.env.Workspace
		}
	default:
		dir = s.env.Cwd
	}
	a := g.anchor
	if a == anchorName {
		a = anchorCwd // below the working directory
	}
	if g.up > 0 || dir != p.dirs[a] {
		return g.match(dir, p.abs)
	}
	return p.ok[a] && g.matchRest(p.rest[a])
}

// absPaths returns the call's paths, absolute and cleaned. A reading tool
// of the catalog that names no path reads its working directory.
func (s *Subject) absPaths() []subjectPath {
	if s.pathsDone {
		return s.paths
	}
	s.pathsDone = true
	c := s.c
	add := func(abs string) {
		p := subjectPath{abs: abs}
		for a, dir := range [...]string{anchorCwd: s.env.Cwd, anchorAbs: "/", anchorHome: s.home, anchorBase: s.env.Workspace} {
			if dir != "" && dir[0] == '/' {
				p.dirs[a] = dir
				p.rest[a], p.ok[a] = pathBelow(abs, dir)
			}
		}
		s.paths = append(s.paths, p)
	}
	for _, p := range c.Paths {
		add(c.Abs(p))
	}
	if len(c.Paths) == 0 && c.Class == tool.Read && c.Known && c.Cwd != "" {
		add(path.Clean(c.Cwd))
	}
	s.pathBy = make([]*Rule, len(s.paths))
	return s.paths
}

// subjectPath is a path of the call, absolute, and below the directories
// patterns are anchored at.
type subjectPath struct {
	abs string
	// by anchor: the directory, the part of abs below it, and whether
	// abs is there
	dirs [anchorName]string
	rest [anchorName]string
	ok   [anchorName]bool
}
