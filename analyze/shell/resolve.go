package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// Command is one simple command with its words resolved (see
// tool.Command); Redirect one redirection of it.
type (
	Command  = tool.Command
	Redirect = tool.Redirect
)

// Env is what the script runs with: the user's home and the working
// directory, as the path classifier reads them.
type Env = paths.Env

// MaxDepth bounds nested shells, eval, wrappers, aliases and functions,
// well past real use; a command that deep is marked TooDeep.
const MaxDepth = 32

// MaxNesting bounds how deeply the text of one script may nest $( ( {
// and if/case/loop blocks, as a linear scan sees it, before it is handed
// to the (recursive) parser; a deeper script is not parsed and reads as
// one TooDeep command.
const MaxNesting = 256

// MaxValue bounds a variable's value and a word's expansion, in bytes: a
// longer one is taken as unknown (dynamic) rather than built.
const MaxValue = 64 << 10

// maxBraceFields bounds the fields of one word's brace expansion; a word
// that would expand to more is kept dynamic.
const maxBraceFields = 4096

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
	return ResolveWith(script, Options{Env: env, Prior: prior})
}

// Options are what a resolution runs with.
type Options struct {
	Env Env
	// Prior is the persistent shell the script runs in (nil: a fresh one).
	Prior *tool.Prior
	// Work is the budget resolution charges: bytes parsed, syntax nodes
	// walked, words resolved and bytes expanded. Once it is spent the
	// resolver stops reading (the commands found so far are returned and
	// Work.Spent reports it, for the caller to take the script as
	// unknown). Nil: a budget of tool.DefaultWork of the resolver's own,
	// so that no script is ever resolved without bound.
	Work *tool.Budget
}

// ResolveWith is ResolveIn with options.
func ResolveWith(script string, o Options) ([]Command, []tool.Effect, error) {
	r, err := resolveText(script, o)
	if err != nil {
		return nil, nil, err
	}
	out, changes := r.take(), r.changes
	release(r)
	return out, changes, nil
}

// resolveText is ResolveWith, returning the resolver that read script.
func resolveText(script string, o Options) (*resolver, error) {
	r := newResolver(o)
	if err := r.script(script, 0); err != nil {
		return nil, err
	}
	if r.capped {
		// the last statements only assigned a value past the bound
		r.out = append(r.outRoom(), Command{Capped: true})
	}
	return r, nil
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
	return ResolveFieldsWith(fields, Options{Env: env, Prior: prior})
}

// ResolveFieldsWith is ResolveFieldsIn with options.
func ResolveFieldsWith(fields []string, o Options) ([]Command, []tool.Effect, error) {
	r, err := resolveFields(fields, o)
	if err != nil {
		return nil, nil, err
	}
	out, changes := r.take(), r.changes
	release(r)
	return out, changes, nil
}

// resolveFields is ResolveFieldsWith, returning the resolver that read
// the fields.
func resolveFields(fields []string, o Options) (*resolver, error) {
	r := newResolver(o)
	if err := r.fields(fields); err != nil {
		return nil, err
	}
	return r, nil
}

// resolvePlain is resolveFields for a plain script (see plainWords), split on
// blanks as strings.Fields splits it, into r's arena of words (see
// fieldsOf).
func resolvePlain(script string, o Options) (*resolver, error) {
	r := newResolver(o)
	if err := r.fields(r.fieldsOf(script)); err != nil {
		return nil, err
	}
	return r, nil
}

// fields resolves the one command of literal words fields with r, new.
func (r *resolver) fields(fields []string) error {
	r.nextID = 1
	if !r.work.Charge(fieldCost*len(fields), "shell words") {
		return nil
	}
	return r.emit(&Command{Args: fields, Dynamic: noneDynamic(len(fields))}, 0, 0, 0)
}

// fieldsOf splits a plain script (see plain: its only blanks are spaces
// and tabs) into its words, as strings.Fields does, in r's arena of words
// (see argsOf).
func (r *resolver) fieldsOf(script string) []string {
	args := r.argBuf[:0]
	for i := 0; i < len(script); {
		for i < len(script) && (script[i] == ' ' || script[i] == '\t') {
			i++
		}
		from := i
		for i < len(script) && script[i] != ' ' && script[i] != '\t' {
			i++
		}
		if i > from {
			args = append(args, script[from:i])
		}
	}
	out := r.argsOf(args)
	if cap(args) <= maxScratch {
		clear(args)
		r.argBuf = args[:0]
	}
	return out
}

func newResolver(o Options) *resolver {
	env, prior := o.Env, o.Prior
	r := lastResolver.Swap(nil)
	if r == nil {
		r, _ = resolvers.Get().(*resolver)
	}
	if r == nil {
		r = &resolver{state: state{vars: map[string]string{}}}
	}
	r.work = o.Work
	if r.work == nil {
		r.work = tool.NewBudget(tool.DefaultWork)
	}
	if prior != nil {
		r.aliases, r.funcs, r.gitAliases, r.lists = prior.Aliases, prior.Funcs, prior.GitAliases, prior.Lists
	}
	if r.envVars && r.varsHome == env.Home && r.varsCwd == env.Cwd && (prior == nil || len(prior.Vars) == 0) {
		return r // its map holds what it would be filled with (see release)
	}
	clear(r.vars)
	if prior != nil && len(prior.Vars) > 0 {
		r.varsSet = true
		for k, v := range prior.Vars {
			if len(v) > MaxValue {
				r.vars[k+"\x00dynamic"] = ""
				continue
			}
			r.vars[k] = v
		}
	}
	if env.Home != "" {
		r.vars["HOME"] = env.Home
	}
	if env.Cwd != "" {
		r.vars["PWD"] = env.Cwd
	}
	r.varsHome, r.varsCwd = env.Home, env.Cwd
	return r
}

// resolvers holds resolvers done with (see release): a call resolves its
// scripts with one that is already allocated, with its map of variables.
var resolvers sync.Pool

// lastResolver holds the resolver released last, ahead of the pool: an
// atomic swap costs a fraction of a pool's Get and Put, and a process
// that resolves one script after another (warden assess) reuses the same
// resolver each time. It keeps one resolver past a collection at most,
// one that release bounded.
var lastResolver atomic.Pointer[resolver]

// release hands r back once its out and changes were taken: its state
// is reset whole (nothing the caller holds is shared with what it keeps),
// its scratch emptied, and it is kept only when its map of variables
// stayed small, so that clearing it costs no more than it saves.
func release(r *resolver) {
	if r == nil || len(r.vars) > 32 || cap(r.out) > maxScratch || cap(r.at) > maxScratch || cap(r.stmts) > maxScratch || cap(r.pipes) > maxScratch || cap(r.locals) > maxScratch || cap(r.via) > maxScratch {
		return
	}
	vars := r.vars
	// a map that holds only what newResolver set from the environment (the
	// script set no variable) is kept whole for the next resolution in the
	// same environment, which would fill it again; any other is emptied
	r.envVars = !r.varsSet && len(vars) == envVars(r.varsHome, r.varsCwd)
	if !r.envVars {
		clear(vars)
	}
	r.state = state{vars: vars}
	r.scratch.empty()
	if !lastResolver.CompareAndSwap(nil, r) {
		resolvers.Put(r)
	}
}

// envVars is the number of variables newResolver sets from an
// environment of home and cwd without a prior shell.
func envVars(home, cwd string) int {
	n := 0
	if home != "" {
		n++
	}
	if cwd != "" {
		n++
	}
	return n
}

// maxScratch bounds the lists a resolver kept in the pool holds room for.
const maxScratch = 1024

// resolver resolves scripts: the state of one resolution, reset for each
// (see release), and scratch kept from one resolution to the next.
type resolver struct {
	state
	scratch
}

// state is what one resolution reads and builds.
type state struct {
	// vars are the shell's variables, written only by setVar and delVar
	// once newResolver filled them
	vars    map[string]string
	varsSet bool         // setVar or delVar wrote vars, or a prior shell's are in it
	work    *tool.Budget // what resolution may still cost (never nil)
	src     string       // the text of the script being walked
	// capped is set when a word or value was left dynamic for growing past
	// MaxValue; the next command added carries it (Command.Capped).
	capped bool
	// printing is set while the arguments of a command that only prints
	// or tests them (echo, printf, test) are resolved (see indirectSize).
	printing bool
	// sets is set when a script read may set a shell variable (see
	// assigns), or was not read whole for nesting too deeply.
	sets bool
	// dir is the directory set by the script's last cd; dirs the pushd
	// stack.
	dir    string
	dirDyn bool
	dirs   []string
	out    []Command
	// viaCopy is the copy of via the last command added holds
	viaCopy []string
	nextID  int

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
	// transient counts the enclosing nested shells and wrappers; changes
	// are the changes of the persistent shell that outlive the script
	// (see locals).
	transient int
	changes   []tool.Effect
	persist   bool // the command being emitted changes the persistent shell
}

// scratch is what a resolver keeps from one resolution to the next, for
// the room of its lists: lists of the resolution's state that empty is
// left holding nothing, and lists and values reset before each use.
type scratch struct {
	at  []place  // where each command of out was found
	via []string // wrappers around the commands being emitted
	// the pipes and simple-command statements of the scripts being
	// walked (see walk)
	pipes [][2]span
	stmts []stmtSpan
	// assigned are the assignments of the scripts being walked whose
	// value holds a command substitution (K=$(cat key)): see linkVars
	assigned []setSpan
	// locals are the spans of the current script (subshells, pipelines,
	// substitutions, function bodies) whose changes do not outlive them
	locals []span

	reader strings.Reader // the script being parsed
	// trees are the trees of simple scripts done with, for the next
	// scripts to reuse (at most one per level of nesting)
	trees []*simpleTree
	// walks are walks done with, for the next scripts to reuse (at most
	// one per level of nesting)
	walks []*walk
	// expEnv and expCfg are what expandFields hands expand.Fields, reset
	// for each word (and expCfg emptied after it)
	expEnv env
	expCfg expand.Config
	// argBuf and dynBuf are words' scratch lists; strs and flags the
	// arenas its commands' words and flags are copied into (see argsOf)
	argBuf []string
	dynBuf []bool
	strs   []string
	flags  []bool
	cmds   []Command // the arena of commands (see take)
	// varsHome and varsCwd are the home and working directory newResolver
	// last set in vars; envVars is set when vars holds only them, as it
	// set them (see release)
	varsHome, varsCwd string
	envVars           bool
}

// empty leaves s's lists of a resolution's state empty and its reader
// holding no script, for the next resolution.
func (s *scratch) empty() {
	s.at, s.via, s.pipes, s.stmts, s.assigned, s.locals = s.at[:0], s.via[:0], s.pipes[:0], s.stmts[:0], s.assigned[:0], s.locals[:0]
	s.reader.Reset("")
	s.expEnv = env{}
}

type span struct{ from, to uint }

// place is where a command was found: the script it belongs to
// (positions are only comparable within one script) and its offset.
type place struct {
	owner  int
	offset uint
}

func spanOf(n syntax.Node) span { return span{n.Pos().Offset(), n.End().Offset()} }

func (s span) has(o uint) bool { return o >= s.from && o < s.to }

// parsers are reused: a parser is not safe for concurrent use, but may
// parse many scripts one after another.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// What resolution charges its work budget, in units of about a
// nanosecond of this project's reference machine (measured with the
// hostile inputs, analysis of the commands after resolution included):
// per script parsed and per byte of it, per syntax node walked, per
// command recorded (and later judged) and per word of it, per word
// resolved, and per field and byte a word expands to.
const (
	scriptCost  = 2048
	parseCost   = 64
	nodeCost    = 32
	commandCost = 2048
	argCost     = 64
	wordCost    = 8
	fieldCost   = 2048
)

func (r *resolver) script(src string, depth int) error {
	if !r.work.Charge(scriptCost+parseCost*len(src), "shell parsing") {
		return nil
	}
	// a script nests no deeper than it has bytes (see nesting): a short
	// one needs no scan
	if len(src) > MaxNesting && nesting(src) > MaxNesting {
		// not handed to the recursive parser: it reads as one command
		// nested too deep to follow
		r.sets = true
		id := r.nextID
		r.nextID++
		r.add(&Command{Depth: depth, TooDeep: true}, id, 0)
		return nil
	}
	// a simple script is read without the parser, into a tree of nodes
	// kept from one script to the next (see parseSimple)
	var tree *simpleTree
	if n := len(r.trees); n > 0 {
		tree, r.trees = r.trees[n-1], r.trees[:n-1]
	} else {
		tree = new(simpleTree)
	}
	defer func() {
		tree.reset() // done with: kept for the next script, holding nothing
		r.trees = append(r.trees, tree)
	}()
	f := parseSimple(src, tree)
	if f == nil {
		p := parsers.Get().(*syntax.Parser)
		r.reader.Reset(src)
		var err error
		f, err = p.Parse(&r.reader, "")
		parsers.Put(p)
		if err != nil {
			return err
		}
	}
	outerSrc := r.src
	r.src = src
	defer func() { r.src = outerSrc }()
	var w *walk
	if n := len(r.walks); n > 0 {
		w, r.walks = r.walks[n-1], r.walks[:n-1]
	} else {
		w = new(walk)
	}
	*w = walk{r: r, depth: depth, id: r.nextID, pipes: len(r.pipes), stmts: len(r.stmts), assigned: len(r.assigned)}
	r.nextID++
	first := len(r.out) // the script's commands are at first or after
	// the script's spans, pipes and statements follow those of the
	// scripts it is nested in, which get theirs back when it is done
	outer := r.locals
	r.locals = r.locals[len(r.locals):len(r.locals)]
	defer func() {
		if len(outer) == 0 {
			// outer holds no span: the room the walk grew is kept (for
			// the pool), where a script with a pipe grew it each time
			outer = r.locals[:0]
		}
		r.locals = outer
	}()
	walkTree(w, f)
	r.link(w.id, first, r.pipes[w.pipes:], r.stmts[w.stmts:], r.assigned[w.assigned:])
	r.pipes, r.stmts, r.assigned = r.pipes[:w.pipes], r.stmts[:w.stmts], r.assigned[:w.assigned]
	if w.err == nil {
		w.err = r.echoed(w.id, first)
	}
	err := w.err
	*w = walk{} // done with: kept for the next script, holding nothing
	r.walks = append(r.walks, w)
	return err
}

// walk is the walk of one script's syntax tree (see resolver.script).
type walk struct {
	r         *resolver
	depth, id int
	err       error // the first error of a command read in turn
	// where the script's pipes, statements and assignments start in
	// r.pipes, r.stmts and r.assigned
	pipes, stmts, assigned int
	// the redirections of the statement whose command is call: Walk
	// visits a statement's command right after the statement
	call   *syntax.CallExpr
	redirs []Redirect
}

// visit reads node n (see visitor).
func (w *walk) visit(n syntax.Node) bool {
	if n == nil {
		return true
	}
	r := w.r
	if !r.work.Charge(nodeCost, "shell syntax walk") {
		return false
	}
	switch n.(type) {
	case *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
		// what words are made of, read with their command (see node),
		// neither assigning nor opening a span: only the spans before
		// them end
		r.leave(n)
		return true
	}
	if !r.sets && assigns(n) {
		r.sets = true
	}
	r.leave(n)
	w.node(n)
	r.enter(n)
	if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Assigns) == 0 {
		if k := inertNodes(ce.Args); k > 0 {
			// words whose nodes a visit only charges (their command read
			// them: see node): charged as their visits are, not walked
			r.work.Charge(k*nodeCost, "shell syntax walk")
			return false
		}
	}
	return true
}

// inertNodes returns the number of nodes below the words ws (theirs
// included) when each is one a visit only charges, reading nothing and
// opening no span: a word made of literal text, quotes and plain
// parameters ($x, ${#x}, "…$x…"); otherwise 0. The spans those visits
// would close (see leave) start after the command, within its words, so
// that no inert word has one to close (see TestInertNodes).
func inertNodes(ws []*syntax.Word) int {
	k := 0
	for _, w := range ws {
		k++
		for _, p := range w.Parts {
			switch x := p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
				k++
			case *syntax.ParamExp:
				if !plainParam(x) {
					return 0
				}
				k += 2
			case *syntax.DblQuoted:
				k++
				for _, q := range x.Parts {
					switch y := q.(type) {
					case *syntax.Lit:
						k++
					case *syntax.ParamExp:
						if !plainParam(y) {
							return 0
						}
						k += 2
					default:
						return 0
					}
				}
			default:
				return 0
			}
		}
	}
	return k
}

// plainParam reports a parameter expansion that holds no node but its
// name ($x, ${x}, ${#x}, ${!x}): neither a word nor an index to walk.
func plainParam(x *syntax.ParamExp) bool {
	return x.Param != nil && x.Flags == nil && x.NestedParam == nil && x.Index == nil && x.Slice == nil && x.Repl == nil && x.Exp == nil
}

// node reads syntax node n of the script.
func (w *walk) node(n syntax.Node) {
	r, depth, id := w.r, w.depth, w.id
	switch x := n.(type) {
	case *syntax.FuncDecl:
		r.define(x)
		r.forkBomb(x, depth, id)
	case *syntax.Stmt:
		rs := r.redirects(x.Redirs)
		if ce, ok := x.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			w.call, w.redirs = ce, rs
			r.stmts = append(room(r.stmts), stmtSpan{spanOf(x), ce.Pos().Offset()})
		} else if len(rs) > 0 {
			// redirections of a compound command or of none at all
			// (> /etc/passwd): a command without words holds them.
			r.add(&Command{Redirs: rs, Depth: depth}, id, x.Pos().Offset())
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			r.pipes = append(r.pipes, [2]span{spanOf(x.X), spanOf(x.Y)})
			r.locals = append(r.locals, spanOf(x))
		}
	case *syntax.DeclClause:
		r.sessionAssigns(x.Args, depth, id, x.Pos().Offset())
		for _, as := range x.Args {
			r.assign(as)
			r.substAssign(as)
		}
		w.fail(r.envScripts(x.Args, depth, id, x.Pos().Offset()))
	case *syntax.CallExpr:
		if len(x.Assigns) > 0 {
			w.fail(r.envScripts(x.Assigns, depth, id, x.Pos().Offset()))
		}
		if len(x.Args) == 0 {
			r.sessionAssigns(x.Assigns, depth, id, x.Pos().Offset())
			for _, as := range x.Assigns {
				r.assign(as)
				r.substAssign(as)
			}
			return
		}
		cmd := r.words(x.Args)
		if len(cmd.Args) > 0 && cmd.Dynamic[0] {
			cmd = located(cmd, x.Args[0])
		}
		cmd.Depth = depth
		if len(x.Assigns) > 0 {
			cmd.Findings = r.loaderAssigns(cmd.Findings, x.Assigns)
			cmd.Findings = r.registryAssigns(cmd.Findings, x.Assigns, "the command it runs")
		}
		if x == w.call {
			cmd.Redirs = w.redirs
		}
		w.fail(r.emit(&cmd, depth, id, x.Pos().Offset()))
	}
}

// fail keeps err when it is the walk's first.
func (w *walk) fail(err error) {
	if err != nil && w.err == nil {
		w.err = err
	}
}

// commandVars are environment variables whose value a program runs as a
// command line (GIT_SSH_COMMAND='…' git fetch, PAGER='…' man ls), and
// sourceVars those that name a script a shell sources at start-up
// (BASH_ENV=f bash -c …).
var (
	commandVars = map[string]bool{"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_PAGER": true, "PAGER": true, "MANPAGER": true,
		"GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "EDITOR": true, "VISUAL": true, "SUDO_EDITOR": true, "KUBE_EDITOR": true,
		"FCEDIT": true, "GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true,
		"BROWSER": true, "PROMPT_COMMAND": true, "LESSOPEN": true, "LESSCLOSE": true, "RSYNC_RSH": true, "CVS_RSH": true,
		"SYSTEMD_PAGER": true, "AWS_PAGER": true, "GH_PAGER": true, "GIT_PROXY_COMMAND": true}
	sourceVars = map[string]bool{"BASH_ENV": true, "ENV": true}
)

// envScripts reads in turn the command lines that variables assigned in
// assigns hand to the programs that run them: they may run, so they are
// judged as if they stood in the script. A value computed at run time
// is a script computed at run time.
func (r *resolver) envScripts(assigns []*syntax.Assign, depth, id int, off uint) error {
	for _, as := range assigns {
		if as == nil || as.Name == nil || as.Value == nil || !commandVars[as.Name.Value] && !sourceVars[as.Name.Value] {
			continue
		}
		name := "$" + as.Name.Value
		var src string
		if v, ok := r.word(as.Value); ok && len(v) == 1 {
			src = v[0]
		} else if dq, ok := as.Value.Parts[0].(*syntax.DblQuoted); ok && len(as.Value.Parts) == 1 {
			// "ssh -i $KEY": the command line as written, its expansions
			// resolved (or left dynamic) in turn
			src = hdocSource(&syntax.Word{Parts: dq.Parts})
		} else {
			if err := r.dynamicScript(name, depth, id, off); err != nil {
				return err
			}
			continue
		}
		src = strings.TrimLeft(src, "|") // LESSOPEN='|cmd %s'
		if sourceVars[as.Name.Value] {
			src = ". " + tool.Quote(src)
		}
		if depth+1 >= MaxDepth {
			r.add(&Command{Depth: depth + 1, TooDeep: true}, id, off)
			continue
		}
		if err := r.nested(name, src, depth+1); err != nil {
			continue // a value that does not parse as a script is no error of the script around it
		}
	}
	return nil
}

// echoed reads in turn the script that echo or printf pipes into a shell
// of script id: echo 'rm -rf ~' | sh.
func (r *resolver) echoed(id, first int) error {
	n := len(r.out)
	for i := first; i < n; i++ {
		if r.at[i].owner != id || len(r.out[i].Args) == 0 || r.out[i].Dynamic[0] {
			continue
		}
		if name := path.Base(r.out[i].Args[0]); !runsScript(name) && name != "eval" {
			continue
		}
		c := r.out[i]
		name := path.Base(c.Args[0])
		if computedProgram(name, &c) && (len(c.Inputs) == 0 || name != "eval" && !integrationFed(r.out, &r.out[i])) {
			// eval "$X", source "$X": text warden cannot see
			if err := r.dynamicScript(name, c.Depth, id, r.at[i].offset); err != nil {
				return err
			}
			continue
		}
		subst := substScript(c)
		if !subst && !substProgram(c) && (!isShell(path.Base(c.Args[0])) || !readsStdin(c)) {
			continue
		}
		if c.Depth >= MaxDepth {
			r.out[i].TooDeep = true
			continue
		}
		fed := false
		for _, j := range c.Inputs {
			// the text printed, or decoded from a literal (see literalOut)
			text, ok := literalOut(r.out, j)
			if !ok {
				continue
			}
			fed = true
			if err := r.nested(path.Base(c.Args[0]), text, c.Depth+1); err != nil {
				return err
			}
		}
		if (subst || name == "eval") && !fed && !integrationFed(r.out, &r.out[i]) {
			// sh <(cmd), source <(cmd), eval "$(cmd)": the script is
			// cmd's output, unless cmd prints a local tool's own shell
			// integration (source <(kubectl completion bash))
			if err := r.dynamicScript(path.Base(c.Args[0]), c.Depth, id, r.at[i].offset); err != nil {
				return err
			}
		}
	}
	return nil
}

// runsScript reports a command that runs a shell script: a shell,
// source or its alias ".".
func runsScript(name string) bool { return isShell(name) || name == "source" || name == "." }

// substScript reports a shell or source whose script file is a process
// substitution, sh <(echo …): the substitution's output is the script.
func substScript(c Command) bool {
	i, _ := scriptOperand(&c)
	return i < len(c.Args) && c.Dynamic[i] && strings.HasPrefix(c.Args[i], "<(")
}

// add appends a command found in script id at offset.
func (r *resolver) add(cmd *Command, id int, off uint) {
	r.out = append(r.outRoom(), *cmd)
	c := &r.out[len(r.out)-1]
	if len(r.via) > 0 {
		// commands are read-only: those run through the same wrappers
		// share one copy of the list
		if !slices.Equal(r.viaCopy, r.via) {
			r.viaCopy = r.argsOf(r.via)
		}
		c.Via = r.viaCopy
	}
	c.Dir, c.DirDynamic = r.dir, r.dirDyn
	r.persist = r.transient == 0 && !r.inLocal(off)
	if r.capped {
		c.Capped, r.capped = true, false
	}
	r.chdir(c)
	r.builtin(c)
	r.at = append(room(r.at), place{id, off})
}

// chdir follows cd, pushd and popd: later commands of the script run in
// the new directory. A subshell's cd is followed too (a safe
// over-approximation: paths are then judged from both places at worst).
func (r *resolver) chdir(c *Command) {
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
func (r *resolver) link(id, first int, pipes [][2]span, stmts []stmtSpan, sets []setSpan) {
	var room [16]int
	own := room[:0] // this script's commands, in source order
	for i := first; i < len(r.out); i++ {
		if r.at[i].owner == id {
			own = append(own, i)
		}
	}
	if len(own) < 2 {
		return
	}
	// bounds returns the part of own inside sp.
	bounds := func(sp span) (int, int) {
		return ownFrom(own, r.at, sp.from), ownFrom(own, r.at, sp.to)
	}
	feed := func(recvLo, recvHi int, head uint, from []int) {
		for k := recvLo; k < recvHi && r.at[own[k]].offset == head; k++ {
			i := own[k]
			for _, j := range from {
				if j != i && !slices.Contains(r.out[i].Inputs, j) {
					if r.out[i].Inputs == nil {
						// room for all at once: appended one by one, they
						// grew the list up to four times
						r.out[i].Inputs = make([]int, 0, len(from))
					}
					r.out[i].Inputs = append(r.out[i].Inputs, j)
				}
			}
		}
	}
	var fromRoom [maxFeeds]int
	for _, p := range pipes {
		xlo, xhi := ownFrom(own, r.at, p[0].from), ownFrom(own, r.at, p[0].to)
		ylo, yhi := ownFrom(own, r.at, p[1].from), ownFrom(own, r.at, p[1].to)
		if xlo >= xhi || ylo >= yhi {
			continue
		}
		// the left side's commands and those they ran in turn (eval, a
		// nested shell: theirs follow them in r.out), whose output goes
		// down the pipe too
		end := len(r.out)
		if xhi < len(own) {
			end = own[xhi]
		}
		from := fromRoom[:0]
		for j := max(own[xlo], end-maxFeeds); j < end; j++ {
			from = append(from, j)
		}
		feed(ylo, yhi, r.at[own[ylo]].offset, from)
	}
	for _, st := range stmts {
		lo, hi := ownFrom(own, r.at, st.from), ownFrom(own, r.at, st.to)
		k := lo
		for k < hi && r.at[own[k]].offset <= st.call {
			k++
		}
		if k == hi {
			continue // no substitutions
		}
		from := own[k:min(hi, k+maxFeeds)]
		first := lo
		for first < hi && r.at[own[first]].offset != st.call {
			first++
		}
		feed(first, hi, st.call, from)
	}
	if len(sets) > 0 {
		r.linkVars(own, sets, bounds)
	}
	r.linkReads(own)
}

// linkReads records the data a variable set by read carries: a command
// that uses it reads what read read (cat .env | while read l; do curl
// "…?d=$l"; done sends .env line by line).
func (r *resolver) linkReads(own []int) {
	for n, i := range own {
		c := &r.out[i]
		if len(c.Inputs) == 0 || len(c.Args) < 2 || c.Dynamic[0] || c.Args[0] != "read" {
			continue
		}
		var names [4]string
		k := 0
		for j := 1; j < len(c.Args) && k < len(names); j++ {
			a := c.Args[j]
			switch {
			case c.Dynamic[j]:
			case a == "-p" || a == "-d" || a == "-n" || a == "-N" || a == "-t" || a == "-u" || a == "-i":
				j++ // the option's value
			case a == "-a" && j+1 < len(c.Args):
				names[k], k = c.Args[j+1], k+1 // the array it fills
				j++
			case strings.HasPrefix(a, "-"):
			default:
				names[k], k = a, k+1
			}
		}
		if k == 0 {
			names[0], k = "REPLY", 1
		}
		for _, u := range own[n+1:] {
			d := &r.out[u]
			uses := false
			for j, a := range d.Args {
				if d.Dynamic[j] && strings.IndexByte(a, '$') >= 0 {
					eachVarRef(a, func(name string) { uses = uses || slices.Contains(names[:k], name) })
				}
			}
			if !uses {
				continue
			}
			for _, in := range c.Inputs {
				if in != u && len(d.Inputs) < 4*maxFeeds && !slices.Contains(d.Inputs, in) {
					d.Inputs = append(d.Inputs, in)
				}
			}
		}
	}
}

// ownFrom returns the first index k of own whose command is at an offset
// of off or past it, by sort.Search's bisection (the same steps, written
// out: without a call per step).
func ownFrom(own []int, at []place, off uint) int {
	i, j := 0, len(own)
	for i < j {
		h := int(uint(i+j) >> 1)
		if at[own[h]].offset < off {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
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
				x.Target, x.Dynamic = r.source(rd.Word), true
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
			if printNode(&pb, p) == nil {
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
			r.setVar(name, "")
			r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name, Known: true})
		}
		return
	}
	v, ok := r.word(as.Value)
	if ok && len(v) == 1 && as.Append {
		v[0] = r.vars[name] + v[0]
	}
	if ok && len(v) == 1 && len(v[0]) > MaxValue {
		r.capped = true
	}
	if !ok || len(v) != 1 || len(v[0]) > MaxValue {
		r.delVar(name)
		r.setVar(name+"\x00dynamic", "")
		r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name})
		return
	}
	val := v[0]
	r.setVar(name, val)
	r.delVar(name + "\x00dynamic")
	r.record(as.Pos().Offset(), tool.Effect{Kind: tool.SetVar, Path: name, Text: val, Known: true})
}

// setVar sets the variable name to val.
func (r *resolver) setVar(name, val string) {
	r.vars[name] = val
	r.varsSet = true
}

// delVar unsets the variable name.
func (r *resolver) delVar(name string) {
	delete(r.vars, name)
	r.varsSet = true
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
	if tempVars[name] {
		if _, dyn := e.r.vars[name+"\x00dynamic"]; !dyn {
			// not set by the script or the conversation: the variable names
			// a temporary directory by convention, /tmp when unset
			return expand.Variable{Set: true, Kind: expand.String, Str: "/tmp"}
		}
	}
	e.unknown = true
	return expand.Variable{}
}

// tempVars name the temporary directory (mktemp, Python's tempfile, Go's
// os.TempDir read $TMPDIR; Windows tools $TMP and $TEMP): one the script
// does not set is resolved to /tmp, its default, rather than to a path
// computed at run time.
var tempVars = map[string]bool{"TMPDIR": true, "TMP": true, "TEMP": true, "TEMPDIR": true}

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
//
// A word is resolved only within bounds, each charged to the work budget:
// one whose expansion could exceed MaxValue bytes or maxBraceFields
// fields is not built but kept dynamic, as is every word once the budget
// is spent.
func (r *resolver) word(w *syntax.Word) ([]string, bool) {
	return r.appendWord(nil, w)
}

// appendWord appends the fields of word w to dst (see word); when w
// cannot be resolved it returns dst unchanged and false.
func (r *resolver) appendWord(dst []string, w *syntax.Word) ([]string, bool) {
	if !r.work.Charge(wordCost, "shell words") {
		return dst, false
	}
	if s, ok := literal(w); ok {
		return append(dst, s), true
	}
	if hasSubst(w) {
		return nil, false // its value is some command's output
	}
	size := r.wordSize(w.Parts, MaxValue+1)
	if size > MaxValue && size > len(r.text(w)) {
		// it grows past the bound from values, not from its own text:
		// a long literal word costs no more than the script holding it
		r.capped = true
		return nil, false
	}
	fields := 1
	if strings.Contains(r.text(w), "{") {
		split := *w // SplitBraces replaces the parts of the word it is given
		if syntax.SplitBraces(&split) {
			fields = braceFields(split.Parts, maxBraceFields+1)
		}
		if fields > maxBraceFields || fields*size > MaxValue*4 {
			r.capped = true
			return nil, false
		}
	}
	if !r.work.Charge(fields*(size+fieldCost), "shell expansion") {
		return nil, false
	}
	if out, ok, handled := r.simpleFields(dst, w); handled {
		return out, ok // what expand.Fields gives it
	}
	out, ok := r.expandFields(w)
	if !ok {
		return dst, false
	}
	if dst == nil {
		return out, true
	}
	return append(dst, out...), true
}

// expandFields expands w to its fields with expand.Fields in r's
// variables, or reports that it cannot (an unknown variable, an error,
// or a panic of expand's: it has some on arithmetic, $((++A++))).
func (r *resolver) expandFields(w *syntax.Word) (fields []string, ok bool) {
	cfg := &r.expCfg
	defer func() {
		if recover() != nil {
			fields, ok = nil, false // kept as written, dynamic
		}
		*cfg = expand.Config{} // holding nothing of the word for the pool
	}()
	e := &r.expEnv
	*e = env{r: r}
	*cfg = expand.Config{Env: e} // no CmdSubst, no ReadDir: nothing runs, nothing globs
	out, err := expand.Fields(cfg, w)
	if err != nil || e.unknown {
		return nil, false
	}
	return out, true
}

// expands reports whether an unquoted literal holds a character that
// tilde, brace or pattern expansion, or an escape, act on: ~ { } * ? [ ] \.
func expands(s string) bool {
	for ; len(s) >= 4; s = s[4:] {
		// four bytes at a time, one branch for them
		if expanding[s[0]]|expanding[s[1]]|expanding[s[2]]|expanding[s[3]] != 0 {
			return true
		}
	}
	for i := 0; i < len(s); i++ {
		if expanding[s[i]] != 0 {
			return true
		}
	}
	return false
}

// expanding marks the bytes expands looks for (1; 0 for the others).
var expanding = [256]uint8{'~': 1, '{': 1, '}': 1, '*': 1, '?': 1, '[': 1, ']': 1, '\\': 1}

// literal returns the value of a word that needs no expansion: a plain
// word without the characters that tilde, brace or pattern expansion, or
// escapes, act on, or one single-quoted.
func literal(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if !expands(p.Value) {
				return p.Value, true
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value, true
			}
		}
	}
	return "", false
}

// text returns the source text of node n of the script being walked, or,
// for a node that is not from it, its printed form.
func (r *resolver) text(n syntax.Node) string {
	from, to := n.Pos().Offset(), n.End().Offset()
	if n.Pos().IsValid() && from <= to && to <= uint(len(r.src)) {
		return r.src[from:to]
	}
	var b strings.Builder
	if err := printNode(&b, n); err != nil {
		return "$?"
	}
	return b.String()
}

// hasSubst reports whether a word holds a command or process
// substitution, whose value only running a command could give.
func hasSubst(w *syntax.Word) bool {
	return w != nil && partsHaveSubst(w.Parts)
}

// partsHaveSubst is hasSubst for the parts of a word. The parts words
// are made of are read directly; others (arithmetic, which nests
// expressions) are walked.
func partsHaveSubst(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return true
		case *syntax.DblQuoted:
			if partsHaveSubst(x.Parts) {
				return true
			}
		case *syntax.ParamExp:
			if x.NestedParam != nil && partsHaveSubst([]syntax.WordPart{x.NestedParam}) ||
				x.Index != nil && walkHasSubst(x.Index) ||
				x.Slice != nil && (x.Slice.Offset != nil && walkHasSubst(x.Slice.Offset) || x.Slice.Length != nil && walkHasSubst(x.Slice.Length)) ||
				x.Repl != nil && (hasSubst(x.Repl.Orig) || hasSubst(x.Repl.With)) ||
				x.Exp != nil && hasSubst(x.Exp.Word) {
				return true
			}
		default:
			if walkHasSubst(p) {
				return true
			}
		}
	}
	return false
}

// walkHasSubst reports whether syntax node n holds a command or process
// substitution, walking all of it.
func walkHasSubst(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
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
//
// The words are built in the resolver's scratch lists, then copied into
// its arena (see argsOf): a command costs no allocation of its own.
func (r *resolver) words(ws []*syntax.Word) Command {
	args, dyn, anyDyn := r.argBuf[:0], r.dynBuf[:0], false
	r.printing = false
	for i, w := range ws {
		if i == 1 && !dyn[0] {
			r.printing = printsOnly(args[0])
		}
		if s, ok := literal(w); ok && r.work.Charge(wordCost, "shell words") {
			// appendWord's first case, without the call: most words
			args, dyn = append(args, s), append(dyn, false)
			continue
		}
		n := len(args)
		if f, ok := r.appendWord(args, w); ok {
			args = f
			for range f[n:] {
				dyn = append(dyn, false)
			}
			continue
		}
		args = append(args, r.source(w))
		dyn = append(dyn, true)
		anyDyn = true
	}
	r.printing = false
	c := Command{Args: r.argsOf(args), Dynamic: r.dynamicOf(dyn, anyDyn)}
	if cap(args) <= maxScratch {
		clear(args) // holds no words for the pool
		r.argBuf, r.dynBuf = args[:0], dyn[:0]
	}
	return c
}

// arenaCopy returns a copy of src in the arena *arena, whose chunks hold
// chunk items: a slice of the current chunk (its capacity its length, so
// that an append never reaches into the next copy), or a slice of its own
// when src is longer than a quarter of a chunk. Commands are read-only
// (see Command), so that no copy is ever written: a chunk outlives the
// resolution (the pool keeps it, the rest unused) and holds at most chunk
// items of commands already returned.
func arenaCopy[T any](arena *[]T, src []T, chunk int) []T {
	n := len(src)
	if n > chunk/4 {
		return append(make([]T, 0, n), src...)
	}
	if cap(*arena)-len(*arena) < n {
		*arena = make([]T, 0, chunk)
	}
	from := len(*arena)
	*arena = append(*arena, src...)
	return (*arena)[from : from+n : from+n]
}

// argsOf returns a copy of args in r's arena of words (arenaCopy).
func (r *resolver) argsOf(args []string) []string {
	if len(args) == 0 {
		return []string{}
	}
	return arenaCopy(&r.strs, args, arenaChunk)
}

// dynamicOf returns dyn as argsOf returns args: a slice of allStatic when
// no word is dynamic (anyDyn false), else a copy in r's arena of flags.
func (r *resolver) dynamicOf(dyn []bool, anyDyn bool) []bool {
	if !anyDyn {
		return noneDynamic(len(dyn))
	}
	return arenaCopy(&r.flags, dyn, arenaChunk)
}

// take returns the commands r resolved (nil when there are none) and
// empties r.out. Commands that stayed in the free end of r's arena of
// commands (see outRoom) are handed out in place, the arena growing over
// them; a longer list, which outgrew it, is handed out as it is.
func (r *resolver) take() []Command {
	n := len(r.out)
	if n == 0 {
		r.out = nil
		return nil
	}
	out := r.out[:n:n]
	if k := len(r.cmds); k < cap(r.cmds) && &r.cmds[:k+1][k] == &out[0] {
		r.cmds = r.cmds[:k+n]
	} else {
		clear(r.cmds[k:cap(r.cmds)]) // what the list held before it grew: nothing for the pool
	}
	r.out = nil
	return out
}

// outRoom returns r.out with room for one more command: a resolution's
// commands are added in the free end of r's arena of commands (a new
// chunk when it has none), for take to hand out without copying, and
// past it in a list of their own, grown as room grows lists.
func (r *resolver) outRoom() []Command {
	if r.out == nil {
		if len(r.cmds) == cap(r.cmds) {
			r.cmds = make([]Command, 0, cmdChunk)
		}
		r.out = r.cmds[len(r.cmds):len(r.cmds)]
	}
	return room(r.out)
}

// cmdChunk is the size of a chunk of the arena of commands (see take).
const cmdChunk = 16

// noneDynamic returns the Dynamic of a command of n words none of which
// is dynamic: a slice of allStatic when it is long enough.
func noneDynamic(n int) []bool {
	if n > len(allStatic) {
		return make([]bool, n)
	}
	return allStatic[:n:n]
}

// arenaChunk is the size of a chunk of the arenas of words and flags
// (see argsOf); a command of more than a quarter of it has its own.
const arenaChunk = 64

// allStatic is the Dynamic of every command none of whose words are
// dynamic, up to its length: never written (see argsOf), never reached by
// an append (each slice of it has its length as capacity).
var allStatic [256]bool

// source is a dynamic word as written: printed (in bash's normal form)
// when short, its text in the script as is when long, so that keeping a
// word nested in many substitutions costs nothing per level.
func (r *resolver) source(w *syntax.Word) string {
	if t := r.text(w); len(t) > 1024 {
		return t
	}
	if s, ok := printedWord(w); ok {
		return s // as the printer prints it, without the printer
	}
	if d := r.direct(w); d != w {
		// ${!v} of a known name reads as that variable: ${NAME}
		if s, ok := printedWord(d); ok {
			return s
		}
		w = d
	}
	return source(w)
}

func source(w *syntax.Word) string {
	var b strings.Builder
	if err := printNode(&b, w); err != nil {
		return "$?"
	}
	return b.String()
}

// shellPrinters are the printers printNode reuses: a new one costs a 4 KiB
// buffer, which a script of many dynamic words paid for every word.
var shellPrinters = sync.Pool{New: func() any { return syntax.NewPrinter() }}

// printNode prints n in bash's normal form to b.
func printNode(b *strings.Builder, n syntax.Node) error {
	p := shellPrinters.Get().(*syntax.Printer)
	defer shellPrinters.Put(p)
	return p.Print(b, n)
}

// emit records cmd and whatever it runs in turn: the script of a shell's
// -c, the text of eval, and the command behind a wrapper.
func (r *resolver) emit(cmd *Command, depth, id int, off uint) error {
	if depth >= MaxDepth {
		deep := *cmd
		deep.TooDeep = true // what it runs in turn is not followed
		cmd = &deep
		r.sets = true
	}
	r.add(cmd, id, off)
	if depth >= MaxDepth || len(cmd.Args) == 0 || cmd.Dynamic[0] || !r.work.Charge(commandCost+argCost*len(cmd.Args), "shell commands") {
		return nil
	}
	if done, err := r.expand(cmd, depth); done {
		return err
	}
	name := path.Base(cmd.Args[0])
	i := 0
	if isShell(name) {
		// tool.ShellScriptIndex reads a shell's -c script, and tool's
		// shells are each one of ours (TestShellNames): another command
		// skips it
		i = tool.ShellScriptIndex(cmd.Args)
	}
	if i > 0 {
		if cmd.Dynamic[i] {
			if st, ok := stableText(cmd.Args[i]); ok {
				return r.nested(name, st, depth+1) // sh -c "tar czf b-$(date +%F).tgz src"
			}
			return r.dynamicScript(name, depth, id, off) // the script is computed at run time
		}
		return r.nested(name, cmd.Args[i], depth+1)
	}
	if runsScript(name) && readsStdin(*cmd) && (isShell(name) || len(cmd.Args) > 1) {
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
func (r *resolver) emitVia(name string, inner *Command, id int, off uint) error {
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
// Every name of them ends in "sh" (see isShell).
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true}

// isShell reports a program of shells, testing the name's end before the
// map: most programs, read for each command, end otherwise.
func isShell(name string) bool { return strings.HasSuffix(name, "sh") && shells[name] }

// readsStdin reports whether a shell takes its script from stdin: no
// script file operand, -s, or a file that is stdin.
func readsStdin(c Command) bool {
	_, stdin := scriptOperand(&c)
	return stdin
}

// scriptOperand returns the index of the script file operand of a shell
// or source command (len(c.Args) when there is none), past its options
// (and the names -o and -O take), and whether the script is read from
// stdin: no operand, -s, - or a file that is stdin.
func scriptOperand(c *Command) (int, bool) {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case c.Dynamic[i]:
			return i, false
		case a == "-s" || a == "-" || a == "/dev/stdin" || a == "/dev/fd/0" || a == "/proc/self/fd/0":
			return i, true
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return i, false
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++ // the option's name
		}
	}
	return len(c.Args), true
}

// room returns s with room for one more item, grown to twice its length
// when full. append grows a long slice by a quarter at a time, which for
// the lists that grow with a script (its commands, their places and
// effects) allocates and copies about five times the final list; doubling
// does it about twice.
func room[T any](s []T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 1))
	}
	return s
}
