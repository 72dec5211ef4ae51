package shell

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/tool"
)

// inPlace are the wrappers and nested scripts that run in the shell
// itself, so that what they change persists: eval, an alias's or a
// function's text, and the builtins command and builtin.
var inPlace = map[string]bool{"eval": true, "alias": true, "function": true, "command": true, "builtin": true}

// leave keeps r.locals to the spans that hold node n.
func (r *resolver) leave(n syntax.Node) {
	if len(r.locals) > 0 { // most often none: the check is inlined
		r.leaveSpans(n)
	}
}

// leaveSpans is leave when r.locals holds spans.
func (r *resolver) leaveSpans(n syntax.Node) {
	off := n.Pos().Offset()
	for len(r.locals) > 0 && r.locals[len(r.locals)-1].to <= off {
		r.locals = r.locals[:len(r.locals)-1]
	}
}

// enter adds node n's span to r.locals when what changes inside it is
// lost when it ends: a subshell, a command or process substitution, a
// function body.
func (r *resolver) enter(n syntax.Node) {
	switch n.(type) {
	case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
		r.locals = append(r.locals, spanOf(n))
	}
}

// inLocal reports whether offset off of the current script lies in a
// span whose changes do not persist.
func (r *resolver) inLocal(off uint) bool {
	for _, sp := range r.locals {
		if sp.has(off) {
			return true
		}
	}
	return false
}

// record notes a change of the persistent shell made at offset off of the
// current script, unless it is made where it does not persist.
func (r *resolver) record(off uint, e tool.Effect) {
	if r.transient == 0 && !r.inLocal(off) {
		r.changes = append(room(r.changes), e)
	}
}

// maxBody bounds the text of a function or alias kept for later calls.
const maxBody = 16 << 10

// define records a function definition: later calls in the script, and in
// later scripts when it persists, run its body.
func (r *resolver) define(f *syntax.FuncDecl) {
	if f.Name == nil || f.Body == nil {
		return
	}
	var b strings.Builder
	if err := printNode(&b, f.Body); err != nil || b.Len() > maxBody {
		return
	}
	name := f.Name.Value
	r.set(&r.funcs, 1, name, b.String())
	r.record(f.Pos().Offset(), tool.Effect{Kind: tool.SetFunc, Path: name, Text: b.String(), Known: true})
}

// set writes m[k] = v, copying m first when it is still the prior state's.
func (r *resolver) set(m *map[string]string, bit uint8, k, v string) {
	if r.owned&bit == 0 {
		*m = maps.Clone(*m)
		if *m == nil {
			*m = map[string]string{}
		}
		r.owned |= bit
	}
	(*m)[k] = v
}

func (r *resolver) del(m *map[string]string, bit uint8, k string) {
	if _, ok := (*m)[k]; !ok {
		return
	}
	if r.owned&bit == 0 {
		*m = maps.Clone(*m)
		r.owned |= bit
	}
	delete(*m, k)
}

// The bits of r.owned.
const (
	ownFuncs uint8 = 1 << iota
	ownAliases
	ownGit
)

// builtin follows the builtins that change the shell: unset, alias,
// unalias, and cd, pushd and popd (whose new directory chdir computed).
func (r *resolver) builtin(c *Command) {
	if len(c.Args) == 0 || c.Dynamic[0] {
		return
	}
	switch c.Args[0] {
	case "export", "declare", "typeset", "readonly", "local":
		// reached when the line was split on blanks, not parsed
		for i, a := range c.Args[1:] {
			name, val, ok := strings.Cut(a, "=")
			if !ok || c.Dynamic[i+1] || !validName(name) {
				continue
			}
			r.setVar(name, val)
			r.delVar(name + "\x00dynamic")
			if f, ok := registryFinding(name, val, false, "every later install"); ok {
				c.Findings = append(c.Findings, f) // as sessionAssigns for a parsed line
			}
			if r.persist && c.Args[0] != "local" {
				r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetVar, Path: name, Text: val, Known: true})
			}
		}
	case "set":
		// set -- a b: the positional parameters (a script run with
		// arguments is read as set -- args, then its text)
		if len(c.Args) >= 2 && c.Args[1] == "--" {
			r.pos, r.posDyn, r.posSet = c.Args[2:], c.Dynamic[2:], true
		}
	case "cd", "pushd", "popd":
		if r.persist {
			r.changes = append(room(r.changes), tool.Effect{Kind: tool.Chdir, Path: r.dir, Known: !r.dirDyn && r.dir != ""})
		}
	case "unset":
		fn := false
		for i, a := range c.Args[1:] {
			switch {
			case a == "-f":
				fn = true
			case strings.HasPrefix(a, "-") || c.Dynamic[i+1]:
			case fn:
				r.del(&r.funcs, ownFuncs, a)
				if r.persist {
					r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetFunc, Path: a})
				}
			default:
				r.delVar(a)
				if r.persist {
					r.changes = append(room(r.changes), tool.Effect{Kind: tool.UnsetVar, Path: a})
				}
			}
		}
	case "alias":
		for i, a := range c.Args[1:] {
			name, val, ok := strings.Cut(a, "=")
			if !ok || c.Dynamic[i+1] || name == "" || len(val) > maxBody {
				continue
			}
			r.set(&r.aliases, ownAliases, name, val)
			if r.persist {
				r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetAlias, Path: name, Text: val, Known: true})
			}
		}
	case "unalias":
		for i, a := range c.Args[1:] {
			if c.Dynamic[i+1] || strings.HasPrefix(a, "-") {
				continue
			}
			r.del(&r.aliases, ownAliases, a)
			if r.persist {
				r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetAlias, Path: a})
			}
		}
	}
}

// expand runs what an alias, a function or a git alias stands for, in
// place of the command that names it, and records git aliases being set.
// It reports whether the command was expanded.
func (r *resolver) expand(cmd *Command, depth int) (bool, error) {
	name := cmd.Args[0]
	inShell := len(r.via) == 0 || inPlace[r.via[len(r.via)-1]]
	if inShell && !slices.Contains(r.expanding, name) {
		if v, ok := r.aliases[name]; ok {
			return true, r.expandAs("alias", name, v+" "+Command{Args: cmd.Args[1:], Dynamic: cmd.Dynamic[1:]}.Line(), depth)
		}
		if body, ok := r.funcs[name]; ok {
			saved, savedDyn, savedSet := r.pos, r.posDyn, r.posSet
			r.pos, r.posDyn, r.posSet = cmd.Args[1:], cmd.Dynamic[1:], true
			err := r.expandAs("function", name, body, depth)
			r.pos, r.posDyn, r.posSet = saved, savedDyn, savedSet
			return true, err
		}
	}
	if path.Base(name) == "git" {
		return r.git(cmd, depth)
	}
	return false, nil
}

// maxExpansions bounds the aliases, functions and git aliases expanded in
// one script, so that functions calling each other many times over cannot
// make resolution exponential.
const maxExpansions = 64

func (r *resolver) expandAs(kind, name, src string, depth int) error {
	if r.expansions >= maxExpansions {
		return nil
	}
	r.expansions++
	r.expanding = append(r.expanding, name)
	err := r.nested(kind, src, depth+1)
	r.expanding = r.expanding[:len(r.expanding)-1]
	return err
}

// git follows `git config alias.NAME VALUE` (and -c alias.NAME=VALUE) and
// expands a git command that names an alias: a force push hidden behind
// `git sync` is read as the push it is.
func (r *resolver) git(cmd *Command, depth int) (bool, error) {
	local := map[string]string{}
	i := 1
	for i < len(cmd.Args) {
		a := cmd.Args[i]
		if a == "-c" && i+1 < len(cmd.Args) {
			if k, v, ok := strings.Cut(cmd.Args[i+1], "="); ok && strings.HasPrefix(k, "alias.") && !cmd.Dynamic[i+1] {
				local[k[len("alias."):]] = v
			}
			i += 2
			continue
		}
		if a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" {
			i += 2
			continue
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		i++
	}
	if i >= len(cmd.Args) || cmd.Dynamic[i] {
		return false, nil
	}
	sub := cmd.Args[i]
	switch sub {
	case "config", "remote":
		var room gitRoom
		if g, ok := readGit(*cmd, &room); ok {
			edits, n := remoteEdits(g, func(name string) (string, bool) { u, ok := r.gitAliases[RemoteKey(name)]; return u, ok })
			for _, e := range edits[:n] {
				r.setRemote(e.name, e.url)
			}
		}
		if sub == "config" {
			r.gitConfig(cmd, i+1)
		}
		return false, nil
	}
	if gitCommand(sub) || slices.Contains(r.expanding, "git "+sub) {
		return false, nil // git ignores aliases that shadow its commands
	}
	v, ok := local[sub]
	if !ok {
		v, ok = r.gitAliases[sub]
	}
	if !ok {
		return false, nil
	}
	rest := Command{Args: cmd.Args[i+1:], Dynamic: cmd.Dynamic[i+1:]}.Line()
	src := "git " + v + " " + rest
	if sh, ok := strings.CutPrefix(v, "!"); ok {
		src = sh + " " + rest
	}
	return true, r.expandAs("alias", "git "+sub, src, depth)
}

// gitConfig records the aliases `git config` sets or unsets; args[from:]
// follow the word config.
func (r *resolver) gitConfig(cmd *Command, from int) {
	var ops []string
	unset := false
	for i := from; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		switch {
		case a == "--unset" || a == "--unset-all":
			unset = true
		case a == "--file" || a == "-f" || a == "--type" || a == "--blob":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if cmd.Dynamic[i] {
				return
			}
			ops = append(ops, a)
		}
	}
	if len(ops) == 0 || !strings.HasPrefix(strings.ToLower(ops[0]), "alias.") {
		return
	}
	name := ops[0][len("alias."):]
	switch {
	case unset:
		r.del(&r.gitAliases, ownGit, name)
		r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetGitAlias, Path: name})
	case len(ops) >= 2 && len(ops[1]) <= maxBody:
		r.set(&r.gitAliases, ownGit, name, ops[1])
		// git writes its configuration to disk: the alias outlives any
		// subshell
		r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetGitAlias, Path: name, Text: ops[1], Known: true})
	}
}

// A remote the conversation adds or re-points is kept with the git
// aliases, as git keeps both in its configuration: under the key
// remote.NAME.url (no alias name holds a dot), so that a push to it in a
// later call is known as a push to where the conversation chose (see
// gitRemotes).

// remoteURLKey reads a git configuration key remote.NAME.url (or
// pushurl, which is where pushes go) and returns NAME.
func remoteURLKey(key string) (string, bool) {
	k := strings.ToLower(key)
	if !strings.HasPrefix(k, "remote.") {
		return "", false
	}
	for _, suffix := range []string{".url", ".pushurl"} {
		if strings.HasSuffix(k, suffix) && len(k) > len("remote.")+len(suffix) {
			return key[len("remote.") : len(key)-len(suffix)], true
		}
	}
	return "", false
}

// RemoteKey is the key under which tool.Prior's GitAliases holds the URL
// of a remote the conversation set.
func RemoteKey(name string) string { return "remote." + name + ".url" }

// setRemote records that remote name now points at url, or is gone
// (url ""; see remoteEdits).
func (r *resolver) setRemote(name, url string) {
	if name == "" || len(url) > maxBody {
		return
	}
	key := RemoteKey(name)
	if url == "" {
		r.del(&r.gitAliases, ownGit, key)
		r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetGitAlias, Path: key})
		return
	}
	r.set(&r.gitAliases, ownGit, key, url)
	r.changes = append(room(r.changes), tool.Effect{Kind: tool.SetGitAlias, Path: key, Text: url, Known: true})
}

// gitCommand reports whether name is one of git's own commands, which an
// alias cannot replace.
func gitCommand(name string) bool {
	switch name {
	case "add", "am", "apply", "archive", "bisect", "blame", "branch", "bundle", "checkout", "cherry-pick",
		"clean", "clone", "commit", "config", "describe", "diff", "fetch", "format-patch", "gc", "grep",
		"init", "log", "merge", "mv", "notes", "pull", "push", "range-diff", "rebase", "reflog", "remote",
		"repack", "replace", "reset", "restore", "revert", "rm", "shortlog", "show", "sparse-checkout",
		"stash", "status", "submodule", "switch", "tag", "worktree", "help", "version":
		return true
	}
	return false
}

// positional reports whether name is a positional parameter or one of
// the parameters made of them.
func positional(name string) bool {
	if name == "@" || name == "*" || name == "#" {
		return true
	}
	_, err := strconv.Atoi(name)
	return err == nil && name != "0"
}

// positional returns the value of a positional parameter inside a
// function whose arguments are known; an argument computed at run time
// makes the word unknown.
func (r *resolver) positional(name string, unknown *bool) expand.Variable {
	switch name {
	case "#":
		return expand.Variable{Set: true, Kind: expand.String, Str: strconv.Itoa(len(r.pos))}
	case "@", "*":
		if slices.Contains(r.posDyn, true) {
			*unknown = true
			return expand.Variable{}
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: r.pos}
	}
	n, _ := strconv.Atoi(name)
	if n > len(r.pos) {
		return expand.Variable{} // unset: empty, as bash has it
	}
	if r.posDyn[n-1] {
		*unknown = true
		return expand.Variable{}
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: r.pos[n-1]}
}

// abs resolves p where the script stands: against the directory of its
// last cd, or the one it started in.
func (r *resolver) abs(p string) string {
	base := r.dir
	if base == "" {
		base = r.vars["PWD"]
	}
	return Env{Cwd: base, Home: r.vars["HOME"]}.Abs(p)
}

// listed gives the command xargs runs the paths its argument file lists,
// when an earlier call wrote that listing (find ~ > list; xargs -a list
// rm -rf): xargs reads the file with -a or on stdin.
func (r *resolver) listed(xargs, inner *Command) *Command {
	if len(r.lists) == 0 {
		return inner
	}
	file := ""
	for i := 1; i < len(xargs.Args); i++ {
		a := xargs.Args[i]
		switch {
		case (a == "-a" || a == "--arg-file") && i+1 < len(xargs.Args) && !xargs.Dynamic[i+1]:
			file = xargs.Args[i+1]
		case strings.HasPrefix(a, "--arg-file=") && !xargs.Dynamic[i]:
			file = a[len("--arg-file="):]
		}
	}
	for _, rd := range xargs.Redirs {
		if rd.Op == "<" && !rd.Dynamic && file == "" {
			file = rd.Target
		}
	}
	if file == "" {
		return inner
	}
	list, ok := r.lists[r.abs(file)]
	if !ok {
		return inner
	}
	out := &Command{Args: slices.Clone(inner.Args), Dynamic: slices.Clone(inner.Dynamic), Depth: inner.Depth}
	for _, p := range list {
		out.Args = append(out.Args, p)
		out.Dynamic = append(out.Dynamic, false)
	}
	return out
}

// validName reports a shell variable name.
func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
