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

// funcGates are, by the name of a Func that reads only the call's shell
// scripts, strings one of which (in any case) a script holds whenever
// the func fires on it: a rule that names one runs its func only on a
// call with such a script, found by the keyword scan (Rule.run).
var funcGates = map[string][]string{
	"pkg_typosquat": {"install", "add", " i ", " get "}, // what typosquat looks for before it reads a script
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

// installExpr is the pattern of the package installs typosquat reads,
// which eachInstall reads without running it (its tests hold it to the
// pattern).
const installExpr = `(?i)\b(?:pip[0-9.]*|pip3|uv\s+pip|poetry|npm|yarn|pnpm)\s+(?:install|add|i)\s+([^;&|\n]+)`

// typosquat reports a package install whose name is one edit away from a
// popular package without being it.
func typosquat(c *tool.Call) bool {
	for _, s := range c.Shell {
		if !strings.Contains(s, "install") && !strings.Contains(s, "add") && !strings.Contains(s, " i ") && !strings.Contains(s, " get ") {
			continue
		}
		if strings.Contains(s, "go ") && goHomoglyph(s) {
			return true
		}
		found := false
		eachInstall(s, func(loc [4]int) bool {
			found = typosquatted(s[loc[2]:loc[3]])
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// eachInstall calls fn with the successive matches in s of installExpr's
// pattern, each as FindAllStringSubmatchIndex gives it, until fn returns
// false. It reads the text as regexp would, without running it, some
// twenty times cheaper: a match starts at a word's start (\b before a
// manager's first letter), where at most one manager can begin (pip3 is
// pip[0-9.]*, which takes every digit and dot, as only white space may
// follow); case folding is Unicode's, which for these letters adds the
// long s (ſ) of install only.
func eachInstall(s string, fn func(loc [4]int) bool) { eachAtWord(s, installAt, fn) }

// eachAtWord calls fn with the successive matches in s of a pattern that
// starts with \b before a word byte, each as FindAllStringSubmatchIndex
// gives it (the match and its one group), until fn returns false: at
// reads a match that starts at p, and gives its group's bounds, which
// end the match.
func eachAtWord(s string, at func(s string, p int) (start, end int, ok bool), fn func(loc [4]int) bool) {
	for p := 0; p < len(s); p++ {
		if p > 0 && isWordByte(s[p-1]) {
			continue // no \b before a word byte
		}
		if start, end, ok := at(s, p); ok {
			if !fn([4]int{p, end, start, end}) {
				return
			}
			p = end - 1 // the next search starts at the match's end (> p)
		}
	}
}

// installAt returns the arguments a match of installExpr that starts at p
// (after the \b) gives, from start to end, and whether there is one.
func installAt(s string, p int) (start, end int, ok bool) {
	// m is the manager's end; s[p]|0x20 is p for P and p (and no other
	// byte), and so on
	m := -1
	switch s[p] | 0x20 {
	case 'p':
		if m = foldWord(s, p, "pip"); m >= 0 {
			for m < len(s) && ('0' <= s[m] && s[m] <= '9' || s[m] == '.') {
				m++
			}
		} else if m = foldWord(s, p, "poetry"); m < 0 {
			m = foldWord(s, p, "pnpm")
		}
	case 'u':
		if m = foldWord(s, p, "uv"); m >= 0 {
			m = foldWord(s, m+spaces(s, m, 1), "pip")
		}
	case 'n':
		m = foldWord(s, p, "npm")
	case 'y':
		m = foldWord(s, p, "yarn")
	}
	if m < 0 {
		return 0, 0, false
	}
	v := m + spaces(s, m, 1) // the verb: install, add or i (the i of install is followed by n, not white space)
	e := foldWord(s, v, "install")
	if e < 0 {
		if e = foldWord(s, v, "add"); e < 0 {
			e = foldWord(s, v, "i")
		}
	}
	if e < 0 {
		return 0, 0, false
	}
	// \s+([^;&|\n]+): the white space gives back its bytes from the
	// last, down to one, until the arguments can start (a blank, not a
	// newline, may start them)
	for k := spaces(s, e, 1); k >= 1 && k <= len(s); k-- {
		if start = e + k; start < len(s) && !isInstallEnd(s[start]) {
			end = start + 1
			for end < len(s) && !isInstallEnd(s[end]) {
				end++
			}
			return start, end, true
		}
	}
	return 0, 0, false
}

// isInstallEnd reports a byte installExpr's arguments stop at.
func isInstallEnd(b byte) bool { return b == ';' || b == '&' || b == '|' || b == '\n' }

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

// wellKnownOwners are module namespaces and GitHub owners whose
// look-alikes (goIang, g0lang, rnicrosoft) are a typosquatting target.
var wellKnownOwners = []string{
	"golang", "google", "kubernetes", "hashicorp", "microsoft", "facebook", "aws", "spf13", "stretchr",
	"sirupsen", "gorilla", "gin-gonic", "uber-go", "prometheus", "grpc", "docker", "etcd-io", "cloudflare",
}

// goHomoglyph reports a go install or go get of a module whose owner
// (github.com/OWNER/…, or a host's first label: golang.org) is a
// well-known owner spelled with look-alike letters: a capital I for l
// (GitHub owners ignore case, so goIang is goiang, someone else), 0 for
// o, 1 for l, rn for m, vv for w.
func goHomoglyph(s string) bool {
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, `'"`)
		var owner string
		switch {
		case strings.HasPrefix(w, "github.com/"), strings.HasPrefix(w, "gitlab.com/"):
			owner, _, _ = strings.Cut(w[strings.IndexByte(w, '/')+1:], "/")
		case strings.Contains(w, ".org/") || strings.Contains(w, ".io/"):
			owner, _, _ = strings.Cut(w, ".")
		default:
			continue
		}
		if owner == "" {
			continue
		}
		n := strings.NewReplacer("0", "o", "1", "l", "I", "l", "rn", "m", "vv", "w").Replace(owner)
		n = strings.ToLower(n)
		if n != strings.ToLower(owner) && slices.Contains(wellKnownOwners, n) {
			return true
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
