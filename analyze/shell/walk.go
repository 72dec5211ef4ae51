package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// visitor is what walkTree calls for each node.
type visitor interface {
	// visit is called with each node (never nil) before its children,
	// which are walked only if it returns true.
	visit(n syntax.Node) bool
}

// walkTree walks the syntax tree of n in the order syntax.Walk does,
// calling v.visit as syntax.Walk calls its function (without the calls
// with nil that end a node's children). It reads the nodes most scripts
// are made of itself, without the deferred call syntax.Walk makes at
// every node, and hands the others, with all below them, to syntax.Walk.
func walkTree(v visitor, n syntax.Node) {
	// one type switch per node: visit it, then walk its children
	switch x := n.(type) {
	case *syntax.Word:
		if v.visit(n) {
			walkParts(v, x.Parts)
		}
	case *syntax.Lit, *syntax.SglQuoted:
		v.visit(n)
	case *syntax.Stmt:
		if len(x.Comments) > 0 {
			walkOther(v, n) // syntax.Walk orders them around the statement
			return
		}
		if !v.visit(n) {
			return
		}
		// the command's concrete type, not x.Cmd converted to a Node:
		// a conversion between interfaces costs a look-up per statement
		switch c := x.Cmd.(type) {
		case nil:
		case *syntax.CallExpr:
			walkTree(v, c)
		case *syntax.BinaryCmd:
			walkTree(v, c)
		default:
			walkTree(v, x.Cmd)
		}
		for _, r := range x.Redirs {
			walkTree(v, r)
		}
	case *syntax.CallExpr:
		if !v.visit(n) {
			return
		}
		for _, a := range x.Assigns {
			walkTree(v, a)
		}
		for _, w := range x.Args {
			walkTree(v, w)
		}
	case *syntax.File:
		if v.visit(n) {
			walkStmts(v, x.Stmts)
			walkComments(v, x.Last)
		}
	case *syntax.BinaryCmd:
		if v.visit(n) {
			walkTree(v, x.X)
			walkTree(v, x.Y)
		}
	case *syntax.DblQuoted:
		if v.visit(n) {
			walkParts(v, x.Parts)
		}
	case *syntax.Redirect:
		if !v.visit(n) {
			return
		}
		if x.N != nil {
			walkTree(v, x.N)
		}
		walkTree(v, x.Word)
		if x.Hdoc != nil {
			walkTree(v, x.Hdoc)
		}
	case *syntax.Assign:
		if !v.visit(n) {
			return
		}
		if x.Name != nil {
			walkTree(v, x.Name)
		}
		if x.Value != nil {
			walkTree(v, x.Value)
		}
		if x.Index != nil {
			walkTree(v, x.Index)
		}
		if x.Array != nil {
			walkTree(v, x.Array)
		}
	case *syntax.Subshell:
		if v.visit(n) {
			walkStmts(v, x.Stmts)
			walkComments(v, x.Last)
		}
	case *syntax.Block:
		if v.visit(n) {
			walkStmts(v, x.Stmts)
			walkComments(v, x.Last)
		}
	case *syntax.CmdSubst:
		if v.visit(n) {
			walkStmts(v, x.Stmts)
			walkComments(v, x.Last)
		}
	case *syntax.ParamExp:
		if v.visit(n) {
			walkParam(v, x)
		}
	default:
		walkOther(v, n)
	}
}

// walkParam walks the children of a parameter expansion.
func walkParam(v visitor, x *syntax.ParamExp) {
	if x.Flags != nil {
		walkTree(v, x.Flags)
	}
	if x.Param != nil {
		walkTree(v, x.Param)
	}
	if x.NestedParam != nil {
		walkTree(v, x.NestedParam)
	}
	if x.Index != nil {
		walkTree(v, x.Index)
	}
	if x.Slice != nil {
		if x.Slice.Offset != nil {
			walkTree(v, x.Slice.Offset)
		}
		if x.Slice.Length != nil {
			walkTree(v, x.Slice.Length)
		}
	}
	if x.Repl != nil {
		if x.Repl.Orig != nil {
			walkTree(v, x.Repl.Orig)
		}
		if x.Repl.With != nil {
			walkTree(v, x.Repl.With)
		}
	}
	if x.Exp != nil && x.Exp.Word != nil {
		walkTree(v, x.Exp.Word)
	}
}

func walkStmts(v visitor, stmts []*syntax.Stmt) {
	for _, s := range stmts {
		walkTree(v, s)
	}
}

func walkParts(v visitor, parts []syntax.WordPart) {
	for _, p := range parts {
		// as for a statement's command (see walkTree)
		switch x := p.(type) {
		case *syntax.Lit:
			walkTree(v, x)
		case *syntax.SglQuoted:
			walkTree(v, x)
		case *syntax.DblQuoted:
			walkTree(v, x)
		case *syntax.ParamExp:
			walkTree(v, x)
		case *syntax.CmdSubst:
			walkTree(v, x)
		default:
			walkTree(v, p)
		}
	}
}

func walkComments(v visitor, list []syntax.Comment) {
	for i := range list {
		walkOther(v, &list[i])
	}
}

// walkOther walks n and all below it with syntax.Walk.
func walkOther(v visitor, n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool { return n == nil || v.visit(n) })
}

// parseSimple parses src as the parser of parsers does (bash), to the
// identical tree, when src is a list of simple commands of the simplest
// form: words made of unquoted literal text (see simpleByte), '…', "…",
// escapes of printable characters, the parameters $name and ${name} and
// command substitutions $(…) of such lists (in words and in "…");
// redirections n> >> < >& <& &> &>> <> <<<
// to such words; joined by | |& && || and ended by ; & or a newline, in
// ASCII, with comments; a command's name may follow assignments
// name=word, and is neither an assignment of another form (a+=, a[1]=)
// nor a reserved word or declaration builtin (clauseWords). For any other
// src, or one that does not parse, it returns nil: the parser reads it.
// Most scripts agents run are of this form; reading them so costs a
// fraction of the parser's work, and no allocation once t has room (a
// differential test holds it to the parser's tree: see TestParseSimple).
//
// The tree is made of t's nodes: it is valid until t is reset.
func parseSimple(src string, t *simpleTree) *syntax.File {
	if len(src) > maxSimple {
		return nil
	}
	ts, n, ok := lexSimple(src, t.toks[:0])
	t.toks = ts[:0]
	if !ok {
		return nil
	}
	return t.build(src, ts, n)
}

// simpleTree holds the nodes of the tree of a simple script (see
// parseSimple), and keeps them for the next script once reset.
type simpleTree struct {
	toks       []simpleTok
	file       syntax.File
	lits       []syntax.Lit
	sgls       []syntax.SglQuoted
	dbls       []syntax.DblQuoted
	params     []syntax.ParamExp
	substs     []syntax.CmdSubst
	words      []syntax.Word
	parts      []syntax.WordPart
	calls      []syntax.CallExpr
	args       []*syntax.Word
	stmts      []syntax.Stmt
	list       []*syntax.Stmt
	bins       []syntax.BinaryCmd
	redirs     []syntax.Redirect
	redirList  []*syntax.Redirect
	assigns    []syntax.Assign
	assignList []*syntax.Assign
	lines      lineStarts
}

// reset empties t for the next script; lists grown past maxScratch are
// dropped. The nodes of the script read stay in the lists' room until the
// next script's are written over them (build writes each node whole), so
// that t holds at most one script of maxSimple bytes.
func (t *simpleTree) reset() {
	t.file = syntax.File{}
	t.lits = resetNodes(t.lits)
	t.sgls = resetNodes(t.sgls)
	t.dbls = resetNodes(t.dbls)
	t.params = resetNodes(t.params)
	t.substs = resetNodes(t.substs)
	t.words = resetNodes(t.words)
	t.parts = resetNodes(t.parts)
	t.calls = resetNodes(t.calls)
	t.args = resetNodes(t.args)
	t.stmts = resetNodes(t.stmts)
	t.list = resetNodes(t.list)
	t.bins = resetNodes(t.bins)
	t.redirs = resetNodes(t.redirs)
	t.redirList = resetNodes(t.redirList)
	t.assigns = resetNodes(t.assigns)
	t.assignList = resetNodes(t.assignList)
	t.lines = resetNodes(t.lines)
	if cap(t.toks) > maxScratch {
		t.toks = nil
	}
}

// resetNodes returns s empty, with its room unless it grew past
// maxScratch.
func resetNodes[T any](s []T) []T {
	if cap(s) > maxScratch {
		return nil
	}
	return s[:0]
}

// nodes returns s with room for n nodes, which the caller writes whole
// (they may hold an earlier script's).
func nodes[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// lineStarts are the offsets where the lines of a script of more than
// one start, 0 first (none: a script of one line).
type lineStarts []int32

// pos returns the position at offset off.
func (ls lineStarts) pos(off int32) syntax.Pos {
	if len(ls) == 0 {
		return syntax.NewPos(uint(off), 1, uint(off)+1)
	}
	return ls.posIn(off)
}

// posIn is pos in a script of more than one line.
func (ls lineStarts) posIn(off int32) syntax.Pos {
	l, _ := slices.BinarySearch(ls, off+1) // the lines starting at or before off
	return syntax.NewPos(uint(off), uint(l), uint(off-ls[l-1])+1)
}

// maxSimple bounds the scripts parseSimple reads: positions are then
// exact (the parser's columns saturate past 2^14).
const maxSimple = 4 << 10

// simpleTok is a token of a simple script (see lexSimple).
type simpleTok struct {
	kind uint8
	// op is an operator's syntax.BinCmdOperator or syntax.RedirOperator,
	// a word's number of tokens (its own and its parts'), and a command
	// substitution's number of statements
	op       uint16
	from, to int32 // its text in the script (a part's with its quotes)
	// n is a word's number of parts (and a "…"'s), for a redirection the
	// offset of its fd number (-1: none), and for a command substitution
	// the number of tokens of its list
	n int32
}

// The kinds of simpleTok. A word is a tWord followed by its parts; a
// redirection a tRedir followed by its word.
const (
	tWord    = iota
	tLit     // unquoted literal text
	tSgl     // '…'
	tDbl     // "…", followed by its parts
	tSubst   // $(…), followed by the tokens of its list
	tParam   // $name
	tBraced  // ${name}
	tRedir   // a redirection operator
	tBinary  // | |& && ||
	tEnd     // ; or &
	tNewline // a newline that ends a statement
	tAssign  // an assignment before a command's name: a tWord whose first part starts with name=
)

// simpleCounts are the nodes of a simple script's tree, for build to
// allocate at once.
type simpleCounts struct {
	lits, sgls, dbls, params, substs, words, parts, cmds, args, assigns, bins, redirs, lines int
	// stmts: the statements of all lists; top: of the script's
	stmts, top int
}

// simpleByte marks the bytes parseSimple reads as unquoted literal text:
// none starts a token, an expansion, a comment or a glob group, or ends a
// word. (Braces are literal text but in the command's name, where { and }
// are reserved words, and before a redirection, where {fd}> names an fd.)
var simpleByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=,@%+~^*?{}", byte(c)) >= 0
	}
	return t
}()

// quotable reports whether c may stand inside quotes of a simple script:
// printable ASCII or a tab.
func quotable(c byte) bool { return c >= ' ' && c < 0x7f || c == '\t' }

// lexSimple appends the tokens of src to ts, and counts its nodes; it
// reports false when src is not a simple script (see parseSimple) or may
// not parse. The grammar is checked here: build only assembles.
func lexSimple(src string, ts []simpleTok) ([]simpleTok, simpleCounts, bool) {
	var n simpleCounts
	ts, _, stmts, ok := lexList(src, ts, 0, &n, 0)
	n.top = stmts
	return ts, n, ok
}

// maxSubst bounds how deep parseSimple reads command substitutions in
// one another: deeper ones are left to the parser (and lexList's
// recursion stays shallow on hostile input).
const maxSubst = 8

// lexList appends the tokens of the list of statements at src[i]: the
// script (depth 0) or, at depth > 0, the list inside a command
// substitution, which ends at its ")". It returns where the list ends
// (at the ")", or the end of src) and its number of statements.
func lexList(src string, ts []simpleTok, i int, n *simpleCounts, depth int) ([]simpleTok, int, int, bool) {
	// cmd: a command is open (it has a word); name: the next word is its
	// name; need: an operator was read that a command must follow; redir:
	// a redirection was read since the last operator; ends: the
	// statements ended (by ; & or a newline)
	cmd, name, need, redir := false, true, false, false
	ends := 0
	for {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i == len(src) || depth > 0 && src[i] == ')' {
			if depth > 0 && i == len(src) {
				return ts, i, 0, false // unbalanced
			}
			// a command without words (a; >f) is left to the parser, as
			// is an empty command substitution
			stmts := ends
			if cmd {
				stmts++
			}
			n.stmts += stmts
			return ts, i, stmts, !need && (cmd || !redir && ends > 0)
		}
		c := src[i]
		switch {
		case c == '#':
			// a comment, to the end of its line (the parser keeps none),
			// in printable ASCII
			for i < len(src) && src[i] != '\n' {
				if !quotable(src[i]) {
					return ts, i, 0, false
				}
				i++
			}
			continue
		case c == '\n':
			// the end of a statement, or a blank line, or a line break
			// after an operator
			if cmd {
				ts = append(ts, simpleTok{kind: tNewline, from: int32(i), to: int32(i + 1)})
				ends++
				cmd, name = false, true
			} else if redir {
				return ts, i, 0, false
			}
			n.lines++
			i++
			continue
		case c == ';' || c == '&' && (i+1 == len(src) || src[i+1] != '&' && src[i+1] != '>'):
			if !cmd || need || i+1 < len(src) && (src[i+1] == ';' || src[i+1] == '&' || src[i+1] == '|') {
				return ts, i, 0, false
			}
			ts = append(ts, simpleTok{kind: tEnd, from: int32(i), to: int32(i + 1)})
			ends++
			cmd, name, redir = false, true, false
			i++
			continue
		case c == '|' || c == '&' && src[i+1] == '&':
			op, w := syntax.Pipe, 1
			switch {
			case c == '&':
				op, w = syntax.AndStmt, 2
			case i+1 < len(src) && src[i+1] == '|':
				op, w = syntax.OrStmt, 2
			case i+1 < len(src) && src[i+1] == '&':
				op, w = syntax.PipeAll, 2
			}
			if !cmd || need {
				return ts, i, 0, false
			}
			ts = append(ts, simpleTok{kind: tBinary, op: uint16(op), from: int32(i), to: int32(i + w)})
			n.bins++
			cmd, name, need, redir = false, true, true, false
			i += w
			continue
		case c == '>' || c == '<' || c == '&':
			var ok bool
			if ts, i, ok = lexRedirect(src, ts, i, -1); !ok {
				return ts, i, 0, false
			}
			n.redirs++
			redir = true
			if ts, i, ok = lexWord(src, ts, i, n, false, depth); !ok {
				return ts, i, 0, false
			}
			continue
		}
		// a word: the command's name, an argument, or the fd number of a
		// redirection (2>…)
		j := i
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		if j > i && j < len(src) && (src[j] == '>' || src[j] == '<') {
			var ok bool
			if ts, i, ok = lexRedirect(src, ts, j, i); !ok {
				return ts, i, 0, false
			}
			n.redirs++
			n.lits++ // the fd number
			redir = true
			if ts, i, ok = lexWord(src, ts, i, n, false, depth); !ok {
				return ts, i, 0, false
			}
			continue
		}
		w := len(ts)
		var ok bool
		if ts, i, ok = lexWord(src, ts, i, n, true, depth); !ok {
			return ts, i, 0, false
		}
		if !cmd {
			n.cmds++
		}
		if name {
			// the command's name, or an assignment before it: not what
			// makes it more than a simple command (another assignment, a
			// reserved word, a declaration, a brace)
			first := ts[w+1]
			text := src[first.from:first.to]
			if eq := assignName(text); first.kind == tLit && eq > 0 {
				// name=value: its name a literal of its own, its value a
				// word of the other parts (none: no word)
				ts[w].kind = tAssign
				n.assigns++
				if eq+1 < len(text) {
					n.lits++
				} else if n.parts--; ts[w].n == 1 {
					n.words--
				}
				cmd, need = true, false
				continue
			}
			if first.kind == tLit && (nameBreaks(text) || mayClause(text) && clauseWords[text] || text == "@test") {
				return ts, i, 0, false
			}
		}
		n.args++
		cmd, name, need = true, false, false
	}
}

// assignName returns where the = is of literal text that starts an
// assignment, name=…; 0 for any other (a+=, a[1]=, 1a=, =a).
func assignName(text string) int {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9':
		case c == '=':
			return i
		default:
			return 0
		}
	}
	return 0
}

// nameBreaks reports literal text that is not a simple command's name
// when it starts one: an assignment (=) or a brace ({ and } are reserved
// words, {a,b} a brace expansion).
func nameBreaks(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '=' || c == '{' || c == '}' {
			return true
		}
	}
	return false
}

// mayClause reports whether word may be one of clauseWords: whether one
// of them starts with its first byte and is as long (most commands' names
// are not, and are then not looked up).
func mayClause(word string) bool {
	return len(word) > 0 && len(word) < 64 && clauseShapes[word[0]]&(1<<len(word)) != 0
}

// clauseShapes has, for each byte, bit n set when a word of clauseWords
// of n bytes starts with it.
var clauseShapes = func() (t [256]uint64) {
	for w := range clauseWords {
		if len(w) == 0 || len(w) >= 64 {
			panic("shell: clause word " + w + " is empty or too long for clauseShapes")
		}
		t[w[0]] |= 1 << len(w)
	}
	return t
}()

// lexRedirect appends the redirection whose operator starts at src[i],
// with its fd number at src[fd:i] (fd -1: none), and returns where its
// word starts.
func lexRedirect(src string, ts []simpleTok, i, fd int) ([]simpleTok, int, bool) {
	at := func(k int) byte {
		if k < len(src) {
			return src[k]
		}
		return 0
	}
	var op syntax.RedirOperator
	w := 1
	switch c := src[i]; {
	case c == '>' && at(i+1) == '>':
		op, w = syntax.AppOut, 2
	case c == '>' && at(i+1) == '&':
		op, w = syntax.DplOut, 2
	case c == '>':
		op = syntax.RdrOut
	case c == '<' && at(i+1) == '&':
		op, w = syntax.DplIn, 2
	case c == '<' && at(i+1) == '<' && at(i+2) == '<':
		op, w = syntax.WordHdoc, 3
	case c == '<' && at(i+1) == '>':
		op, w = syntax.RdrInOut, 2
	case c == '<':
		op = syntax.RdrIn
	case c == '&' && at(i+1) == '>' && at(i+2) == '>':
		op, w = syntax.AppAll, 3
	case c == '&' && at(i+1) == '>':
		op, w = syntax.RdrAll, 2
	default:
		return ts, i, false
	}
	// what would make the operator another (>|, <<, >(, &>|, >>|, <<<<)
	if next := at(i + w); next == '|' || next == '<' || next == '>' || next == '(' || next == '&' {
		return ts, i, false
	}
	ts = append(ts, simpleTok{kind: tRedir, op: uint16(op), from: int32(i), to: int32(i + w), n: int32(fd)})
	i += w
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return ts, i, true
}

// lexWord appends the word at src[i] (a tWord and its parts) and returns
// where it ends; it reports false when there is none, or it is not of a
// simple script. A word that is not a command's (a redirection's target)
// may not run into a redirection (>&2>f), nor may literal text after
// other parts or holding a brace ({fd}>f): the parser reads those
// differently. At depth > 0 (in a command substitution) a ")" ends it too.
func lexWord(src string, ts []simpleTok, i int, n *simpleCounts, arg bool, depth int) ([]simpleTok, int, bool) {
	w := len(ts)
	ts = append(ts, simpleTok{kind: tWord, from: int32(i)})
	parts := 0
	for i < len(src) {
		from := i
		switch c := src[i]; {
		case simpleByte[c] || c == '\\':
			// the run of plain bytes, and what follows it (an escape) read
			// by lexLiteral
			for i < len(src) && simpleByte[src[i]] {
				i++
			}
			if i < len(src) && src[i] == '\\' {
				var ok bool
				if i, ok = lexLiteral(src, i, false); !ok {
					return ts, i, false
				}
			}
			ts = append(ts, simpleTok{kind: tLit, from: int32(from), to: int32(i)})
			n.lits++
			if i < len(src) && (src[i] == '>' || src[i] == '<') && (!arg || parts > 0 || strings.ContainsAny(src[from:i], "{}")) {
				// digits or {name} before it would be an fd: left to the
				// parser
				return ts, i, false
			}
		case c == '$':
			var ok bool
			if ts, i, ok = lexDollar(src, ts, i, n, depth); !ok {
				return ts, i, false
			}
		case c == '\'':
			i++
			for i < len(src) && src[i] != '\'' && quotable(src[i]) {
				i++
			}
			if i == len(src) || src[i] != '\'' {
				return ts, i, false
			}
			i++
			ts = append(ts, simpleTok{kind: tSgl, from: int32(from), to: int32(i)})
			n.sgls++
		case c == '"':
			// a tDbl followed by its parts: literal text, parameters and
			// command substitutions
			d := len(ts)
			ts = append(ts, simpleTok{kind: tDbl, from: int32(from)})
			i++
			np := 0
			for i < len(src) && src[i] != '"' {
				np++
				var ok bool
				if src[i] == '$' {
					if ts, i, ok = lexDollar(src, ts, i, n, depth); !ok {
						return ts, i, false
					}
					continue
				}
				lit := i
				for i < len(src) && quotedByte[src[i]] {
					i++
				}
				if i < len(src) && src[i] != '"' && src[i] != '$' {
					// an escape, or a byte no simple script holds
					if i, ok = lexLiteral(src, i, true); !ok {
						return ts, i, false
					}
				}
				if i == lit {
					return ts, i, false
				}
				ts = append(ts, simpleTok{kind: tLit, from: int32(lit), to: int32(i)})
				n.lits++
			}
			if i == len(src) {
				return ts, i, false
			}
			i++
			ts[d].to, ts[d].n = int32(i), int32(np)
			n.dbls++
			n.parts += np
		default:
			if parts == 0 {
				return ts, i, false // no word, or a byte no simple script holds
			}
			// the word ends at a blank, a newline or an operator
			switch c {
			case ' ', '\t', '\n', ';', '&', '|', '<', '>':
			case ')':
				if depth == 0 {
					return ts, i, false
				}
			default:
				return ts, i, false
			}
			ts[w].to, ts[w].n, ts[w].op = int32(i), int32(parts), uint16(len(ts)-w)
			n.words++
			n.parts += parts
			return ts, i, true
		}
		parts++
	}
	ts[w].to, ts[w].n, ts[w].op = int32(i), int32(parts), uint16(len(ts)-w)
	n.words++
	n.parts += parts
	return ts, i, parts > 0
}

// lexLiteral returns where the literal text at src[i] ends: unquoted (see
// simpleByte) or, quoted, inside "…" (up to a " or a $); both may hold
// escapes of printable characters (\; \$), kept as written as the parser
// keeps them. It reports false for what no simple script holds there: an
// escaped newline, a backquote, a control or non-ASCII byte inside quotes.
func lexLiteral(src string, i int, quoted bool) (int, bool) {
	for {
		// the run of plain bytes, then what ends it
		if quoted {
			for i < len(src) && quotedByte[src[i]] {
				i++
			}
		} else {
			for i < len(src) && simpleByte[src[i]] {
				i++
			}
		}
		if i == len(src) {
			return i, true
		}
		switch c := src[i]; {
		case c == '\\':
			if i+1 == len(src) || !quotable(src[i+1]) {
				return i, false
			}
			i += 2
		case !quoted:
			return i, true
		case c == '"' || c == '$':
			return i, true
		default:
			return i, false // a backquote, a control or non-ASCII byte
		}
	}
}

// quotedByte marks the bytes lexLiteral reads as literal text inside
// "…": printable ASCII or a tab (quotable) but for the quote, $, ` and \.
var quotedByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = quotable(byte(c)) && c != '"' && c != '$' && c != '`' && c != '\\'
	}
	return t
}()

// lexDollar appends the expansion at src[i], a $: a parameter (see
// lexParam) or a command substitution $(…) of a simple list, a tSubst
// followed by the list's tokens. Any other ($((…)), deeper than
// maxSubst) is left to the parser.
func lexDollar(src string, ts []simpleTok, i int, n *simpleCounts, depth int) ([]simpleTok, int, bool) {
	if i+1 == len(src) || src[i+1] != '(' {
		return lexParam(src, ts, i, n)
	}
	if i+2 == len(src) || src[i+2] == '(' || depth == maxSubst {
		return ts, i, false
	}
	s := len(ts)
	ts = append(ts, simpleTok{kind: tSubst, from: int32(i)})
	ts, end, stmts, ok := lexList(src, ts, i+2, n, depth+1)
	if !ok {
		return ts, end, false
	}
	// the list ended at its ")"
	ts[s].to, ts[s].n, ts[s].op = int32(end+1), int32(len(ts)-s-1), uint16(stmts)
	n.substs++
	return ts, end + 1, true
}

// lexParam appends the parameter expansion $name or ${name} at src[i]; any
// other use of $ is left to the parser.
func lexParam(src string, ts []simpleTok, i int, n *simpleCounts) ([]simpleTok, int, bool) {
	from := i
	braced := i+1 < len(src) && src[i+1] == '{'
	i++
	if braced {
		i++
	}
	if i == len(src) || !(src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
		return ts, i, false // $1, $@, $(…), ${#x}, a lone $
	}
	for i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9') {
		i++
	}
	if braced {
		if i == len(src) || src[i] != '}' {
			return ts, i, false // ${x:-y}, ${x[1]}
		}
		i++
	}
	kind := tParam
	if braced {
		kind = tBraced
	}
	ts = append(ts, simpleTok{kind: uint8(kind), from: int32(from), to: int32(i)})
	n.params++
	n.lits++ // the name
	return ts, i, true
}

// build assembles in t (new or reset) the tree of the simple script src from its tokens
// ts and counts n (see lexSimple). It nests them as the parser does: a
// pipeline's | and |& bind before && and ||, and both associate to the
// left.
func (t *simpleTree) build(src string, ts []simpleTok, n simpleCounts) *syntax.File {
	t.lits, t.sgls, t.dbls, t.params = nodes(t.lits, n.lits), nodes(t.sgls, n.sgls), nodes(t.dbls, n.dbls), nodes(t.params, n.params)
	t.substs, t.words, t.parts = nodes(t.substs, n.substs), nodes(t.words, n.words), nodes(t.parts, n.parts)
	t.calls, t.args, t.stmts = nodes(t.calls, n.cmds), nodes(t.args, n.args), nodes(t.stmts, n.cmds+n.bins)
	t.list, t.bins = nodes(t.list, n.stmts), nodes(t.bins, n.bins)
	t.redirs, t.redirList = nodes(t.redirs, n.redirs), nodes(t.redirList, n.redirs)
	t.assigns, t.assignList = nodes(t.assigns, n.assigns), nodes(t.assignList, n.assigns)
	lits, sgls, dbls, params, substs, words, parts := t.lits, t.sgls, t.dbls, t.params, t.substs, t.words, t.parts
	calls, args, stmts, bins, redirs, redirList, lists := t.calls, t.args, t.stmts, t.bins, t.redirs, t.redirList, t.list
	assigns, assignList := t.assigns, t.assignList
	var lines lineStarts
	if n.lines > 0 {
		lines = nodes(t.lines, n.lines+1)[:1]
		lines[0] = 0
		for i := range len(src) {
			if src[i] == '\n' {
				lines = append(lines, int32(i+1))
			}
		}
		t.lines = lines
	}
	lit := func(from, to int32) *syntax.Lit {
		l := &lits[0]
		lits = lits[1:]
		*l = syntax.Lit{ValuePos: lines.pos(from), ValueEnd: lines.pos(to), Value: src[from:to]}
		return l
	}
	// list assembles the list of nstmts statements of the tokens
	// ts[k:end]; part and word the word part and the word at ts[k],
	// returning it and the index past it (they call each other for the
	// lists of command substitutions).
	var list func(k, end, nstmts int) []*syntax.Stmt
	var part func(k int) (syntax.WordPart, int)
	part = func(k int) (syntax.WordPart, int) {
		tok := ts[k]
		switch tok.kind {
		case tSgl:
			q := &sgls[0]
			sgls = sgls[1:]
			*q = syntax.SglQuoted{Left: lines.pos(tok.from), Right: lines.pos(tok.to - 1), Value: src[tok.from+1 : tok.to-1]}
			return q, k + 1
		case tDbl:
			q := &dbls[0]
			dbls = dbls[1:]
			*q = syntax.DblQuoted{Left: lines.pos(tok.from), Right: lines.pos(tok.to - 1)}
			k++
			if np := int(tok.n); np > 0 {
				q.Parts = parts[:np:np]
				parts = parts[np:]
				for p := range np {
					q.Parts[p], k = part(k)
				}
			}
			return q, k
		case tParam, tBraced:
			pe := &params[0]
			params = params[1:]
			if tok.kind == tParam {
				*pe = syntax.ParamExp{Dollar: lines.pos(tok.from), Short: true, Param: lit(tok.from+1, tok.to)}
			} else {
				*pe = syntax.ParamExp{Dollar: lines.pos(tok.from), Rbrace: lines.pos(tok.to - 1), Param: lit(tok.from+2, tok.to-1)}
			}
			return pe, k + 1
		case tSubst:
			cs := &substs[0]
			substs = substs[1:]
			*cs = syntax.CmdSubst{Left: lines.pos(tok.from), Right: lines.pos(tok.to - 1)}
			end := k + 1 + int(tok.n)
			cs.Stmts = list(k+1, end, int(tok.op))
			return cs, end
		}
		return lit(tok.from, tok.to), k + 1
	}
	word := func(k int) (*syntax.Word, int) {
		w := &words[0]
		words = words[1:]
		np := int(ts[k].n)
		*w = syntax.Word{Parts: parts[:np:np]}
		parts = parts[np:]
		k++
		if tok := ts[k]; np == 1 && tok.kind == tLit {
			// most words: part's last case, without the calls
			l := &lits[0]
			lits = lits[1:]
			*l = syntax.Lit{ValuePos: lines.pos(tok.from), ValueEnd: lines.pos(tok.to), Value: src[tok.from:tok.to]}
			w.Parts[0] = l
			return w, k + 1
		}
		for p := range np {
			w.Parts[p], k = part(k)
		}
		return w, k
	}
	// assign is the assignment at ts[k] (a tAssign), and the index past it
	assign := func(k int) (*syntax.Assign, int) {
		tok, first := ts[k], ts[k+1]
		eq := first.from + int32(strings.IndexByte(src[first.from:first.to], '='))
		a := &assigns[0]
		assigns = assigns[1:]
		*a = syntax.Assign{Name: lit(first.from, eq)}
		np := int(tok.n)
		k += 2 // past the word and its first part
		if eq+1 < first.to {
			w := &words[0]
			words = words[1:]
			*w = syntax.Word{Parts: parts[:np:np]}
			parts = parts[np:]
			w.Parts[0] = lit(eq+1, first.to)
			for p := 1; p < np; p++ {
				w.Parts[p], k = part(k)
			}
			a.Value = w
		} else if np > 1 {
			w := &words[0]
			words = words[1:]
			*w = syntax.Word{Parts: parts[: np-1 : np-1]}
			parts = parts[np-1:]
			for p := range np - 1 {
				w.Parts[p], k = part(k)
			}
			a.Value = w
		}
		return a, k
	}
	binary := func(t simpleTok, x *syntax.Stmt) (*syntax.Stmt, *syntax.BinaryCmd) {
		b := &bins[0]
		bins = bins[1:]
		*b = syntax.BinaryCmd{OpPos: lines.pos(t.from), Op: syntax.BinCmdOperator(t.op), X: x}
		s := &stmts[0]
		stmts = stmts[1:]
		*s = syntax.Stmt{Position: x.Position, Cmd: b}
		return s, b
	}
	list = func(k, end, nstmts int) []*syntax.Stmt {
		out := lists[:0:nstmts]
		lists = lists[nstmts:]
		// cmd is the command being read (nil between commands); pipe the
		// pipeline it ends, whose last | waits for it in pipeBin; list the
		// statement of && and || it ends, whose last operator waits for the
		// pipeline in listBin
		var cmd, pipe, list *syntax.Stmt
		var pipeBin, listBin *syntax.BinaryCmd
		var cmdArgs []*syntax.Word
		var call *syntax.CallExpr // cmd's
		var cmdRedirs []*syntax.Redirect
		var cmdAssigns []*syntax.Assign
		endCmd := func() {
			if pipeBin != nil {
				pipeBin.Y, pipeBin = cmd, nil
			} else {
				pipe = cmd
			}
			cmd = nil
		}
		endPipe := func() {
			endCmd()
			if listBin != nil {
				listBin.Y, listBin = pipe, nil
			} else {
				list = pipe
			}
			pipe = nil
		}
		for k < end {
			t := ts[k]
			switch t.kind {
			case tBinary:
				if op := syntax.BinCmdOperator(t.op); op == syntax.Pipe || op == syntax.PipeAll {
					endCmd()
					pipe, pipeBin = binary(t, pipe)
				} else {
					endPipe()
					list, listBin = binary(t, list)
				}
				k++
				continue
			case tEnd, tNewline:
				endPipe()
				if t.kind == tEnd {
					list.Semicolon = lines.pos(t.from)
					list.Background = src[t.from] == '&'
				}
				out = append(out, list)
				list = nil
				k++
				continue
			}
			if cmd == nil {
				call = &calls[0]
				calls = calls[1:]
				*call = syntax.CallExpr{}
				cmd = &stmts[0]
				stmts = stmts[1:]
				*cmd = syntax.Stmt{Position: lines.pos(t.from), Cmd: call}
				if t.kind == tRedir && t.n >= 0 {
					cmd.Position = lines.pos(t.n)
				}
				// the command's words and redirections, laid out
				// together up to the next operator: each takes its
				// slots before the commands of its substitutions do
				na, nr, nas := 0, 0, 0
				for j := k; j < end; {
					if ts[j].kind == tWord {
						na++
						j += int(ts[j].op)
					} else if ts[j].kind == tAssign {
						nas++
						j += int(ts[j].op)
					} else if ts[j].kind == tRedir {
						nr++
						j += 1 + int(ts[j+1].op)
					} else {
						break
					}
				}
				cmdArgs, args = args[:0:na], args[na:]
				if nas > 0 {
					cmdAssigns, assignList = assignList[:0:nas], assignList[nas:]
				}
				if nr > 0 {
					cmdRedirs, redirList = redirList[:0:nr], redirList[nr:]
				}
			}
			if t.kind == tWord {
				var w *syntax.Word
				w, k = word(k)
				cmdArgs = append(cmdArgs, w)
				call.Args = cmdArgs
				continue
			}
			if t.kind == tAssign {
				var a *syntax.Assign
				a, k = assign(k)
				cmdAssigns = append(cmdAssigns, a)
				call.Assigns = cmdAssigns
				continue
			}
			// a redirection and its word
			r := &redirs[0]
			redirs = redirs[1:]
			*r = syntax.Redirect{OpPos: lines.pos(t.from), Op: syntax.RedirOperator(t.op)}
			if t.n >= 0 {
				r.N = lit(t.n, t.from)
			}
			r.Word, k = word(k + 1)
			cmdRedirs = append(cmdRedirs, r)
			cmd.Redirs = cmdRedirs
		}
		if cmd != nil || list != nil || pipe != nil {
			endPipe()
			out = append(out, list)
		}
		return out
	}
	f := &t.file
	f.Stmts = list(0, len(ts), n.top)
	return f
}
