package code

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// IPython cells (OpenHands' execute_ipython_cell, Jupyter agents) run
// shell commands of their own: !cmd, %system, %%bash, the %rm family of
// aliases, %pip. They are read here and handed to shell analysis like any
// other command.

// shellEscape records an IPython !cmd. {expr} and $name are Python values
// IPython pastes into the command.
func (a *analysis) shellEscape(text string) {
	a.runShell(str(a.interpolate(text)), nil)
}

// interpolate replaces IPython's {expr} and $name in a shell escape with
// their values where known, and with an unknown piece where the name is a
// variable of the code whose value is not known.
func (a *analysis) interpolate(s string) string {
	if !strings.ContainsAny(s, "{$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && i+1 < len(s) && s[i+1] != '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			expr := s[i+1 : i+j]
			if strings.ContainsAny(expr, ",") || strings.TrimSpace(expr) == "" {
				b.WriteString(s[i : i+j+1]) // brace expansion, left to the shell
			} else {
				b.WriteString(a.exprText(expr).text())
			}
			i += j
		case c == '$' && i+1 < len(s) && isNameStart(s[i+1]):
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			if v, ok := a.scope.lookup(s[i+1 : j]); ok {
				b.WriteString(v.text())
				i = j - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ipythonAliases are IPython's default shell aliases: %rm -rf x runs rm.
var ipythonAliases = map[string]string{
	"rm": "rm", "mv": "mv", "cp": "cp", "mkdir": "mkdir", "rmdir": "rmdir", "cat": "cat",
	"ls": "ls", "ll": "ls -F -l", "lf": "ls -F -l", "lk": "ls -F -l", "ldir": "ls -F -l", "lx": "ls -F -l",
}

// lineMagic records an IPython %magic line.
func (a *analysis) lineMagic(text string) {
	name, rest, _ := strings.Cut(text, " ")
	rest = strings.TrimSpace(rest)
	switch name {
	case "system", "sx", "sc":
		if name == "sc" {
			// %sc -l var=cmd
			if _, cmd, ok := strings.Cut(rest, "="); ok {
				rest = cmd
			}
		}
		a.shellEscape(rest)
	case "pip", "conda", "mamba", "uv":
		a.shellEscape(name + " " + rest)
	case "cd":
		if rest == "" || rest == "~" {
			a.chdir(a.env.Home)
		} else if strings.ContainsAny(rest, "{$") || strings.HasPrefix(rest, "-") {
			a.chdir("")
		} else {
			a.chdir(strings.Trim(rest, `'"`))
		}
	case "run":
		a.shellEscape("python " + rest)
		a.forget = true // the script runs in the cell's namespace
	case "reset", "reset_selective", "store", "load_ext":
		a.forget = true
	case "time", "timeit", "prun", "capture", "debug":
		// The rest of the line is Python code (options first).
		for strings.HasPrefix(rest, "-") {
			_, rest, _ = strings.Cut(rest, " ")
			rest = strings.TrimSpace(rest)
		}
		if rest != "" {
			a.nested(rest)
		}
	default:
		if cmd, ok := ipythonAliases[name]; ok {
			a.shellEscape(cmd + " " + rest)
		}
	}
}

// cellMagic records an IPython %%magic cell.
func (a *analysis) cellMagic(cm *cellMagic) {
	name, rest, _ := strings.Cut(cm.head, " ")
	rest = strings.TrimSpace(rest)
	body := cm.body
	if name == "script" {
		name, rest, _ = strings.Cut(rest, " ")
		name = name[strings.LastIndexByte(name, '/')+1:]
	}
	switch name {
	case "bash", "sh", "zsh", "system", "script":
		a.shellEscape(body)
	case "writefile", "file":
		fields := strings.Fields(rest)
		mode := "w"
		var p string
		for _, f := range fields {
			if f == "-a" || f == "--append" {
				mode = "a"
			} else if !strings.HasPrefix(f, "-") {
				p = strings.Trim(f, `'"`)
			}
		}
		if p != "" {
			a.write(str(p), mode)
			a.wrote(str(p), mode, &value{k: kStr, s: body})
		}
	case "html", "HTML", "markdown", "latex", "svg", "javascript", "js", "writefile_only":
		// Display only (javascript runs in the notebook's browser).
	default:
		what := "A cell magic"
		if plainWord(name) {
			what = "The cell magic %%" + name
		}
		a.add(risk.Finding{Rule: RuleOtherLanguage, Level: risk.Unknown,
			Reason: what + " runs code that is not Python, which is not analyzed"})
	}
}
