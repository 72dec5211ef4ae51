package policy

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// Rule is one permission rule in Claude Code's syntax: "Bash(npm run
// test:*)", "Read(~/.ssh/**)", "WebFetch(domain:example.com)",
// "mcp__github__create_issue". Rules are matched against warden's
// normalized call, so a rule applies whatever agent sent the call. A Rule
// is immutable and safe for concurrent use.
//
// # Tools
//
//   - Bash applies to every call that runs shell scripts, whatever the
//     agent names its tool (Bash, execute_bash, shell, run_shell_command,
//     a Codex argv).
//   - Read applies to the tools that read files (Read, Grep, Glob, LS,
//     read_file, …) through the paths they read. A reading tool that names
//     no path reads its working directory.
//   - Edit and Write are the same: both apply to every tool that writes
//     files (Edit, Write, MultiEdit, NotebookEdit, str_replace_editor,
//     write_file, apply_patch, …) through the paths it writes.
//   - WebFetch applies to the tools that fetch or browse URLs.
//   - Written alone, without parentheses, Bash, Read, Edit, Write and
//     WebFetch match every call of their kind; Bash(*) is Bash. These five
//     names are case-insensitive.
//   - Any other bare name (WebSearch, Task, Glob) matches the tool of that
//     name, case-insensitively, when it is not an MCP tool.
//   - mcp__server matches every tool of an MCP server, as does
//     mcp__server__*; mcp__server__tool matches that tool. Case does not
//     count.
//
// # Shell commands
//
// A script is split into the simple commands bash would run, with their
// words resolved (g'i't is git, ~ is the home directory), including the
// commands of pipelines, lists, substitutions, and of the wrappers and
// nested shells warden unwraps (sudo, env, timeout, xargs, find -exec,
// bash -c, eval, ssh, …). A command's line is its words joined by one
// space; a word computed at run time ($VAR, $(…)) stands as written and
// never equals a literal word of a rule.
//
//   - Bash(npm run test:*) is a prefix rule: the command's words begin
//     with npm run test, word by word (npm run test and npm run test --ci
//     match, npm run testing does not).
//   - Bash(git push * --force*) is a pattern over the command's line, in
//     which * matches any run of characters, spaces included. A pattern
//     ending in " *" also matches the command without it: Bash(ls *)
//     matches ls and ls -la, not lsof.
//   - Anything else must equal the command's words: Bash(npm test).
//   - The words of a rule are read as bash reads them: quotes group and
//     are removed, a backslash or quotes make * literal.
//
// A deny or ask rule (Any) matches a call when it matches any command of
// any of its scripts, nested ones included. It is also tried on the
// command named by its base name (/usr/bin/git as git) and, for a nested
// command, on the command written after its wrappers' names (sudo -u root
// rm x is also sudo rm x). A script that does not parse is matched as one
// command made of all its words, and as each piece of it between ; & | (
// ) { } ` and newlines, quotes ignored: a broken script cannot hide a
// denied command.
//
// Allow rules (All) approve a shell call only when every command of every
// script is approved; npm test && rm -rf ~ needs Bash(rm:*) beside
// Bash(npm test:*). An allow rule never approves a script that does not
// parse, a command whose name is computed at run time, a call whose tool
// is not a shell tool of the catalog (class execute), a command that
// writes through a redirection (>, >>, &>) to anything but a file inside
// the workspace or a temporary directory (/dev/null included) or to a
// target computed at run time, or a script that sets a shell variable
// (CI=1 npm test, export, declare, local, a for loop's variable, let,
// arithmetic and ${x:=y} assignments), itself or in a shell or eval it
// runs: a variable can change what an approved command runs (PATH,
// LD_PRELOAD, NODE_OPTIONS). A command that runs inside a wrapper or
// nested shell (sudo npm test, bash -c "npm test", timeout 60 npm test)
// is approved either like any other command, by its own words, or by a
// rule that matches the outer command and writes it out up to the word
// that names the inner program: Bash(sudo npm test:*) approves sudo npm
// test, Bash(sudo:*) alone does not approve the npm test it runs. The
// wrapper is a command of its own that needs approving too, so a wrapper
// never makes allowed what is not allowed without it: Bash(find:*) does
// not approve find . -exec rm {} \; (the rm needs Bash(rm:*)), and
// Bash(sudo:*) with Bash(npm test:*) approves sudo npm test but not sudo
// rm. The commands an alias or shell function stands for are approved by
// their own words only. Bash and Bash(*) approve every shell call.
//
// # Paths
//
// Read, Edit and Write take gitignore-style patterns: * matches within
// one path segment, ** any number of segments (none included), ? one
// character, and everything else, [ and ] included, is literal; a
// trailing /** matches the directory and everything below it. Where a
// pattern is anchored depends on how it begins:
//
//   - //abs/path is absolute;
//   - ~/path is below the user's home;
//   - /path is below the rule's base (see WithBase): the root of the
//     project whose policy holds the rule, by default the call's workspace;
//   - ./path, ../path and path with a slash are below the call's working
//     directory;
//   - a pattern without a slash (.env, *.pem, secrets/) matches a file or
//     directory of that name at any depth below the working directory, as
//     in .gitignore; a trailing slash is ignored.
//
// The call's paths are resolved (~, the working directory, symbolic links
// the conversation made) and cleaned before matching, so Read(~/.ssh/**)
// matches ../.ssh/id_rsa read from ~/project. A deny or ask rule matches
// when any path of the call matches; an allow rule approves the call when
// every path does.
//
// # Domains
//
// WebFetch(domain:example.com) matches URLs whose host, normalized as
// clients dial it (lower case, IDNA, without a trailing dot), is
// example.com; WebFetch(domain:*.example.com) matches the names below
// example.com, not example.com itself. A deny or ask rule also matches
// the destinations of commands and code (curl, wget, Python's requests)
// and URLs any tool opens: a denied domain is denied whatever reaches it.
// Allow rules approve only the URLs of fetch and browser tools.
//
// # Approval of a whole call
//
// A bare tool name or MCP rule approves the whole call. Otherwise the
// call's parts (the commands of its scripts, the paths of a read or edit
// tool, the URLs of a fetch or browser tool) must each be approved by a
// rule of their kind, and a call that also carries what no rule speaks
// of (program code, SQL, paths or URLs of other tools) is not approved.
type Rule struct {
	// what every call looks at first
	kind      permKind
	bare      bool // a kind written alone: every call of the kind
	form      bashForm
	mcpServer bool
	head      uint64 // wordHash of the first word every match has; 0 when unknown

	// Text is the rule as written, without surrounding blanks.
	Text string

	base string // where "/path" patterns are anchored; "" for the workspace
	name string // a bare tool name, lower-case
	mcp  string // mcp__server__tool, or mcp__server__ for a server, lower-case

	words []string  // exact and prefix rules
	glob  bashGlob  // pattern rules
	short *bashGlob // a pattern ending in " *" without it

	pat pathPattern

	host   string // WebFetch: the normalized host
	suffix string // ".example.com" for *.example.com
}

// permKind is what part of a call a rule speaks of; a Subject holds the
// kinds it has, so that a rule of another kind is passed over at once.
type permKind uint8

const (
	permName permKind = 1 << iota // the tool, by name
	permBash                      // shell commands
	permRead                      // paths a tool reads
	permEdit                      // paths a tool writes
	permWeb                       // hosts
)

type bashForm uint8

const (
	bashAll     bashForm = iota // Bash, Bash(*)
	bashExact                   // Bash(npm test)
	bashPrefix                  // Bash(npm test:*)
	bashPattern                 // Bash(git push * --force*)
)

// ParseRule parses a permission rule. The error says what is wrong:
// an unbalanced parenthesis, an empty specifier, a specifier the tool
// does not take, a WebFetch specifier that is not domain:HOST, a bad
// pattern.
func ParseRule(text string) (*Rule, error) {
	t := strings.TrimSpace(text)
	r := &Rule{Text: t}
	if err := r.parse(t); err != nil {
		return nil, fmt.Errorf("permission rule %q: %w", t, err)
	}
	return r, nil
}

// WithBase returns a copy of r whose "/path" patterns are anchored at dir,
// an absolute directory: the root of the project whose policy file holds
// the rule. With dir "" they are anchored at the call's workspace
// (tool.Call.Env().Root()), as they are when WithBase is never called.
func (r *Rule) WithBase(dir string) *Rule {
	c := *r
	c.base = ""
	if dir != "" {
		c.base = path.Clean(dir)
	}
	return &c
}

// String returns r.Text.
func (r *Rule) String() string { return r.Text }

func (r *Rule) parse(t string) error {
	if t == "" {
		return errors.New("empty rule")
	}
	name, spec, ok := strings.Cut(t, "(")
	if !ok {
		if strings.Contains(t, ")") {
			return errors.New("unbalanced parenthesis: ) without (")
		}
		return r.parseName(t)
	}
	if !validToolName(name) {
		return fmt.Errorf("invalid tool name %q", name)
	}
	spec, ok = strings.CutSuffix(spec, ")")
	if !ok {
		return errors.New("unbalanced parenthesis: the rule must end with )")
	}
	if !balancedParens(spec, strings.EqualFold(name, "bash")) {
		return errors.New("unbalanced parenthesis in the specifier")
	}
	if strings.TrimSpace(spec) == "" {
		return fmt.Errorf("empty specifier: write %s alone to match every call of the kind", name)
	}
	switch strings.ToLower(name) {
	case "bash":
		r.kind = permBash
		return r.parseBash(strings.TrimSpace(spec))
	case "read":
		r.kind = permRead
		return r.pat.parse(strings.TrimSpace(spec))
	case "edit", "write":
		r.kind = permEdit
		return r.pat.parse(strings.TrimSpace(spec))
	case "webfetch":
		r.kind = permWeb
		return r.parseDomain(strings.TrimSpace(spec))
	}
	return fmt.Errorf("%s takes no specifier: only Bash, Read, Edit, Write and WebFetch do", name)
}

func (r *Rule) parseName(t string) error {
	if !validToolName(t) {
		return fmt.Errorf("invalid tool name %q", t)
	}
	switch strings.ToLower(t) {
	case "bash":
		r.kind, r.bare = permBash, true
		return nil
	case "read":
		r.kind, r.bare = permRead, true
		return nil
	case "edit", "write":
		r.kind, r.bare = permEdit, true
		return nil
	case "webfetch":
		r.kind, r.bare = permWeb, true
		return nil
	}
	r.kind = permName
	if len(t) >= 5 && strings.EqualFold(t[:5], "mcp__") {
		server, name, hasName := strings.Cut(t[5:], "__")
		switch {
		case server == "" || strings.Contains(server, "*"):
			return errors.New("an MCP rule names its server: mcp__server, mcp__server__* or mcp__server__tool")
		case !hasName || name == "*":
			r.mcp, r.mcpServer = strings.ToLower(t[:5]+server+"__"), true
		case name == "":
			return errors.New("an MCP rule ends with a tool name or *: mcp__server__tool")
		case strings.Contains(name, "*"):
			return errors.New("only mcp__server__* may hold a wildcard")
		default:
			r.mcp = strings.ToLower(t)
		}
		return nil
	}
	if strings.Contains(t, "*") {
		return errors.New("a tool name holds no wildcard")
	}
	r.name = strings.ToLower(t)
	return nil
}

func validToolName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*') {
			return false
		}
	}
	return true
}

// balancedParens reports whether the parentheses of s pair up; in a shell
// specifier those inside quotes do not count.
func balancedParens(s string, quotes bool) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case quotes && (c == '\'' || c == '"'):
			quote = c
		case quotes && c == '\\':
			i++
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// bashWild stands for an unquoted * in the words of a shell rule: a NUL
// cannot occur in a shell word.
const bashWild = "\x00"

func (r *Rule) parseBash(spec string) error {
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		words, err := ruleWords(prefix)
		if err != nil {
			return err
		}
		if len(words) == 0 {
			return errors.New("nothing before :*")
		}
		for _, w := range words {
			if strings.Contains(w, bashWild) {
				return errors.New("a prefix rule (…:*) holds no other *: write a pattern such as Bash(git push * --force*) instead")
			}
		}
		r.form, r.words, r.head = bashPrefix, words, wordHash(words[0])
		return nil
	}
	words, err := ruleWords(spec)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return errors.New("empty specifier")
	}
	line := strings.Join(words, " ")
	if strings.Contains(line, ":"+bashWild) {
		return errors.New(":* may only end a rule")
	}
	if !strings.Contains(line, bashWild) {
		r.form, r.words, r.head = bashExact, words, wordHash(words[0])
		return nil
	}
	if strings.Trim(line, bashWild) == "" {
		r.form = bashAll // Bash(*)
		return nil
	}
	r.form = bashPattern
	r.glob = bashGlob{chunks: strings.Split(line, bashWild)}
	if first, _, ok := strings.Cut(r.glob.chunks[0], " "); ok {
		// the line begins with this word and a blank (a word that holds
		// a blank itself, a program named "git push", is passed over)
		r.head = wordHash(first)
	}
	if short, ok := strings.CutSuffix(line, " "+bashWild); ok {
		r.short = &bashGlob{chunks: strings.Split(short, bashWild)}
	}
	return nil
}

// ruleWords splits the words of a shell rule as bash would: blanks
// separate words, quotes group and are removed, a backslash escapes the
// next character. An unquoted * becomes bashWild.
func ruleWords(s string) ([]string, error) {
	var (
		words []string
		b     strings.Builder
		in    bool // a word has begun
	)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\r':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " quote`)
			}
			in = true
		case '\\':
			if i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
			in = true
		case '*':
			b.WriteString(bashWild)
			in = true
		case 0:
			return nil, errors.New("a NUL character")
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// wordHash is the FNV-1a hash of a word, never 0: a quick test that a
// command's first word may be a rule's.
func wordHash(w string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(w); i++ {
		h ^= uint64(w[i])
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// bashGlob is a pattern over a command line: literal chunks with a * (any
// run of characters) between each two.
type bashGlob struct{ chunks []string }

func (g *bashGlob) match(s string) bool {
	c := g.chunks
	if len(c) == 1 {
		return s == c[0]
	}
	if !strings.HasPrefix(s, c[0]) {
		return false
	}
	s = s[len(c[0]):]
	for _, m := range c[1 : len(c)-1] {
		i := strings.Index(s, m)
		if i < 0 {
			return false
		}
		s = s[i+len(m):]
	}
	last := c[len(c)-1]
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// matchWords reports whether a shell rule matches a command.
func (r *Rule) matchWords(w *cmdWords) bool {
	if r.head != 0 && r.head != w.head {
		return false
	}
	switch r.form {
	case bashAll:
		return true
	case bashExact:
		if len(w.words) != len(r.words) {
			return false
		}
	case bashPrefix:
		if len(w.words) < len(r.words) {
			return false
		}
	case bashPattern:
		line := w.line()
		return r.glob.match(line) || r.short != nil && r.short.match(line)
	}
	for i, x := range r.words {
		if w.dyn[i] || w.words[i] != x {
			return false
		}
	}
	return true
}

// spells returns how many leading words of w, a command r matches, the
// rule writes out literally.
func (r *Rule) spells(w *cmdWords) int {
	switch r.form {
	case bashExact, bashPrefix:
		return len(r.words)
	case bashPattern:
		head := r.glob.chunks[0]
		n, pos := 0, 0
		for i, word := range w.words {
			end := pos + len(word)
			if w.dyn[i] || end >= len(head) || head[pos:end] != word || head[end] != ' ' {
				break
			}
			n, pos = n+1, end+1
		}
		return n
	}
	return 0
}

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

func (r *Rule) parseDomain(spec string) error {
	d, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return errors.New("the WebFetch specifier is domain:HOST, as in WebFetch(domain:example.com)")
	}
	d = strings.TrimSpace(d)
	pathBelow := false
	if rest, ok := strings.CutPrefix(d, "*."); ok {
		d, pathBelow = rest, true
	}
	switch {
	case d == "":
		return errors.New("empty domain")
	case strings.Contains(d, "*"):
		return errors.New("bad domain: only a leading *. label may be a wildcard")
	case strings.ContainsAny(d, "/?#@"):
		return fmt.Errorf("bad domain %q: a domain holds no scheme, path or user", d)
	}
	h, err := netguard.NormalizeHost(d)
	if err != nil {
		return fmt.Errorf("bad domain: %w", err)
	}
	r.host = h
	if pathBelow {
		r.suffix = "." + h
	}
	return nil
}

func (r *Rule) matchHost(h string) bool {
	if r.suffix != "" {
		return len(h) > len(r.suffix) && strings.HasSuffix(h, r.suffix)
	}
	return h == r.host
}

func (r *Rule) matchName(s *Subject) bool {
	if r.mcp != "" {
		if r.mcpServer {
			return len(s.tool) > len(r.mcp) && strings.HasPrefix(s.tool, r.mcp)
		}
		return s.tool == r.mcp
	}
	return s.c.Server == "" && s.name == r.name
}

// Subject is a call prepared for matching many rules: its scripts are
// resolved, its paths made absolute and its hosts normalized once, when a
// rule first needs them. A Subject is not safe for concurrent use.
type Subject struct {
	c      *tool.Call
	kinds  permKind
	env    paths.Env // the call's, its workspace fixed
	home   string
	name   string // the tool's name, lower-case
	tool   string // the tool's name as sent, lower-case
	server string // mcp__server__ of an MCP tool, lower-case
	cand   []int32

	varsDone, vars bool // the scripts may set variables

	cmdsDone bool
	cmds     []subjectCmd
	heads    []uint64 // the first words of the commands' forms
	broken   bool     // a script did not parse

	pathsDone bool
	paths     []subjectPath

	hostsDone bool
	urlHosts  []string // strict host of each URL, "" when unreadable
	anyHosts  []string // every host deny rules look at

	// the rule that approves each command, path and URL host (All)
	cmdBy, pathBy, hostBy []*Rule
}

// subjectCmd is one command of a call's scripts.
type subjectCmd struct {
	forms []cmdWords // the command's words; then what deny rules also try
	allow cmdAllowance
	// top is the top-level command that runs a nested command (-1 if
	// unknown), payload the index of top's word that names it (0 if none).
	top, payload int
}

// cmdAllowance is whether an allow rule may approve a command.
type cmdAllowance uint8

const (
	cmdNever  cmdAllowance = iota // a name computed at run time, a write outside
	cmdByRule                     // by a rule
	cmdFree                       // no words, harmless redirections: nothing to approve
)

// cmdWords is a command as rules read it.
type cmdWords struct {
	words []string
	dyn   []bool
	head  uint64 // wordHash of words[0]
	text  string
	done  bool
}

func newCmdWords(words []string, dyn []bool) cmdWords {
	w := cmdWords{words: words, dyn: dyn}
	if len(words) > 0 {
		w.head = wordHash(words[0])
	}
	return w
}

func (w *cmdWords) line() string {
	if !w.done {
		w.text, w.done = strings.Join(w.words, " "), true
	}
	return w.text
}

// NewSubject prepares c, which must not be nil, for matching.
func NewSubject(c *tool.Call) *Subject {
	s := &Subject{c: c, kinds: permName, env: c.Env()}
	s.env.Workspace = cleanPath(s.env.Root())
	s.env.Cwd = cleanPath(s.env.Cwd)
	s.home = cleanPath(c.Home)
	s.name = strings.ToLower(c.Name)
	if c.Action != nil {
		s.tool = strings.ToLower(c.Action.Tool)
	}
	if rest, ok := strings.CutPrefix(s.tool, "mcp__"); ok {
		if i := strings.Index(rest, "__"); i > 0 {
			s.server = s.tool[:5+i+2]
		}
	}
	if len(c.Shell) > 0 {
		s.kinds |= permBash
	}
	switch c.Class {
	case tool.Read:
		s.kinds |= permRead
	case tool.Edit:
		s.kinds |= permEdit
	}
	if len(c.URLs) > 0 || len(c.Dests) > 0 {
		s.kinds |= permWeb
	}
	return s
}

func cleanPath(d string) string {
	if d == "" {
		return ""
	}
	return path.Clean(d)
}

// fetch reports whether the call is a fetch or browser tool opening URLs.
func (s *Subject) fetch() bool {
	return (s.c.Class == tool.Network || s.c.Class == tool.Browser) && len(s.c.URLs) > 0
}

// unspoken reports whether the call carries what no allow rule speaks of.
func (s *Subject) unspoken() bool {
	c := s.c
	return len(c.Code) > 0 || len(c.SQL) > 0 ||
		len(c.Shell) > 0 && c.Class != tool.Execute ||
		len(c.Paths) > 0 && c.Class != tool.Read && c.Class != tool.Edit ||
		len(c.URLs) > 0 && c.Class != tool.Network && c.Class != tool.Browser
}

// Any returns the first rule of rules that matches some part of s: the
// deny or ask rule that applies to the call. It returns nil when none
// does. Nil rules are skipped.
func Any(rules []*Rule, s *Subject) *Rule { return s.any(rules, nil) }

// any is Any over the rules of list at the positions cand, in order (all
// of them when cand is nil).
func (s *Subject) any(list []*Rule, cand []int32) *Rule {
	n := len(list)
	if cand != nil {
		n = len(cand)
	}
	for k := range n {
		r := ruleAt(list, cand, k)
		if r == nil || r.kind&s.kinds == 0 || r.head != 0 && !s.mayStart(r.head) {
			continue
		}
		if r.matchAny(s) {
			return r
		}
	}
	return nil
}

func ruleAt(list []*Rule, cand []int32, k int) *Rule {
	if cand != nil {
		return list[cand[k]]
	}
	return list[k]
}

// mayStart reports whether a command of the call may begin with the word
// of hash h.
func (s *Subject) mayStart(h uint64) bool {
	s.commands()
	for _, x := range s.heads {
		if x == h {
			return true
		}
	}
	return false
}

func (r *Rule) matchAny(s *Subject) bool {
	switch r.kind {
	case permName:
		return r.matchName(s)
	case permBash:
		if r.form == bashAll {
			return true
		}
		cmds := s.commands()
		for i := range cmds {
			for j := range cmds[i].forms {
				if r.matchWords(&cmds[i].forms[j]) {
					return true
				}
			}
		}
	case permRead, permEdit:
		if r.bare {
			return true
		}
		for i := range s.absPaths() {
			if r.matchPath(s, i) {
				return true
			}
		}
	case permWeb:
		if r.bare {
			return s.fetch()
		}
		s.readHosts()
		for _, h := range s.anyHosts {
			if r.matchHost(h) {
				return true
			}
		}
	}
	return false
}

// All reports whether the rules approve every part of s, and one rule that
// approved a part: what allow rules need (see Rule for what approves a
// call). It returns false when s has no part any rule speaks of. Nil
// rules are skipped.
func All(rules []*Rule, s *Subject) (*Rule, bool) { return s.all(rules, nil) }

// all is All over the rules of list at the positions cand, in order (all
// of them when cand is nil).
func (s *Subject) all(list []*Rule, cand []int32) (*Rule, bool) {
	spoken := !s.unspoken()
	shellPart := spoken && len(s.c.Shell) > 0
	pathKind := permKind(0)
	if spoken {
		pathKind = s.kinds & (permRead | permEdit)
	}
	fetch := spoken && s.fetch()
	clear(s.cmdBy)
	clear(s.pathBy)
	clear(s.hostBy)
	var shellBy *Rule // Bash or Bash(*): the whole shell part
	n := len(list)
	if cand != nil {
		n = len(cand)
	}
	for k := range n {
		r := ruleAt(list, cand, k)
		if r == nil {
			continue
		}
		switch r.kind {
		case permName:
			if r.matchName(s) {
				return r, true
			}
		case permBash:
			if !shellPart || shellBy != nil {
				continue
			}
			if r.form == bashAll {
				shellBy = r
				continue
			}
			if r.head == 0 || s.mayStart(r.head) {
				s.cover(r)
			}
		case permRead, permEdit:
			if r.kind != pathKind {
				continue
			}
			for i := range s.absPaths() {
				if s.pathBy[i] == nil && (r.bare || r.matchPath(s, i)) {
					s.pathBy[i] = r
				}
			}
		case permWeb:
			if !fetch {
				continue
			}
			s.readHosts()
			for i, h := range s.urlHosts {
				if s.hostBy[i] == nil && (r.bare || h != "" && r.matchHost(h)) {
					s.hostBy[i] = r
				}
			}
		}
	}
	var first *Rule
	approved := func(by []*Rule) bool {
		for _, r := range by {
			if r == nil {
				return false
			}
			if first == nil {
				first = r
			}
		}
		return true
	}
	switch {
	case !spoken:
		return nil, false
	case shellBy != nil:
		first = shellBy
	case shellPart:
		s.commands()
		if s.broken {
			return nil, false
		}
		for i := range s.cmds {
			switch s.cmds[i].allow {
			case cmdNever:
				return nil, false
			case cmdByRule:
				if s.cmdBy[i] == nil {
					return nil, false
				}
				if first == nil {
					first = s.cmdBy[i]
				}
			}
		}
		if s.setsVariables() { // last: it may parse again
			return nil, false
		}
	}
	if pathKind != 0 {
		s.absPaths()
		if !approved(s.pathBy) {
			return nil, false
		}
	}
	if fetch {
		s.readHosts()
		if !approved(s.hostBy) {
			return nil, false
		}
	}
	return first, first != nil
}

// RuleSet is a list of rules indexed by what they speak of, so that a call
// looks only at the rules that may match it: those of its tool name, of
// the first words of its commands, of its kinds. Its Any and All answer
// as the functions Any and All do over the list, in a microsecond or two
// for hundreds of rules where the functions take several: a policy
// indexes each list it evaluates on every call once. A RuleSet is
// immutable and safe for concurrent use.
type RuleSet struct {
	list []*Rule
	// positions in list, ascending, by what the rules speak of
	names, tools, servers map[string][]int32 // bare names, MCP tools, MCP servers (mcp__s__)
	heads                 map[uint64][]int32 // shell rules by their first word
	shell                 []int32            // shell rules without a known first word
	read, edit, web       []int32
}

// NewRuleSet indexes rules; nil rules are dropped.
func NewRuleSet(rules []*Rule) *RuleSet {
	rs := &RuleSet{names: map[string][]int32{}, tools: map[string][]int32{}, servers: map[string][]int32{},
		heads: map[uint64][]int32{}}
	for _, r := range rules {
		if r == nil {
			continue
		}
		i := int32(len(rs.list))
		rs.list = append(rs.list, r)
		switch r.kind {
		case permName:
			switch {
			case r.mcpServer:
				rs.servers[r.mcp] = append(rs.servers[r.mcp], i)
			case r.mcp != "":
				rs.tools[r.mcp] = append(rs.tools[r.mcp], i)
			default:
				rs.names[r.name] = append(rs.names[r.name], i)
			}
		case permBash:
			if r.head != 0 {
				rs.heads[r.head] = append(rs.heads[r.head], i)
			} else {
				rs.shell = append(rs.shell, i)
			}
		case permRead:
			rs.read = append(rs.read, i)
		case permEdit:
			rs.edit = append(rs.edit, i)
		case permWeb:
			rs.web = append(rs.web, i)
		}
	}
	return rs
}

// List returns the indexed rules, in order. The slice must not be
// modified.
func (rs *RuleSet) List() []*Rule { return rs.list }

// Any is the function Any over rs.
func (rs *RuleSet) Any(s *Subject) *Rule { return s.any(rs.list, rs.candidates(s)) }

// All is the function All over rs.
func (rs *RuleSet) All(s *Subject) (*Rule, bool) { return s.all(rs.list, rs.candidates(s)) }

// candidates returns, in order, the positions of the rules that may match
// s, in the subject's scratch space.
func (rs *RuleSet) candidates(s *Subject) []int32 {
	c := s.cand[:0]
	if s.c.Server == "" {
		c = append(c, rs.names[s.name]...)
	}
	c = append(c, rs.tools[s.tool]...)
	if s.server != "" {
		c = append(c, rs.servers[s.server]...)
	}
	if s.kinds&permBash != 0 {
		c = append(c, rs.shell...)
		if len(rs.heads) > 0 {
			s.commands()
			for _, h := range s.heads {
				c = append(c, rs.heads[h]...)
			}
		}
	}
	if s.kinds&permRead != 0 {
		c = append(c, rs.read...)
	}
	if s.kinds&permEdit != 0 {
		c = append(c, rs.edit...)
	}
	if s.kinds&permWeb != 0 {
		c = append(c, rs.web...)
	}
	slices.Sort(c)
	s.cand = c
	if c == nil {
		c = []int32{} // no candidate: none, not all
	}
	return c
}

// cover records the commands the shell rule r approves: by their own
// words, or, when nested, by the outer command r writes out up to them.
func (s *Subject) cover(r *Rule) {
	for i := range s.commands() {
		sc := &s.cmds[i]
		if s.cmdBy[i] != nil || sc.allow != cmdByRule {
			continue
		}
		if r.matchWords(&sc.forms[0]) {
			s.cmdBy[i] = r
			continue
		}
		if sc.payload > 0 {
			if top := &s.cmds[sc.top].forms[0]; r.matchWords(top) && r.spells(top) > sc.payload {
				s.cmdBy[i] = r
			}
		}
	}
}

// payloadIndex returns the index of the word of top that names the program
// name a wrapper runs, or holds the script that runs it (bash -c, eval);
// 0 when none does.
func payloadIndex(top *cmdWords, name string) int {
	for k := 1; k < len(top.words); k++ {
		if !top.dyn[k] && top.words[k] == name {
			return k
		}
	}
	for k := 1; k < len(top.words); k++ {
		if !top.dyn[k] && containsShellWord(top.words[k], name) {
			return k
		}
	}
	return 0
}

// containsShellWord reports whether w occurs in s as a word of its own.
func containsShellWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(w)
		if (i == 0 || !shellWordByte(s[i-1])) && (end == len(s) || !shellWordByte(s[end])) {
			return true
		}
		from = i + 1
	}
}

func shellWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./=", c) >= 0 || c >= 0x80
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

// readHosts normalizes the hosts of the call's URLs and destinations.
func (s *Subject) readHosts() {
	if s.hostsDone {
		return
	}
	s.hostsDone = true
	for _, u := range s.c.URLs {
		h, err := netguard.Hostname(u)
		if err != nil {
			h = ""
			if l := looseHost(u); l != "" {
				s.anyHosts = append(s.anyHosts, l)
			}
		} else {
			s.anyHosts = append(s.anyHosts, h)
		}
		s.urlHosts = append(s.urlHosts, h)
	}
	s.hostBy = make([]*Rule, len(s.urlHosts))
	for _, d := range s.c.Dests {
		raw := d.URL
		if raw == "" {
			raw = d.Host
		}
		if raw == "" {
			continue
		}
		h, err := netguard.Hostname(raw)
		if err != nil && d.URL == "" {
			h, err = netguard.NormalizeHost(raw)
		}
		if err != nil {
			h = looseHost(raw)
		}
		if h != "" {
			s.anyHosts = append(s.anyHosts, h)
		}
	}
}

// looseHost reads the host of a URL netguard refuses, as a browser might,
// so that deny rules still see it: a backslash is a slash, case and one
// trailing dot do not count.
func looseHost(raw string) string {
	raw = strings.ReplaceAll(strings.TrimSpace(raw), `\`, "/")
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// commands resolves the call's scripts into commands, once.
func (s *Subject) commands() []subjectCmd {
	if s.cmdsDone {
		return s.cmds
	}
	s.cmdsDone = true
	for _, script := range s.c.Shell {
		cmds, err := resolveScript(s.c, script)
		if err == errUnread {
			s.broken = true
			s.cmds = append(s.cmds, unreadCommands(script)...)
			continue
		}
		if err != nil {
			s.broken = true
			s.cmds = append(s.cmds, brokenCommands(script)...)
			continue
		}
		top := -1
		for _, cmd := range cmds {
			sc := subjectCmd{top: -1, allow: cmdByRule}
			sc.forms = append(sc.forms, newCmdWords(cmd.Args, cmd.Dynamic))
			nested := cmd.Depth > 0 || len(cmd.Via) > 0
			switch {
			case !s.redirectsInside(&cmd):
				sc.allow = cmdNever
			case len(cmd.Args) == 0:
				sc.allow = cmdFree
			case cmd.Dynamic[0]:
				sc.allow = cmdNever
			}
			if len(cmd.Args) == 0 {
				s.cmds = append(s.cmds, sc)
				continue
			}
			if !cmd.Dynamic[0] && strings.Contains(cmd.Args[0], "/") {
				sc.forms = append(sc.forms, baseForm(cmd.Args, cmd.Dynamic))
			}
			if !nested {
				top = len(s.cmds)
			} else {
				sc.forms = append(sc.forms, viaForm(cmd))
				if top >= 0 && wrapperName(cmd.Via[0]) == path.Base(s.cmds[top].forms[0].words[0]) {
					sc.top = top
					sc.payload = payloadIndex(&s.cmds[top].forms[0], cmd.Args[0])
				}
			}
			s.cmds = append(s.cmds, sc)
		}
	}
	s.cmdBy = make([]*Rule, len(s.cmds))
	for i := range s.cmds {
		for _, f := range s.cmds[i].forms {
			if f.head != 0 && !slices.Contains(s.heads, f.head) {
				s.heads = append(s.heads, f.head)
			}
		}
	}
	return s.cmds
}

func wrapperName(via string) string {
	name, _, _ := strings.Cut(via, " ")
	return name
}

func baseForm(args []string, dyn []bool) cmdWords {
	return newCmdWords(append([]string{path.Base(args[0])}, args[1:]...), dyn)
}

// viaForm is a nested command written after its wrappers' names: sudo -u
// root rm x runs rm x, which reads as sudo rm x.
func viaForm(cmd tool.Command) cmdWords {
	var w cmdWords
	for _, v := range cmd.Via {
		for _, f := range strings.Fields(v) {
			w.words = append(w.words, f)
			w.dyn = append(w.dyn, false)
		}
	}
	return newCmdWords(append(w.words, cmd.Args...), append(w.dyn, cmd.Dynamic...))
}

// redirectsInside reports whether every file the command writes through a
// redirection lies inside the workspace or a temporary directory.
func (s *Subject) redirectsInside(cmd *tool.Command) bool {
	for _, rd := range cmd.Redirs {
		if !rd.Writes() {
			continue
		}
		if rd.Dynamic {
			return false
		}
		env := s.env
		if t := rd.Target; !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") {
			if cmd.DirDynamic {
				return false
			}
			if cmd.Dir != "" {
				env.Cwd = cmd.Dir
			}
		}
		switch env.Classify(rd.Target) {
		case paths.Workspace, paths.Temp:
		default:
			return false
		}
	}
	return true
}

// resolveScript returns the commands of a script of c, as the shell
// preparer resolved them (its fact, tool.Script). A script without a fact
// (no preparer ran) or whose fact says it could not be read yields an
// error: the policy reads it as one that does not parse, so no allow rule
// matches it and deny and ask rules match its literal words.
func resolveScript(c *tool.Call, script string) ([]tool.Command, error) {
	s, ok := c.Script(script)
	if !ok {
		return nil, errUnread
	}
	return s.Commands, s.Err
}

// errUnread is the error of a script no preparer read.
var errUnread = errors.New("policy: the script was not read (no shell preparer ran)")

func plainScript(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t' ||
			strings.IndexByte("-_./:,@%+=", c) >= 0) {
			return false
		}
	}
	first, _, _ := strings.Cut(strings.TrimLeft(s, " \t"), " ")
	first, _, _ = strings.Cut(first, "\t")
	return first != "" && !strings.Contains(first, "=") && !clauseWords[first]
}

// clauseWords are the words plain text can spell that bash reads as more
// than a simple command when they come first: reserved words and the
// declaration builtins.
var clauseWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true, "case": true, "esac": true,
	"while": true, "until": true, "for": true, "in": true, "function": true, "select": true, "time": true, "coproc": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true, "let": true,
}

// setsVariables reports whether the call's scripts, or the scripts its
// commands run in nested shells and eval, may set a shell variable (see
// scriptSetsVariables), once.
func (s *Subject) setsVariables() bool {
	if s.varsDone {
		return s.vars
	}
	s.varsDone = true
	for _, script := range s.c.Shell {
		if scriptSetsVariables(script) {
			s.vars = true
			return true
		}
	}
	for i := range s.commands() {
		w := &s.cmds[i].forms[0]
		if len(w.words) == 0 || w.dyn[0] {
			continue
		}
		script := ""
		if j := tool.ShellScriptIndex(w.words); j > 0 && !w.dyn[j] {
			script = w.words[j]
		} else if w.words[0] == "eval" {
			script = strings.Join(w.words[1:], " ")
		}
		if script != "" && scriptSetsVariables(script) {
			s.vars = true
			return true
		}
	}
	return false
}

// scriptSetsVariables reports whether script may set a shell variable: an
// assignment (FOO=1 cmd, FOO=1), a declaration (export, declare, local,
// readonly, typeset), a for or select loop's variable, arithmetic that
// assigns (let, ((i++)), $((x=1))), ${x:=y}. A variable can change what an
// approved command runs: PATH, LD_PRELOAD, NODE_OPTIONS. A script that
// does not parse may set anything.
func scriptSetsVariables(script string) bool {
	if plainScript(script) {
		return false
	}
	if !strings.ContainsAny(script, "=[") && !strings.Contains(script, "((") && !hasClauseWord(script) {
		return false // nothing that could assign
	}
	p := varParsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(script), "")
	varParsers.Put(p)
	if err != nil {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			found = len(x.Assigns) > 0
		case *syntax.DeclClause, *syntax.ForClause, *syntax.LetClause:
			found = true
		case *syntax.BinaryArithm:
			op := x.Op.String()
			found = strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">="
		case *syntax.UnaryArithm:
			found = x.Op == syntax.Inc || x.Op == syntax.Dec
		case *syntax.ParamExp:
			found = x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull)
		}
		return !found
	})
	return found
}

func hasClauseWord(script string) bool {
	for _, w := range [...]string{"for", "select", "let", "declare", "local", "export", "readonly", "typeset", "nameref"} {
		if containsShellWord(script, w) {
			return true
		}
	}
	return false
}

// varParsers are reused: a parser is not safe for concurrent use, but may
// parse many scripts one after another.
var varParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// brokenCommands reads a script that does not parse as its whole text and
// as each piece of it between control characters, quotes and backslashes
// dropped.
func brokenCommands(script string) []subjectCmd {
	clean := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(script)
	pieces := strings.FieldsFunc(clean, func(r rune) bool { return strings.ContainsRune(";&|(){}`\n", r) })
	out := []subjectCmd{brokenCommand(strings.Fields(clean))}
	if len(pieces) > 1 {
		for _, p := range pieces {
			if f := strings.Fields(p); len(f) > 0 {
				out = append(out, brokenCommand(f))
			}
		}
	}
	return out
}

func brokenCommand(words []string) subjectCmd {
	return subjectCmd{top: -1, allow: cmdNever, forms: []cmdWords{newCmdWords(words, make([]bool, len(words)))}}
}

// unreadCommands reads a script no preparer read as brokenCommands does,
// and each piece of it also from each of its first maxUnreadStarts words
// on: a wrapper or nested shell (sudo rm -rf /, bash -c "rm -rf /") runs
// the words after it, which only resolving the script would single out,
// so that deny and ask rules still see them.
func unreadCommands(script string) []subjectCmd {
	out := brokenCommands(script)
	for i := range out {
		w := out[i].forms[0].words
		for k := 1; k < len(w) && k <= maxUnreadStarts; k++ {
			out[i].forms = append(out[i].forms, newCmdWords(w[k:], make([]bool, len(w)-k)))
		}
	}
	return out
}

// maxUnreadStarts bounds the words of an unread script's piece that
// unreadCommands reads it from.
const maxUnreadStarts = 64
