package policy

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/tool"
)

func plainScript(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t' ||
			strings.IndexByte("-_./:,@%+=", c) >= 0) {
			return false
		}
	}
	first, _, _ := strings.Cut(strings.TrimLeft(s, " \t"), " ")
	first, _, _ = strings.Cut(first, "\t")
	return first != "" && !strings.Contains(first, "=") && !clauseWords[first]
}

// clauseWords are the words plain text can spell that bash reads as more
// than a simple command when they come first: reserved words and the
// declaration builtins.
var clauseWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true, "case": true, "esac": true,
	"while": true, "until": true, "for": true, "in": true, "function": true, "select": true, "time": true, "coproc": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true, "let": true,
}

// setsVariables reports whether the call's scripts, or the scripts its
// commands run in nested shells and eval, may set a shell variable (see
// scriptSetsVariables), once.
func (s *Subject) setsVariables() bool {
	if s.varsDone {
		return s.vars
	}
	s.varsDone = true
	for _, script := range s.c.Shell {
		if scriptSetsVariables(script) {
			s.vars = true
			return true
		}
	}
	for i := range s.commands() {
		w := &s.cmds[i].forms[0]
		if len(w.words) == 0 || w.dyn[0] {
			continue
		}
		script := ""
		if j := tool.ShellScriptIndex(w.words); j > 0 && !w.dyn[j] {
			script = w.words[j]
		} else if w.words[0] == "eval" {
			script = strings.Join(w.words[1:], " ")
		}
		if script != "" && scriptSetsVariables(script) {
			s.vars = true
			return true
		}
	}
	return false
}

// scriptSetsVariables reports whether script may set a shell variable: an
// assignment (FOO=1 cmd, FOO=1), a declaration (export, declare, local,
// readonly, typeset), a for or select loop's variable, arithmetic that
// assigns (let, ((i++)), $((x=1))), ${x:=y}. A variable can change what an
// approved command runs: PATH, LD_PRELOAD, NODE_OPTIONS. A script that
// does not parse may set anything.
func scriptSetsVariables(script string) bool {
	if plainScript(script) {
		return false
	}
	if !strings.ContainsAny(script, "=[") && !strings.Contains(script, "((") && !hasClauseWord(script) {
		return false // nothing that could assign
	}
	p := varParsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(script), "")
	varParsers.Put(p)
	if err != nil {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			found = len(x.Assigns) > 0
		case *syntax.DeclClause, *syntax.ForClause, *syntax.LetClause:
			found = true
		case *syntax.BinaryArithm:
			op := x.Op.String()
			found = strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">="
		case *syntax.UnaryArithm:
			found = x.Op == syntax.Inc || x.Op == syntax.Dec
		case *syntax.ParamExp:
			found = x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull)
		}
		return !found
	})
	return found
}

func hasClauseWord(script string) bool {
	for _, w := range [...]string{"for", "select", "let", "declare", "local", "export", "readonly", "typeset", "nameref"} {
		if containsShellWord(script, w) {
			return true
		}
	}
	return false
}

// varParsers are reused: a parser is not safe for concurrent use, but may
// parse many scripts one after another.
var varParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}
