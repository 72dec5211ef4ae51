package policy

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// Subject is a call prepared for matching many rules: the commands of its
// scripts read from their facts (tool.Call.Script), its paths made
// absolute and its hosts normalized once, when a rule first needs them. A
// Subject is not safe for concurrent use.
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
