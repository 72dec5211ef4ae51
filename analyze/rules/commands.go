package rules

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/tool"
)

// commandRule is a rule that reads the parsed commands of a call's shell
// scripts (shell.Commands: wherever the shell runs them, after sudo, env,
// xargs, in sh -c …) with cmd, and, where there are none (code, SQL and
// other text, and a script that does not parse), its former pattern:
// gated by its keywords, and at command positions (see atCommand) when
// atCmd is set. A rule of the pack that names one (commandRules) runs it
// with its call's scan state (Rule.run): the scripts' commands are read
// once for all of them (commandBits), and the keyword scan gates the
// texts.
type commandRule struct {
	cmd func(args []string) bool
	// at, when set, is used instead of cmd: it reads command i with the
	// others of its script (what it runs, what feeds it)
	at       func(cmds []shell.Command, i int) bool
	pattern  func() *matcher
	keywords []string
	atCmd    bool
	// bit is the rule's bit in what commandBits returns
	bit uint8
}

// The bits of the pack's command rules (commandRule.bit).
const (
	bitInstall uint8 = 1 << iota
	bitSudo
	bitRootShell
	bitSystemInstall
	bitCommit
	bitPush
)

// holds reports whether the rule's test (at, or cmd) holds on command i
// of cmds.
func (r *commandRule) holds(cmds []shell.Command, i int) bool {
	if r.at != nil {
		return r.at(cmds, i)
	}
	return r.cmd(cmds[i].Args)
}

// commandBits returns the bits of the command rules whose test holds on
// command i of cmds (holds, for each rule of commandRules), read from
// the command once for all of them: its program's name is taken once,
// and the tests that cannot hold on it are not run.
func commandBits(cmds []shell.Command, i int) uint8 {
	c := &cmds[i]
	if len(c.Args) == 0 {
		return 0 // no test holds on a command without words
	}
	var bits uint8
	name := path.Base(c.Args[0])
	elev := elevated(c.Via)
	if shell.Elevator(name) {
		bits |= bitSudo
		if !c.Dynamic[0] && !runsInner(cmds, i, name) && elevatorShell(name, c) {
			bits |= bitRootShell
		}
	} else if elev && !c.Dynamic[0] && isShell(name) && interactive(c) {
		bits |= bitRootShell
	}
	if installs(c.Args) {
		bits |= bitInstall
		if elev && !simulated(c.Args) {
			bits |= bitSystemInstall
		}
	} else if elev && buildInstall(c.Args) && !simulated(c.Args) {
		bits |= bitSystemInstall
	}
	switch gitSub(c.Args) {
	case "commit":
		bits |= bitCommit
	case "push":
		if !dryPush(c.Args) {
			bits |= bitPush
		}
	}
	return bits
}

// match reports whether the rule fires on c (its Funcs entry): each
// script's commands are read for the rule alone, and each text's
// keywords are looked for in it.
func (r *commandRule) match(c *tool.Call) bool {
	hit := func(_ int, s string) (bool, error) {
		cmds, err := shell.Commands(c, s)
		if err != nil {
			return false, err
		}
		for i := range cmds {
			if r.holds(cmds, i) {
				return true, nil
			}
		}
		return false, nil
	}
	return r.matches(c, hit, func(ti, j int, s string) bool {
		return slices.ContainsFunc(r.keywords, func(k string) bool { return containsLower(s, k) })
	}, appendTexts(nil, c, tiSQL))
}

// matches is match, with whether the rule's test holds on a command of
// script j of c.Shell, s, from hit (an error: the script's parse error),
// whether text j of target ti, s, holds one of the rule's keywords from
// keyed, and c.SQL without comments, sql (appendTexts: stripped once per
// call, not once per rule).
func (r *commandRule) matches(c *tool.Call, hit func(j int, s string) (bool, error), keyed func(ti, j int, s string) bool, sql []string) bool {
	for j, s := range c.Shell {
		ok, err := hit(j, s)
		if err != nil {
			if keyed(tiCommand, j, s) && r.text(c, s) {
				return true
			}
			continue
		}
		if ok {
			return true
		}
	}
	// the texts of the other default targets (see texts), without
	// building their lists
	for j, x := range c.Code {
		if keyed(tiCode, j, x.Text) && r.text(c, x.Text) {
			return true
		}
	}
	for j, x := range sql {
		if keyed(tiSQL, j, x) && r.text(c, x) {
			return true
		}
	}
	for j, s := range c.Text {
		if keyed(tiText, j, s) && r.text(c, s) {
			return true
		}
	}
	return false
}

// text reports a match of the pattern in s, a text that holds one of the
// rule's keywords, charged to c's work budget as a pattern rule's scan is
// (when it runs out, the engine reports the call as not fully assessed).
func (r *commandRule) text(c *tool.Call, s string) bool {
	if !c.Work.Charge(ruleCost*len(s), "rules") {
		return false
	}
	if !r.atCmd {
		return r.pattern().MatchString(s)
	}
	return matchAtCommand(r.pattern(), s)
}

// pkgInstall is rule pkg.install on the parsed commands: a command whose
// program is a package manager and whose next word installs (pip install,
// uv pip install, python -m pip install, npm i, cargo add, go get, apt-get
// install …).
var pkgInstall = &commandRule{cmd: installs, atCmd: true, bit: bitInstall,
	pattern:  pkgInstallPattern,
	keywords: []string{"install", "add", "get", "npm i", "pnpm i", "yarn"},
}

// isInstallVerb reports whether a word after a package manager (lower
// case) installs.
func isInstallVerb(w string) bool {
	switch w {
	case "install", "add", "i", "get":
		return true
	}
	return false
}

// isManager reports whether a program name (lower case) is a package
// manager whose install verb pkg.install reads.
func isManager(name string) bool {
	switch name {
	case "pip3", "npm", "yarn", "pnpm", "gem", "cargo", "go", "apt", "apt-get", "yum", "dnf", "apk", "brew", "conda", "poetry",
		"composer", "bundle":
		return true
	}
	return false
}

// installs reports whether a command's words install packages: manager
// verb, uv pip verb, python -m pip verb. Names compare without case, as
// the pattern the rule had did.
func installs(args []string) bool {
	if len(args) < 2 || args[0] == "" {
		return false
	}
	// every name below starts with one of these letters, in either case
	// (b|0x20 is a for A and a only, and so on): a name that starts with
	// another ASCII byte is none of them (one that starts with a
	// multi-byte character is compared lower-cased, as the others)
	switch b := args[0][0]; b | 0x20 {
	case 'a', 'b', 'c', 'd', 'g', 'n', 'p', 'u', 'y':
	default:
		if b < utf8.RuneSelf {
			return false
		}
	}
	w := func(i int) string { return strings.ToLower(args[i]) }
	name := w(0)
	switch {
	case isManager(name) || isVersioned(name, "pip"):
		return isInstallVerb(w(1))
	case name == "uv":
		return len(args) > 2 && w(1) == "pip" && isInstallVerb(w(2))
	case isVersioned(name, "python"):
		return len(args) > 3 && w(1) == "-m" && w(2) == "pip" && isInstallVerb(w(3))
	}
	return false
}

// isVersioned reports whether name is prog followed by digits and dots
// only (pip, pip3, pip3.12).
func isVersioned(name, prog string) bool {
	rest, ok := strings.CutPrefix(name, prog)
	if !ok {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if b := rest[i]; (b < '0' || b > '9') && b != '.' {
			return false
		}
	}
	return true
}

// privSudo is rule priv.sudo on the parsed commands: a command run with
// elevated privileges or as another user (sudo, doas, pkexec, run0, su,
// runuser). The elevation alone is the finding: what the command runs is
// judged on its own, as if it stood alone.
var privSudo = &commandRule{cmd: func(args []string) bool { return len(args) > 0 && shell.Elevator(path.Base(args[0])) }, bit: bitSudo,
	pattern:  privSudoPattern,
	keywords: []string{"sudo", "doas", "pkexec", "run0", "su ", "runuser"},
}

// privRootShell is rule priv.root_shell on the parsed commands: an
// elevation that hands over an interactive shell (sudo -i, sudo -s, su,
// doas -s, run0, pkexec alone) or runs a shell that reads no script (sudo
// bash, doas sh, sudo su -, and the shells that programs run under sudo
// start: sudo find . -exec /bin/sh \; , sudo vim -c ':!sh'). What is typed
// into such a shell is not seen.
var privRootShell = &commandRule{at: rootShellAt, bit: bitRootShell,
	pattern:  rootShellPattern,
	keywords: []string{"sudo", "doas", "pkexec", "run0", "su", "runuser"},
	atCmd:    true,
}

// rootShellAt reports whether command i of cmds opens an interactive
// shell with elevated privileges or as another user.
func rootShellAt(cmds []shell.Command, i int) bool {
	c := &cmds[i]
	if len(c.Args) == 0 || c.Dynamic[0] {
		return false
	}
	name := path.Base(c.Args[0])
	if shell.Elevator(name) {
		return !runsInner(cmds, i, name) && elevatorShell(name, c)
	}
	return isShell(name) && elevated(c.Via) && interactive(c)
}

// runsInner reports whether the elevator name, command i of cmds, runs a
// command the resolver unwrapped (the next command one level deeper that
// names it last in its Via).
func runsInner(cmds []shell.Command, i int, name string) bool {
	c := &cmds[i]
	for _, d := range cmds[i+1:] {
		if d.Depth <= c.Depth {
			break
		}
		if d.Depth == c.Depth+1 && len(d.Via) == len(c.Via)+1 && path.Base(d.Via[len(d.Via)-1]) == name {
			return true
		}
	}
	return false
}

// elevatorShell reports whether an elevator that runs no command of its
// own opens a shell: sudo and run0 with -s or -i (run0 alone too), doas
// -s, su and runuser without a command, pkexec alone.
func elevatorShell(name string, c *shell.Command) bool {
	switch name {
	case "su", "runuser":
		return !hasFlag(c, "", "--help", "--version", "-V", "-h")
	case "pkexec":
		return !hasFlag(c, "", "--help", "--version")
	case "run0":
		return !hasFlag(c, "", "--help", "--version", "-h")
	case "doas":
		return hasFlag(c, "s")
	}
	// sudo: -s, -i, --shell, --login, also in a cluster (-iu postgres);
	// the letters after one that takes a value are that value
	return hasFlag(c, "si", "--shell", "--login")
}

// sudoValue are sudo's one-letter options that take a value.
const sudoValue = "ugCDhprtUTR"

// hasFlag reports whether command c has one of the one-letter options
// letters (in a cluster of sudo's options) or one of the long ones.
func hasFlag(c *shell.Command, letters string, long ...string) bool {
	for k, a := range c.Args[1:] {
		if c.Dynamic[k+1] || len(a) < 2 || a[0] != '-' {
			continue
		}
		if a == "--" {
			return false
		}
		if slices.Contains(long, a) || strings.HasPrefix(a, "--") && slices.ContainsFunc(long, func(l string) bool { return strings.HasPrefix(a, l+"=") }) {
			return true
		}
		if strings.HasPrefix(a, "--") {
			continue
		}
		for _, b := range a[1:] {
			if strings.ContainsRune(letters, b) {
				return true
			}
			if strings.ContainsRune(sudoValue, b) {
				break
			}
		}
	}
	return false
}

// elevated reports whether a command is run through an elevator.
func elevated(via []string) bool {
	return slices.ContainsFunc(via, func(v string) bool { return shell.Elevator(path.Base(v)) })
}

// isShell reports whether a program is an interactive command shell.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "tcsh", "csh", "yash", "posh", "rbash", "pwsh":
		return true
	}
	return false
}

// interactive reports whether a shell command reads no script: no -c,
// no script operand, nothing fed to its stdin.
func interactive(c *shell.Command) bool {
	if len(c.Inputs) > 0 {
		return false
	}
	for _, rd := range c.Redirs {
		if rd.Op == "<" || rd.Stdin() {
			return false
		}
	}
	for k, a := range c.Args[1:] {
		switch {
		case c.Dynamic[k+1] || a == "":
			return false // a script computed at run time, or none
		case a == "-":
			// the script is stdin, and nothing feeds it: the terminal
		case a == "--":
			return k+2 == len(c.Args) // nothing after it, or a script
		case strings.HasPrefix(a, "--"):
		case a[0] == '-' || a[0] == '+':
			if strings.ContainsRune(a, 'c') {
				return false // -c script
			}
		default:
			return false // a script file
		}
	}
	return true
}

// privSystemInstall is rule priv.system_install on the parsed commands: a
// package install (see installs) or a build's install step (make install)
// run with elevated privileges writes the system's directories, and the
// packages' own install scripts run as root.
var privSystemInstall = &commandRule{at: func(cmds []shell.Command, i int) bool {
	c := &cmds[i]
	return elevated(c.Via) && (installs(c.Args) || buildInstall(c.Args)) && !simulated(c.Args)
},
	bit:      bitSystemInstall,
	pattern:  systemInstallPattern,
	keywords: []string{"sudo", "doas", "pkexec", "run0"},
	atCmd:    true,
}

// simulated reports an install that only says what it would do:
// apt-get -s/--simulate, pip --dry-run, dnf --assumeno, make -n.
func simulated(args []string) bool {
	name := path.Base(args[0])
	for _, a := range args[1:] {
		switch a {
		case "--simulate", "--dry-run", "--dryrun", "--just-print", "--no-act", "--recon", "--assumeno":
			return true
		case "-s":
			if name == "apt-get" || name == "apt" {
				return true
			}
		case "-n":
			if name == "make" || name == "gmake" || name == "ninja" {
				return true
			}
		}
	}
	return false
}

// buildInstall reports a build tool's install target: make install,
// ninja install, cmake --install DIR.
func buildInstall(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch path.Base(args[0]) {
	case "make", "gmake", "ninja":
		return slices.Contains(args[1:], "install")
	case "cmake":
		return slices.Contains(args[1:], "--install")
	}
	return false
}

// gitSub returns a git command's subcommand: the first word after git's
// own options (-C DIR, -c NAME=VALUE, --git-dir=…), or "".
func gitSub(args []string) string {
	if len(args) < 2 || args[0] != "git" {
		return ""
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--exec-path" || a == "--config-env":
			i++ // the option's value
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// dryPush reports git push -n or --dry-run, which sends nothing.
func dryPush(args []string) bool {
	return slices.Contains(args, "--dry-run") || slices.Contains(args, "-n")
}

// gitCommit and gitPush are rules git.commit and git.push on the parsed
// commands.
var (
	gitCommit = &commandRule{cmd: func(args []string) bool { return gitSub(args) == "commit" },
		pattern: gitCommitPattern, keywords: []string{"commit"}, bit: bitCommit}
	gitPush = &commandRule{cmd: func(args []string) bool { return gitSub(args) == "push" && !dryPush(args) },
		pattern: gitPushPattern, keywords: []string{"push"}, bit: bitPush}
)

// The patterns of the command rules, for the texts that are not parsed
// shell scripts.
var (
	pkgInstallPattern    = lazyMatcher(`(?i)(?:pip[0-9.]*|pip3|uv\s+pip|python[0-9.]*\s+-m\s+pip|npm|yarn|pnpm|gem|cargo|go|apt(?:-get)?|yum|dnf|apk|brew|conda|poetry|composer|bundle)\s+(?:install|add|i|get)\b`)
	privSudoPattern      = lazyMatcher(`(?i)(?:^|[\n;&|({\x60]|\$\(|\bexec\s|-c\s+["']?)\s*(?:sudo|sudo-rs|doas|pkexec|run0|runuser|su\s[^\n;&|]*-c)(?:\s|$)`)
	systemInstallPattern = lazyMatcher(`(?i)\b(?:sudo|doas|pkexec|run0)\s+(?:-\S+\s+)*(?:(?:pip[0-9.]*|uv\s+pip|python[0-9.]*\s+-m\s+pip|npm|yarn|pnpm|gem|cargo|go|apt(?:-get)?|yum|dnf|apk|brew|conda|composer)\s+(?:install|add|i|get)\b|(?:make|ninja)\s+(?:[^\n;&|]*\s)?install\b)`)
	rootShellPattern     = lazyMatcher(`(?i)\b(?:(?:sudo|sudo-rs|run0)\s+(?:-[a-z]*[is][a-z]*(?:\s+\S+)?|(?:-u\s+\S+\s+)?(?:\S*/)?(?:ba|z|da|k|c|tc)?sh|su)|doas\s+(?:-s|(?:\S*/)?(?:ba|z|da|k)?sh|su)|pkexec(?:\s+(?:\S*/)?(?:ba|z|da|k)?sh)?|su(?:\s+-|\s+-l|\s+root)?)\s*(?:$|[\n;&|)])`)
	gitCommitPattern     = lazyMatcher(`(?i)\bgit\s+(?:-\S+\s+(?:\S+\s+)?)*commit\b`)
	gitPushPattern       = lazyMatcher(`(?i)\bgit\s+(?:-\S+\s+(?:\S+\s+)?)*push\b`)
)

// matchAtCommand reports whether m matches s at a command position, among
// its first 16 matches.
func matchAtCommand(m *matcher, s string) bool {
	found, n := false, 0
	m.each(s, func(loc []int) bool {
		n++
		found = atCommand(s, loc[0])
		return !found && n < 16
	})
	return found
}
