package rules

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/tool"
)

// Funcs are the Go predicates a rule pack may name with "func:". They say
// what a regular expression cannot say well.
var Funcs = map[string]func(*tool.Call) bool{
	"pkg_typosquat":       typosquat,
	"pkg_install":         pkgInstall.match,
	"priv_sudo":           privSudo.match,
	"priv_root_shell":     privRootShell.match,
	"priv_system_install": privSystemInstall.match,
	"git_commit":          gitCommit.match,
	"git_push":            gitPush.match,
	"res_bg_loop":         bgLoop,
	"res_growth_loop":     growthLoop,
}

// commandRules are the Funcs that are command rules, by name: a rule that
// names one runs it with its call's scan state (Rule.run).
var commandRules = map[string]*commandRule{
	"pkg_install":         pkgInstall,
	"priv_sudo":           privSudo,
	"priv_root_shell":     privRootShell,
	"priv_system_install": privSystemInstall,
	"git_commit":          gitCommit,
	"git_push":            gitPush,
}

// popular are widely used packages whose one-letter misspellings are a
// known typosquatting target (PyPI and npm).
var popular = []string{
	"requests", "urllib3", "numpy", "pandas", "django", "flask", "boto3", "botocore", "setuptools", "colorama",
	"python-dateutil", "pyyaml", "cryptography", "beautifulsoup4", "matplotlib", "tensorflow", "pytorch", "torch",
	"scipy", "pillow", "selenium", "jinja2", "paramiko", "simplejson", "psycopg2", "sqlalchemy", "pytest",
	"express", "lodash", "react", "axios", "chalk", "commander", "moment", "webpack", "typescript", "eslint",
	"jquery", "underscore", "request", "dotenv", "mongoose", "electron", "cross-env", "event-stream", "coffee-script",
}

var installCmd = lazyMatcher(`(?i)\b(?:pip[0-9.]*|pip3|uv\s+pip|poetry|npm|yarn|pnpm)\s+(?:install|add|i)\s+([^;&|\n]+)`)

// typosquat reports a package install whose name is one edit away from a
// popular package without being it.
func typosquat(c *tool.Call) bool {
	for _, s := range c.Shell {
		if !strings.Contains(s, "install") && !strings.Contains(s, "add") && !strings.Contains(s, " i ") {
			continue
		}
		found := false
		installCmd().each(s, func(loc []int) bool {
			found = typosquatted(s[loc[2]:loc[3]])
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// typosquatted reports whether the words of a package install's
// arguments name a package one edit away from a popular one without
// being it.
func typosquatted(args string) bool {
	for _, w := range strings.Fields(args) {
		if strings.HasPrefix(w, "-") {
			continue
		}
		name := strings.ToLower(strings.Trim(w, `'"`)) // bash -c 'pip install x'
		if i := strings.IndexAny(name, "=<>~!@["); i > 0 {
			name = name[:i]
		}
		if slices.Contains(popular, name) {
			continue
		}
		for _, p := range popular {
			if oneEdit(name, p) || len(name) == len(p) && transposed(name, p) {
				return true
			}
		}
	}
	return false
}

// oneEdit reports whether the Levenshtein distance between a and b is 1:
// one byte changed, inserted or deleted.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0 // the first byte that differs
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i < len(a) && a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:] // a is b with a[i] inserted
}

// transposed reports whether a and b differ by one swap of adjacent letters.
func transposed(a, b string) bool {
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}

// stripSQLComments blanks -- and /* */ comments outside quotes, so that a
// keyword in a comment is not read as a statement.
func stripSQLComments(s string) string {
	if !strings.Contains(s, "--") && !strings.Contains(s, "/*") {
		return s
	}
	b := []byte(s)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '-' && i+1 < len(b) && b[i+1] == '-':
			for i < len(b) && b[i] != '\n' {
				b[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			for i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/') {
				b[i] = ' '
				i++
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}
