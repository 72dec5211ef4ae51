package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Two idioms read a command's output where warden could otherwise see only
// "a value computed at run time", and both are readable when that output
// comes from a local tool that reports on itself:
//
//   - a location query in command position names a local program:
//     $(npm root)/.bin/eslint, $(which python3), "$(git rev-parse
//     --show-toplevel)/scripts/lint.sh", $(go env GOPATH)/bin/golangci-lint.
//     The query prints a folder or a program's path that the agent does not
//     choose, so the command is the program the suffix's base name (or the
//     query's subject) names, judged as that program, or as an unknown
//     local program when warden does not know it;
//   - a local tool's own shell integration, sourced or evaluated: source
//     <(kubectl completion bash), eval "$(pyenv init -)", eval "$(ssh-agent
//     -s)". Its output is the tool's functions and variables, not a script
//     anyone chose; what the tool does is judged as the command it is.
//
// Anything else stays computed at run time: a substitution that fetches
// (curl), decodes (base64 -d), reads a file or a variable, or holds more
// than one literal command.

// located returns cmd, whose name (written as w) is computed at run time,
// named by the program a location query names (see locatedName), or cmd
// as it is when its name is something else.
func located(cmd Command, w *syntax.Word) Command {
	name, ok := locatedName(w)
	if !ok {
		return cmd
	}
	args := make([]string, len(cmd.Args))
	copy(args, cmd.Args)
	args[0] = name
	dyn := noneDynamic(len(cmd.Args))
	if !static(cmd, 1) && len(cmd.Args) > 1 {
		dyn = make([]bool, len(cmd.Dynamic))
		copy(dyn[1:], cmd.Dynamic[1:])
	}
	cmd.Args, cmd.Dynamic = args, dyn
	return cmd
}

// locatedName returns the program a command-position word of the form
// $(QUERY)SUFFIX names (see above), when QUERY is a location query of
// literal words and SUFFIX literal: the base name of SUFFIX, or, for a
// query that prints a program's path and no suffix, the program queried.
func locatedName(w *syntax.Word) (string, bool) {
	parts := w.Parts
	if len(parts) == 0 {
		return "", false
	}
	if dq, ok := parts[0].(*syntax.DblQuoted); ok && !dq.Dollar {
		// "$(git rev-parse --show-toplevel)/x" or "$(npm root)"/.bin/x
		flat := make([]syntax.WordPart, 0, len(dq.Parts)+len(parts)-1)
		parts = append(append(flat, dq.Parts...), parts[1:]...)
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok {
		return "", false
	}
	var suffix strings.Builder
	for _, p := range parts[1:] {
		switch x := p.(type) {
		case *syntax.Lit:
			if expands(x.Value) {
				return "", false
			}
			suffix.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			suffix.WriteString(x.Value)
		default:
			return "", false
		}
	}
	args, ok := substArgs(cs)
	if !ok {
		return "", false
	}
	subject, folder := locationQuery(args)
	sfx := suffix.String()
	switch {
	case subject != "" && sfx == "":
		return commandName(subject), true
	case folder && strings.HasPrefix(sfx, "/"):
		base := path.Base(sfx)
		if base == "/" || base == "." || base == ".." || strings.HasSuffix(sfx, "/") {
			return "", false // a folder, not a program
		}
		return base, true
	}
	return "", false
}

// substArgs returns the words of a command substitution that holds one
// simple command of literal words, whose only redirections send errors or
// output to /dev/null.
func substArgs(cs *syntax.CmdSubst) ([]string, bool) {
	if len(cs.Stmts) != 1 || len(cs.Last) > 0 {
		return nil, false
	}
	st := cs.Stmts[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(ce.Assigns) > 0 || len(ce.Args) == 0 || len(ce.Args) > 8 {
		return nil, false
	}
	for _, rd := range st.Redirs {
		if rd.Word == nil || (rd.Op != syntax.RdrOut && rd.Op != syntax.AppOut && rd.Op != syntax.DplOut) {
			return nil, false
		}
		if t, ok := literal(rd.Word); !ok || (t != "/dev/null" && t != "1" && t != "2") {
			return nil, false
		}
	}
	args := make([]string, 0, len(ce.Args))
	for _, a := range ce.Args {
		s, ok := literal(a)
		if !ok {
			return nil, false
		}
		args = append(args, s)
	}
	return args, true
}

// locationQuery reads a read-only query that prints where a program or a
// tool's folder is: it returns the program queried (which X, command -v X,
// pyenv which X, xcrun -f X, yarn bin X), or folder true for a query that
// prints a folder (npm root, go env GOPATH, brew --prefix, git rev-parse
// --show-toplevel, pyenv root …).
func locationQuery(a []string) (subject string, folder bool) {
	name := commandName(a[0])
	rest := a[1:]
	switch name {
	case "which":
		if len(rest) == 1 && !strings.HasPrefix(rest[0], "-") {
			return rest[0], false
		}
	case "command", "type", "whence":
		// command -v X, type -p X, type -P X, whence -p X
		if len(rest) == 2 && (rest[0] == "-v" || rest[0] == "-p" || rest[0] == "-P") && (name != "command" || rest[0] == "-v") &&
			!strings.HasPrefix(rest[1], "-") {
			return rest[1], false
		}
	case "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "asdf", "mise", "rtx", "rustup":
		if len(rest) == 2 && rest[0] == "which" && !strings.HasPrefix(rest[1], "-") {
			return rest[1], false
		}
		if len(rest) >= 1 && (rest[0] == "root" || rest[0] == "prefix") && len(rest) <= 2 && name != "rustup" {
			return "", true
		}
	case "xcrun":
		if len(rest) == 2 && (rest[0] == "-f" || rest[0] == "--find" || rest[0] == "-find") {
			return rest[1], false
		}
		if len(rest) == 1 && (rest[0] == "--show-sdk-path" || rest[0] == "--show-sdk-platform-path") {
			return "", true
		}
	case "npm", "pnpm":
		if len(rest) >= 1 && (rest[0] == "root" || rest[0] == "bin" || rest[0] == "prefix") && onlyOf(rest[1:], "-g", "--global", "-w", "--workspace-root") {
			return "", true
		}
		if len(rest) == 3 && rest[0] == "config" && rest[1] == "get" && rest[2] == "prefix" {
			return "", true
		}
	case "yarn":
		if len(rest) == 1 && rest[0] == "bin" {
			return "", true
		}
		if len(rest) == 2 && rest[0] == "bin" && !strings.HasPrefix(rest[1], "-") {
			return rest[1], false
		}
		if len(rest) == 2 && rest[0] == "global" && (rest[1] == "bin" || rest[1] == "dir") {
			return "", true
		}
	case "go":
		if len(rest) == 2 && rest[0] == "env" && (rest[1] == "GOPATH" || rest[1] == "GOROOT" || rest[1] == "GOBIN") {
			return "", true
		}
	case "brew":
		if len(rest) >= 1 && len(rest) <= 2 && (rest[0] == "--prefix" || rest[0] == "--repository" || rest[0] == "--cellar") &&
			(len(rest) == 1 || !strings.HasPrefix(rest[1], "-")) {
			return "", true
		}
	case "git":
		if len(rest) == 2 && rest[0] == "rev-parse" && (rest[1] == "--show-toplevel" || rest[1] == "--git-common-dir") {
			return "", true
		}
	case "pwd":
		return "", len(rest) == 0
	case "rustc":
		return "", len(rest) == 2 && rest[0] == "--print" && rest[1] == "sysroot"
	case "xcode-select":
		return "", len(rest) == 1 && (rest[0] == "-p" || rest[0] == "--print-path")
	case "poetry":
		return "", len(rest) == 3 && rest[0] == "env" && rest[1] == "info" && (rest[2] == "-p" || rest[2] == "--path")
	case "pipenv":
		return "", len(rest) == 1 && rest[0] == "--venv"
	case "conda", "mamba", "micromamba":
		return "", len(rest) == 2 && rest[0] == "info" && rest[1] == "--base"
	}
	return "", false
}

// onlyOf reports whether every word of ws is one of allowed.
func onlyOf(ws []string, allowed ...string) bool {
	for _, w := range ws {
		found := false
		for _, a := range allowed {
			if w == a {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// integrationFed reports whether c, a source of a process substitution or
// an eval of a command substitution, reads nothing but one local tool's
// own shell integration (see above): its one input (in cmds) is such a
// command, fed by nothing, and the word that holds it holds nothing else.
func integrationFed(cmds []Command, c *Command) bool {
	if len(c.Inputs) == 0 || len(c.Args) < 2 {
		return false
	}
	// the substitution's command comes first; the others are what it may
	// run in turn, nested deeper (a program warden does not know may run
	// its arguments: zoxide init bash)
	first := slices.Min(c.Inputs)
	in := &cmds[first]
	for _, j := range c.Inputs {
		if j != first && cmds[j].Depth <= in.Depth {
			return false // another command: a pipe, a second substitution
		}
	}
	if len(in.Inputs) > 0 || !static(*in, 0) || !shellIntegration(in.Args) {
		return false
	}
	if commandName(c.Args[0]) == "eval" {
		return len(c.Args) == 2 && pureSubst(strings.TrimSuffix(strings.TrimPrefix(c.Args[1], `"`), `"`), "$(")
	}
	i, _ := scriptOperand(c)
	return i < len(c.Args) && pureSubst(c.Args[i], "<(")
}

// pureSubst reports a word (as resolver.source prints it) that is one
// substitution opened by open, or one in backquotes, and nothing else.
func pureSubst(s, open string) bool {
	if strings.HasPrefix(s, "`") {
		return len(s) > 2 && strings.HasSuffix(s, "`") && strings.Count(s, "`") == 2 && !strings.ContainsAny(s, "$;&|<>")
	}
	if !strings.HasPrefix(s, open) || !strings.HasSuffix(s, ")") {
		return false
	}
	body := s[len(open) : len(s)-1]
	return !strings.ContainsAny(body, "$`;&|<>()")
}

// shellNames are the shells an integration is printed for.
var shellNames = wordSet(`bash zsh fish sh ksh tcsh csh elvish nu nushell xonsh pwsh powershell -`)

// shellIntegration reports a command line (literal words) that prints its
// own program's shell integration: X completion[s] [SHELL], X init
// SHELL|-, direnv hook SHELL, ssh-agent -s, brew shellenv, mise activate
// SHELL, fnm env, opam env, conda shell.bash hook, thefuck --alias,
// dircolors -b and the like. A shell, an interpreter, a wrapper (whose
// words are another command), a downloader or a decoder is none.
func shellIntegration(a []string) bool {
	name := commandName(a[0])
	if isShell(name) || wraps(name, a) || decoder(name, Command{Args: a, Dynamic: noneDynamic(len(a))}) {
		return false
	}
	k := DefaultKnowledge()
	if k.down[name] || k.interp[interpreterName(name)] {
		return false
	}
	rest := a[1:]
	flagsOr := func(ws []string, ok func(string) bool) bool {
		for _, w := range ws {
			if !strings.HasPrefix(w, "-") && !ok(w) {
				return false
			}
		}
		return true
	}
	isShellName := shellNames.has
	switch name {
	case "ssh-agent":
		return onlyOf(rest, "-s", "-c")
	case "dircolors":
		return onlyOf(rest, "-b", "-c", "--sh", "--bourne-shell", "--csh", "--c-shell")
	case "thefuck":
		return len(rest) >= 1 && rest[0] == "--alias" && len(rest) <= 2
	case "register-python-argcomplete":
		return len(rest) >= 1 && flagsOr(rest, func(w string) bool { return w == rest[len(rest)-1] })
	case "minikube":
		return len(rest) >= 1 && (rest[0] == "docker-env" || rest[0] == "podman-env") && flagsOr(rest[1:], func(string) bool { return false })
	case "docker-machine":
		return len(rest) == 2 && rest[0] == "env" && !strings.HasPrefix(rest[1], "-")
	case "keychain":
		return len(rest) >= 1 && rest[0] == "--eval"
	case "brew":
		return len(rest) >= 1 && rest[0] == "shellenv" && flagsOr(rest[1:], isShellName)
	case "fnm", "opam", "luarocks":
		return len(rest) >= 1 && (rest[0] == "env" || name == "luarocks" && rest[0] == "path") && flagsOr(rest[1:], func(string) bool { return false })
	case "conda", "mamba", "micromamba":
		// conda shell.bash hook, micromamba shell hook -s bash
		return len(rest) >= 2 && (strings.HasPrefix(rest[0], "shell.") && rest[1] == "hook" && len(rest) == 2 ||
			rest[0] == "shell" && rest[1] == "hook" && flagsOr(rest[2:], isShellName))
	}
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case "completion", "completions", "--completion", "--completions", "generate-shell-completion":
		return flagsOr(rest[1:], isShellName)
	case "init", "virtualenv-init", "activate", "hook", "shellenv":
		// X init - / X init zsh / mise activate bash / direnv hook bash
		hasShell := false
		for _, w := range rest[1:] {
			if shellNames.has(w) {
				hasShell = true
			}
		}
		return hasShell && flagsOr(rest[1:], isShellName)
	}
	return false
}

// wraps reports whether a wrapper row of name reads command line a as
// running another command or a script (kubectl exec, pyenv exec).
func wraps(name string, a []string) bool {
	var room [2]piece
	for _, w := range wrappersOf(name) {
		if len(w.read(room[:0], a, noneDynamic(len(a)))) > 0 {
			return true
		}
	}
	return false
}
