package rules

import (
	"regexp"
	"strings"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/tool"
)

// pkgInstall is rule pkg.install on the parsed commands: a command whose
// program is a package manager and whose next word installs (pip install,
// uv pip install, python -m pip install, npm i, cargo add, go get, apt-get
// install …), wherever the shell runs it (after sudo, env, xargs, in sh -c
// …). Texts that are not shell scripts (code, SQL, other arguments) and a
// script that does not parse are read with the pattern, at command
// positions (see installText).
func pkgInstall(c *tool.Call) bool {
	for _, s := range c.Shell {
		cmds, err := shell.Commands(c, s)
		if err != nil {
			if installText(s) {
				return true
			}
			continue
		}
		for _, cmd := range cmds {
			if installs(cmd.Args) {
				return true
			}
		}
	}
	for _, t := range []Target{OnCode, OnSQL, OnText} {
		for _, s := range texts(c, t) {
			if installText(s) {
				return true
			}
		}
	}
	return false
}

// installVerbs are the words after a package manager that install.
var installVerbs = map[string]bool{"install": true, "add": true, "i": true, "get": true}

// managers are the package managers whose install verb pkg.install reads.
var managers = map[string]bool{"pip3": true, "npm": true, "yarn": true, "pnpm": true, "gem": true, "cargo": true, "go": true,
	"apt": true, "apt-get": true, "yum": true, "dnf": true, "apk": true, "brew": true, "conda": true, "poetry": true,
	"composer": true, "bundle": true}

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
	case managers[name] || isVersioned(name, "pip"):
		return installVerbs[w(1)]
	case name == "uv":
		return len(args) > 2 && w(1) == "pip" && installVerbs[w(2)]
	case isVersioned(name, "python"):
		return len(args) > 3 && w(1) == "-m" && w(2) == "pip" && installVerbs[w(3)]
	}
	return false
}

// isVersioned reports whether name is prog followed by digits and dots
// only (pip, pip3, pip3.12).
func isVersioned(name, prog string) bool {
	rest, ok := strings.CutPrefix(name, prog)
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// installPattern is pkg.install's pattern, for the texts that are not
// parsed shell scripts.
var installPattern = lazyre.New(`(?i)(?:pip[0-9.]*|pip3|uv\s+pip|python[0-9.]*\s+-m\s+pip|npm|yarn|pnpm|gem|cargo|go|apt(?:-get)?|yum|dnf|apk|brew|conda|poetry|composer|bundle)\s+(?:install|add|i|get)\b`)

// installKeywords gate installPattern, as the rule's keywords did.
var installKeywords = []string{"install", "add", "get", "npm i", "pnpm i", "yarn"}

// installText reports a match of installPattern at a command position of
// s (see atCommand).
func installText(s string) bool {
	lower := lowerASCII(s)
	gated := false
	for _, k := range installKeywords {
		gated = gated || strings.Contains(lower, k)
	}
	if !gated {
		return false
	}
	return matchAtCommand(installPattern.Get(), s)
}

// matchAtCommand reports whether re matches s at a command position, among
// its first 16 matches.
func matchAtCommand(re *regexp.Regexp, s string) bool {
	for _, m := range re.FindAllStringIndex(s, 16) {
		if atCommand(s, m[0]) {
			return true
		}
	}
	return false
}
