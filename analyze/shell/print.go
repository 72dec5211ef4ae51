package shell

import "mvdan.cc/sh/v3/syntax"

// printedWord returns word w as syntax.Printer prints it (see source),
// when w is of the forms most dynamic words take, all on one line: literal
// text, '…', "…", the parameters $name and ${name}, and command
// substitutions $(…) of one command or one pipeline or list of commands
// (| |& && ||) made of such words, with no redirection, assignment or
// comment. Those the printer writes as they stand, one blank between
// words and around operators; for any other word it reports false, and
// the printer prints it. A differential test holds it to the printer
// (see TestPrintedWord).
func printedWord(w *syntax.Word) (string, bool) {
	var room [128]byte
	b, ok := printParts(room[:0], w.Parts, w.Pos().Line())
	if !ok {
		return "", false
	}
	return string(b), true
}

// printParts appends the parts of a word as printedWord prints them, all
// on line.
func printParts(b []byte, parts []syntax.WordPart, line uint) ([]byte, bool) {
	for _, p := range parts {
		if p.Pos().Line() != line || p.End().Line() != line {
			return b, false
		}
		var ok bool
		switch x := p.(type) {
		case *syntax.Lit:
			// a trailing backslash the printer escapes
			if !printable(x.Value) || len(x.Value) > 0 && x.Value[len(x.Value)-1] == '\\' {
				return b, false
			}
			b = append(b, x.Value...)
		case *syntax.SglQuoted:
			if !printable(x.Value) {
				return b, false
			}
			if x.Dollar {
				b = append(b, '$')
			}
			b = append(b, '\'')
			b = append(b, x.Value...)
			b = append(b, '\'')
		case *syntax.DblQuoted:
			if x.Dollar {
				b = append(b, '$')
			}
			b = append(b, '"')
			if b, ok = printParts(b, x.Parts, line); !ok {
				return b, false
			}
			b = append(b, '"')
		case *syntax.ParamExp:
			if !plainName(x) || !printable(x.Param.Value) {
				return b, false
			}
			if x.Short {
				b = append(b, '$')
				b = append(b, x.Param.Value...)
			} else {
				b = append(b, "${"...)
				b = append(b, x.Param.Value...)
				b = append(b, '}')
			}
		case *syntax.CmdSubst:
			if x.Backquotes || x.TempFile || x.ReplyVar || len(x.Last) > 0 || len(x.Stmts) != 1 {
				return b, false
			}
			b = append(b, "$("...)
			if b, ok = printStmt(b, x.Stmts[0], line); !ok {
				return b, false
			}
			b = append(b, ')')
		default:
			return b, false
		}
	}
	return b, true
}

// printStmt appends statement s of a command substitution as printedWord
// prints it: a simple command of words only, or a binary command of such.
func printStmt(b []byte, s *syntax.Stmt, line uint) ([]byte, bool) {
	if s.Negated || s.Background || s.Coprocess || s.Disown || s.Semicolon.IsValid() || len(s.Redirs) > 0 || len(s.Comments) > 0 ||
		s.Pos().Line() != line || s.End().Line() != line {
		return b, false
	}
	var ok bool
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Assigns) > 0 || len(x.Args) == 0 {
			return b, false
		}
		for i, w := range x.Args {
			if i > 0 {
				b = append(b, ' ')
			}
			if b, ok = printParts(b, w.Parts, line); !ok {
				return b, false
			}
		}
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll, syntax.AndStmt, syntax.OrStmt:
		default:
			return b, false
		}
		if b, ok = printStmt(b, x.X, line); !ok {
			return b, false
		}
		b = append(b, ' ')
		b = append(b, x.Op.String()...)
		b = append(b, ' ')
		if b, ok = printStmt(b, x.Y, line); !ok {
			return b, false
		}
	default:
		return b, false
	}
	return b, true
}

// plainName reports a parameter expansion of a name alone, $name or
// ${name}: what the printer writes as it stands.
func plainName(x *syntax.ParamExp) bool {
	return x.Param != nil && x.Flags == nil && !x.Excl && !x.Length && !x.Width && !x.IsSet &&
		x.Split == syntax.OptUnset && x.GlobSubst == syntax.OptUnset && x.RcExpand == syntax.OptUnset &&
		x.NestedParam == nil && x.Index == nil && len(x.Modifiers) == 0 && x.Slice == nil && x.Repl == nil && x.Names == 0 && x.Exp == nil
}

// printable reports whether s is printable ASCII without tabs or
// newlines, which the printer writes as they stand.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
