package shell

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/ascii"
	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/tool"
)

// Effects returns what resolved commands do to files and the network, for
// the session to follow across the calls of a conversation: files written
// (with their text when the script shows it), downloaded, made executable,
// copied, removed, run and sent, and credentials read. Paths are resolved
// against the directory each command runs in; a path computed at run time
// is left out.
func (k *Knowledge) Effects(cmds []Command, env Env) []tool.Effect {
	return k.effects(cmds, env, nil)
}

// effects is Effects, reading the SQL given to database clients from the
// facts of call (see sqlFact; nil: none).
func (k *Knowledge) effects(cmds []Command, env Env, call *tool.Call) []tool.Effect {
	// most commands do one thing (a program run, a file written)
	out := make([]tool.Effect, 0, len(cmds))
	var rd readers
	// the words of a command, split: their room is reused from command
	// to command (on the stack for most)
	var flagRoom [8]string
	var operandRoom [8]int
	w := words{flags: flagRoom[:0], operands: operandRoom[:0]}
	for i := range cmds {
		c := &cmds[i] // not copied: read only
		here := runsIn(*c, env)
		// hasPath reports whether operand j names a path that is known
		// (not computed at run time, not relative to an unknown
		// directory); abs returns it resolved (here's Env remembers the
		// paths it resolved for the call)
		hasPath := func(j int) bool {
			p := c.Args[j]
			return !c.Dynamic[j] && p != "" && (!c.DirDynamic || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~"))
		}
		abs := func(j int) (string, bool) {
			if !hasPath(j) {
				return "", false
			}
			return here.Abs(c.Args[j]), true
		}
		if len(out) >= 256 && cap(out)-len(out) < 8 {
			out = slices.Grow(out, len(out)) // doubles (see room)
		}
		out = k.redirectEffects(out, cmds, i, here)
		if len(c.Args) == 0 || c.Dynamic[0] {
			continue
		}
		name := commandName(c.Args[0])
		e := k.entry(name)
		w = e.split(w, c)
		ops := func() []string {
			var ps []string
			for _, j := range w.operands {
				if p, ok := abs(j); ok {
					ps = append(ps, p)
				}
			}
			return ps
		}
		switch {
		case name == "ln" && (hasFlag(w.flags, "-s") || hasFlag(w.flags, "--symbolic")):
			if len(w.operands) == 2 && !c.Dynamic[w.operands[0]] {
				if l, ok := abs(w.operands[1]); ok {
					t := c.Args[w.operands[0]]
					if strings.HasSuffix(c.Args[w.operands[1]], "/") {
						l = path.Join(l, path.Base(t))
					}
					if !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") {
						t = path.Join(path.Dir(l), t) // relative to the link's folder
					} else {
						t = here.Abs(t)
					}
					out = append(out, tool.Effect{Kind: tool.Symlink, Path: l, Src: t})
				}
			}
		case name == "cp" || name == "mv" || name == "install" || name == "ln" || (name == "rsync" && !remote(*c)):
			ps := ops()
			if len(ps) >= 2 {
				dst := ps[len(ps)-1]
				for _, src := range ps[:len(ps)-1] {
					out = append(out, tool.Effect{Kind: tool.CopyFile, Src: src, Path: dst},
						tool.Effect{Kind: tool.CopyFile, Src: src, Path: path.Join(dst, path.Base(src))})
					if name == "install" && installsExecutable(*c, w) {
						// install's mode is 0755 unless -m says otherwise
						out = append(out, tool.Effect{Kind: tool.MakeExecutable, Path: dst},
							tool.Effect{Kind: tool.MakeExecutable, Path: path.Join(dst, path.Base(src))})
					}
				}
			}
		case e.archiver:
			out = archive(out, name, *c, w, here)
		case name == "crontab" && (len(w.operands) == 0 || c.Args[w.operands[0]] == "-"):
			// crontab - fed by echo or printf, or a heredoc: the new table
			for _, j := range c.Inputs {
				if text, ok := shown(cmds[j]); ok {
					out = append(out, tool.Effect{Kind: tool.WriteFile, Path: "/var/spool/cron/crontabs/" + path.Base(here.Home), Text: text, Known: true, Append: true})
				}
			}
			if text, ok := stdinDoc(*c); ok {
				out = append(out, tool.Effect{Kind: tool.WriteFile, Path: "/var/spool/cron/crontabs/" + path.Base(here.Home), Text: text, Known: true, Append: true})
			}
		case name == "tee":
			text, known := stdinText(cmds, i)
			for _, p := range ops() {
				out = append(out, tool.Effect{Kind: tool.WriteFile, Path: p, Append: hasFlag(w.flags, "-a"), Text: text, Known: known,
					From: k.inputs(cmds, i, here), Sensitive: k.sensitiveInput(cmds, i, here)})
			}
		case name == "chmod":
			if len(w.operands) >= 2 && executableMode(c.Args[w.operands[0]]) {
				for _, j := range w.operands[1:] {
					if p, ok := abs(j); ok {
						out = append(out, tool.Effect{Kind: tool.MakeExecutable, Path: p})
					}
				}
			}
		case name == "rm" || name == "unlink" || name == "shred":
			for _, p := range ops() {
				out = append(out, tool.Effect{Kind: tool.RemoveFile, Path: p})
			}
		case name == "curl" || name == "wget":
			out = transfer(out, name, *c, here)
		case name == "scp" || name == "rsync" || name == "nc" || name == "ncat" || name == "netcat" || name == "socat":
			var from []string
			for _, j := range w.operands {
				if !strings.Contains(c.Args[j], ":") || strings.HasPrefix(c.Args[j], "/") {
					if p, ok := abs(j); ok && name != "nc" && name != "ncat" && name != "netcat" && name != "socat" {
						from = append(from, p)
					}
				}
			}
			from = append(from, k.inputs(cmds, i, here)...)
			var in inlineData
			if name != "scp" && name != "rsync" {
				in = piped(cmds, i)
			}
			if len(from) > 0 || in.any {
				to := "" // where nc and socat send: judged local or not by the session
				switch name {
				case "nc", "ncat", "netcat":
					to = connectHost(*c, name)
				case "socat":
					for j := 1; j < len(c.Args) && to == ""; j++ {
						if !c.Dynamic[j] {
							to = socatHost(c.Args[j])
						}
					}
				}
				out = append(out, tool.Effect{Kind: tool.SendData, From: from, URL: to, Sensitive: k.sensitiveInput(cmds, i, here),
					Inline: in.any, Text: in.text(), Known: in.known()})
			}
		case name == "npm" || name == "yarn" || name == "pnpm":
			if scripts := packageScripts(name, *c, w); len(scripts) > 0 {
				out = append(out, tool.Effect{Kind: tool.RunFile, Path: here.Abs("package.json"), Lang: "npm", Args: scripts})
			}
		case name == "make":
			mk, targets := "Makefile", []string(nil)
			for j := 1; j < len(c.Args); j++ {
				switch a := c.Args[j]; {
				case a == "-f" || a == "--file":
					if j+1 < len(c.Args) {
						mk = c.Args[j+1]
						j++
					}
				case a == "-C":
					j++
				case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
				default:
					targets = append(targets, a)
				}
			}
			out = append(out, tool.Effect{Kind: tool.RunFile, Path: here.Abs(mk), Lang: "make", Args: targets})
		case name == "crontab":
			if len(w.operands) == 1 {
				if p, ok := abs(w.operands[0]); ok {
					out = append(out, tool.Effect{Kind: tool.RunFile, Path: p, Lang: "crontab"})
				}
			}
		case name == "git":
			if hook := gitHook(*c); hook != "" {
				out = append(out, tool.Effect{Kind: tool.RunFile, Path: here.Abs(path.Join(".git/hooks", hook)), Lang: "sh"})
			}
		case name == "pip" || name == "pip3":
			if len(c.Args) > 1 && c.Args[1] == "install" {
				for _, j := range w.operands[1:] {
					if a := c.Args[j]; a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "/") {
						if p, ok := abs(j); ok {
							out = append(out, tool.Effect{Kind: tool.RunFile, Path: path.Join(p, "setup.py"), Lang: "python"})
						}
					}
				}
			}
		}
		if e.sql != nil {
			out = sqlFileRuns(out, cmds, i, e, here)
		}
		out = contextSwitch(out, *c, name, w)
		out = k.runEffect(out, c, name, e, here)
		if e.interp && shells[name] && readsStdin(*c) { // every shell is an interpreter
			out = decodedRuns(out, cmds, i, here)
		}
		out = credentialReads(out, c, w, here, hasPath)
		out = k.contextReads(out, cmds, i, name, e, w, env, &rd, call)
	}
	return out
}

// contextReads records the sensitive data command i (named name, split
// into w) prints into the conversation: the whole environment, the rows
// of personal data a database client returns, or files of secrets (.env,
// keys) it shows, when its output is not saved to a file or filtered away.
func (k *Knowledge) contextReads(out []tool.Effect, cmds []Command, i int, name string, e *entry, w words, env Env, rd *readers, call *tool.Call) []tool.Effect {
	what := ""
	if e.sql != nil {
		texts, _ := sqlOf(cmds, i, e)
		for _, t := range texts {
			if pd := sqlFact(call, t).PersonalData; pd != "" {
				what = "personal data (" + pd + ")"
				break
			}
		}
	} else if envDumpNamed(name, &cmds[i]) {
		what = "the environment"
	}
	if (what == "" && !e.printer) || !toContext(cmds, rd.of(cmds), i, 0) {
		return out
	}
	if what != "" {
		out = append(out, tool.Effect{Kind: tool.ReadFile, Sensitive: what})
	}
	if e.printer {
		c := cmds[i]
		here := runsIn(c, env)
		for _, j := range w.operands {
			if c.Dynamic[j] || c.DirDynamic && !strings.HasPrefix(c.Args[j], "/") {
				continue
			}
			// credential files are recorded by credentialReads
			if p := here.Abs(c.Args[j]); paths.SecretName(p) && !here.IsCredential(p) {
				out = append(out, tool.Effect{Kind: tool.ReadFile, Path: p, Sensitive: "secrets"})
			}
		}
	}
	return out
}

// printers show the files they are given.
var printers = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "bat": true, "batcat": true,
	"tac": true, "nl": true, "strings": true, "xxd": true, "od": true, "hexdump": true, "base64": true, "grep": true, "rg": true,
	"awk": true, "sed": true, "jq": true, "yq": true, "cut": true, "sort": true, "uniq": true, "column": true, "view": true, "vim": true, "nano": true}

// toContext reports whether what command i prints reaches the agent: it
// is not written to a file, and the commands it is piped to (if any) pass
// it on rather than save it, count it or keep only lines that cannot be
// secrets.
func toContext(cmds []Command, readers [][]int, i, depth int) bool {
	if depth > 4 {
		return true
	}
	for _, rd := range cmds[i].Redirs {
		if rd.Writes() && rd.Target != "/dev/stdout" && rd.Target != "/dev/stderr" && rd.Target != "/dev/tty" {
			return false
		}
	}
	consumed := false
	for _, j := range readers[i] {
		if j <= i {
			continue
		}
		consumed = true
		if !filtersOut(cmds[j]) && toContext(cmds, readers, j, depth+1) {
			return true
		}
	}
	return !consumed
}

// readers are, for each command, the commands that read its output (the
// reverse of Command.Inputs), in order; built on first use.
type readers [][]int

// of returns the readers of cmds, building them the first time.
func (r *readers) of(cmds []Command) [][]int {
	if *r == nil {
		*r = make([][]int, len(cmds))
		for j, c := range cmds {
			for _, i := range c.Inputs {
				if i < 0 || i >= len(cmds) {
					continue
				}
				if n := len((*r)[i]); n == 0 || (*r)[i][n-1] != j {
					(*r)[i] = append((*r)[i], j)
				}
			}
		}
	}
	return *r
}

// filtersOut reports a command that keeps none of the secrets of its
// input: a count, or a grep for a fixed pattern that names no secret.
func filtersOut(c Command) bool {
	if len(c.Args) == 0 || c.Dynamic[0] {
		return false
	}
	switch commandName(c.Args[0]) {
	case "wc":
		return true
	case "grep", "egrep", "fgrep", "rg":
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case c.Dynamic[j]:
				return false
			case a == "-c" || a == "-q" || a == "-l" || a == "--count" || a == "--quiet":
				return true
			case a == "-v" || a == "--invert-match":
				return false
			case strings.HasPrefix(a, "-"):
			default:
				return !secretPattern(a)
			}
		}
	}
	return false
}

var secretWord = lazyre.New(`(?i)key|token|secret|pass|pwd|auth|cred|cookie|session|aws|gcp|azure|api|private|^\.$|^\^?\.\*`)

// secretWords are the words secretWord finds, lower-case.
var secretWords = [...]string{"key", "token", "secret", "pass", "pwd", "auth", "cred", "cookie", "session", "aws", "gcp", "azure", "api", "private"}

// secretPattern reports whether secretWord matches the grep pattern a,
// read byte by byte when a is ASCII (the pattern is compiled only for a
// word that is not: its K and S fold to the Kelvin sign and the long s).
func secretPattern(a string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] >= utf8.RuneSelf {
			return secretWord.MatchString(a)
		}
	}
	if a == "." || strings.HasPrefix(a, ".*") || strings.HasPrefix(a, "^.*") {
		return true
	}
	for i := 0; i < len(a); i++ {
		c := ascii.Lower(a[i])
		for _, w := range secretWords {
			if w[0] == c && ascii.HasPrefixFold(a[i:], w) {
				return true
			}
		}
	}
	return false
}

// runEffect records the file a command (named name, whose entry is e)
// executes: a program named by a path, a script given to an interpreter,
// a file sourced, or, for a bare name, the name itself (Lang "path": the session looks it up among the
// files the conversation made executable).
func (k *Knowledge) runEffect(out []tool.Effect, c *Command, name string, e *entry, env Env) []tool.Effect {
	first := c.Args[0]
	if strings.Contains(first, "/") {
		return append(out, tool.Effect{Kind: tool.RunFile, Path: env.Abs(first), Args: c.Args[1:]})
	}
	lang := ""
	switch iname := interpreterName(name); {
	case e.interp && shells[iname] || iname == "source" || iname == ".": // every shell is an interpreter
		lang = "sh"
	case strings.HasPrefix(iname, "python"):
		lang = "python"
	case iname == "node" || iname == "nodejs" || iname == "deno" || iname == "bun" || iname == "ts-node" || iname == "tsx":
		lang = "node"
	case iname == "perl" || iname == "ruby" || iname == "php":
		lang = iname
	default:
		if !isBuiltin(first) {
			return append(out, tool.Effect{Kind: tool.RunFile, Path: first, Lang: "path", Args: c.Args[1:]})
		}
		return out
	}
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if c.Dynamic[j] {
			return out
		}
		switch {
		case a == "-c" || a == "-e" || a == "-m" || a == "--eval" || a == "-p" || a == "-":
			return out // the program is inline or a module, not a file
		case a == "-W" || a == "-X" || a == "-r" || a == "--require" || a == "-I" || a == "-o" || a == "-O":
			j++
		case strings.HasPrefix(a, "-") || (lang == "node" && (a == "run" || a == "exec")):
		default:
			if c.DirDynamic && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") {
				return out
			}
			return append(out, tool.Effect{Kind: tool.RunFile, Path: env.Abs(a), Lang: lang, Args: c.Args[j+1:]})
		}
	}
	return out
}

// sqlFileRuns records the files of SQL database client command i (whose
// entry is e) runs, as RunFile effects of Lang "sql" whose Args are the
// words naming its connection: the values of its file flags (psql -f), a
// file redirected to its stdin or printed into it by cat, and the files
// its SQL includes (\i, \ir, \include, .read, source, \.).
func sqlFileRuns(out []tool.Effect, cmds []Command, i int, e *entry, env Env) []tool.Effect {
	c := cmds[i]
	texts, conn := sqlOf(cmds, i, e)
	add := func(p string, dynamic bool) {
		if dynamic || p == "" || p == "-" || c.DirDynamic && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			return
		}
		out = append(out, tool.Effect{Kind: tool.RunFile, Path: env.Abs(p), Lang: "sql", Args: conn})
	}
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		for _, f := range e.sql.Files {
			switch {
			case a == f && j+1 < len(c.Args):
				add(c.Args[j+1], c.Dynamic[j+1])
			case hasValue(a, f) && strings.HasPrefix(f, "--"):
				add(a[len(f)+1:], c.Dynamic[j])
			case len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2 && a[1] != '-':
				add(a[2:], c.Dynamic[j]) // -fdrop.sql
			}
		}
	}
	for _, rd := range c.Redirs {
		if rd.Op == "<" && !rd.FD() {
			add(rd.Target, rd.Dynamic)
		}
	}
	for _, j := range c.Inputs {
		in := cmds[j]
		if len(in.Args) > 1 && !in.Dynamic[0] && commandName(in.Args[0]) == "cat" {
			for k := 1; k < len(in.Args); k++ {
				if !strings.HasPrefix(in.Args[k], "-") {
					add(in.Args[k], in.Dynamic[k])
				}
			}
		}
	}
	for _, t := range texts {
		if !strings.Contains(t, `\`) && !strings.Contains(t, ".read") && !strings.Contains(t, "source") && !strings.Contains(t, "SOURCE") {
			continue // no client command that includes a file
		}
		for _, line := range strings.Split(t, "\n") {
			f := strings.Fields(strings.TrimSpace(line))
			if len(f) == 2 {
				switch f[0] {
				case "\\i", "\\ir", "\\include", "\\include_relative", ".read", "source", "SOURCE", "\\.":
					add(strings.TrimSuffix(strings.Trim(f[1], `'"`), ";"), false)
				}
			}
		}
	}
	return out
}

// decodedRuns records the files a shell runs after decoding them:
// base64 -d payload.b64 | sh.
func decodedRuns(out []tool.Effect, cmds []Command, i int, env Env) []tool.Effect {
	for _, j := range cmds[i].Inputs {
		in := cmds[j]
		if len(in.Args) < 2 || in.Dynamic[0] || commandName(in.Args[0]) != "base64" {
			continue
		}
		for k := 1; k < len(in.Args); k++ {
			if a := in.Args[k]; !strings.HasPrefix(a, "-") && !in.Dynamic[k] {
				out = append(out, tool.Effect{Kind: tool.RunFile, Path: runsIn(in, env).Abs(a), Lang: "sh", Decode: "base64"})
			}
		}
	}
	return out
}

// isBuiltin reports whether name is a shell builtin or keyword: never a
// file on PATH.
func isBuiltin(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "echo", "printf", "export", "unset", "alias", "unalias", "test", "[", "[[",
		"true", "false", ":", "exit", "return", "set", "shift", "read", "local", "declare", "typeset",
		"readonly", "source", ".", "eval", "exec", "trap", "wait", "jobs", "fg", "bg", "kill", "type",
		"hash", "command", "builtin", "let", "ulimit", "umask", "history", "if", "then", "else", "fi",
		"for", "while", "do", "done", "case", "esac", "function", "time":
		return true
	}
	return false
}

// redirectEffects records the files command i's redirections write, with
// the text when echo, printf or a heredoc shows it, and the files it
// reads.
func (k *Knowledge) redirectEffects(out []tool.Effect, cmds []Command, i int, env Env) []tool.Effect {
	c := &cmds[i] // not copied: read only
	for _, rd := range c.Redirs {
		if !rd.Writes() || rd.Dynamic || rd.Target == "" || rd.FD() {
			continue
		}
		p := env.Abs(rd.Target)
		if paths.Within(p, "/dev") && !paths.Within(p, "/dev/shm") {
			continue
		}
		e := tool.Effect{Kind: tool.WriteFile, Path: p, Append: rd.Op == ">>" || rd.Op == "&>>"}
		if len(c.Args) > 0 && !c.Dynamic[0] {
			switch commandName(c.Args[0]) {
			case "echo", "printf":
				e.Text, e.Known = shown(*c)
			case "cat":
				for _, h := range c.Redirs {
					if h.Stdin() && len(c.Args) == 1 {
						e.Text, e.Known = h.Target, !h.Dynamic
						if h.Op == "<<<" {
							e.Text += "\n"
						}
					}
				}
			case "curl", "wget", "fetch", "aria2c", "http", "https", "xh":
				e.Kind, e.URL = tool.FetchFile, firstURL(*c)
			case "base64", "base32", "basenc", "xxd", "rev", "tr", "openssl", "gunzip", "zcat", "gzip":
				e.Text, e.Known = decoded(cmds, i)
			}
		}
		e.List = listing(cmds, i, env)
		e.From = k.inputs(cmds, i, env)
		e.Sensitive = k.sensitiveInput(cmds, i, env)
		out = append(out, e)
	}
	return out
}

// stdinDoc returns the text a heredoc or here-string gives command c's
// stdin, when it is known.
func stdinDoc(c Command) (string, bool) {
	for _, h := range c.Redirs {
		if h.Stdin() && !h.Dynamic {
			if h.Op == "<<<" {
				return h.Target + "\n", true
			}
			return h.Target, true
		}
	}
	return "", false
}

// stdinText returns what command i of cmds reads on stdin, when that is
// known: a heredoc or here-string, or the one echo or printf piped in.
func stdinText(cmds []Command, i int) (string, bool) {
	if text, ok := stdinDoc(cmds[i]); ok {
		return text, true
	}
	if in := cmds[i].Inputs; len(in) == 1 {
		return shown(cmds[in[0]])
	}
	return "", false
}

// archivers pack, compress or encrypt files into another file.
var archivers = map[string]bool{"tar": true, "zip": true, "7z": true, "7za": true, "gzip": true, "bzip2": true, "xz": true, "zstd": true, "lz4": true, "gpg": true, "rar": true}

// archive records the file an archiver writes and the files whose data it
// carries: tar czf out.tgz dir, zip out.zip a b, gzip f (f.gz), gpg -c f
// (f.gpg).
func archive(out []tool.Effect, name string, c Command, w words, env Env) []tool.Effect {
	var files []string
	for j := 1; j < len(c.Args); j++ {
		if !c.Dynamic[j] && !strings.HasPrefix(c.Args[j], "-") && !(j == 1 && name == "tar") && !(j == 1 && (name == "7z" || name == "7za" || name == "rar")) {
			files = append(files, env.Abs(c.Args[j]))
		}
	}
	switch name {
	case "tar":
		dst := ""
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case a == "-f" || a == "--file":
				if j+1 < len(c.Args) && !c.Dynamic[j+1] {
					dst = c.Args[j+1]
				}
			case strings.HasPrefix(a, "--file="):
				dst = a[len("--file="):]
			case j == 1 && !strings.HasPrefix(a, "--") && strings.Contains(a, "f") && strings.ContainsAny(a, "cr"):
				// old style: tar czf out.tgz files…
				if j+1 < len(c.Args) && !c.Dynamic[j+1] {
					dst = c.Args[j+1]
				}
			}
		}
		if dst == "" || dst == "-" || !(hasFlag(c.Args[1:], "-c") || hasFlag(c.Args[1:], "--create") || strings.ContainsAny(strings.TrimLeft(c.Args[1], "-"), "cr") && !strings.HasPrefix(c.Args[1], "--")) {
			return out
		}
		d := env.Abs(dst)
		var from []string
		for _, f := range files {
			if f != d {
				from = append(from, f)
			}
		}
		return append(out, tool.Effect{Kind: tool.WriteFile, Path: d, From: from})
	case "zip", "7z", "7za", "rar":
		if len(files) >= 2 {
			return append(out, tool.Effect{Kind: tool.WriteFile, Path: files[0], From: files[1:]})
		}
	case "gpg":
		for j := 1; j < len(c.Args)-1; j++ {
			if (c.Args[j] == "-o" || c.Args[j] == "--output") && !c.Dynamic[j+1] && len(w.operands) > 0 {
				return append(out, tool.Effect{Kind: tool.WriteFile, Path: env.Abs(c.Args[j+1]), From: files[len(files)-1:]})
			}
		}
		for _, f := range files {
			out = append(out, tool.Effect{Kind: tool.WriteFile, Path: f + ".gpg", From: []string{f}}, tool.Effect{Kind: tool.WriteFile, Path: f + ".asc", From: []string{f}})
		}
	default: // gzip and the like: f becomes f.gz
		if hasFlag(c.Args[1:], "-d") || hasFlag(c.Args[1:], "--decompress") {
			return out
		}
		ext := map[string]string{"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz", "zstd": ".zst", "lz4": ".lz4"}[name]
		for _, f := range files {
			out = append(out, tool.Effect{Kind: tool.WriteFile, Path: f + ext, From: []string{f}})
		}
	}
	return out
}

// decoded returns what a decoder (base64 -d, xxd -r -p, rev …) writes
// when the text it decodes is shown by an echo or printf feeding it, or
// by a here-string (see literalOut).
func decoded(cmds []Command, i int) (string, bool) {
	c := cmds[i]
	if len(c.Args) == 0 || c.Dynamic[0] || !staticDecoder(commandName(c.Args[0]), c) {
		return "", false
	}
	return literalOut(cmds, i)
}

// listing returns, when command i writes a listing of files (find, ls or
// fd, itself or upstream), the paths listed: dir/{} for each directory.
func listing(cmds []Command, i int, env Env) []string {
	var out []string
	upstream(cmds, i, func(_ int, c Command) bool {
		here := runsIn(c, env)
		if len(c.Args) > 0 && !c.Dynamic[0] {
			switch name := commandName(c.Args[0]); name {
			case "find", "ls", "fd", "fdfind", "tree":
				n := len(out)
				for k := 1; k < len(c.Args); k++ {
					a := c.Args[k]
					if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
						if name == "find" {
							break
						}
						continue
					}
					if c.Dynamic[k] || c.DirDynamic {
						continue
					}
					if name == "ls" && hasFlag(c.Args[1:], "-d") {
						out = append(out, here.Abs(a)) // the entries themselves
					} else {
						out = append(out, strings.TrimSuffix(here.Abs(a), "/")+"/{}")
					}
					if name == "fd" || name == "fdfind" {
						break
					}
				}
				if len(out) == n {
					out = append(out, strings.TrimSuffix(here.Abs("."), "/")+"/{}")
				}
			}
		}
		return true
	})
	return out
}

// upstream calls visit on command i and then on the commands feeding it,
// depth first, each once and at most four pipes or substitutions away,
// until visit returns false.
func upstream(cmds []Command, i int, visit func(j int, c Command) bool) {
	u := upWalk{cmds: cmds}
	u.walk(i, 0, visit)
}

// upWalk is one walk of upstream, with the commands it visited: bits of
// seen for a script of up to 64 commands; for a longer one, far lists
// them (a walk visits a few: its cost must not grow with the script,
// since each command of a script may start one), and farSet once they
// are many. The visit function is walk's argument, not a field: held by
// a walk that grows lists, it would be moved to the heap with what it
// captures.
type upWalk struct {
	cmds   []Command
	seen   uint64
	far    []int
	farSet map[int]bool
}

// walk visits command j, depth pipes or substitutions away, and what
// feeds it; false: visit stopped the walk.
func (u *upWalk) walk(j, depth int, visit func(j int, c Command) bool) bool {
	if depth > 4 || u.visited(j) {
		return true
	}
	if !visit(j, u.cmds[j]) {
		return false
	}
	// what a wrapper prints is what the commands it runs print (timeout 5
	// env > f: env's output): they follow it, their Via longer than its
	for k := j + 1; k < len(u.cmds) && wrappedBy(u.cmds[k].Via, u.cmds[j].Via); k++ {
		if !u.visited(k) && !visit(k, u.cmds[k]) {
			return false
		}
	}
	for _, in := range u.cmds[j].Inputs {
		if !u.walk(in, depth+1, visit) {
			return false
		}
	}
	return true
}

// wrappedBy reports whether a command whose Via is inner runs inside
// one whose Via is outer: outer is a proper prefix of inner.
func wrappedBy(inner, outer []string) bool {
	return len(inner) > len(outer) && slices.Equal(inner[:len(outer)], outer)
}

// maxFarList is how many commands far lists before farSet holds them.
const maxFarList = 32

// visited reports whether command j was visited, and marks it.
func (u *upWalk) visited(j int) bool {
	if len(u.cmds) <= 64 {
		bit := uint64(1) << j
		v := u.seen&bit != 0
		u.seen |= bit
		return v
	}
	if u.farSet != nil {
		v := u.farSet[j]
		u.farSet[j] = true
		return v
	}
	if slices.Contains(u.far, j) {
		return true
	}
	if len(u.far) == maxFarList {
		u.farSet = make(map[int]bool, 2*maxFarList)
		for _, k := range u.far {
			u.farSet[k] = true
		}
		u.farSet[j] = true
		return false
	}
	u.far = append(u.far, j)
	return false
}

// runsIn returns env with the working directory c runs in (an earlier cd
// of its script).
func runsIn(c Command, env Env) Env {
	if c.Dir != "" {
		env.Cwd = c.Dir
	}
	return env
}

// shown returns what an echo or printf of static words writes.
func shown(c Command) (string, bool) {
	if len(c.Args) < 2 || c.Dynamic[0] || !static(c, 1) {
		return "", false
	}
	if name := commandName(c.Args[0]); name != "echo" && name != "printf" {
		return "", false
	}
	return echoText(c), true
}

// echoText is what echo or printf writes: echo's words joined by blanks,
// with a newline unless -n, escapes read under -e; printf's format
// applied to its arguments (see printfText).
func echoText(c Command) string {
	args := c.Args[1:]
	if commandName(c.Args[0]) == "printf" {
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || args[0] == "-v" {
			return "" // printf -v sets a variable
		}
		return printfText(args[0], args[1:])
	}
	nl, esc := true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, f := range args[0][1:] {
			switch f {
			case 'n':
				nl = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if esc {
		s = echoEscapes(s)
	}
	if nl {
		s += "\n"
	}
	return s
}

// inputs returns the files whose data reaches command i: its own file
// operands and stdin redirection, and those of the commands feeding it
// (bounded). Operands that are not files (patterns, hosts) are included
// too: the session only acts on the files it knows.
func (k *Knowledge) inputs(cmds []Command, i int, env Env) []string {
	var out []string
	upstream(cmds, i, func(j int, c Command) bool {
		if len(out) > 32 {
			return false
		}
		here := runsIn(c, env)
		for _, rd := range c.Redirs {
			if rd.Op == "<" && !rd.Dynamic && rd.Target != "" {
				out = append(out, here.Abs(rd.Target))
			}
		}
		if j != i && len(c.Args) > 0 && !c.Dynamic[0] {
			name := commandName(c.Args[0])
			w := k.split(name, c)
			for _, o := range w.operands {
				if !c.Dynamic[o] && !c.DirDynamic {
					out = append(out, here.Abs(c.Args[o]))
				}
			}
			if name == "tar" || name == "zip" || name == "7z" {
				for n := 1; n < len(c.Args); n++ {
					if !c.Dynamic[n] && !strings.HasPrefix(c.Args[n], "-") {
						out = append(out, here.Abs(c.Args[n]))
					}
				}
			}
		}
		return true
	})
	return out
}

// sensitiveInput names the sensitive data that reaches command i (see
// sourceOf); "" when none does.
func (k *Knowledge) sensitiveInput(cmds []Command, i int, env Env) string {
	found := ""
	upstream(cmds, i, func(_ int, c Command) bool {
		found = k.sourceOf(c, env)
		return found == ""
	})
	return found
}

// envDump reports a command that prints the whole environment: env,
// printenv, set, export -p, declare -x.
func envDump(c Command) bool {
	if len(c.Args) == 0 || c.Dynamic[0] {
		return false
	}
	return envDumpNamed(commandName(c.Args[0]), &c)
}

// envDumpNamed is envDump for command c, whose name is name and whose
// first word is not computed at run time.
func envDumpNamed(name string, c *Command) bool {
	switch {
	case name == "env" && len(c.Args) == 1, name == "printenv" && len(c.Args) == 1, name == "set" && len(c.Args) == 1,
		name == "export" && len(c.Args) == 2 && c.Args[1] == "-p", name == "declare" && len(c.Args) == 2 && c.Args[1] == "-x":
		return true
	}
	return false
}

func (k *Knowledge) isSQLClient(name string) bool {
	_, ok := k.SQLClients[name]
	return ok
}

// credentialReads records the credential files a command reads.
func credentialReads(out []tool.Effect, c *Command, w words, env Env, hasPath func(int) bool) []tool.Effect {
	for _, j := range w.operands {
		// AbsCredential resolves a word only where a credential may lie
		// below its directory: most operands are workspace files
		if !hasPath(j) {
			continue
		}
		if p, ok := env.AbsCredential(c.Args[j]); ok {
			out = append(out, tool.Effect{Kind: tool.ReadFile, Path: p, Sensitive: "credentials"})
		}
	}
	return out
}

// curlCluster reads a cluster of curl's one-letter flags (-sSLo FILE,
// -fsSLO, -sT FILE) as the one flag of it that matters here: a flag that
// takes the next word (-o, -T, -d, -F, -u, -H) when it ends the cluster,
// or -O; any other word is returned as it is.
func curlCluster(a string) string {
	if len(a) < 3 || a[0] != '-' || a[1] == '-' || strings.Trim(a[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ#0123456789") != "" {
		return a
	}
	last := a[len(a)-1]
	if strings.IndexByte("oTdFuHXeKbcrmw", last) >= 0 && !strings.ContainsAny(a[1:len(a)-1], "oTdFuHXeKbcrmw") {
		return "-" + string(last)
	}
	if strings.IndexByte(a, 'O') > 0 && !strings.ContainsAny(a[1:], "oTdFuHXeKbcrmw") {
		return "-O"
	}
	return a
}

// transfer records what curl or wget download to files and the files they
// send.
func transfer(out []tool.Effect, name string, c Command, env Env) []tool.Effect {
	u := firstURL(c)
	var from []string
	remoteName, dir := false, ""
	in := inlineData{}
	in.add(tool.URLData(u)...)
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		val := func() (string, bool) {
			if j+1 < len(c.Args) && !c.Dynamic[j+1] {
				j++
				return c.Args[j], true
			}
			if j+1 < len(c.Args) {
				j++
				in.unknown() // a value computed at run time goes along
			}
			return "", false
		}
		if name == "curl" {
			a = curlCluster(a)
		}
		if v, file, ok := inlineArg(name, a, val); ok {
			if file {
				if v != "" && v != "-" {
					from = append(from, env.Abs(v))
				}
			} else {
				in.add(v)
			}
			continue
		}
		switch {
		case name == "curl" && (a == "-o" || a == "--output"), name == "wget" && (a == "-O" || a == "--output-document"):
			if v, ok := val(); ok && v != "-" {
				out = append(out, tool.Effect{Kind: tool.FetchFile, Path: env.Abs(v), URL: u})
			}
		case name == "wget" && strings.HasPrefix(a, "-O") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			if v := a[2:]; v != "-" {
				out = append(out, tool.Effect{Kind: tool.FetchFile, Path: env.Abs(v), URL: u})
			}
		case name == "wget" && strings.HasPrefix(a, "--output-document="):
			out = append(out, tool.Effect{Kind: tool.FetchFile, Path: env.Abs(a[len("--output-document="):]), URL: u})
		case name == "wget" && (a == "-P" || a == "--directory-prefix"):
			dir, _ = val()
		case name == "curl" && (a == "-O" || a == "--remote-name" || a == "-JO" || a == "-OJ"):
			remoteName = true
		case name == "curl" && (a == "-T" || a == "--upload-file"):
			if v, ok := val(); ok && v != "-" {
				from = append(from, env.Abs(v))
			}
		case name == "wget" && (strings.HasPrefix(a, "--post-file=") || strings.HasPrefix(a, "--body-file=")):
			from = append(from, env.Abs(a[strings.IndexByte(a, '=')+1:]))
		}
	}
	if u != "" && (remoteName || (name == "wget" && len(from) == 0 && !hasOutput(c))) {
		base := urlBase(u)
		if dir != "" {
			base = path.Join(dir, base)
		}
		out = append(out, tool.Effect{Kind: tool.FetchFile, Path: env.Abs(base), URL: u})
	}
	if len(from) > 0 || in.any {
		out = append(out, tool.Effect{Kind: tool.SendData, From: from, URL: u, Inline: in.any, Text: in.text(), Known: in.known()})
	}
	return out
}

// piped returns the data a command sends from its stdin: the text echo
// or printf pipe to it, a here-string or heredoc, or, from any other
// command, data not known.
func piped(cmds []Command, i int) inlineData {
	var d inlineData
	for _, rd := range cmds[i].Redirs {
		if rd.Op == "<<<" || strings.HasPrefix(rd.Op, "<<") {
			if rd.Dynamic {
				d.unknown()
			} else {
				d.add(rd.Target)
			}
		}
	}
	for _, j := range cmds[i].Inputs {
		if text, ok := shown(cmds[j]); ok {
			d.add(text)
		} else {
			d.unknown()
		}
	}
	return d
}

// inlineData gathers the data a request carries inline.
type inlineData struct {
	parts []string
	any   bool // some data goes along
	dyn   bool // some of it is computed at run time
}

func (d *inlineData) add(vs ...string) {
	for _, v := range vs {
		if v != "" {
			d.parts, d.any = append(d.parts, v), true
		}
	}
}

func (d *inlineData) unknown() { d.any, d.dyn = true, true }

func (d *inlineData) known() bool { return d.any && !d.dyn }

func (d *inlineData) text() string { return tool.InlineText(d.parts) }

// inlineArg reads a curl or wget argument a that sends data, taking its
// value with val: the data it sends inline (a body given as text, a form
// field, a header that is not about the format, credentials), or, when
// file is set, the file it sends (-d @file, -F name=@file). ok is false
// for any other argument.
func inlineArg(name, a string, val func() (string, bool)) (v string, file, ok bool) {
	switch {
	case name == "curl" && (a == "-d" || a == "--data" || a == "--data-raw" || a == "--data-binary" || a == "--data-ascii" ||
		a == "--data-urlencode" || a == "--json" || a == "-F" || a == "--form" || a == "--form-string" || a == "--url-query"):
		v, known := val()
		if !known || a == "--data-raw" || a == "--form-string" {
			return v, false, true
		}
		form := a == "-F" || a == "--form" || a == "--data-urlencode" || a == "--url-query"
		if k := strings.IndexByte(v, '@'); k == 0 || form && k > 0 && (v[k-1] == '=' || a == "--data-urlencode" && !strings.Contains(v[:k], "=")) {
			f := v[k+1:]
			if semi := strings.IndexByte(f, ';'); semi >= 0 {
				f = f[:semi]
			}
			return f, true, true
		}
		if k := strings.Index(v, "=<"); k >= 0 && form {
			return v[k+2:], true, true
		}
		return v, false, true
	case name == "curl" && (a == "-H" || a == "--header" || a == "-u" || a == "--user" || a == "-b" || a == "--cookie" || a == "-e" || a == "--referer"):
		v, _ := val()
		if (a == "-H" || a == "--header") && formatHeader(v) {
			v = ""
		}
		return v, false, true
	case name == "wget" && (strings.HasPrefix(a, "--post-data=") || strings.HasPrefix(a, "--body-data=") || strings.HasPrefix(a, "--header=") ||
		strings.HasPrefix(a, "--user=") || strings.HasPrefix(a, "--password=") || strings.HasPrefix(a, "--http-password=")):
		v = a[strings.IndexByte(a, '=')+1:]
		if strings.HasPrefix(a, "--header=") && formatHeader(v) {
			v = ""
		}
		return v, false, true
	}
	return "", false, false
}

// formatHeader reports a header that says how data is formatted, not what
// it is.
func formatHeader(h string) bool {
	name, _, _ := strings.Cut(h, ":")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "content-type", "accept", "accept-encoding", "accept-language", "user-agent", "connection", "cache-control", "x-github-api-version":
		return true
	}
	return false
}

func hasOutput(c Command) bool {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-O") || a == "--output-document" || strings.HasPrefix(a, "--output-document=") {
			return true
		}
	}
	return false
}

// firstURL returns the first word that is a URL.
func firstURL(c Command) string {
	for j := 1; j < len(c.Args); j++ {
		if !c.Dynamic[j] && webURL(c.Args[j]) {
			return c.Args[j]
		}
	}
	return ""
}

// webURL reports whether a word is a URL of the web or FTP, as
// ^(?i:https?|ftp):// matches: its scheme in any case, the s of https
// also the long s (ſ), which Unicode folding matches.
func webURL(a string) bool {
	switch {
	case ascii.HasPrefixFold(a, "http://"), ascii.HasPrefixFold(a, "https://"), ascii.HasPrefixFold(a, "ftp://"):
		return true
	}
	return ascii.HasPrefixFold(a, "http") && strings.HasPrefix(a[4:], "ſ://")
}

// urlBase is the file name a download of u is saved under by default.
func urlBase(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return "index.html"
	}
	b := path.Base(pu.Path)
	if b == "/" || b == "." || b == "" {
		return "index.html"
	}
	return b
}

// remote reports whether some operand of c names another host (host:path).
func remote(c Command) bool {
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if i := strings.IndexByte(a, ':'); i > 0 && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// executableMode reports whether a chmod mode grants execution: +x, u+x,
// a+rx, 755, 0700.
// installsExecutable reports whether install command c (split into w)
// leaves what it installs executable: its mode is 0755 unless -m or
// --mode names another.
func installsExecutable(c Command, w words) bool {
	if hasFlag(w.flags, "-d") || hasFlag(w.flags, "--directory") {
		return false
	}
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		switch {
		case (a == "-m" || a == "--mode") && j+1 < len(c.Args):
			return c.Dynamic[j+1] || executableMode(c.Args[j+1]) || strings.Contains(c.Args[j+1], "x")
		case strings.HasPrefix(a, "--mode="):
			return executableMode(a[len("--mode="):]) || strings.Contains(a, "x")
		case strings.HasPrefix(a, "-m") && len(a) > 2 && a[1] != '-':
			return executableMode(a[2:]) || strings.Contains(a[2:], "x")
		}
	}
	return true
}

func executableMode(m string) bool {
	if m == "" {
		return false
	}
	if m[0] >= '0' && m[0] <= '7' {
		for _, d := range m {
			if d < '0' || d > '7' {
				return false
			}
		}
		for _, d := range m[max(0, len(m)-3):] {
			if (d-'0')&1 == 1 {
				return true
			}
		}
		return false
	}
	for _, clause := range strings.Split(m, ",") {
		if i := strings.IndexAny(clause, "+="); i >= 0 && strings.ContainsAny(clause[i+1:], "xX") {
			return true
		}
	}
	return false
}

// packageScripts returns the package.json scripts an npm, yarn or pnpm
// command runs: the install lifecycle for install and ci, pre and post
// hooks around a named script.
func packageScripts(name string, c Command, w words) []string {
	var ops []string
	for _, j := range w.operands {
		if !c.Dynamic[j] {
			ops = append(ops, c.Args[j])
		}
	}
	if len(ops) == 0 {
		if name == "yarn" || name == "pnpm" {
			ops = []string{"install"}
		} else {
			return nil
		}
	}
	around := func(s string) []string { return []string{"pre" + s, s, "post" + s} }
	switch ops[0] {
	case "install", "i", "ci", "add", "rebuild", "isntall", "in":
		if len(ops) > 1 && ops[0] != "ci" && ops[0] != "rebuild" && name != "yarn" {
			// installing named packages runs their scripts, not this
			// package's… except prepare, which npm runs too
			return []string{"prepare"}
		}
		return []string{"preinstall", "install", "postinstall", "prepare"}
	case "test", "t", "start", "stop", "restart":
		s := ops[0]
		if s == "t" {
			s = "test"
		}
		return around(s)
	case "run", "run-script", "rum", "urn":
		if len(ops) > 1 {
			return around(ops[1])
		}
	case "publish", "pack":
		return []string{"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"}
	default:
		if name == "yarn" || name == "pnpm" {
			return around(ops[0]) // yarn build runs the build script
		}
	}
	return nil
}

// gitHook returns the hook a git command runs, "" for none.
func gitHook(c Command) string {
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if strings.HasPrefix(a, "-") || c.Dynamic[j] {
			if a == "-C" || a == "-c" {
				j++
			}
			continue
		}
		switch a {
		case "commit":
			return "pre-commit"
		case "push":
			return "pre-push"
		case "merge", "pull":
			return "post-merge"
		case "checkout", "switch":
			return "post-checkout"
		case "rebase":
			return "pre-rebase"
		}
		return ""
	}
	return ""
}
