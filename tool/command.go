package tool

import (
	"errors"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Command is one simple command of a shell script with its words
// resolved, as the shell preparer reads it (see Script).
type Command struct {
	Args []string
	// Dynamic[i] is set when Args[i] could not be resolved statically; Args[i]
	// then holds the word as written.
	Dynamic []bool
	// Depth is how many shells (-c, eval) or wrappers deep the command sits.
	Depth int
	// Redirs are the redirections of the command's statement.
	Redirs []Redirect
	// Inputs are the indices, among the commands of its script, of the
	// commands whose output this command reads: those before it in a
	// pipeline, and those of the command and process substitutions in its
	// words and redirections (source <(curl …), eval "$(curl …)").
	Inputs []int
	// Via names the wrappers this command was unwrapped from, outermost
	// first: sudo, xargs, env, a shell's -c or eval.
	Via []string
	// Dir is the directory the command runs in when an earlier cd or
	// pushd of the script changed it ("" when none did); DirDynamic is set
	// when that directory is computed at run time.
	Dir        string
	DirDynamic bool
	// Findings are what the analyzer of an inline program the command
	// carries found in it (perl -e, python -c, awk programs): the shell
	// lines the program runs are resolved as commands of their own.
	Findings []risk.Finding
	// TooDeep is set when the resolver stopped following the script at
	// this command: it sits too many shells or wrappers deep, so what it
	// runs in turn is not read, or (a command without words) the script
	// text here nests too deeply and was not parsed at all. Whoever reads
	// the commands must not take such a script as safe.
	TooDeep bool
	// Capped is set when a word of the command, or an assignment before
	// it, would expand past the resolver's bounds: it was kept dynamic
	// instead of built, so its value is unseen (and building it may
	// exhaust the machine: a=$a$a …).
	Capped bool
}

// Line renders the command as one shell command line, each word quoted so
// that bash would split it back into the same words. Dynamic words are
// written as they stood in the script.
func (c Command) Line() string {
	var b strings.Builder
	n := len(c.Args)
	for _, a := range c.Args {
		n += len(a)
	}
	b.Grow(n) // enough unless a word needs quotes
	for i, a := range c.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if c.Dynamic[i] {
			b.WriteString(a)
		} else {
			b.WriteString(Quote(a))
		}
	}
	return b.String()
}

// Redirect is one redirection.
type Redirect struct {
	Op string // ">", ">>", "<", "&>", ">&", "<<", "<<<", …
	// Target is the file (or fd) redirected to or from, resolved when it
	// can be; for a heredoc or here-string it is the text fed to stdin.
	Target  string
	Dynamic bool
}

// Writes reports whether the redirection writes to its target file.
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		// >&file writes to a file; >&2 duplicates a descriptor.
		return !r.FD()
	}
	return false
}

// Stdin reports whether the redirection feeds text to the command's stdin
// (heredoc, here-string).
func (r Redirect) Stdin() bool { return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" }

// FD reports whether the target names a file descriptor (2, or - to close
// one) rather than a file.
func (r Redirect) FD() bool {
	s := r.Target
	if s == "-" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Script is what one shell script of a call (an element of Call.Shell)
// resolves to, in the call's persistent shell: a fact the shell preparer
// records so that no reader parses the script again.
type Script struct {
	Text string
	// Commands are the simple commands the script runs, in source order,
	// nested ones included; they must not be modified.
	Commands []Command
	// SetsVariables is set when the script may set a shell variable,
	// itself or in a script it runs in turn (bash -c, eval, a function):
	// an assignment (FOO=1 cmd), a declaration (export, declare, local,
	// readonly, typeset), a for or select loop's variable, let, arithmetic
	// that assigns, ${x:=y}; and when it could not be read whole (Err, or
	// nested too deeply). A variable can change what an approved command
	// runs: PATH, LD_PRELOAD, NODE_OPTIONS.
	SetsVariables bool
	// Err says why the script could not be read: it does not parse, or the
	// work budget ran out before it was resolved. Commands are then not to
	// be trusted, and a reader takes the script as unknown.
	Err error
}

// ErrWorkSpent is the error of a script the work budget ran out on (see
// Script.Err): what it runs was not read whole.
var ErrWorkSpent = errors.New("the work budget ran out before the script was read")

// AddScript records the fact s about one of c's scripts (see Scripts),
// for Script to find. A preparer calls it; readers only call Script.
func (c *Call) AddScript(s Script) {
	if c.Scripts == nil {
		c.Scripts = c.scripts2[:0]
	}
	c.Scripts = append(c.Scripts, s)
	index(&c.scriptIndex, c.Scripts, scriptText)
}

// Script returns the fact recorded for the shell script text of c (see
// Scripts), or false when none is. It only reads c.
func (c *Call) Script(text string) (*Script, bool) {
	return find(&c.scriptIndex, c.Scripts, text, scriptText)
}

func scriptText(s *Script) string { return s.Text }

// indexMin is the number of facts past which a list of them (Call.Scripts,
// Call.SQLTexts) is looked up in an index rather than read through.
const indexMin = 16

// textIndex maps the texts of the first n facts of a list to the first
// index of each in the list (see index and find).
type textIndex struct {
	m map[string]int
	n int
}

// index indexes, in x, the facts appended to list since it last did,
// once list holds more than indexMin (the lines a long script resolves
// to, the queries of a long program). text returns a fact's text.
func index[T any](x *textIndex, list []T, text func(*T) string) {
	if len(list) <= indexMin {
		return
	}
	if x.m == nil || x.n > len(list) {
		x.m, x.n = make(map[string]int, len(list)), 0
	}
	for ; x.n < len(list); x.n++ {
		if _, ok := x.m[text(&list[x.n])]; !ok {
			x.m[text(&list[x.n])] = x.n
		}
	}
}

// find returns the first fact of list whose text is t, through the index
// x where it can.
func find[T any](x *textIndex, list []T, t string, text func(*T) string) (*T, bool) {
	from := 0
	if x.m != nil && x.n <= len(list) {
		i, ok := x.m[t]
		if ok && text(&list[i]) == t {
			return &list[i], true
		}
		if !ok {
			// none by that text among those indexed (a fact changed in
			// place is not found: its reader reads the text again): only
			// those appended since may hold it, without a search through
			// the whole list for every fact added
			from = x.n
		}
	}
	for i := from; i < len(list); i++ { // few, not indexed, or the index is stale
		if text(&list[i]) == t {
			return &list[i], true
		}
	}
	return nil, false
}
