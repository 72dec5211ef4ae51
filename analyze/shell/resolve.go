package shell

import (
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/analyze/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Command is one simple command with its words resolved.
type Command struct {
	Args []string
	// Dynamic[i] is set when Args[i] could not be resolved statically; Args[i]
	// then holds the word as written.
	Dynamic []bool
	// Depth is how many shells (-c, eval) or wrappers deep the command sits.
	Depth int
	// Redirs are the redirections of the command's statement.
	Redirs []Redirect
	// Inputs are the indices, in Resolve's result, of the commands whose
	// output this command reads: those before it in a pipeline, and those
	// of the command and process substitutions in its words and
	// redirections (source <(curl …), eval "$(curl …)").
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
		return !isFD(r.Target)
	}
	return false
}

// Stdin reports whether the redirection feeds text to the command's stdin
// (heredoc, here-string).
func (r Redirect) Stdin() bool { return r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" }

func isFD(s string) bool {
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

// Line renders the command as one shell command line, each word quoted so
// that bash would split it back into the same words. Dynamic words are
// written as they stood in the script.
func (c Command) Line() string {
	var b strings.Builder
	for i, a := range c.Args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if c.Dynamic[i] {
			b.WriteString(a)
		} else {
			b.WriteString(tool.Quote(a))
		}
	}
	return b.String()
}

// Env is what the script runs with: the user's home and the working
// directory, as the path classifier reads them.
type Env = paths.Env

// MaxDepth bounds nested shells, eval and wrappers.
const MaxDepth = 4

// Resolve parses script and returns every simple command it will run, in
// source order, including the commands of nested shells and wrappers. A
// parse error is returned as is (a *syntax.ParseError); the commands read
// before it are not returned.
func Resolve(script string, env Env) ([]Command, error) {
	cmds, _, err := ResolveIn(script, env, nil)
	return cmds, err
}

// ResolveIn resolves script as Resolve does, in a persistent shell that
// earlier scripts of a conversation left in the state prior (nil: a fresh
// shell): its variables expand, its aliases and functions run what they
// stand for, its git aliases what they expand to. It also returns what the
// script changes in that shell for the scripts after it (tool.Effect
// kinds Chdir, SetVar, UnsetVar, SetAlias, SetFunc, SetGitAlias). Changes
// made in a subshell, a pipeline, a substitution, a function body or a
// nested shell do not persist and are not returned; git aliases, which git
// writes to its configuration, always are.
func ResolveIn(script string, env Env, prior *tool.Prior) ([]Command, []tool.Effect, error) {
	r := newResolver(env, prior)
	if err := r.script(script, 0); err != nil {
		return nil, nil, err
	}
	return r.out, r.changes, nil
}

// ResolveFields resolves one simple command already split into literal
// words (a script made only of characters bash takes literally): it is not
// parsed again, but wrappers and nested shells are unwrapped as Resolve
// does.
func ResolveFields(fields []string, env Env) ([]Command, error) {
	cmds, _, err := ResolveFieldsIn(fields, env, nil)
	return cmds, err
}

// ResolveFieldsIn is ResolveFields in the persistent shell prior, as
// ResolveIn.
func ResolveFieldsIn(fields []string, env Env, prior *tool.Prior) ([]Command, []tool.Effect, error) {
	r := newResolver(env, prior)
	r.nextID = 1
	if err := r.emit(Command{Args: fields, Dynamic: make([]bool, len(fields))}, 0, 0, 0); err != nil {
		return nil, nil, err
	}
	return r.out, r.changes, nil
}

func newResolver(env Env, prior *tool.Prior) *resolver {
	r := &resolver{vars: map[string]string{}}
	if prior != nil {
		for k, v := range prior.Vars {
			r.vars[k] = v
		}
		r.aliases, r.funcs, r.gitAliases, r.lists = prior.Aliases, prior.Funcs, prior.GitAliases, prior.Lists
	}
	if env.Home != "" {
		r.vars["HOME"] = env.Home
	}
	if env.Cwd != "" {
		r.vars["PWD"] = env.Cwd
	}
	return r
}

type resolver struct {
	vars map[string]string
	// dir is the directory set by the script's last cd; dirs the pushd
	// stack.
	dir    string
	dirDyn bool
	dirs   []string
	out    []Command
	// where each command of out was found: the script it belongs to
	// (positions are only comparable within one script) and its offset.
	owner  []int
	offset []uint
	via    []string // wrappers around the commands being emitted
	nextID int

	// The persistent shell: aliases, functions and git aliases (shared
	// with the prior state until written: see own), the positional
	// parameters of the function being run (posSet when inside one).
	aliases, funcs, gitAliases map[string]string
	lists                      map[string][]string // files listing paths (tool.Prior.Lists)
	owned                      uint8
	pos                        []string
	posDyn                     []bool
	posSet                     bool
	expanding                  []string // aliases and functions being expanded
	expansions                 int
	// transient counts the enclosing nested shells and wrappers, and
	// locals are the spans of the current script (subshells, pipelines,
	// substitutions, function bodies) whose changes do not outlive them;
	// changes are those that do.
	transient int
	locals    []span
	changes   []tool.Effect
	persist   bool // the command being emitted changes the persistent shell
}

type span struct{ from, to uint }

func spanOf(n syntax.Node) span { return span{n.Pos().Offset(), n.End().Offset()} }

func (s span) has(o uint) bool { return o >= s.from && o < s.to }

// parsers are reused: a parser is not safe for concurrent use, but may
// parse many scripts one after another.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

func (r *resolver) script(src string, depth int) error {
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	parsers.Put(p)
	if err != nil {
		return err
	}
	id := r.nextID
	r.nextID++
	var (
		walkErr error
		pipes   [][2]span  // the two sides of each pipe
		stmts   []stmtSpan // simple-command statements: their words and redirections
		redirs  = map[*syntax.CallExpr][]Redirect{}
	)
	outer := r.locals
	r.locals = nil
	defer func() { r.locals = outer }()
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			return true
		}
		r.leave(n)
		defer r.enter(n)
		switch x := n.(type) {
		case *syntax.FuncDecl:
			r.define(x)
		case *syntax.Stmt:
			rs := r.redirects(x.Redirs)
			if call, ok := x.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				redirs[call] = rs
				stmts = append(stmts, stmtSpan{spanOf(x), call.Pos().Offset()})
			} else if len(rs) > 0 {
				// redirections of a compound command or of none at all
				// (> /etc/passwd): a command without words holds them.
				r.add(Command{Redirs: rs, Depth: depth}, id, x.Pos().Offset())
			}
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				pipes = append(pipes, [2]span{spanOf(x.X), spanOf(x.Y)})
				r.locals = append(r.locals, spanOf(x))
			}
		case *syntax.DeclClause:
			for _, as := range x.Args {
				r.assign(as)
			}
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				for _, as := range x.Assigns {
					r.assign(as)
				}
				return true
			}
			cmd := r.words(x.Args)
			cmd.Depth = depth
			cmd.Redirs = redirs[x]
			if err := r.emit(cmd, depth, id, x.Pos().Offset()); err != nil && walkErr == nil {
				walkErr = err
			}
		}
		return true
	})
	r.link(id, pipes, stmts)
	if walkErr == nil {
		walkErr = r.echoed(id, depth)
	}
	return walkErr
}

// echoed reads in turn the script that echo or printf pipes into a shell
// of script id: echo 'rm -rf ~' | sh.
func (r *resolver) echoed(id, depth int) error {
	n := len(r.out)
	for i := 0; i < n; i++ {
		c := r.out[i]
		if r.owner[i] != id || len(c.Args) == 0 || c.Dynamic[0] || !shells[path.Base(c.Args[0])] || !readsStdin(c) || c.Depth >= MaxDepth {
			continue
		}
		for _, j := range c.Inputs {
			in := r.out[j]
			if len(in.Args) < 2 || in.Dynamic[0] || !static(in, 1) {
				continue
			}
			switch path.Base(in.Args[0]) {
			case "echo":
				args := in.Args[1:]
				for len(args) > 0 && (args[0] == "-n" || args[0] == "-e" || args[0] == "-E") {
					args = args[1:]
				}
				if err := r.nested(path.Base(c.Args[0]), strings.Join(args, " "), c.Depth+1); err != nil {
					return err
				}
			case "printf":
				if err := r.nested(path.Base(c.Args[0]), strings.Join(in.Args[1:], " "), c.Depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// add appends a command found in script id at offset.
func (r *resolver) add(c Command, id int, off uint) {
	if len(r.via) > 0 {
		c.Via = slices.Clone(r.via)
	}
	c.Dir, c.DirDynamic = r.dir, r.dirDyn
	r.persist = r.transient == 0 && !r.inLocal(off)
	r.chdir(c)
	r.builtin(c)
	r.out = append(r.out, c)
	r.owner = append(r.owner, id)
	r.offset = append(r.offset, off)
}

// chdir follows cd, pushd and popd: later commands of the script run in
// the new directory. A subshell's cd is followed too (a safe
// over-approximation: paths are then judged from both places at worst).
func (r *resolver) chdir(c Command) {
	if len(c.Args) == 0 || c.Dynamic[0] {
		return
	}
	switch c.Args[0] {
	case "cd", "pushd":
		target, dyn := "", false
		for i := 1; i < len(c.Args); i++ {
			if a := c.Args[i]; a == "-P" || a == "-L" || a == "--" || a == "-e" || a == "-n" {
				continue
			}
			target, dyn = c.Args[i], c.Dynamic[i]
			break
		}
		if c.Args[0] == "pushd" {
			r.dirs = append(r.dirs, r.dir)
		}
		switch {
		case dyn || target == "-":
			r.dir, r.dirDyn = "", true
		case target == "":
			r.dir, r.dirDyn = r.vars["HOME"], false
		default:
			r.dir, r.dirDyn = r.abs(target), r.dirDyn && !strings.HasPrefix(target, "/")
		}
	case "popd":
		if n := len(r.dirs); n > 0 {
			r.dir, r.dirs = r.dirs[n-1], r.dirs[:n-1]
		}
	}
}

// maxFeeds bounds how many commands one side of a pipe or one
// statement's substitutions contribute as inputs, so that linking stays
// linear in the size of the script.
const maxFeeds = 8

// stmtSpan is a simple command's statement and the offset of its command.
type stmtSpan struct {
	span
	call uint
}

// link records the data flow of script id: the head command on the right
// of a pipe reads the last commands on its left (earlier ones reach it
// through them), and a simple command reads the command and process
// substitutions inside its own statement.
func (r *resolver) link(id int, pipes [][2]span, stmts []stmtSpan) {
	var own []int // this script's commands, in source order
	for i := range r.out {
		if r.owner[i] == id {
			own = append(own, i)
		}
	}
	if len(own) < 2 {
		return
	}
	// bounds returns the part of own inside sp.
	bounds := func(sp span) (int, int) {
		lo := sort.Search(len(own), func(k int) bool { return r.offset[own[k]] >= sp.from })
		hi := sort.Search(len(own), func(k int) bool { return r.offset[own[k]] >= sp.to })
		return lo, hi
	}
	feed := func(recvLo, recvHi int, head uint, from []int) {
		for k := recvLo; k < recvHi && r.offset[own[k]] == head; k++ {
			i := own[k]
			for _, j := range from {
				if j != i && !slices.Contains(r.out[i].Inputs, j) {
					r.out[i].Inputs = append(r.out[i].Inputs, j)
				}
			}
		}
	}
	for _, p := range pipes {
		xlo, xhi := bounds(p[0])
		ylo, yhi := bounds(p[1])
		if xlo >= xhi || ylo >= yhi {
			continue
		}
		feed(ylo, yhi, r.offset[own[ylo]], own[max(xlo, xhi-maxFeeds):xhi])
	}
	for _, st := range stmts {
		lo, hi := bounds(st.span)
		k := lo
		for k < hi && r.offset[own[k]] <= st.call {
			k++
		}
		if k == hi {
			continue // no substitutions
		}
		from := own[k:min(hi, k+maxFeeds)]
		first := lo
		for first < hi && r.offset[own[first]] != st.call {
			first++
		}
		feed(first, hi, st.call, from)
	}
}

// redirects resolves a statement's redirections.
func (r *resolver) redirects(rs []*syntax.Redirect) []Redirect {
	var out []Redirect
	for _, rd := range rs {
		x := Redirect{Op: rd.Op.String()}
		switch {
		case rd.Hdoc != nil:
			// the body as written: read as a script or as SQL in turn, its
			// expansions resolve there
			x.Target = hdocSource(rd.Hdoc)
		case rd.Word != nil:
			if f, ok := r.word(rd.Word); ok && len(f) <= 1 {
				if len(f) == 1 {
					x.Target = f[0]
				}
			} else {
				x.Target, x.Dynamic = source(rd.Word), true
			}
		}
		out = append(out, x)
	}
	return out
}

// hdocSource is a heredoc body as written (expansions unresolved).
func hdocSource(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			var pb strings.Builder
			if syntax.NewPrinter().Print(&pb, p) == nil {
				b.WriteString(pb.String())
			}
		}
	}
	return b.String()
}

// assign records a literal assignment; an assignment whose value cannot
// be resolved makes the variable unknown.
func (r *resolver) assign(as *syntax.Assign) {
	if as.Name == nil || as.Array != nil || as.Index != nil {
		return
	}
	name := as.Name.Value
	if as.Value == nil {
		if !as.Naked {
			r.vars[name] = ""
			r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name, Known: true})
		}
		return
	}
	v, ok := r.word(as.Value)
	if !ok || len(v) != 1 {
		delete(r.vars, name)
		r.vars[name+"\x00dynamic"] = ""
		r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name})
		return
	}
	val := v[0]
	if as.Append {
		val = r.vars[name] + val
	}
	r.vars[name] = val
	delete(r.vars, name+"\x00dynamic")
	r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name, Text: val, Known: true})
}

// env exposes the known variables to expand; an unknown variable makes
// resolution fail instead of reading as empty.
type env struct {
	r       *resolver
	unknown bool
}

func (e *env) Get(name string) expand.Variable {
	if e.r.posSet && positional(name) {
		return e.r.positional(name, &e.unknown)
	}
	if v, ok := e.r.vars[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if name == "IFS" {
		return expand.Variable{Set: true, Kind: expand.String, Str: " \t\n"}
	}
	if internal[name] {
		return expand.Variable{}
	}
	e.unknown = true
	return expand.Variable{}
}

// internal are variables the expander consults for its own work; reading
// them does not make a word dynamic.
var internal = map[string]bool{"PWD": true, "OPTIND": true, "GLOBIGNORE": true, "LANG": true, "LC_ALL": true, "LC_COLLATE": true}

func (e *env) Each(fn func(string, expand.Variable) bool) {
	for k, v := range e.r.vars {
		if strings.Contains(k, "\x00") {
			continue
		}
		if !fn(k, expand.Variable{Set: true, Kind: expand.String, Str: v}) {
			return
		}
	}
}

// word resolves one word to its fields, or reports that it cannot.
func (r *resolver) word(w *syntax.Word) ([]string, bool) {
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			// A plain word needs no expansion unless it holds characters
			// that tilde, brace or pattern expansion, or escapes, act on.
			if !strings.ContainsAny(p.Value, "~{}*?[]\\") {
				return []string{p.Value}, true
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return []string{p.Value}, true
			}
		}
	}
	if hasSubst(w) {
		return nil, false // its value is some command's output
	}
	e := &env{r: r}
	cfg := &expand.Config{Env: e} // no CmdSubst, no ReadDir: nothing runs, nothing globs
	fields, err := expand.Fields(cfg, w)
	if err != nil || e.unknown {
		return nil, false
	}
	return fields, true
}

// hasSubst reports whether a word holds a command or process
// substitution, whose value only running a command could give.
func hasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// words resolves a command's words; each word that cannot be resolved is
// kept as written and marked dynamic.
func (r *resolver) words(ws []*syntax.Word) Command {
	var c Command
	for _, w := range ws {
		if f, ok := r.word(w); ok {
			for _, s := range f {
				c.Args = append(c.Args, s)
				c.Dynamic = append(c.Dynamic, false)
			}
			continue
		}
		c.Args = append(c.Args, source(w))
		c.Dynamic = append(c.Dynamic, true)
	}
	return c
}

func source(w *syntax.Word) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return "$?"
	}
	return b.String()
}

// emit records cmd and whatever it runs in turn: the script of a shell's
// -c, the text of eval, and the command behind a wrapper.
func (r *resolver) emit(cmd Command, depth, id int, off uint) error {
	r.add(cmd, id, off)
	if depth >= MaxDepth || len(cmd.Args) == 0 || cmd.Dynamic[0] {
		return nil
	}
	if done, err := r.expand(cmd, depth); done {
		return err
	}
	name := path.Base(cmd.Args[0])
	if i := tool.ShellScriptIndex(cmd.Args); i > 0 {
		if cmd.Dynamic[i] {
			return r.dynamicScript(name, depth, id, off) // the script is computed at run time
		}
		return r.nested(name, cmd.Args[i], depth+1)
	}
	if shells[name] && readsStdin(cmd) {
		// bash <<EOF … EOF, sh <<< "…": the heredoc is the script.
		for _, rd := range cmd.Redirs {
			if rd.Stdin() && !rd.Dynamic {
				if err := r.nested(name, rd.Target, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return r.unwrap(cmd, depth, id, off)
}

// emitVia records inner, the command the wrapper name runs (its Depth
// already set), and what inner runs in turn.
func (r *resolver) emitVia(name string, inner Command, id int, off uint) error {
	r.via = append(r.via, name)
	keeps := inPlace[name] && r.persist
	if !keeps {
		r.transient++ // a wrapper runs its command in a process of its own
		defer func() { r.transient-- }()
	}
	err := r.emit(inner, inner.Depth, id, off)
	r.via = r.via[:len(r.via)-1]
	return err
}

// nested parses an inner script run by the command name (a shell, eval);
// a parse error there is an error of the whole script.
func (r *resolver) nested(name, src string, depth int) error {
	r.via = append(r.via, name)
	keeps := inPlace[name] && r.persist
	if !keeps {
		r.transient++
	}
	err := r.script(src, depth)
	if !keeps {
		r.transient--
	}
	r.via = r.via[:len(r.via)-1]
	return err
}

func static(c Command, from int) bool {
	for _, d := range c.Dynamic[from:] {
		if d {
			return false
		}
	}
	return len(c.Args) > from
}

// shells are the interpreters whose stdin script Resolve reads in turn.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// readsStdin reports whether a shell takes its script from stdin: no
// script file operand, or -s.
func readsStdin(c Command) bool {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "-s" || a == "-" {
			return true
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			return false
		}
	}
	return true
}
