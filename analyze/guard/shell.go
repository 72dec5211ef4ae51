package guard

import (
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// shell judges the commands the call's scripts resolve to (those the
// shell preparer resolved, or resolved again here): a command that names a
// guard path as an operand (or as the value of --flag=value, of=value)
// changes it unless the command only reads; a redirection that writes to
// one changes it; removing, moving or changing the mode of a directory
// above one changes it as a whole.
func (ck *check) shell(c *tool.Call) {
	// the lines the shell preparer adds (a command resolution produced)
	// were judged where they stand, with what runs them: find's -exec
	// inside find, not alone
	var walked map[string]bool
	for _, script := range c.Shell {
		if walked != nil && walked[script] { // nil for most calls: no look-up
			continue
		}
		cmds, err := shell.Commands(c, script)
		if err != nil {
			continue // the shell preparer reports it
		}
		// each command's name and table entry, looked up once for the
		// environment and the command checks (on the stack for most)
		var room [8]named
		names := room[:0]
		if len(cmds) > len(room) {
			names = make([]named, 0, len(cmds))
		}
		for i := range cmds {
			names = append(names, nameOf(&cmds[i]))
		}
		ck.environment(script, cmds, names)
		for i := range cmds {
			ck.command(cmds, i, names[i])
		}
		if len(c.Shell) > 1 {
			if walked == nil {
				walked = map[string]bool{}
			}
			for _, cmd := range cmds {
				if cmd.Depth > 0 {
					walked[cmd.Line()] = true
				}
			}
		}
	}
}

// named is a command's program name (path.Base of its first word; "" when
// it has none) and what the tables of commands say of it (never nil; not
// to be modified).
type named struct {
	name string
	info *command
}

// nameOf returns cmd's name and table entry.
func nameOf(cmd *shell.Command) named {
	if len(cmd.Args) == 0 {
		return named{info: &noCommand}
	}
	n := path.Base(cmd.Args[0])
	return named{n, commandIndex.find(n)}
}

// commandIndex holds commands in an open-addressed table, so that a name
// is found, or found missing, with a slot or two read and one comparison
// (a map look-up hashes the whole name).
var commandIndex = func() *nameIndex {
	ix := &nameIndex{}
	for n, c := range commands {
		if len(ix.names) == 255 {
			panic("guard: more commands than a nameIndex holds")
		}
		ix.names, ix.infos = append(ix.names, n), append(ix.infos, c)
		h := nameHash(n)
		for ix.slots[h] != 0 {
			h = (h + 1) % uint(len(ix.slots))
		}
		ix.slots[h] = uint8(len(ix.names))
	}
	return ix
}()

// nameIndex is an open-addressed table of up to 255 names and their
// entries: slots holds, at a name's hash or the first free slot after it,
// its index in names and infos plus one (0: free).
type nameIndex struct {
	slots [512]uint8
	names []string
	infos []command
}

// find returns the entry of the name n, &noCommand when none; it must
// not be modified.
func (ix *nameIndex) find(n string) *command {
	if n == "" {
		return &noCommand
	}
	for h := nameHash(n); ; h = (h + 1) % uint(len(ix.slots)) {
		i := ix.slots[h]
		if i == 0 {
			return &noCommand
		}
		if ix.names[i-1] == n {
			return &ix.infos[i-1]
		}
	}
}

// noCommand is the entry of a command of none of the tables.
var noCommand command

// nameHash is the slot of nameIndex a non-empty name starts from: a mix
// of its length and its first, middle and last bytes.
func nameHash(n string) uint {
	return (uint(len(n))*97 + uint(n[0])*29 + uint(n[len(n)/2])*7 + uint(n[len(n)-1])) % 512
}

// command judges command i of cmds, whose name and table entry are nm.
func (ck *check) command(cmds []shell.Command, i int, nm named) {
	cmd := &cmds[i] // copied before it is changed (find's -exec below)
	env := ck.env
	if cmd.Dir != "" {
		env.Cwd = cmd.Dir
	}
	for _, rd := range cmd.Redirs {
		if rd.Writes() && !rd.Dynamic {
			ck.touch(&env, rd.Target, how{"written by the redirection ", rd.Op}, false)
		}
	}
	if len(cmd.Args) == 0 {
		return
	}
	name := nm.name
	if !cmd.Dynamic[0] && name == "find" {
		ck.targets(cmd, env) // before its -exec is judged on its own
	}
	if cmd.Dynamic[0] || wraps(cmds, i) {
		return // the wrapped command is judged on its own
	}
	f := finder(cmds, i)
	if f >= 0 && spares(cmds[f].Args[1:]) {
		// find … -name '*.pyc' -exec rm {} +: {} (or the start directory
		// the resolver puts for it) is only what matches
		start := "."
		if fa := cmds[f].Args; len(fa) > 1 && !strings.HasPrefix(fa[1], "-") {
			start = fa[1]
		}
		start = env.Abs(start)
		spared := *cmd
		cmd = &spared
		cmd.Args = slices.Clone(cmd.Args)
		for j, a := range cmd.Args {
			if j > 0 && (strings.Contains(a, "{}") || paths.Within(env.Abs(a), start)) {
				cmd.Args[j] = ""
			}
		}
	}
	// warden judges only warden, go run and a program named by a path
	// that may be one of Files: most commands are none of them
	if (wardenName(name) || name == "go" || len(ck.a.Files) > 0 && strings.IndexByte(cmd.Args[0], '/') >= 0) && ck.warden(cmd, name, env) {
		return
	}
	info := nm.info
	ck.agent(cmd, name, info.agent)
	args := cmd.Args[1:]
	if lang := interpreterLang(name, info); lang != "" {
		// inline programs (python -c, node -e, perl -e): their literals
		for j, a := range args {
			if !cmd.Dynamic[j+1] {
				ck.codeText(&env, lang, a)
			}
		}
	}
	if info.reads && (info.readOnly == nil || info.readOnly(args)) {
		return
	}
	var buf [8]operand // enough for most commands, on the stack
	ops := operands(buf[:0], cmd)
	if i > 0 { // fed only after an xargs or parallel
		ops = append(ops, fed(cmds, i)...)
	}
	by := how{"by ", name}
	// find's {} stands for every entry at any depth below its start
	inFind := f >= 0
	touch := func(p string, whole bool) { ck.touch(&env, p, by, whole || inFind && strings.Contains(p, "{}")) }
	r := info.role
	switch {
	case r&destroys != 0 || name == "find" || name == "git" && len(args) > 0 && (args[0] == "rm" || args[0] == "mv"):
		// a directory above the guard is reached only by a recursive
		// change (rm -r, chmod -R), by trash and git mv, and by find
		// unless its -name filters spare every name of the guard
		whole := r&recursive == 0 || flagged(args, "r", "--recursive") || flagged(args, "R", "--recursive")
		if name == "find" {
			whole = !spares(args)
		}
		for _, o := range ops {
			touch(o.text, whole)
		}
	case name == "mv" || r&copies != 0:
		// mv removes its sources; copiers read theirs. The destination
		// (the last operand, or the value of -t) is written, and so is,
		// when it is a directory, each source's name inside it: cp -r
		// /tmp/warden ~/.config/ writes ~/.config/warden.
		dest := -1
		for k, o := range ops {
			if o.target {
				dest = k
			}
		}
		if dest < 0 && name == "zip" && len(ops) > 0 {
			dest = 0 // zip ARCHIVE FILES…
		}
		if dest < 0 {
			dest = len(ops) - 1
			for dest >= 0 && ops[dest].value {
				dest--
			}
		}
		removes := name == "mv" || name == "rsync" && slices.Contains(args, "--remove-source-files")
		for k, o := range ops {
			switch {
			case k == dest || o.value:
				touch(o.text, false)
			case removes:
				touch(o.text, true)
			}
			if dest >= 0 && k != dest && !o.value {
				if b := path.Base(strings.TrimRight(o.text, "/")); b != "." && b != ".." && b != "/" {
					touch(strings.TrimRight(ops[dest].text, "/")+"/"+b, false)
				}
			}
		}
	case r&extracts != 0:
		// an archive's entries are unknown: extracting into a directory
		// above the guard (unzip -d .claude, tar -C ~) may write it
		for _, o := range ops {
			touch(o.text, true)
		}
	default:
		for _, o := range ops {
			touch(o.text, false)
		}
	}
}

// extractors write an archive's entries, which the command line does not
// show, into a directory.
var extractors = set("tar", "bsdtar", "unzip", "7z", "7za", "7zr", "unrar", "cpio", "pax", "ar", "jar")

// wraps reports whether command i of cmds is a wrapper or shell whose
// command the resolver unwrapped as the next one (sudo cat x, bash -c
// '…'): that command is judged instead.
func wraps(cmds []shell.Command, i int) bool {
	if i+1 >= len(cmds) {
		return false
	}
	c, n := &cmds[i], &cmds[i+1]
	// a program only guessed to run its arguments (the resolver's "may
	// run") is judged itself as well
	return len(n.Via) == len(c.Via)+1 && n.Depth > c.Depth && !strings.HasSuffix(n.Via[len(n.Via)-1], "(may run)")
}

// fed returns the words xargs or parallel (around command i, through any
// wrappers) feed it from stdin, when an echo or printf of static words, a
// here-string or a heredoc gives them: echo .warden | xargs rm -rf.
func fed(cmds []shell.Command, i int) []operand {
	var out []operand
	for k := i - 1; k >= 0 && wraps(cmds, k); k-- {
		w := cmds[k]
		if n := path.Base(w.Args[0]); n != "xargs" && n != "parallel" {
			continue
		}
		for _, rd := range w.Redirs {
			if rd.Stdin() && !rd.Dynamic {
				for _, f := range strings.Fields(rd.Target) {
					out = append(out, operand{text: f})
				}
			}
		}
		for _, j := range w.Inputs {
			in := cmds[j]
			if len(in.Args) == 0 || in.Dynamic[0] {
				continue
			}
			if n := path.Base(in.Args[0]); n != "echo" && n != "printf" {
				continue
			}
			for x, a := range in.Args[1:] {
				if !in.Dynamic[x+1] && !strings.HasPrefix(a, "-") {
					for _, f := range strings.Fields(strings.ReplaceAll(a, `\n`, " ")) {
						out = append(out, operand{text: f})
					}
				}
			}
		}
	}
	return out
}

// operand is a word of a command that may name a file.
type operand struct {
	text string
	// value is set for the value of a --flag=value or key=value word;
	// target for the value of -t DIR / --target-directory=DIR.
	value, target bool
}

// operands appends to out the words of cmd that may name files: its
// operands, and the values of --flag=value and key=value words (dd of=…).
func operands(out []operand, cmd *shell.Command) []operand {
	dashdash := false
	for j := 1; j < len(cmd.Args); j++ {
		a := cmd.Args[j]
		if cmd.Dynamic[j] || a == "" {
			continue
		}
		if !dashdash && a == "--" {
			dashdash = true
			continue
		}
		eq := strings.IndexByte(a, '=')
		if !dashdash && a[0] == '-' && len(a) > 1 {
			switch {
			case eq >= 0:
				out = append(out, operand{text: a[eq+1:], value: true, target: a[:eq] == "--target-directory"})
			case (a == "-t" || a == "--target-directory") && j+1 < len(cmd.Args) && !cmd.Dynamic[j+1]:
				j++
				out = append(out, operand{text: cmd.Args[j], value: true, target: true})
			case len(a) > 2 && a[1] != '-' && strings.ContainsAny(a[2:], "./~"):
				// a value attached to a short flag: 7z x a.7z -o.warden
				out = append(out, operand{text: a[2:], value: true})
			}
			continue
		}
		out = append(out, operand{text: a})
		if eq >= 0 && eq+1 < len(a) {
			out = append(out, operand{text: a[eq+1:], value: true})
		}
	}
	return out
}

// finder returns the index of the find whose -exec runs command i (through
// any wrappers), or -1.
func finder(cmds []shell.Command, i int) int {
	for k := i - 1; k >= 0 && wraps(cmds, k); k-- {
		if path.Base(cmds[k].Args[0]) == "find" {
			return k
		}
	}
	return -1
}

// spares reports whether find's arguments filter by -name or -iname
// patterns that match no name of the guard (-name '*.pyc'), so that what
// it deletes or hands to -exec cannot be the guard.
func spares(args []string) bool {
	var pats []string
	for j := 0; j+1 < len(args); j++ {
		switch args[j] {
		case "-name", "-iname":
			pats = append(pats, strings.ToLower(args[j+1]))
		case "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex":
			return false // a filter on whole paths: not read here
		}
	}
	if len(pats) == 0 {
		return false
	}
	for _, p := range pats {
		if guardNameOf(p, false) {
			return false
		}
	}
	return true
}

// guardNameOf is guardName(p, fileName) when files is set, guardName(p,
// nil) otherwise, remembered for all checks: find's patterns repeat
// (-name '*.pyc'), and a glob is matched against every name of the guard.
func guardNameOf(p string, files bool) bool {
	k := guardNameKey{p, files}
	if m, ok := guardNameMemo.Load(k); ok {
		return m.(bool)
	}
	var keep func(string) bool
	if files {
		keep = fileName
	}
	m := guardName(p, keep)
	if guardNameMemoN.Add(1) <= maxGuardNames {
		guardNameMemo.Store(k, m)
	}
	return m
}

type guardNameKey struct {
	p     string
	files bool
}

// guardNameMemo holds the answers of guardNameOf, at most maxGuardNames.
var (
	guardNameMemo  sync.Map // guardNameKey → bool
	guardNameMemoN atomic.Int64
	maxGuardNames  = int64(1024)
)

// guardName reports whether the name pattern p (find -name's, in lower
// case) and a name of paths.GuardNames match, either as the pattern of
// the other (path.Match both ways), for a name n that keep accepts (nil:
// any).
func guardName(p string, keep func(n string) bool) bool {
	if !hasGlob(p) {
		// literal: only an equal name matches it, and a literal name
		// only an equal text
		return guardNameSet[p] && (keep == nil || keep(p))
	}
	for _, n := range paths.GuardNames() {
		if keep != nil && !keep(n) {
			continue
		}
		if m, _ := path.Match(p, n); m {
			return true
		}
		if guardNameSet[n] {
			if n == p {
				return true
			}
		} else if m, _ := path.Match(n, p); m {
			return true
		}
	}
	return false
}

// guardNameSet holds the names of paths.GuardNames without a glob
// character or escape (all of them, so far): path.Match(n, x) is n == x.
var guardNameSet = func() map[string]bool {
	set := map[string]bool{}
	for _, n := range paths.GuardNames() {
		if !hasGlob(n) {
			set[n] = true
		}
	}
	return set
}()

// hasGlob reports whether a path.Match pattern holds a character that is
// not literal (*, ?, [ or the escape \).
func hasGlob(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// targets judges a find that deletes, or runs a command that is not
// read-only on, the files its -name filters pick when a filter names a
// file of the guard (-name settings.json, -name '*.json'): every project
// may hold one.
func (ck *check) targets(cmd *shell.Command, env paths.Env) {
	args := cmd.Args[1:]
	changes := false
	end := len(args) // where the -exec command at hand ends (its ; or +)
	for j := len(args) - 1; j >= 0 && !changes; j-- {
		// read backwards, so that each -exec's command is read up to its
		// own end, once: reading each to the end of the line was
		// quadratic in -exec find … -exec find …
		switch a := args[j]; a {
		case ";", "+":
			end = j
		case "-delete":
			changes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if j+1 < len(args) {
				ro, ok := readOnly[path.Base(args[j+1])]
				changes = !ok || ro != nil && !ro(args[min(j+2, end):end])
			}
			end = j
		}
	}
	if !changes {
		return
	}
	for j := 0; j+1 < len(args); j++ {
		if args[j] != "-name" && args[j] != "-iname" {
			continue
		}
		p := strings.ToLower(args[j+1])
		if strings.Trim(p, "*") == "" {
			continue // every name: as rm -r of the start, judged by touch
		}
		if guardNameOf(p, true) {
			start := "."
			if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				start = args[0]
			}
			abs := env.Abs(start)
			ck.add(risk.Finding{Rule: RuleSelf, Level: risk.Critical, Resource: "file:" + abs,
				Reason: "The agent changes every file named " + args[j+1] + " below " + abs + " (by find), which takes in warden's policy or an agent's hook settings there: the guard it runs under would no longer hold; only a person may do this"})
			return
		}
	}
}

// fileName reports a name of the guard that names a file or a dot
// directory (it holds a dot), not a bare directory such as hooks.
func fileName(n string) bool { return strings.Contains(n, ".") && n != "." }

// recursiveOnly are the destroyers that reach below a directory only with
// -r or -R (chmod 700 ~ changes the home directory alone).
var recursiveOnly = set("rm", "shred", "srm", "wipe", "chmod", "chown", "chgrp", "chattr", "setfacl", "setfattr", "rmdir", "unlink")

// destroyers remove or change their operands as a whole (recursively, or
// a directory with what it holds).
var destroyers = set("rm", "rmdir", "unlink", "shred", "srm", "wipe", "trash", "trash-put", "gio", "chmod", "chown", "chgrp", "chattr", "setfacl", "setfattr")

// copiers read their sources and write their destination.
var copiers = set("cp", "scp", "rsync", "install", "zip")

// role is what the tables of commands say of one: a destroyer, one of
// recursiveOnly, a copier, an extractor.
type role uint8

const (
	destroys role = 1 << iota
	recursive
	copies
	extracts
)

// roles holds the role of every command of destroyers, recursiveOnly,
// copiers and extractors.
var roles = func() map[string]role {
	m := map[string]role{}
	for _, t := range []struct {
		set map[string]bool
		r   role
	}{{destroyers, destroys}, {recursiveOnly, recursive}, {copiers, copies}, {extractors, extracts}} {
		for n := range t.set {
			m[n] |= t.r
		}
	}
	return m
}()

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// command is what the tables of commands say of one.
type command struct {
	// reads is set for a command of readOnly, with its function
	reads    bool
	readOnly func(args []string) bool
	role     role      // roles
	setsEnv  bool      // envSetters
	agent    *agentCLI // agentCLIs
	lang     string    // interpreters
}

// commands holds every command of readOnly, roles, envSetters, agentCLIs
// and interpreters, so that a command is looked up once.
var commands = func() map[string]command {
	m := map[string]command{}
	for n, f := range readOnly {
		c := m[n]
		c.reads, c.readOnly = true, f
		m[n] = c
	}
	for n, r := range roles {
		c := m[n]
		c.role = r
		m[n] = c
	}
	for n := range envSetters {
		c := m[n]
		c.setsEnv = true
		m[n] = c
	}
	for n, a := range agentCLIs {
		c := m[n]
		c.agent = &a
		m[n] = c
	}
	for n, l := range interpreters {
		c := m[n]
		c.lang = l
		m[n] = c
	}
	return m
}()

// readOnly are the commands that only read their operands: nil when
// always, else a function of their arguments that says whether this use
// only reads (sed without -i, find without -delete, git diff).
var readOnly = map[string]func(args []string) bool{
	"cat": nil, "tac": nil, "less": nil, "more": nil, "head": nil, "tail": nil, "grep": nil, "egrep": nil, "fgrep": nil,
	"rg": nil, "ag": nil, "ack": nil, "diff": nil, "cmp": nil, "comm": nil, "ls": nil, "dir": nil, "stat": nil, "wc": nil,
	"file": nil, "bat": nil, "batcat": nil, "md5sum": nil, "sha1sum": nil, "sha256sum": nil, "sha512sum": nil, "b2sum": nil,
	"cksum": nil, "readlink": nil, "realpath": nil, "dirname": nil, "basename": nil, "test": nil, "[": nil, "[[": nil,
	"echo": nil, "printf": nil, "tree": nil, "du": nil, "strings": nil, "xxd": nil, "hexdump": nil, "od": nil, "nl": nil,
	"cut": nil, "column": nil, "fold": nil, "jq": nil, "cd": nil, "pushd": nil, "type": nil, "which": nil, "view": nil,
	"sed": func(a []string) bool { return !flagged(a, "i", "--in-place") },
	"yq":  func(a []string) bool { return !flagged(a, "i", "--inplace") },
	"sort": func(a []string) bool {
		return !flagged(a, "o", "--output")
	},
	"find": func(a []string) bool {
		for _, x := range a {
			switch x {
			case "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		}
		return true
	},
	"git": func(a []string) bool {
		sub := ""
		for k := 0; k < len(a); k++ {
			if a[k] == "-C" || a[k] == "-c" {
				k++
				continue
			}
			if !strings.HasPrefix(a[k], "-") {
				sub = a[k]
				break
			}
		}
		return gitReads[sub]
	},
	"tar": func(a []string) bool {
		// listing or creating an archive reads the files; the archive
		// written by -c is checked as -f's value
		if len(a) == 0 {
			return true
		}
		mode := strings.TrimPrefix(a[0], "-")
		if strings.HasPrefix(a[0], "--") {
			mode = ""
		}
		list := strings.Contains(mode, "t") || slices.Contains(a, "--list")
		create := strings.Contains(mode, "c") || slices.Contains(a, "--create")
		return list || create && !archiveGuarded(a)
	},
}

// gitReads are the git subcommands that change no file of the work tree.
var gitReads = set("", "diff", "log", "show", "status", "blame", "annotate", "ls-files", "ls-tree", "grep", "cat-file",
	"shortlog", "describe", "rev-parse", "check-ignore", "add", "commit", "branch", "tag", "fetch", "remote", "config", "help", "version")

// archiveGuarded reports whether the archive tar -c writes (the value
// of f in the mode cluster, -f or --file=) names a place of the guard.
func archiveGuarded(a []string) bool {
	for k, x := range a {
		v := ""
		switch {
		case strings.HasPrefix(x, "--file="):
			v = x[len("--file="):]
		case k == 0 && strings.Contains(strings.TrimPrefix(x, "-"), "f") && len(a) > 1:
			v = a[1]
		case x == "-f" && k+1 < len(a):
			v = a[k+1]
		}
		if v != "" && guardText(v) {
			return true
		}
	}
	return false
}

// guardText reports whether a word mentions a place of the guard by name;
// used where the word's position does not say whether it is written.
func guardText(s string) bool {
	for _, n := range []string{".warden", "warden/", ".claude", ".codex", ".gemini", ".cursor", ".github/hooks", ".windsurf", ".codeium", ".copilot"} {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// flagged reports whether args hold the short flag letter (alone, in a
// cluster such as -ni, or with an attached value such as -i.bak) or the
// long flag (alone or as --flag=value).
func flagged(args []string, letter, long string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, long) && (len(a) == len(long) || a[len(long)] == '=') {
			return true
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], letter) {
			return true
		}
	}
	return false
}

// warden judges a command that runs warden itself, and reports whether
// cmd is one. Subcommands that change policy, state or hooks are
// critical; those warden does not know to be read-only are high. base
// is path.Base of the program.
func (ck *check) warden(cmd *shell.Command, base string, env paths.Env) bool {
	name := cmd.Args[0]
	isWarden := wardenName(base)
	if base == "go" && len(cmd.Args) > 2 && cmd.Args[1] == "run" {
		// go run ./cmd/warden …, go run github.com/agentwarden/warden/cmd/warden@v1 …
		for j := 2; j < len(cmd.Args); j++ {
			if pkg, _, _ := strings.Cut(cmd.Args[j], "@"); !strings.HasPrefix(pkg, "-") && wardenName(path.Base(pkg)) {
				cmd = &shell.Command{Args: cmd.Args[j:], Dynamic: cmd.Dynamic[j:]}
				name, isWarden = cmd.Args[0], true
				break
			}
		}
	}
	if !isWarden && strings.Contains(name, "/") {
		abs := env.Abs(name)
		for _, f := range ck.a.Files {
			if abs == f {
				isWarden = true
			}
		}
	}
	if !isWarden {
		return false
	}
	var words []string // subcommands, flags skipped
	store, help := false, false
	for j := 1; j < len(cmd.Args); j++ {
		a := cmd.Args[j]
		switch {
		case a == "--":
			j = len(cmd.Args) // what follows is no subcommand
		case a == "-h" || a == "--help":
			help = true
		case a == "--store" || strings.HasPrefix(a, "--store="):
			store = true
			if a == "--store" {
				j++
			}
		case strings.HasPrefix(a, "--") && !strings.Contains(a, "="), len(a) == 2 && a[0] == '-':
			// as cobra reads it: a flag without "=" takes the next word as
			// its value, whatever it is (warden --by x approve runs
			// approve; warden approve --reason --help is no help)
			j++
		case strings.HasPrefix(a, "-"):
		default:
			if len(words) < 2 {
				words = append(words, a)
			}
		}
	}
	words = append(words, "", "")
	sub, sub2 := words[0], words[1]
	line := strings.Join(cmd.Args, " ")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	critical := func(what string) {
		ck.add(risk.Finding{Rule: RuleCommand, Level: risk.Critical, Resource: "command:warden " + sub,
			Reason: "The agent runs `" + line + "`, which " + what + ": the guard it runs under would no longer hold; only a person may do this"})
	}
	high := func(what string) {
		ck.add(risk.Finding{Rule: RuleCommand, Level: risk.High, Resource: "command:warden " + sub, Reversible: true,
			Reason: "The agent runs `" + line + "`, which " + what})
	}
	switch {
	case help:
	case sub == "policy" && !policyReads[sub2]:
		critical("changes warden's policy")
	case sub == "audit" && !auditReads[sub2]:
		critical("changes warden's audit trail")
	case sub == "install" || sub == "uninstall":
		critical("rewrites the agents' hook settings")
	case sub == "approve" || sub == "reject":
		critical("answers warden's approval requests in a person's place")
	case sub == "policy" || sub == "audit" || wardenReads[sub]:
		if store {
			high("writes conversations and audit events into a store of warden's (--store)")
		}
	default:
		high("is not a warden command known to leave its guard unchanged")
	}
	return true
}

var (
	wardenReads = set("", "help", "version", "assess", "scan", "check-url", "eval", "explain", "doctor", "completion")
	policyReads = set("", "show", "check", "help")
	auditReads  = set("", "list", "show", "verify", "export", "help")
)

// assignment finds a WARDEN_ variable assigned where a command starts
// (WARDEN_POLICY=x cmd, a; WARDEN_MODE=…, export WARDEN_X=…).
var assignment = lazyre.New(`(?:^|[;&|(){}\n]|\bthen|\bdo|\belse)\s*(?:(?:export|declare|typeset|readonly|local)(?:\s+-\w+)*\s+)?(?:[A-Za-z_]\w*=\S*\s+)*(WARDEN_\w*)\+?=`)

// environment judges the setting of warden's environment variables: they
// steer the guard if the agent's environment reaches a hook process.
// look are the commands' names and table entries (nameOf).
func (ck *check) environment(script string, cmds []shell.Command, look []named) {
	var names []string
	if strings.Contains(script, "WARDEN_") {
		for _, m := range assignment.FindAllStringSubmatch(script, 8) {
			names = append(names, m[1])
		}
	}
	for i := range cmds {
		cmd := &cmds[i]
		if len(cmd.Args) == 0 || cmd.Dynamic[0] || !look[i].info.setsEnv {
			continue
		}
		for j, a := range cmd.Args[1:] {
			a = strings.TrimPrefix(a, "--unset=")
			if strings.HasPrefix(a, "WARDEN_") && !cmd.Dynamic[j+1] {
				n, _, _ := strings.Cut(a, "=")
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		ck.add(risk.Finding{Rule: RuleEnvironment, Level: risk.High, Resource: "env:" + n, Reversible: true,
			Reason: "The agent sets or unsets " + n + ", which steers warden if the agent's environment reaches its hook"})
	}
}

var envSetters = set("export", "declare", "typeset", "readonly", "local", "env", "unset", "sudo", "doas", "set", "setenv")

// interpreterLang returns the language of an interpreter that runs
// programs given inline, "" for other commands; info is the command's
// table entry (nameOf), which holds the language of interpreters.
func interpreterLang(name string, info *command) string {
	if info.lang == "" && (strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy")) {
		return "python" // python3, python3.12, pypy3
	}
	return info.lang
}

// interpreters are the languages of the interpreters named in full (those
// of python and pypy have any suffix: interpreterLang).
var interpreters = map[string]string{
	"node": "javascript", "nodejs": "javascript", "deno": "javascript", "bun": "javascript",
	"perl": "perl", "ruby": "ruby", "php": "php", "lua": "lua", "osascript": "osascript", "pwsh": "pwsh", "powershell": "powershell",
	"awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk",
}

// wardenName reports a program name that is warden's: warden, or warden
// with a version or platform suffix (warden-linux-amd64, warden.exe).
func wardenName(base string) bool {
	// no letter but an ASCII one folds to w, a, r, d, e or n, nor to -, _
	// or .: base[:6] is compared as strings.ToLower(base) would be
	if len(base) < 6 || !strings.EqualFold(base[:6], "warden") {
		return false
	}
	rest := base[6:]
	return rest == "" || rest[0] == '-' || rest[0] == '_' || rest[0] == '.'
}

// agentCLI is what an agent's own command line can do to its guard.
type agentCLI struct {
	what string
	// writes are the subcommands that change the agent's settings (its
	// permissions, its MCP servers), unless followed by a word of reads.
	writes map[string]bool
	// loosen are the flags that start the agent without its permission
	// checks; modes are the values of mode flags that do.
	loosen, modeFlags, modes map[string]bool
}

// agentCLIs are the agents' command lines. An agent that starts another
// one without its checks, or changes its own settings through its CLI,
// loosens its guard as surely as by writing the file.
var agentCLIs = map[string]agentCLI{
	"claude": {"Claude Code", set("config", "mcp"),
		set("--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"),
		set("--permission-mode"), set("bypassPermissions", "dontAsk", "acceptEdits")},
	"codex": {"Codex", set("mcp", "features"),
		set("--dangerously-bypass-approvals-and-sandbox", "--yolo", "--full-auto"),
		set("-a", "--ask-for-approval", "-s", "--sandbox", "-c", "--config"),
		set("never", "danger-full-access", "approval_policy=never", `approval_policy="never"`, "sandbox_mode=danger-full-access", `sandbox_mode="danger-full-access"`)},
	"gemini": {"Gemini CLI", set("mcp", "extensions"),
		set("--yolo", "-y"), set("--approval-mode"), set("yolo", "auto_edit")},
	"cursor-agent": {"Cursor", set("mcp"), set("--force", "-f"), nil, nil},
	"copilot":      {"Copilot", set("mcp", "config"), set("--allow-all-tools", "--allow-all", "--yolo", "--allow-all-paths"), nil, nil},
}

var agentReads = set("get", "list", "ls", "show", "help", "--help", "-h", "status")

// agent judges a command that runs an agent's CLI; base is path.Base of
// the program.
func (ck *check) agent(cmd *shell.Command, base string, cli *agentCLI) {
	if cli == nil {
		return
	}
	line := strings.Join(cmd.Args, " ")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	args := cmd.Args[1:]
	if len(args) > 0 && cli.writes[args[0]] && (len(args) < 2 || !agentReads[args[1]]) {
		ck.add(risk.Finding{Rule: RuleHooks, Level: risk.Critical, Resource: "command:" + base + " " + args[0],
			Reason: "The agent runs `" + line + "`, which changes " + cli.what + "'s settings: the guard it runs under would no longer hold; only a person may do this"})
		return
	}
	for j, a := range args {
		flag, v, hasV := strings.Cut(a, "=")
		if !hasV && cli.modeFlags[a] && j+1 < len(args) {
			v, hasV = args[j+1], true
		}
		if cli.loosen[a] || hasV && cli.modeFlags[flag] && cli.modes[v] {
			ck.add(risk.Finding{Rule: RuleUnguarded, Level: risk.High, Resource: "command:" + base, Reversible: true,
				Reason: "The agent starts " + cli.what + " with `" + a + "`, without the permission checks that guard it"})
			return
		}
	}
}
