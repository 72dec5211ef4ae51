package rules

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/tool"
)

// commandRule is a rule that reads the parsed commands of a call's shell
// scripts (shell.Commands: wherever the shell runs them, after sudo, env,
// xargs, in sh -c …) with cmd, and, where there are none (code, SQL and
// other text, and a script that does not parse), its former pattern:
// gated by its keywords, and at command positions (see atCommand) when
// atCmd is set.
type commandRule struct {
	cmd      func(args []string) bool
	pattern  func() *matcher
	keywords []string
	atCmd    bool
}

func (r commandRule) match(c *tool.Call) bool {
	for _, s := range c.Shell {
		cmds, err := shell.Commands(c, s)
		if err != nil {
			if r.text(c, s) {
				return true
			}
			continue
		}
		for _, cmd := range cmds {
			if r.cmd(cmd.Args) {
				return true
			}
		}
	}
	// the texts of the other default targets (see texts), without
	// building their lists
	for _, x := range c.Code {
		if r.text(c, x.Text) {
			return true
		}
	}
	for _, x := range c.SQL {
		if r.text(c, stripSQLComments(x)) {
			return true
		}
	}
	for _, s := range c.Text {
		if r.text(c, s) {
			return true
		}
	}
	return false
}

// text reports a match of the pattern in s, when s holds a keyword,
// charged to c's work budget as a pattern rule's scan is (when it runs
// out, the engine reports the call as not fully assessed).
func (r commandRule) text(c *tool.Call, s string) bool {
	if !slices.ContainsFunc(r.keywords, func(k string) bool { return containsLower(s, k) }) {
		return false
	}
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
var pkgInstall = commandRule{cmd: installs, atCmd: true,
	pattern:  pkgInstallPattern,
	keywords: []string{"install", "add", "get", "npm i", "pnpm i", "yarn"},
}.match

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
	if len(args) < 2 {
		return false
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
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// privSudo is rule priv.sudo on the parsed commands: a command run with
// elevated privileges (sudo, doas, pkexec, run0).
var privSudo = commandRule{cmd: func(args []string) bool { return len(args) > 0 && isElevator(args[0]) },
	pattern:  privSudoPattern,
	keywords: []string{"sudo", "doas", "pkexec", "run0"},
}.match

// isElevator reports whether a program runs its command with elevated
// privileges.
func isElevator(name string) bool {
	switch name {
	case "sudo", "doas", "pkexec", "run0":
		return true
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

// gitCommit and gitPush are rules git.commit and git.push on the parsed
// commands.
var (
	gitCommit = commandRule{cmd: func(args []string) bool { return gitSub(args) == "commit" },
		pattern: gitCommitPattern, keywords: []string{"commit"}}.match
	gitPush = commandRule{cmd: func(args []string) bool { return gitSub(args) == "push" },
		pattern: gitPushPattern, keywords: []string{"push"}}.match
)

// The patterns of the command rules, for the texts that are not parsed
// shell scripts.
var (
	pkgInstallPattern = lazyMatcher(`(?i)(?:pip[0-9.]*|pip3|uv\s+pip|python[0-9.]*\s+-m\s+pip|npm|yarn|pnpm|gem|cargo|go|apt(?:-get)?|yum|dnf|apk|brew|conda|poetry|composer|bundle)\s+(?:install|add|i|get)\b`)
	privSudoPattern   = lazyMatcher(`(?i)(?:^|[\n;&|({\x60]|\$\(|\bexec\s|-c\s+["']?)\s*(?:sudo|doas|pkexec|run0)(?:\s|$)`)
	gitCommitPattern  = lazyMatcher(`(?i)\bgit\s+(?:-\S+\s+(?:\S+\s+)?)*commit\b`)
	gitPushPattern    = lazyMatcher(`(?i)\bgit\s+(?:-\S+\s+(?:\S+\s+)?)*push\b`)
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
