package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A word computed at run time only by substitutions of commands that
// read a fact of the machine (date, whoami, hostname, id -u, uname, pwd,
// git rev-parse, basename and dirname of a literal) is not a command
// computed at run time: sqlite3 db ".backup '/srv/b/prod-$(date +%F).db'"
// runs the dot command .backup, whatever the date. A wrapper that runs
// such a word as a script (sqlite3's dot commands, mysql -e, sh -c) reads
// it with each substitution standing for a plain word (stableText), so
// that what it runs is judged rather than reported as unknown. A variable
// or any other substitution keeps the word computed: eval "$X",
// sh -c "$(curl …)".

// substPlaceholder is what a fact substitution reads as: a plain word.
const substPlaceholder = "SUBST"

// stableText returns word a (as the resolver keeps a computed word: its
// source text) with each fact substitution replaced by a plain word and
// its quotes removed, or false when a holds anything else computed.
func stableText(a string) (string, bool) {
	if len(a) > 4096 || !strings.Contains(a, "$(") && !strings.Contains(a, "`") {
		return "", false
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(": "+a), "")
	parsers.Put(p)
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
		return "", false
	}
	var b strings.Builder
	if !stableParts(&b, call.Args[1].Parts, false) {
		return "", false
	}
	out := b.String()
	if t := strings.TrimLeft(out, " \t\n;&|("); strings.HasPrefix(t, substPlaceholder) {
		return "", false // sh -c "$(date)": the command name is the output
	}
	return out, true
}

// stableParts writes the value of parts to b, fact substitutions as
// substPlaceholder; false when a part is computed otherwise.
func stableParts(b *strings.Builder, parts []syntax.WordPart, quoted bool) bool {
	for _, p := range parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			if !quoted && expands(v) {
				return false
			}
			if quoted && strings.Contains(v, `\`) {
				return false
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar || !stableParts(b, x.Parts, true) {
				return false
			}
		case *syntax.CmdSubst:
			v, ok := factSubst(x)
			if !ok {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
	}
	return true
}

// factSubst returns what a substitution of one fact command whose words
// are all literal reads as ($(date +%F), $(git rev-parse --short HEAD)):
// the placeholder word, "." for pwd (the directory it names), and the
// value of basename or dirname of a literal. False for anything else.
func factSubst(x *syntax.CmdSubst) (string, bool) {
	if len(x.Stmts) != 1 || x.Stmts[0].Background || x.Stmts[0].Negated || len(x.Stmts[0].Redirs) > 0 {
		return "", false
	}
	call, ok := x.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || len(call.Args) > 8 {
		return "", false
	}
	var room [8]string
	words := room[:0]
	for _, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			return "", false
		}
		words = append(words, s)
	}
	switch words[0] {
	case "pwd":
		return ".", true
	case "basename", "dirname":
		if len(words) != 2 || strings.HasPrefix(words[1], "-") {
			return "", false
		}
		if words[0] == "basename" {
			return path.Base(words[1]), true
		}
		return path.Dir(words[1]), true
	case "date":
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-s") || strings.HasPrefix(w, "--set") {
				return "", false // sets the clock
			}
		}
		return substPlaceholder, true
	case "hostname":
		for _, w := range words[1:] {
			if !hostnameReads[w] {
				return "", false // hostname NAME, -F FILE: sets it
			}
		}
		return substPlaceholder, true
	case "whoami", "id", "uname", "nproc", "arch", "logname", "tty":
		return substPlaceholder, true
	case "git":
		if len(words) > 1 && (words[1] == "rev-parse" || words[1] == "describe" ||
			words[1] == "branch" && len(words) == 3 && words[2] == "--show-current") {
			return substPlaceholder, true
		}
	}
	return "", false
}

// hostnameReads are the flags with which hostname prints a name.
var hostnameReads = map[string]bool{"-f": true, "-s": true, "-d": true, "-i": true, "-I": true, "-A": true,
	"--fqdn": true, "--long": true, "--short": true, "--domain": true, "--ip-address": true, "--all-ip-addresses": true}

// computedProgram reports eval or source (.) given program text that is
// wholly computed at run time: eval "$X" (or eval "$X --flag", whose
// command name is computed), source "$X", . "$X", source $(mktemp). What
// runs is text warden cannot see, as in eval "$(…)". Not: source
// "$VENV/bin/activate" or . "$HOME/.nvm/nvm.sh", which name a file by
// its place; source $(which virtualenvwrapper.sh), an installed program;
// source <(…), read by the substitution's rules (substScript).
func computedProgram(name string, c *Command) bool {
	switch name {
	case "eval":
		return len(c.Args) > 1 && c.Dynamic[1] && leadingParam(c.Args[1])
	case "source", ".":
		i, _ := scriptOperand(c)
		return i < len(c.Args) && c.Dynamic[i] && wholeComputed(c.Args[i])
	}
	return false
}

// wordParts parses word a (a computed word's source text) and returns
// its parts, one level of double quotes removed when they hold all of it.
func wordParts(a string) []syntax.WordPart {
	if len(a) > 4096 {
		return nil
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(": "+a), "")
	parsers.Put(p)
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 {
		return nil
	}
	parts := call.Args[1].Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	return parts
}

// leadingParam reports a word that starts with a variable: eval "$X",
// eval "${CMD} --force".
func leadingParam(a string) bool {
	if !startsComputed(a, false) {
		return false // a cheap test before the parse
	}
	parts := wordParts(a)
	if len(parts) == 0 {
		return false
	}
	_, ok := parts[0].(*syntax.ParamExp)
	return ok
}

// startsComputed reports a word whose first part (inside a leading double
// quote) may be a variable, $X, or with subst also a command
// substitution, `…`: what leadingParam and wholeComputed need.
func startsComputed(a string, subst bool) bool {
	a = strings.TrimLeft(a, " \t")
	if len(a) > 1 && a[0] == '"' {
		a = a[1:]
	}
	return a != "" && (a[0] == '$' || subst && a[0] == '`')
}

// wholeComputed reports a word that is one variable or one command
// substitution, nothing else: "$X", $(mktemp). A substitution of which,
// command -v or type -p names an installed program.
func wholeComputed(a string) bool {
	if !startsComputed(a, true) {
		return false // a cheap test before the parse
	}
	parts := wordParts(a)
	if len(parts) != 1 {
		return false
	}
	switch x := parts[0].(type) {
	case *syntax.ParamExp:
		return true
	case *syntax.CmdSubst:
		if len(x.Stmts) == 1 {
			if call, ok := x.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
				if s, ok := literal(call.Args[0]); ok && (s == "which" || s == "command" || s == "type") {
					return false
				}
			}
		}
		return true
	}
	return false
}
