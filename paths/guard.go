package paths

import (
	"math/bits"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/ascii"
)

// Guarded is what a guard path is (see Env.Guarded).
type Guarded struct {
	// What names the file for a reason: "warden's policy", "Claude Code's
	// settings".
	What string
	// Hook is set for an agent's hook or permission settings, clear for
	// warden's own files.
	Hook bool
}

// guardRow is one place that guards the agent. Pattern is a path of
// slash-separated components, each matched with path.Match; where it is
// anchored says what it is relative to.
type guardRow struct {
	at      anchor
	pattern string
	// tree is set when everything below the pattern belongs to the guard
	// too (a whole directory); otherwise only the path itself does.
	tree bool
	Guarded
}

type anchor uint8

const (
	anyDir anchor = iota // in any directory: a project's .warden/
	inHome               // below a home directory
	atRoot               // an absolute path
)

// guardRows are the places that guard the agent: warden's policy layers
// (a project's .warden/, the user's and the system's), its state and
// audit store, and the hook and permission settings of the agents warden
// is installed in. Their samples are in guard_test.go.
var guardRows = []guardRow{
	{anyDir, ".warden", true, Guarded{"warden's project policy", false}},
	{inHome, ".config/warden", true, Guarded{"warden's user policy", false}},
	{atRoot, "/etc/warden", true, Guarded{"warden's system policy", false}},
	{inHome, ".local/state/warden", true, Guarded{"warden's state and audit store", false}},
	{inHome, ".local/share/warden", true, Guarded{"warden's data", false}},
	{atRoot, "/var/lib/warden", true, Guarded{"warden's state and audit store", false}},
	// the binary, in any bin directory: /usr/local/bin/warden, ~/go/bin/warden
	{anyDir, "bin/warden", false, Guarded{"warden's binary", false}},
	{anyDir, "sbin/warden", false, Guarded{"warden's binary", false}},

	// Claude Code: settings hold hooks and permission rules; ~/.claude.json
	// holds per-project allowed tools and MCP servers.
	{anyDir, ".claude/settings.json", false, Guarded{"Claude Code's settings", true}},
	{anyDir, ".claude/settings.local.json", false, Guarded{"Claude Code's settings", true}},
	{inHome, ".claude.json", false, Guarded{"Claude Code's configuration", true}},
	{anyDir, ".claude/hooks", true, Guarded{"Claude Code's hook scripts", true}},
	{atRoot, "/etc/claude-code", true, Guarded{"Claude Code's managed settings", true}},
	{atRoot, "/Library/Application Support/ClaudeCode", true, Guarded{"Claude Code's managed settings", true}},
	// Codex: config.toml (approval policy, sandbox) and hooks.json.
	{anyDir, ".codex", true, Guarded{"Codex's configuration", true}},
	{atRoot, "/etc/codex", true, Guarded{"Codex's managed configuration", true}},
	// Gemini CLI.
	{anyDir, ".gemini/settings.json", false, Guarded{"Gemini CLI's settings", true}},
	{atRoot, "/etc/gemini-cli", true, Guarded{"Gemini CLI's system settings", true}},
	// Cursor.
	{anyDir, ".cursor/hooks.json", false, Guarded{"Cursor's hooks", true}},
	{anyDir, ".cursor/hooks", true, Guarded{"Cursor's hook scripts", true}},
	{anyDir, ".cursor/cli.json", false, Guarded{"Cursor's CLI permissions", true}},
	{inHome, ".cursor/cli-config.json", false, Guarded{"Cursor's CLI permissions", true}},
	{atRoot, "/etc/cursor", true, Guarded{"Cursor's managed hooks", true}},
	// GitHub Copilot CLI: .github/hooks/*.json of the repository and the
	// scripts beside them;
	// the user's hooks, settings, saved permissions and MCP servers.
	{anyDir, ".github/hooks", true, Guarded{"Copilot's hooks", true}},
	// a repository's Copilot settings: inline "hooks" and disableAllHooks
	// (docs.github.com Copilot hooks reference, "Hooks locations")
	{anyDir, ".github/copilot/settings.json", false, Guarded{"Copilot's repository settings", true}},
	{anyDir, ".github/copilot/settings.local.json", false, Guarded{"Copilot's repository settings", true}},
	{inHome, ".copilot/hooks", true, Guarded{"Copilot's hooks", true}},
	{inHome, ".copilot/settings.json", false, Guarded{"Copilot's settings", true}},
	{inHome, ".copilot/config.json", false, Guarded{"Copilot's configuration", true}},
	{inHome, ".copilot/permissions-config.json", false, Guarded{"Copilot's saved permissions", true}},
	{inHome, ".copilot/mcp-config.json", false, Guarded{"Copilot's MCP servers", true}},
	// Windsurf (Cascade hooks): workspace, user (IDE and JetBrains), system.
	{anyDir, ".windsurf/hooks.json", false, Guarded{"Windsurf's hooks", true}},
	{inHome, ".codeium/windsurf/hooks.json", false, Guarded{"Windsurf's hooks", true}},
	{inHome, ".codeium/hooks.json", false, Guarded{"Windsurf's hooks", true}},
	{atRoot, "/etc/windsurf/hooks.json", false, Guarded{"Windsurf's hooks", true}},
	{atRoot, "/Library/Application Support/Windsurf/hooks.json", false, Guarded{"Windsurf's hooks", true}},
}

// Guarded reports whether the absolute, cleaned path p guards the agent
// (class Guard; names compared without regard to case, as macOS compares
// them): it is, or lies in, a policy layer of warden (a project's
// .warden/, ~/.config/warden/, /etc/warden/), warden's state and audit
// store, warden's binary in a bin directory, or the hook and permission
// settings of an agent (.claude/settings*.json, ~/.claude.json, .codex/,
// .gemini/settings.json, .cursor/hooks.json, .github/hooks/*.json,
// .windsurf/hooks.json and their user and system counterparts). Places
// that only the running process knows (the binary's own path,
// $XDG_CONFIG_HOME, $WARDEN_ORG_POLICY) are the caller's to add.
func (e Env) Guarded(p string) (Guarded, bool) {
	if g := guarded(p, strings.TrimSuffix(e.Home, "/")); g != nil {
		return g.Guarded, true
	}
	return Guarded{}, false
}

// HoldsGuard reports whether the absolute, cleaned path p is a directory
// above a place that guards the agent, so that removing, moving or
// changing the permissions of it as a whole reaches the guard: ~/.config,
// the home directory, a project's .claude/ (which holds its settings),
// /etc. A directory that merely could hold a project's .warden/ (any
// directory) does not count; the .warden/ itself is Guarded.
func (e Env) HoldsGuard(p string) bool {
	home := strings.TrimSuffix(e.Home, "/")
	return mayHold(p, home) && holdsGuard(p, home)
}

// holdsGuard is HoldsGuard without the mayHold test.
func holdsGuard(p, home string) bool {
	home = strings.ToLower(home)
	if p == "/" {
		return true
	}
	p = strings.ToLower(p)
	var pcBuf [16]string
	pc := appendSplit(pcBuf[:0], p)
	// p below a home: its components there (none when in none)
	var hs [3]string
	homes := homesOf(p, home, &hs)
	for _, h := range homes {
		if p == h || Within(h, p) {
			return true // a home, or a directory above one
		}
	}
	var restBuf [16]string
	var restArr [3][]string
	rests := homeRests(restArr[:0], restBuf[:0], p, homes)
	for i := range guardRows {
		r, rc := &guardRows[i], guardParts[i]
		switch r.at {
		case atRoot:
			if len(pc) < len(rc) && matchAt(rc[:len(pc)], pc, 0) {
				return true
			}
		case inHome:
			for _, c := range rests {
				if len(c) < len(rc) && matchAt(rc[:len(c)], c, 0) {
					return true
				}
			}
		case anyDir:
			// the trailing components of p are a proper prefix of the
			// pattern: .claude, .github/hooks (not a project's bin/, which
			// holds warden's binary only once it is installed there)
			if !strings.HasPrefix(rc[0], ".") {
				continue
			}
			for n := 1; n < len(rc); n++ {
				if n <= len(pc) && matchAt(rc[:n], pc[len(pc)-n:], 0) {
					return true
				}
			}
		}
	}
	return false
}

// holdKeys are the components a guard row's pattern has below it (all but
// its last), but those of a row in any directory that does not start
// with a dot (bin/warden, which holdsGuard passes over): a directory
// above a place of the guard ends in one of them, unless it is a home or
// above one.
var holdKeys = func() map[string]bool {
	set := map[string]bool{}
	for i, parts := range guardParts {
		if guardRows[i].at == anyDir && !strings.HasPrefix(parts[0], ".") {
			continue
		}
		for _, c := range parts[:len(parts)-1] {
			set[c] = true
		}
	}
	return set
}()

// mayHold reports whether HoldsGuard may hold for p in home: p is the
// root, a home or above one, its last component is in holdKeys, or p holds
// what this test does not judge (a glob, an upper-case or non-ASCII
// letter, an empty component, a home that is not plain lower-case ASCII).
func mayHold(p, home string) bool {
	if !plain(p) && isASCII(p) {
		// holdsGuard reads p in lower case
		p = strings.ToLower(p)
	}
	if p == "" || p[0] != '/' || p == "/" || p[len(p)-1] == '/' || strings.Contains(p, "//") || !plain(home) || home != "" && Within(home, p) {
		return true
	}
	if p == "/root" || p == "/home" || p == "/users" {
		return true
	}
	for _, h := range []string{"/home/", "/users/"} {
		if rest, ok := strings.CutPrefix(p, h); ok && !strings.Contains(rest, "/") {
			return true // another user's home
		}
	}
	for i := 1; i < len(p); i++ {
		if b := p[i]; b >= 0x80 || 'A' <= b && b <= 'Z' || b == '*' || b == '?' || b == '[' {
			return true
		}
	}
	// a directory above a place of a guard row, but a home or one above
	// it, ends in a component of the row's pattern that is not its last
	c := p[strings.LastIndexByte(p, '/')+1:]
	return c != "" && len(c) < 64 && holdKeyLens[c[0]]&(1<<len(c)) != 0 && holdKeys[c]
}

// holdKeyLens[b] has bit n set when a key of holdKeys is n bytes long and
// starts with the byte b: almost no component of a path is looked up.
var holdKeyLens = func() *[256]uint64 {
	lens := new([256]uint64)
	for k := range holdKeys {
		if k == "" || len(k) >= 64 {
			panic("paths: a hold key is empty or too long for holdKeyLens: " + k)
		}
		lens[k[0]] |= 1 << len(k)
	}
	return lens
}()

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// plain reports whether s holds no upper-case or non-ASCII letter.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 0x80 || 'A' <= b && b <= 'Z' {
			return false
		}
	}
	return true
}

// guardParts are the components of each guard row's pattern, and keys
// the longest literal component of each: a path that holds none of the
// keys (and no glob) is not guarded, which a substring test tells.
var guardParts, guardKeys = func() ([][]string, []string) {
	parts, keys := make([][]string, len(guardRows)), make([]string, len(guardRows))
	for i, r := range guardRows {
		parts[i] = split(strings.ToLower(r.pattern))
		for _, c := range parts[i] {
			if !strings.ContainsAny(c, "*?[") && len(c) > len(keys[i]) {
				keys[i] = c
			}
		}
	}
	return parts, keys
}()

// GuardNames returns the names (path components, lower-case, some of them
// globs such as *.json) that places guarding the agent are made of, and
// names of the files their directories hold, so that a filter by name
// (find -name) can tell whether it may reach one. The slice must not be
// modified.
func GuardNames() []string { return guardNames }

var guardNames = func() []string {
	// what the guard's directories hold: policy layers, approvals, the
	// state and audit store (warden keeps its trail in the store; an
	// export is a copy that verifies against it, named as the user
	// chose), hook configurations and scripts
	ns := []string{"policy.yaml", "policy.yml", "approvals.yaml", "config.toml", "hooks.json", "warden.db", "warden.db-wal",
		"warden.db-shm", "hook.sh", "hook.py", "hook.js", "hook.ts", "guard.ps1", "warden"}
	for _, parts := range guardParts {
		for _, c := range parts {
			if !slices.Contains(ns, c) {
				ns = append(ns, c)
			}
		}
	}
	return ns
}()

// guardLiteral[i] is set when no component of guardRows[i]'s pattern is a
// glob or holds a backslash: a path without a glob matches it only
// component by equal component.
var guardLiteral = func() []bool {
	lit := make([]bool, len(guardRows))
	for i, parts := range guardParts {
		lit[i] = !slices.ContainsFunc(parts, func(c string) bool { return hasMeta(c, true) })
	}
	return lit
}()

// A path falls under a guard row only if each literal component of the
// row's pattern (in lower case) is matched by a component of the path: an
// equal one, or a glob that matches it as matchAt matches them. The
// literal components of all the patterns are numbered (a bit each):
// guardComps maps each to its bit and guardCompList lists them;
// guardCompLens[b] has bit n set when one is n bytes long and starts with
// the byte b (so that almost no component of a path is looked up);
// guardNeed[i] holds the bits of guardRows[i]'s literal components, and
// guardAlways the rows that have none (nothing rules a path out of them).
var guardComps, guardCompList, guardCompLens, guardNeed, guardAlways = func() (map[string]uint64, []guardComp, *[256]uint64, []uint64, uint64) {
	if len(guardRows) > 64 {
		panic("paths: more guard rows than a row mask holds")
	}
	comps, lens, need, always := map[string]uint64{}, new([256]uint64), make([]uint64, len(guardRows)), uint64(0)
	var list []guardComp
	for i, parts := range guardParts {
		for _, c := range parts {
			if hasMeta(c, true) || c == "" {
				continue // a glob of the pattern: matchAt's to judge
			}
			if comps[c] == 0 {
				if len(list) == 64 || len(c) >= 64 {
					panic("paths: more guard components than a mask holds, or one too long: " + c)
				}
				comps[c] = 1 << len(list)
				list = append(list, guardComp{c, 1 << len(list)})
				lens[c[0]] |= 1 << len(c)
			}
			need[i] |= comps[c]
		}
		if need[i] == 0 {
			always |= 1 << i
		}
	}
	return comps, list, lens, need, always
}()

// guardComp is a literal component of the guard rows' patterns and its bit.
type guardComp struct {
	name string
	bit  uint64
}

// allRows is the mask of every guard row.
const allRows = ^uint64(0)

// mayGuardRows returns the guard rows p may fall under, as a mask of
// guardRows: those each of whose literal components is matched by a
// component of p, in lower case (see guardComps), and those without one;
// every row when p holds a non-ASCII byte, which strings.ToLower may fold
// into a component's. It is 0 for almost every path, without allocating.
// It reads p eight bytes at a time, finding its slashes in each; a path
// with a glob character or a non-ASCII byte is left to mayGuardRowsBytes.
func mayGuardRows(p string) uint64 {
	var seen uint64 // the bits of the components matched
	start := 0
	for i := 0; i < len(p); i += 8 {
		var w uint64
		if len(p)-i >= 8 {
			w = load8(p[i:])
		} else {
			w = tail(p, i)
		}
		if w&highBits != 0 || zeroBytes(w^('*'*lowBits))|zeroBytes(w^('?'*lowBits))|zeroBytes(w^('['*lowBits)) != 0 {
			return mayGuardRowsBytes(p)
		}
		for s := zeroBytes(w ^ ('/' * lowBits)); s != 0; s &= s - 1 {
			// a slash ends the component; most are ruled out by their
			// length and first byte here, without a call
			j := i + bits.TrailingZeros64(s)>>3
			if n := j - start; n > 0 && n < 64 && guardCompLens[ascii.Lower(p[start])]&(1<<n) != 0 {
				seen |= compBit(p[start:j], true)
			}
			start = j + 1
		}
	}
	return rowsOf(seen | compBit(p[start:], true))
}

// lowBits and highBits are the lowest and the highest bit of each byte
// of a word.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// tail returns the bytes of p from i on, fewer than eight, as a
// little-endian word, zero past the end of p (which neither ASCII test
// of mayGuardRows takes for a slash or a glob character).
func tail(p string, i int) uint64 {
	if len(p) >= 8 {
		// the last eight bytes, those before i shifted out
		return load8(p[len(p)-8:]) >> (64 - 8*(len(p)-i))
	}
	var w uint64
	for k := len(p) - 1; k >= i; k-- {
		w = w<<8 | uint64(p[k])
	}
	return w
}

// load8 returns the first eight bytes of s (at least that long) as a
// little-endian word: one load.
func load8(s string) uint64 {
	s = s[:8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// zeroBytes returns the high bit of each byte of w that is zero, and no
// other bit (exactly: no carry runs from one byte into the next).
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// mayGuardRowsBytes is mayGuardRows a byte at a time, for any path: it
// lower-cases the components a glob or an upper-case letter is in as it
// goes, matches glob components by globComps, and gives up (every row)
// at the first non-ASCII byte.
func mayGuardRowsBytes(p string) uint64 {
	var seen uint64 // the bits of the components matched
	start, upper, glob := 0, false, false
	for i := 0; i < len(p); i++ {
		switch byteKinds[p[i]] {
		case otherByte:
			continue
		case upperByte:
			upper = true
			continue
		case globByte:
			glob = true
			continue
		case undecidedByte:
			return allRows
		}
		// a slash ends the component; most are ruled out by their length
		// and first byte here, without a call
		if glob {
			seen |= globComps(p[start:i])
		} else if n := i - start; n > 0 && n < 64 && guardCompLens[ascii.Lower(p[start])]&(1<<n) != 0 {
			seen |= compBit(p[start:i], upper)
		}
		start, upper, glob = i+1, false, false
	}
	if glob {
		seen |= globComps(p[start:])
	} else {
		seen |= compBit(p[start:], upper)
	}
	return rowsOf(seen)
}

// rowsOf returns the rows whose literal components are all among seen
// (bits of guardComps), and those without one.
func rowsOf(seen uint64) uint64 {
	var some uint64
	for s := seen; s != 0; s &= s - 1 {
		some |= guardCompRows[bits.TrailingZeros64(s)]
	}
	rows := guardAlways
	for r := some; r != 0; r &= r - 1 {
		if i := bits.TrailingZeros64(r); guardNeed[i]&^seen == 0 {
			rows |= 1 << i
		}
	}
	return rows
}

// guardCompRows[j] is the mask of the rows with the component of bit j.
var guardCompRows = func() (t [64]uint64) {
	for i, need := range guardNeed {
		for s := need; s != 0; s &= s - 1 {
			t[bits.TrailingZeros64(s)] |= 1 << i
		}
	}
	return t
}()

// compBit returns the bit of the literal component c is, in lower case
// (see guardComps), or 0; upper says whether c holds an upper-case letter.
func compBit(c string, upper bool) uint64 {
	n := len(c)
	if n == 0 || n >= 64 || guardCompLens[ascii.Lower(c[0])]&(1<<n) == 0 {
		return 0
	}
	if !upper {
		return guardComps[c]
	}
	var buf [64]byte
	for j := range n {
		buf[j] = ascii.Lower(c[j])
	}
	return guardComps[string(buf[:n])]
}

// globComps returns the bits of the literal components that the glob c
// (a component of a path, ASCII) matches in lower case, as matchAt
// matches them: by path.Match, and a leading dot only by a leading dot.
// The literal head and tail of c rule out most components without a
// path.Match.
func globComps(c string) uint64 {
	if strings.Trim(c, "*") == "" {
		return undottedComps // *, **: every name that does not start with a dot
	}
	c = strings.ToLower(c)
	head := c
	if i := strings.IndexAny(c, "*?[\\"); i >= 0 {
		head = c[:i]
	}
	tail := ""
	if i := strings.LastIndexAny(c, "*?[]\\"); i >= 0 && (c[i] == '*' || c[i] == '?') {
		tail = c[i+1:] // bytes after the last * or ?, no class or escape: literal
	}
	var bits uint64
	for _, k := range guardCompList {
		if k.name[0] == '.' && c[0] != '.' || !strings.HasPrefix(k.name, head) || !strings.HasSuffix(k.name, tail) {
			continue
		}
		if ok, err := path.Match(c, k.name); err == nil && ok {
			bits |= k.bit
		}
	}
	return bits
}

// undottedComps are the bits of the literal components that do not start
// with a dot.
var undottedComps = func() (bits uint64) {
	for _, k := range guardCompList {
		if k.name[0] != '.' {
			bits |= k.bit
		}
	}
	return bits
}()

// The kinds of bytes mayGuardRowsBytes tells apart.
const (
	otherByte     = iota
	slashByte     // '/'
	upperByte     // 'A' to 'Z'
	globByte      // a glob character: *, ?, [
	undecidedByte // a byte of a non-ASCII letter
)

// byteKinds gives each byte its kind.
var byteKinds = func() (t [256]uint8) {
	t['/'] = slashByte
	for b := 'A'; b <= 'Z'; b++ {
		t[b] = upperByte
	}
	t['*'], t['?'], t['['] = globByte, globByte, globByte
	for b := 0x80; b < 0x100; b++ {
		t[b] = undecidedByte
	}
	return t
}()

// guarded returns the row p falls under, or nil.
func guarded(p, home string) *guardRow {
	rows := mayGuardRows(p)
	if rows == 0 {
		return nil
	}
	return guardedRows(p, home, rows)
}

// guardedRow is guarded without the mayGuardRows test: every row is tried.
func guardedRow(p, home string) *guardRow { return guardedRows(p, home, allRows) }

// guardedRows returns the first row of the mask rows that p falls under,
// or nil.
func guardedRows(p, home string, rows uint64) *guardRow {
	if p == "" || p[0] != '/' {
		return nil
	}
	p, home = strings.ToLower(p), strings.ToLower(home) // case-insensitive file systems (macOS)
	glob := strings.ContainsAny(p, "*?[")
	var pcBuf, restBuf [16]string
	var restArr [3][]string
	var pc []string
	var rests [][]string // p's components below each home holding it
	for i := range guardRows {
		if rows&(1<<i) == 0 || !glob && !strings.Contains(p, guardKeys[i]) {
			continue
		}
		if pc == nil {
			pc = appendSplit(pcBuf[:0], p)
		}
		r, rc := &guardRows[i], guardParts[i]
		switch r.at {
		case atRoot:
			if fits(r, rc, pc, 0) {
				return r
			}
		case inHome:
			if rests == nil {
				var hs [3]string
				rests = homeRests(restArr[:0], restBuf[:0], p, homesOf(p, home, &hs))
			}
			for _, c := range rests {
				if fits(r, rc, c, 0) {
					return r
				}
			}
		case anyDir:
			for at := 0; at+len(rc) <= len(pc); at++ {
				if !glob && guardLiteral[i] && pc[at] != rc[0] {
					continue // names without a glob match only as equal names (matchAt)
				}
				if fits(r, rc, pc, at) {
					return r
				}
			}
		}
	}
	return nil
}

// fits reports whether the pattern rc of r matches pc at component at:
// exactly, or with more below it for a tree.
func fits(r *guardRow, rc, pc []string, at int) bool {
	if at+len(rc) > len(pc) || (!r.tree && at+len(rc) != len(pc)) {
		return false
	}
	return matchAt(rc, pc, at)
}

// matchAt reports whether pattern components rc match pc from at on (pc
// may be longer). A component of pc that is itself a glob (rm -rf .w?rden,
// ~/.c*) matches the names it would expand to, as bash expands it: a
// leading dot only by a leading dot.
func matchAt(rc, pc []string, at int) bool {
	if at+len(rc) > len(pc) {
		return false
	}
	for i, pat := range rc {
		c := pc[at+i]
		if pat == c {
			continue
		}
		if hasMeta(pat, true) { // else only an equal name matches it
			if ok, err := path.Match(pat, c); err == nil && ok {
				continue
			}
		}
		if !hasMeta(c, false) || hasMeta(pat, false) || pat[0] == '.' && c[0] != '.' {
			return false
		}
		if ok, err := path.Match(c, pat); err != nil || !ok {
			return false
		}
	}
	return true
}

// hasMeta reports whether s holds a glob character (*, ?, [), or, with
// escape, a backslash.
func hasMeta(s string, escape bool) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[':
			return true
		case '\\':
			if escape {
				return true
			}
		}
	}
	return false
}

// split returns the components of a slash-separated path.
func split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// appendSplit appends the components of a slash-separated path to dst
// (split, without allocating while dst has room).
func appendSplit(dst []string, p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return dst
	}
	for {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return append(dst, p)
		}
		dst = append(dst, p[:i])
		p = p[i+1:]
	}
}

// homesOf returns the home directories p may lie in, in hs: the user's
// own and the one of /home/x, /Users/x or /root it is below (at most
// one of those, so three in all).
func homesOf(p, home string, hs *[3]string) []string {
	out := hs[:0]
	if home != "" && home != "/" {
		out = append(out, home)
	}
	for _, h := range [...]string{"/home/", "/Users/", "/users/"} {
		if rest, ok := strings.CutPrefix(p, h); ok {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				out = append(out, p[:len(h)+i])
			} else if rest != "" {
				out = append(out, p)
			}
			break // p starts with one of them at most
		}
	}
	if Within(p, "/root") {
		out = append(out, "/root")
	}
	return out
}

// homeRests appends to rests, for each home of hs that p lies below, the
// components of p below it; buf holds them all.
func homeRests(rests [][]string, buf []string, p string, hs []string) [][]string {
	for _, h := range hs {
		if len(p) <= len(h) || p[len(h)] != '/' || p[:len(h)] != h {
			continue // not strings.CutPrefix(p, h+"/")
		}
		start := len(buf)
		buf = appendSplit(buf, p[len(h)+1:])
		rests = append(rests, buf[start:len(buf):len(buf)])
	}
	return rests
}
