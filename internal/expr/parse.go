package expr

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type nodeKind uint8

const (
	nLit    nodeKind = iota // val
	nIdent                  // name
	nSelect                 // x.name; test: has(x.name)
	nCall                   // name(args), or x.name(args) when recv
	nList                   // [args...]
	nMap                    // {args[0]: args[1], ...}
	nMacro                  // x.all(name, args[0]) and the like
)

type macroKind uint8

const (
	mAll macroKind = iota
	mExists
	mExistsOne
	mMap       // x.map(v, args[0])
	mMapFilter // x.map(v, args[0], args[1]): filter, then transform
	mFilter
)

var macroNames = [...]string{mAll: "all", mExists: "exists", mExistsOne: "exists_one", mMap: "map", mMapFilter: "map", mFilter: "filter"}

// node is one expression of the syntax tree; the checker fills typ and
// the resolutions.
type node struct {
	kind  nodeKind
	pos   int // byte offset the errors about it point at
	val   any
	name  string
	x     *node
	args  []*node
	recv  bool
	test  bool
	macro macroKind

	typ   *Type
	elem  *Type // nMacro: its iteration variable's
	local *node // nIdent: the macro whose iteration variable it is, if any
	fn    *funcDecl
}

// Limits of the parser, those of cel-go's.
const (
	maxNesting  = 250     // nesting of one grammar rule, and of operators on one path
	maxCodeLen  = 100_000 // code points
	maxPatterns = 4 << 10 // bytes of a regular expression
)

type grammarRule uint8

const (
	ruleExpr grammarRule = iota
	ruleRelation
	ruleCalc
	ruleUnary
	ruleMember
	rulePrimary
	nRules
)

var reserved = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "else": true, "for": true,
	"function": true, "if": true, "import": true, "let": true, "loop": true, "package": true,
	"namespace": true, "return": true, "var": true, "void": true, "while": true,
}

type parser struct {
	toks  []token
	i     int
	depth [nRules]int
}

// bailout carries a parse error up the recursion.
type bailout struct{ err *Error }

func (p *parser) fail(pos int, format string, args ...any) {
	panic(bailout{&Error{pos: pos, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) enter(r grammarRule) {
	p.depth[r]++
	if p.depth[r] > maxNesting {
		p.fail(p.peek().pos, "the expression nests deeper than %d levels", maxNesting)
	}
}

func (p *parser) exit(r grammarRule) { p.depth[r]-- }

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) accept(k tokKind) bool {
	if p.peek().kind == k {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(k tokKind) token {
	t := p.peek()
	if t.kind != k {
		p.unexpected(tokNames[k])
	}
	return p.next()
}

func (p *parser) unexpected(want string) {
	t := p.peek()
	if t.kind == tEOF {
		p.fail(t.pos, "syntax error: unexpected end of input, expecting %s", want)
	}
	p.fail(t.pos, "syntax error: unexpected %q, expecting %s", t.text, want)
}

// parse parses src into a syntax tree, with the macros expanded.
func parse(src string) (root *node, err error) {
	if !utf8.ValidString(src) {
		return nil, &Error{pos: invalidUTF8(src), Msg: "invalid UTF-8"}
	}
	if n := utf8.RuneCountInString(src); n > maxCodeLen {
		return nil, &Error{Msg: fmt.Sprintf("the expression is %d code points long, more than %d", n, maxCodeLen)}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			root, err = nil, b.err
		}
	}()
	root = p.expr()
	if t := p.peek(); t.kind != tEOF {
		p.unexpected("an operator or the end of the expression")
	}
	if d, at := opDepth(root); d > maxNesting {
		return nil, &Error{pos: at.pos, Msg: fmt.Sprintf("the expression nests deeper than %d operators", maxNesting)}
	}
	return root, nil
}

func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			return i
		}
	}
	return 0
}

// opDepth returns the largest number of operators, selections, indexes
// and method calls on one path from n down, and the node it ends at: the
// depth cel-go bounds (and Go's stack, here).
func opDepth(n *node) (int, *node) {
	best, at := 0, n
	visit := func(c *node) {
		if c != nil {
			if d, a := opDepth(c); d > best {
				best, at = d, a
			}
		}
	}
	visit(n.x)
	for _, a := range n.args {
		visit(a)
	}
	if n.counted() {
		best++
	}
	return best, at
}

// start returns the offset where n's source begins.
func (n *node) start() int {
	for {
		switch {
		case n.kind == nSelect || n.kind == nMacro || n.kind == nCall && n.recv:
			n = n.x
		case n.kind == nCall && strings.HasPrefix(n.name, "_") && len(n.args) > 0:
			n = n.args[0]
		default:
			return n.pos
		}
	}
}

// counted reports whether cel-go counts n towards its recursion limit.
func (n *node) counted() bool {
	switch n.kind {
	case nSelect, nMacro:
		return true
	case nCall:
		if n.recv {
			return true
		}
		switch n.name {
		case "_?_:_", "_[_]", "_<_", "_<=_", "_>_", "_>=_", "_==_", "_!=_", "@in",
			"_+_", "_-_", "_*_", "_/_", "_%_":
			return true
		}
	}
	return false
}

func (p *parser) expr() *node {
	p.enter(ruleExpr)
	defer p.exit(ruleExpr)
	cond := p.or()
	if t := p.peek(); t.kind == tQuest {
		p.next()
		yes := p.or()
		p.expect(tColon)
		no := p.expr()
		return call(t.pos, "_?_:_", cond, yes, no)
	}
	return cond
}

func call(pos int, name string, args ...*node) *node {
	return &node{kind: nCall, pos: pos, name: name, args: args}
}

// or and and build balanced trees, as cel-go does, so that long chains
// do not nest deeply.
func (p *parser) or() *node {
	terms, ops := []*node{p.and()}, []int(nil)
	for p.peek().kind == tOr {
		ops = append(ops, p.next().pos)
		terms = append(terms, p.and())
	}
	return balance("_||_", terms, ops)
}

func (p *parser) and() *node {
	terms, ops := []*node{p.relation()}, []int(nil)
	for p.peek().kind == tAnd {
		ops = append(ops, p.next().pos)
		terms = append(terms, p.relation())
	}
	return balance("_&&_", terms, ops)
}

func balance(op string, terms []*node, ops []int) *node {
	if len(terms) == 1 {
		return terms[0]
	}
	mid := len(ops) / 2
	return call(ops[mid], op, balance(op, terms[:mid+1], ops[:mid]), balance(op, terms[mid+1:], ops[mid+1:]))
}

var relOps = map[tokKind]string{tLt: "_<_", tLe: "_<=_", tGe: "_>=_", tGt: "_>_", tEq: "_==_", tNe: "_!=_", tIn: "@in"}

func (p *parser) relation() *node {
	p.enter(ruleRelation)
	defer p.exit(ruleRelation)
	left := p.calc(0)
	for {
		t := p.peek()
		op, ok := relOps[t.kind]
		if !ok {
			return left
		}
		p.next()
		p.enter(ruleRelation)
		right := p.calc(0)
		p.exit(ruleRelation)
		left = call(t.pos, op, left, right)
	}
}

func calcOp(k tokKind) (string, int) {
	switch k {
	case tPlus:
		return "_+_", 1
	case tMinus:
		return "_-_", 1
	case tStar:
		return "_*_", 2
	case tSlash:
		return "_/_", 2
	case tPercent:
		return "_%_", 2
	}
	return "", 0
}

// calc parses the arithmetic operators that bind at least as tightly as
// minPrec, left to right.
func (p *parser) calc(minPrec int) *node {
	p.enter(ruleCalc)
	defer p.exit(ruleCalc)
	left := p.unary()
	for {
		t := p.peek()
		op, prec := calcOp(t.kind)
		if prec == 0 || prec < minPrec {
			return left
		}
		p.next()
		right := p.calc(prec + 1)
		left = call(t.pos, op, left, right)
	}
}

func (p *parser) unary() *node {
	p.enter(ruleUnary)
	defer p.exit(ruleUnary)
	t := p.peek()
	switch t.kind {
	case tNot, tMinus:
		n := 0
		for p.peek().kind == t.kind {
			p.next()
			n++
		}
		if t.kind == tMinus && n == 1 {
			// A single minus before a number is part of the literal.
			if k := p.peek().kind; k == tInt || k == tFloat {
				p.i--
				return p.member()
			}
		}
		m := p.member()
		if n%2 == 0 {
			return m // an even run cancels out, as in cel-go
		}
		if t.kind == tNot {
			return call(t.pos, "!_", m)
		}
		return call(t.pos, "-_", m)
	}
	return p.member()
}

func (p *parser) member() *node {
	p.enter(ruleMember)
	defer p.exit(ruleMember)
	n := p.primary()
	for {
		t := p.peek()
		switch t.kind {
		case tDot:
			p.next()
			if p.peek().kind == tQuest {
				p.fail(p.peek().pos, "unsupported syntax '.?'")
			}
			id := p.peek()
			switch id.kind {
			case tIdent:
				p.next()
				if p.peek().kind == tLParen {
					p.next()
					args := p.exprList(tRParen)
					n = p.memberCall(id, n, args)
					continue
				}
				n = &node{kind: nSelect, pos: id.pos, name: id.text, x: n}
			case tEscIdent:
				p.next()
				n = &node{kind: nSelect, pos: id.pos, name: id.text[1 : len(id.text)-1], x: n}
			default:
				p.unexpected("a field name")
			}
		case tLBrak:
			p.next()
			if p.peek().kind == tQuest {
				p.fail(p.peek().pos, "unsupported syntax '[?'")
			}
			idx := p.expr()
			p.expect(tRBrak)
			n = call(t.pos, "_[_]", n, idx)
		default:
			return n
		}
	}
}

// exprList parses expressions separated by commas up to the closing
// token, and consumes it.
func (p *parser) exprList(end tokKind) []*node {
	var args []*node
	if p.accept(end) {
		return args
	}
	for {
		args = append(args, p.expr())
		if p.accept(end) {
			return args
		}
		p.expect(tComma)
	}
}

func (p *parser) primary() *node {
	p.enter(rulePrimary)
	defer p.exit(rulePrimary)
	t := p.next()
	switch t.kind {
	case tDot, tIdent:
		name := t.text
		id := t
		if t.kind == tDot {
			id = p.expect(tIdent)
			name = "." + id.text
		}
		if reserved[id.text] {
			p.fail(id.pos, "reserved identifier: %s", id.text)
		}
		if p.messageAhead() {
			p.fail(id.pos, "message construction is not supported")
		}
		if p.accept(tLParen) {
			args := p.exprList(tRParen)
			return p.globalCall(id, name, args)
		}
		return &node{kind: nIdent, pos: id.pos, name: name}
	case tLParen:
		e := p.expr()
		p.expect(tRParen)
		return e
	case tLBrak:
		n := &node{kind: nList, pos: t.pos}
		if p.accept(tRBrak) {
			return n
		}
		if p.accept(tComma) { // [,] is an empty list
			p.expect(tRBrak)
			return n
		}
		for {
			if p.peek().kind == tQuest {
				p.fail(p.peek().pos, "unsupported syntax '?'")
			}
			n.args = append(n.args, p.expr())
			if p.accept(tRBrak) {
				return n
			}
			p.expect(tComma)
			if p.accept(tRBrak) {
				return n
			}
		}
	case tLBrace:
		n := &node{kind: nMap, pos: t.pos}
		if p.accept(tRBrace) {
			return n
		}
		if p.accept(tComma) {
			p.expect(tRBrace)
			return n
		}
		for {
			if p.peek().kind == tQuest {
				p.fail(p.peek().pos, "unsupported syntax '?'")
			}
			k := p.expr()
			p.expect(tColon)
			v := p.expr()
			n.args = append(n.args, k, v)
			if p.accept(tRBrace) {
				return n
			}
			p.expect(tComma)
			if p.accept(tRBrace) {
				return n
			}
		}
	case tMinus:
		// Only reached from unary, for a single minus before a number.
		if k := p.toks[p.i].kind; k != tInt && k != tFloat {
			p.unexpected("a number")
		}
		return p.literal(p.next(), true, t.pos)
	case tInt, tUint, tFloat, tString, tBytes, tTrue, tFalse, tNull:
		return p.literal(t, false, t.pos)
	}
	if t.kind != tEOF {
		p.i--
	}
	p.unexpected("an expression")
	return nil
}

// messageAhead reports whether the identifier just read starts a message
// construction: IDENT {. IDENT} '{'.
func (p *parser) messageAhead() bool {
	j := p.i
	for p.toks[j].kind == tDot && p.toks[j+1].kind == tIdent {
		j += 2
	}
	return p.toks[j].kind == tLBrace
}

func (p *parser) literal(t token, neg bool, pos int) *node {
	lit := &node{kind: nLit, pos: pos}
	switch t.kind {
	case tInt:
		text, base := t.text, 10
		if strings.HasPrefix(text, "0x") {
			text, base = text[2:], 16
		}
		if neg {
			text = "-" + text
		}
		v, err := strconv.ParseInt(text, base, 64)
		if err != nil {
			p.fail(pos, "invalid int literal")
		}
		lit.val = v
	case tUint:
		text, base := t.text[:len(t.text)-1], 10
		if strings.HasPrefix(text, "0x") {
			text, base = text[2:], 16
		}
		v, err := strconv.ParseUint(text, base, 64)
		if err != nil {
			p.fail(pos, "invalid uint literal")
		}
		lit.val = v
	case tFloat:
		text := t.text
		if neg {
			text = "-" + text
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			p.fail(pos, "invalid double literal")
		}
		lit.val = v
	case tString:
		s, err := unquote(t.text, false)
		if err != nil {
			p.fail(pos, "%v", err)
		}
		lit.val = s
	case tBytes:
		s, err := unquote(t.text[1:], true)
		if err != nil {
			p.fail(pos, "%v", err)
		}
		lit.val = []byte(s)
	case tTrue:
		lit.val = true
	case tFalse:
		lit.val = false
	case tNull:
		lit.val = nil
	}
	return lit
}

// globalCall builds name(args), or the has() macro.
func (p *parser) globalCall(id token, name string, args []*node) *node {
	if name == "has" && len(args) == 1 {
		a := args[0]
		if a.kind != nSelect {
			p.fail(a.pos, "invalid argument to has() macro")
		}
		a.test = true
		return a
	}
	return &node{kind: nCall, pos: id.pos, name: name, args: args}
}

// memberCall builds x.name(args), or the macro it spells.
func (p *parser) memberCall(id token, x *node, args []*node) *node {
	var m macroKind
	switch {
	case id.text == "all" && len(args) == 2:
		m = mAll
	case id.text == "exists" && len(args) == 2:
		m = mExists
	case id.text == "exists_one" && len(args) == 2:
		m = mExistsOne
	case id.text == "map" && len(args) == 2:
		m = mMap
	case id.text == "map" && len(args) == 3:
		m = mMapFilter
	case id.text == "filter" && len(args) == 2:
		m = mFilter
	default:
		return &node{kind: nCall, pos: id.pos, name: id.text, x: x, args: args, recv: true}
	}
	v := args[0]
	if v.kind != nIdent {
		if m == mMap || m == mMapFilter || m == mFilter {
			p.fail(v.start(), "argument is not an identifier")
		}
		p.fail(v.start(), "argument must be a simple name")
	}
	if v.name == "__result__" {
		p.fail(v.pos, "iteration variable overwrites accumulator variable")
	}
	return &node{kind: nMacro, pos: id.pos, macro: m, name: v.name, x: x, args: args[1:]}
}

// unquote decodes the text of a string literal (without a b prefix):
// raw or not, single-, double- or triple-quoted, with CEL's escapes. As
// bytes, \x and octal escapes are bytes and \u is refused.
func unquote(text string, isBytes bool) (string, error) {
	if strings.Contains(text, "\r") {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	}
	raw := false
	if text[0] == 'r' || text[0] == 'R' {
		text, raw = text[1:], true
	}
	if len(text) >= 6 && (strings.HasPrefix(text, `"""`) || strings.HasPrefix(text, `'''`)) {
		text = text[3 : len(text)-3]
	} else {
		text = text[1 : len(text)-1]
	}
	if raw || !strings.Contains(text, `\`) {
		return text, nil
	}
	var b strings.Builder
	for len(text) > 0 {
		c := text[0]
		if c != '\\' {
			b.WriteByte(c)
			text = text[1:]
			continue
		}
		if len(text) < 2 {
			return "", fmt.Errorf("invalid escape sequence")
		}
		c, text = text[1], text[2:]
		switch c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '`', '?':
			b.WriteByte(c)
		case 'x', 'X', 'u', 'U':
			n := map[byte]int{'x': 2, 'X': 2, 'u': 4, 'U': 8}[c]
			if len(text) < n {
				return "", fmt.Errorf("invalid escape sequence")
			}
			if n > 2 && isBytes {
				return "", fmt.Errorf("a bytes literal cannot hold \\%c escapes", c)
			}
			v, err := strconv.ParseUint(text[:n], 16, 32)
			if err != nil {
				return "", fmt.Errorf("invalid escape sequence")
			}
			text = text[n:]
			if isBytes {
				b.WriteByte(byte(v))
			} else if !utf8.ValidRune(rune(v)) {
				return "", fmt.Errorf("invalid unicode code point")
			} else {
				b.WriteRune(rune(v))
			}
		case '0', '1', '2', '3':
			if len(text) < 2 {
				return "", fmt.Errorf("invalid escape sequence")
			}
			v, err := strconv.ParseUint(string(c)+text[:2], 8, 32)
			if err != nil {
				return "", fmt.Errorf("invalid escape sequence")
			}
			text = text[2:]
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
		default:
			return "", fmt.Errorf("invalid escape sequence")
		}
	}
	return b.String(), nil
}
