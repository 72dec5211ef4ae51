package guard

import (
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentwarden/warden/internal/ascii"
	"github.com/agentwarden/warden/paths"
)

// Most words a command changes are plain names that no place of the guard
// is made of (git push origin main, npm install left-pad, dist/app.js).
// unguarded tells them apart without resolving and judging each: such a
// path is judged as a name its directory may hold, the probe, which is
// judged once per directory, home directory and Analyzer for all checks
// (probes).

// unguarded reports whether the path p, resolved in env, provably is
// nothing the guard judges: not guarded, and, when whole, no directory
// above a place of the guard. It answers only for a path without links
// to follow whose names are all plain (see plainPath), and only when the
// probe in the directory p is relative to (for an absolute p, the working
// or the home directory when p lies below it, else "/") is nothing the
// guard judges either. The places of the guard are matched
// name by name (paths.Guarded, paths.Env.HoldsGuard; Files and Hooks by
// paths.Within): a name that is none of theirs, of a home or of the home
// directory's path matches nothing, so that p is judged as the probe is,
// by the directory alone. A relative p may start with ./ and end in a
// slash, which name what it names without them (./dist/ is dist), and
// hold empty components, as a URL does (s3://b is s3:/b). dir is
// the directory a relative p resolves in, with a trailing slash ("" for an
// absolute p), and rel p without those: the path is dir+rel.
func (ck *check) unguarded(env *paths.Env, p string, whole bool) (dir, rel string, ok bool) {
	if len(env.Links) > 0 || p == "" {
		return "", "", false
	}
	if p[0] != '/' {
		q := p
		for len(q) > 2 && q[0] == '.' && q[1] == '/' {
			q = q[2:]
		}
		if len(q) > 1 && q[len(q)-1] == '/' {
			q = q[:len(q)-1]
		}
		if q[0] == '/' {
			return "", "", false // .//x
		}
		pr := ck.probe(env.Cwd)
		if pr == nil || pr.guarded || whole && pr.holds {
			return "", "", false
		}
		if !pr.plainPath(q) {
			// a word with empty components (a URL: s3://b/k, https://h/p)
			// names the path without them, as Abs cleans it (s3:/b/k)
			if !strings.Contains(q, "//") {
				return "", "", false
			}
			if q = dropEmpty(q); q == "" || !pr.plainPath(q) {
				return "", "", false
			}
		}
		return pr.dir, q, true
	}
	// an absolute path below the working directory (as an edit tool names
	// the files it writes) or the home directory is the relative path
	// below it: judged by the probe there, which the relative paths of the
	// call use too
	for _, c := range [...]string{env.Cwd, env.Home} {
		if len(c) > 1 && len(p) > len(c)+1 && p[len(c)] == '/' && p[:len(c)] == c {
			if pr := ck.probe(c); pr != nil && !pr.guarded && !(whole && pr.holds) && pr.plainPath(p[len(c)+1:]) {
				return "", p, true
			}
		}
	}
	pr := ck.probe("/")
	if pr == nil || pr.guarded || whole && pr.holds || !pr.plainPath(p) {
		return "", "", false
	}
	return "", p, true
}

// dropEmpty returns the relative path q without its empty components
// (a//b is a/b, a// is a): each run of slashes is one, and a trailing
// one is dropped. It copies q once, in one allocation (refDropEmpty, in
// the tests, is what it stands for).
func dropEmpty(q string) string {
	i := strings.Index(q, "//")
	if i < 0 {
		return strings.TrimSuffix(q, "/")
	}
	b := make([]byte, i+1, len(q)-1) // q up to and with the run's first slash
	copy(b, q[:i+1])
	for j := i + 2; j < len(q); j++ {
		if c := q[j]; c != '/' || b[len(b)-1] != '/' {
			b = append(b, c)
		}
	}
	if b[len(b)-1] == '/' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// probe is what the guard finds of a plain name in a directory: it
// depends on nothing but the home directory, Files, Hooks and the
// directory, so that every check reuses it (probes).
type probe struct {
	home, base   string
	files, hooks []string // copies of the Analyzer's
	// special are the names that are not plain (see plainPath), in lower
	// case
	special map[string]bool
	// specialLens[b] has bit n set when a special name is n bytes long
	// and starts with the byte b (bit 0 when one is 64 bytes or more), so
	// that most names are not looked up in special
	specialLens *[256]uint64
	name        string // the plain name judged ("" when every candidate is special)
	dir         string // base with a trailing slash
	guarded     bool
	holds       bool
}

// probes are the probes made, the newest last, for all checks: few
// directories, homes and Analyzers are ever judged. The list is read
// without a lock and never changed once stored: adding a probe (under
// the lock) stores a new one.
var probes struct {
	sync.Mutex
	list atomic.Pointer[[]*probe]
}

// maxProbes bounds probes.
const maxProbes = 16

// homeNames make a directory a home, or one above homes (/root,
// /home/x, /Users/x).
var homeNames = []string{"home", "root", "users"}

// probeNames are the candidates for the name of a probe: the first that
// is plain is it.
var probeNames = []string{"x", "y", "z"}

// probe returns what the guard finds of a plain name in the absolute,
// clean directory base, or nil when base is not one or no candidate name
// is plain.
func (ck *check) probe(base string) *probe {
	for _, pr := range ck.probes {
		if pr != nil && pr.base == base {
			return pr.valid() // the same Analyzer and home directory: the check's
		}
	}
	pr := ck.findProbe(base)
	if pr == nil {
		return nil
	}
	ck.probes[2], ck.probes[1], ck.probes[0] = ck.probes[1], ck.probes[0], pr
	return pr.valid()
}

// findProbe returns the probe of base for the check's Analyzer and home
// directory from probes, made and added when missing; nil when base is
// not absolute and clean.
func (ck *check) findProbe(base string) *probe {
	home, a := ck.env.Home, ck.a
	if list := probes.list.Load(); list != nil {
		for i := len(*list) - 1; i >= 0; i-- { // the newest first
			if pr := (*list)[i]; pr.base == base && pr.home == home && slices.Equal(pr.files, a.Files) && slices.Equal(pr.hooks, a.Hooks) {
				return pr
			}
		}
	}
	if base == "" || base[0] != '/' || path.Clean(base) != base {
		return nil
	}
	pr := &probe{home: home, base: base, files: slices.Clone(a.Files), hooks: slices.Clone(a.Hooks), dir: base + "/",
		special: map[string]bool{}}
	if base == "/" {
		pr.dir = "/"
	}
	for n := range guardNameSet {
		pr.special[n] = true
	}
	for _, n := range homeNames {
		pr.special[n] = true
	}
	for _, ps := range [...][]string{{home}, a.Files, a.Hooks} {
		for _, p := range ps {
			for c := range strings.SplitSeq(p, "/") {
				pr.special[strings.ToLower(c)] = true
			}
		}
	}
	pr.specialLens = new([256]uint64)
	for n := range pr.special {
		if n == "" {
			continue // never looked up: plainPath refuses an empty name first
		}
		pr.specialLens[n[0]] |= lenBit(len(n))
	}
	for _, n := range probeNames {
		if pr.plainPath(n) {
			pr.name = n
			break
		}
	}
	if pr.name != "" {
		abs := pr.dir + pr.name
		_, pr.guarded = ck.guarded(abs)
		pr.holds = ck.holds(abs)
	}
	probes.Lock()
	var list []*probe
	if old := probes.list.Load(); old != nil {
		list = slices.Clone(*old)
	}
	if len(list) >= maxProbes {
		list = slices.Delete(list, 0, 1)
	}
	list = append(list, pr)
	probes.list.Store(&list)
	probes.Unlock()
	return pr
}

// valid returns pr, or nil when it has no name.
func (pr *probe) valid() *probe {
	if pr.name == "" {
		return nil
	}
	return pr
}

// plainPath reports whether p is a clean path (absolute or relative) of
// plain names: no empty, . or .. component and no trailing slash, so that
// it resolves against a directory by joining. A plain name is neither
// empty, . nor .., at most 255 bytes of plainByte bytes only (no glob
// character or escape, no ~, {, } or control character, nothing that
// case-folds beyond ASCII), and, in any case, none of the names the places of the guard are made of
// (paths.GuardNames), of homeNames or of the components of the home
// directory, Files and Hooks (special). p is not empty. It reads each
// byte once, and looks a name up only when a special name is as long
// and starts so.
func (pr *probe) plainPath(p string) bool {
	start := 0
	if p[0] == '/' {
		start = 1
	}
	var kinds uint8 // the nameKinds of the name's bytes so far, or'ed
	for i := start; ; i++ {
		if i < len(p) {
			k := nameKinds[p[i]]
			if k&namePlain != 0 {
				kinds |= k
				continue
			}
			if p[i] != '/' {
				return false
			}
		}
		// p[start:i] is a name
		n := i - start
		if n == 0 || n > 255 || n <= 2 && p[start] == '.' && p[i-1] == '.' {
			return false // empty, . or .. (a name of two bytes that start and end with a dot), or too long
		}
		if pr.specialLens[ascii.Lower(p[start])]&lenBit(n) != 0 || len(guardGlobs) > 0 {
			if pr.specialName(p[start:i], kinds&nameUpper != 0) {
				return false
			}
		}
		if i >= len(p) {
			return true
		}
		start, kinds = i+1, 0
	}
}

// specialName reports whether the name c, of plainByte bytes, is special
// or matches a glob of the guard's names, in lower case; upper says
// whether c holds an upper-case letter.
func (pr *probe) specialName(c string, upper bool) bool {
	lower := c
	if upper { // rare: names are looked up in lower case
		lower = strings.ToLower(c)
	}
	if pr.special[lower] {
		return true
	}
	for _, n := range guardGlobs {
		if m, _ := path.Match(n, lower); m {
			return true
		}
	}
	return false
}

// lenBit is the bit of specialLens for a name n bytes long: bit n, or bit
// 0 for the names of 64 bytes or more.
func lenBit(n int) uint64 {
	if n >= 64 {
		return 1
	}
	return 1 << n
}

// guardGlobs are the names of paths.GuardNames that are globs (none, so
// far: see guardNameSet).
var guardGlobs = func() []string {
	var globs []string
	for _, n := range paths.GuardNames() {
		if hasGlob(n) {
			globs = append(globs, n)
		}
	}
	return globs
}()

// plainByte marks the bytes of plain names: printable ASCII (the space
// too) but for the slash, what a glob is made of (* ? [ ] and the escape
// \), ~, which Abs expands at the start, and { and }, which judge reads
// as find's {}. Every place of the guard takes such a byte literally:
// judge resolves and matches a name of them as the name it is, which
// only a name of the guard's or of a home equals (special) or a glob of
// the guard's matches (guardGlobs), in lower case. Words of commands
// that name no file (git commit -m 'wip: fix', psql -c 'SELECT 1;')
// are plain so.
var plainByte = func() (t [256]bool) {
	for b := ' '; b <= '~'; b++ {
		t[b] = !strings.ContainsRune("/*?[]\\~{}", b)
	}
	return t
}()

// nameKinds gives each byte what plainPath reads of it: namePlain for a
// byte of plainByte, with nameUpper for an upper-case letter; 0 for any
// other (the slash among them).
var nameKinds = func() (t [256]uint8) {
	for b := range 256 {
		if plainByte[b] {
			t[b] = namePlain
		}
		if 'A' <= b && b <= 'Z' {
			t[b] |= nameUpper
		}
	}
	return t
}()

const (
	namePlain = 1 << iota
	nameUpper
)
