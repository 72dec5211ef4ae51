package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assigns reports whether syntax node n may set a shell variable: an
// assignment (FOO=1 cmd, FOO=1), a declaration (export, declare, local,
// readonly, typeset), a for or select loop's variable, let, arithmetic
// that assigns (((i++)), $((x=1))), ${x:=y}. A variable can change what a
// command runs: PATH, LD_PRELOAD, NODE_OPTIONS (see tool.Script).
func assigns(n syntax.Node) bool {
	switch x := n.(type) {
	case *syntax.CallExpr:
		return len(x.Assigns) > 0
	case *syntax.DeclClause, *syntax.ForClause, *syntax.LetClause:
		return true
	case *syntax.BinaryArithm:
		op := x.Op.String()
		return strings.HasSuffix(op, "=") && op != "==" && op != "!=" && op != "<=" && op != ">="
	case *syntax.UnaryArithm:
		return x.Op == syntax.Inc || x.Op == syntax.Dec
	case *syntax.ParamExp:
		return x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull)
	}
	return false
}

// plainSets reports whether a plain script (see plainWords), which is split
// rather than parsed, may set a variable: only when bash reads its first
// word as more than a command name (a reserved word, a declaration
// builtin), and then as the parser reads it; one that does not parse may
// set anything.
func plainSets(script string) bool {
	// most first words are no clause word by their first byte and length
	if first := firstWord(script); !mayClause(first) || !clauseWords[first] {
		return false
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(script), "")
	parsers.Put(p)
	if err != nil {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		found = found || n != nil && assigns(n)
		return !found
	})
	return found
}

// clauseWords are the words plain text can spell that bash reads as more
// than a simple command when they come first: reserved words and the
// declaration builtins.
var clauseWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true, "case": true, "esac": true,
	"while": true, "until": true, "for": true, "in": true, "function": true, "select": true, "time": true, "coproc": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true, "let": true,
}

// firstWord returns the first word of s: after its leading blanks (spaces
// and tabs), up to the next.
func firstWord(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j]
}
