package policy

import (
	"errors"
	"fmt"
	"path"
	"strings"
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
