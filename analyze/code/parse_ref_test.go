package code

import "strings"

// refParser is the parser as it was before the expression parser was
// flattened (f8654c8), kept as the reference the differential tests
// compare the parser with.
type refParser struct {
	toks  []token
	i     int
	depth int
	nodes []node  // room for the next nodes (see mk)
	ptrs  []*node // room for the next lists of operands (see refs)
}

// mk allocates a node. Nodes are allocated in chunks, each twice the last
// up to maxChunk, kept by the parser across the lines it parses: a line
// is a handful of nodes, a script a few hundred.
func (p *refParser) mk(n node) *node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]node, 0, min(max(2*cap(p.nodes), 4), maxChunk))
	}
	p.nodes = append(p.nodes, n)
	return &p.nodes[len(p.nodes)-1]
}

// refs returns a node's list of operands ns, allocated in chunks as mk
// allocates nodes. The list's capacity is its length: an append to it
// copies it out of the chunk.
func (p *refParser) refs(ns ...*node) []*node {
	if cap(p.ptrs)-len(p.ptrs) < len(ns) {
		p.ptrs = make([]*node, 0, max(min(max(2*cap(p.ptrs), 8), 4*maxChunk), len(ns)))
	}
	i := len(p.ptrs)
	p.ptrs = append(p.ptrs, ns...)
	return p.ptrs[i:len(p.ptrs):len(p.ptrs)]
}

// parse builds statements from logical lines, nesting bodies by indent.
func refParse(lines []line) []*stmt {
	type frame struct {
		indent int
		st     *stmt
	}
	var module []*stmt
	stack := []frame{{indent: -1}}
	p := &refParser{} // one for every line, for its room for nodes
	for _, ln := range lines {
		for len(stack) > 1 && ln.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		p.toks, p.i, p.depth = ln.toks, 0, 0
		sts, open := p.line()
		if len(sts) == 0 {
			continue
		}
		top := stack[len(stack)-1]
		if top.st == nil {
			module = append(module, sts...)
		} else {
			top.st.body = append(top.st.body, sts...)
		}
		if open {
			stack = append(stack, frame{indent: ln.indent, st: sts[len(sts)-1]})
		}
	}
	return module
}

// line parses one logical line, p.toks: simple statements separated by ;
// or a compound statement's header with an optional inline body. open
// reports a header whose body follows on indented lines.
func (p *refParser) line() (sts []*stmt, open bool) {
	toks := p.toks
	if len(toks) > 0 && toks[0].kind == tMagic {
		return []*stmt{{kind: sMagic, text: toks[0].text, pos: toks[0].pos}}, false
	}
	if len(toks) > 0 && toks[0].kind == tShell {
		return []*stmt{{kind: sShell, text: toks[0].text, pos: toks[0].pos}}, false
	}
	if h := p.header(); h != nil {
		if p.i >= len(p.toks) {
			return []*stmt{h}, true
		}
		h.body = p.simpleStmts()
		return []*stmt{h}, false
	}
	p.i = 0
	return p.simpleStmts(), false
}

func (p *refParser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{}
}

func (p *refParser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{}
}

func (p *refParser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *refParser) isKw(s string) bool {
	t := p.peek()
	return t.kind == tName && t.text == s
}

func (p *refParser) accept(s string) bool {
	t := p.peek()
	if (t.kind == tOp || t.kind == tName) && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *refParser) atEnd() bool { return p.i >= len(p.toks) }

// skipTo advances to the next top-level occurrence of one of the
// operators (or the end). Brackets are balanced by the tokenizer's line
// logic, so nesting is counted here only to skip over them.
func (p *refParser) skipTo(ops ...string) {
	depth := 0
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		if t.kind == tOp {
			if depth == 0 {
				for _, o := range ops {
					if t.text == o {
						return
					}
				}
			}
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return // the end of the enclosing brackets
				}
				depth--
			}
		}
		p.i++
	}
}

// header parses a compound statement's header up to and including its
// colon, or returns nil (position unspecified) when the line is not one.
func (p *refParser) header() *stmt {
	t := p.peek()
	if t.kind != tName {
		return nil
	}
	st := &stmt{pos: t.pos}
	if t.text == "async" && p.peekAt(1).kind == tName {
		switch p.peekAt(1).text {
		case "def", "for", "with":
			st.async = true
			p.i++
			t = p.peek()
		}
	}
	switch t.text {
	case "if", "elif", "while":
		p.i++
		st.kind, st.elif = sIf, t.text == "elif"
		if t.text == "while" {
			st.kind = sWhile
		}
		st.value = p.namedExpr()
	case "else", "try", "finally":
		p.i++
		switch t.text {
		case "else":
			st.kind = sElse
		case "try":
			st.kind = sTry
		default:
			st.kind = sFinally
		}
	case "except":
		p.i++
		st.kind = sExcept
		p.accept("*")
		if !p.isOp(":") {
			st.value = p.expr()
			if p.accept("as") || p.accept(",") {
				st.targets = []*node{p.atomTarget()}
			}
		}
	case "for":
		p.i++
		st.kind = sFor
		st.targets = []*node{p.targetList()}
		if !p.accept("in") {
			return nil
		}
		st.value = p.exprList()
	case "with":
		p.i++
		st.kind = sWith
		paren := p.isOp("(") && p.withParens()
		if paren {
			p.i++
		}
		for !p.atEnd() && !p.isOp(":") && !p.isOp(")") {
			ctx := p.expr()
			var tgt *node
			if p.accept("as") {
				tgt = p.atomTarget()
			}
			st.items = append(st.items, ctx)
			st.targets = append(st.targets, tgt)
			if !p.accept(",") {
				break
			}
		}
		if paren {
			p.accept(")")
		}
	case "def":
		p.i++
		st.kind = sDef
		if p.peek().kind == tName {
			st.name = p.peek().text
			p.i++
		}
		if p.isOp("[") { // type parameters
			p.i++
			p.skipTo("]")
			p.accept("]")
		}
		if p.accept("(") {
			st.params = p.params(")")
			p.accept(")")
		}
		if p.accept("->") {
			p.expr()
		}
	case "class":
		p.i++
		st.kind = sClass
		if p.peek().kind == tName {
			st.name = p.peek().text
			p.i++
		}
		if p.isOp("(") {
			st.value = p.postfix(p.mk(node{kind: nName, op: st.name}))
		}
	case "match", "case":
		// Soft keywords: a header only when the line ends in a colon
		// that follows an expression (match x:, case [a, b]:).
		if p.peekAt(1).kind == tOp && (p.peekAt(1).text == "=" || p.peekAt(1).text == "." || p.peekAt(1).text == "(" && t.text == "match" && !lastIsColon(p.toks)) {
			return nil
		}
		if !lastIsColon(p.toks) && !hasTopColon(p.toks[1:]) {
			return nil
		}
		p.i++
		st.kind = sMatch
		if t.text == "case" {
			st.kind = sCase
			p.skipTo(":")
		} else {
			st.value = p.exprList()
		}
	default:
		return nil
	}
	if !p.accept(":") {
		// Not a header after all (or a broken one): read it as simple
		// statements up to the end.
		p.skipTo(":")
		if !p.accept(":") {
			return nil
		}
	}
	return st
}

// withParens reports whether a with statement's opening parenthesis wraps
// its items (with (open(a) as f, open(b) as g):) rather than starting the
// first expression.
func (p *refParser) withParens() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.kind == tName && t.text == "as" && depth == 1 {
			return true
		}
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k+1 < len(p.toks) && p.toks[k+1].kind == tOp && p.toks[k+1].text == ":"
			}
		}
	}
	return false
}

// params reads a parameter list up to closer.
func (p *refParser) params(closer string) []param {
	var out []param
	for !p.atEnd() && !p.isOp(closer) {
		switch {
		case p.accept("*"), p.accept("**"), p.accept("/"):
		}
		if t := p.peek(); t.kind == tName {
			pr := param{name: t.text}
			p.i++
			if closer != ":" && p.accept(":") { // an annotation (not in a lambda)
				p.expr()
			}
			if p.accept("=") {
				pr.def = p.expr()
			}
			out = append(out, pr)
		}
		if !p.accept(",") {
			p.skipTo(",", closer)
			if !p.accept(",") {
				break
			}
		}
	}
	return out
}

// simpleStmts parses simple statements separated by semicolons.
func (p *refParser) simpleStmts() []*stmt {
	var out []*stmt
	for !p.atEnd() {
		start := p.i
		if st := p.simple(); st != nil {
			out = append(out, st)
		}
		if p.accept(";") {
			continue
		}
		if !p.atEnd() {
			p.skipTo(";")
			p.accept(";")
		}
		if p.i == start {
			p.i++
		}
	}
	return out
}

// simple parses one simple statement.
func (p *refParser) simple() *stmt {
	t := p.peek()
	st := &stmt{pos: t.pos}
	if t.kind == tName {
		switch t.text {
		case "import":
			p.i++
			st.kind = sImport
			for {
				name := p.dotted()
				if name == "" {
					break
				}
				in := importName{name: name}
				if p.accept("as") && p.peek().kind == tName {
					in.as = p.peek().text
					p.i++
				}
				st.names = append(st.names, in)
				if !p.accept(",") {
					break
				}
			}
			return st
		case "from":
			p.i++
			st.kind = sFrom
			var mod strings.Builder
			for p.isOp(".") || p.isOp("...") {
				mod.WriteString(p.peek().text)
				p.i++
			}
			mod.WriteString(p.dotted())
			st.module = mod.String()
			if !p.accept("import") {
				return nil
			}
			paren := p.accept("(")
			for {
				if p.accept("*") {
					st.names = append(st.names, importName{name: "*"})
				} else if p.peek().kind == tName {
					in := importName{name: p.peek().text}
					p.i++
					if p.accept("as") && p.peek().kind == tName {
						in.as = p.peek().text
						p.i++
					}
					st.names = append(st.names, in)
				}
				if !p.accept(",") {
					break
				}
			}
			if paren {
				p.accept(")")
			}
			return st
		case "return":
			p.i++
			st.kind = sReturn
			if !p.atEnd() && !p.isOp(";") {
				st.value = p.exprList()
			}
			return st
		case "break":
			p.i++
			st.kind = sBreak
			return st
		case "continue":
			p.i++
			st.kind = sContinue
			return st
		case "global":
			p.i++
			st.kind = sGlobal
			for p.peek().kind == tName {
				st.names = append(st.names, importName{name: p.peek().text})
				p.i++
				if !p.accept(",") {
					break
				}
			}
			p.skipTo(";")
			return st
		case "pass", "nonlocal":
			p.skipTo(";")
			st.kind = sOther
			return st
		case "raise":
			p.i++
			st.kind = sRaise
			if !p.atEnd() && !p.isOp(";") {
				st.value = p.expr()
				if p.accept("from") {
					st.items = []*node{p.expr()}
				}
			}
			return st
		case "del":
			p.i++
			st.kind = sDel
			st.value = p.exprList()
			return st
		case "assert":
			p.i++
			st.kind = sExpr
			st.value = p.expr()
			if p.accept(",") {
				st.items = []*node{p.expr()}
			}
			return st
		case "print", "exec":
			// Python 2 statements: print x, exec code.
			if k := p.peekAt(1); k.kind == tString || k.kind == tName && !isKeyword(k.text) || k.kind == tNumber {
				p.i++
				call := p.mk(node{kind: nCall, pos: t.pos, args: []*node{{kind: nName, op: t.text, pos: t.pos}}})
				call.args = append(call.args, p.expr())
				st.kind, st.value = sExpr, call
				return st
			}
		case "type":
			// type X = … (a type alias) assigns nothing that runs.
			if k := p.peekAt(1); k.kind == tName && !isKeyword(k.text) {
				if n := p.peekAt(2); n.kind == tOp && (n.text == "=" || n.text == "[") {
					p.skipTo(";")
					st.kind = sOther
					return st
				}
			}
		}
	}
	first := p.exprListStar()
	switch {
	case p.isOp("="):
		st.kind = sAssign
		st.targets = []*node{first}
		for p.accept("=") {
			if p.peek().kind == tShell {
				st.kind, st.text = sShell, p.peek().text
				p.i++
				return st
			}
			st.targets = append(st.targets, p.exprListStar())
		}
		st.value = st.targets[len(st.targets)-1]
		st.targets = st.targets[:len(st.targets)-1]
	case p.isOp(":"): // annotated assignment
		p.i++
		p.expr()
		st.kind, st.annotated = sAssign, true
		st.targets = []*node{first}
		if p.accept("=") {
			st.value = p.exprListStar()
		} else {
			st.kind = sOther
		}
	case isAugOp(p.peek()):
		op := strings.TrimSuffix(p.peek().text, "=")
		p.i++
		v := p.exprList()
		st.kind = sAssign
		st.targets = []*node{first}
		st.value = p.mk(node{kind: nBin, op: op, args: []*node{first, v}, pos: first.pos})
	default:
		st.kind = sExpr
		st.value = first
	}
	return st
}

// dotted reads a dotted name (os.path).
func (p *refParser) dotted() string {
	var b strings.Builder
	for p.peek().kind == tName {
		b.WriteString(p.peek().text)
		p.i++
		if !p.isOp(".") || p.peekAt(1).kind != tName {
			break
		}
		p.i++
		b.WriteByte('.')
	}
	return b.String()
}

// targetList reads the target of a for loop or comprehension: names,
// attributes, subscripts and tuples of them, up to "in".
func (p *refParser) targetList() *node {
	first := p.starOr(p.orExpr)
	if !p.isOp(",") {
		return first
	}
	tup := p.mk(node{kind: nTuple, args: []*node{first}, pos: first.pos})
	for p.accept(",") {
		if p.isKw("in") || p.atEnd() {
			break
		}
		tup.args = append(tup.args, p.starOr(p.orExpr))
	}
	return tup
}

func (p *refParser) atomTarget() *node {
	if p.isOp("(") || p.isOp("[") {
		return p.atomExpr()
	}
	return p.orExpr()
}

// exprList reads expressions separated by commas; more than one (or a
// trailing comma) makes a tuple.
func (p *refParser) exprList() *node { return p.list(p.expr) }

// exprListStar is exprList that also allows *x items.
func (p *refParser) exprListStar() *node {
	return p.list(func() *node { return p.starOr(p.expr) })
}

func (p *refParser) list(item func() *node) *node {
	first := item()
	if !p.isOp(",") {
		return first
	}
	tup := p.mk(node{kind: nTuple, args: []*node{first}, pos: first.pos})
	for p.accept(",") {
		if p.atEnd() || p.endOfExpr() {
			break
		}
		tup.args = append(tup.args, item())
	}
	return tup
}

// endOfExpr reports a token that cannot start an expression.
func (p *refParser) endOfExpr() bool {
	t := p.peek()
	if t.kind == tOp {
		switch t.text {
		case "=", ")", "]", "}", ":", ";", "+=", "-=", "*=", "/=", "|=", "&=", "%=", "//=", "**=", ">>=", "<<=", "^=", "@=":
			return true
		}
	}
	if t.kind == tName {
		switch t.text {
		case "in", "for", "if", "else", "as", "from":
			return true
		}
	}
	return false
}

func (p *refParser) starOr(f func() *node) *node {
	if t := p.peek(); t.kind == tOp && (t.text == "*" || t.text == "**") {
		p.i++
		return p.mk(node{kind: nStar, op: t.text, args: []*node{p.orExpr()}, pos: t.pos})
	}
	return f()
}

func (p *refParser) unknown() *node { return p.mk(node{kind: nUnknown, pos: p.peek().pos}) }

// enter guards recursion; leave must follow a successful enter.
func (p *refParser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.depth--
		p.i = len(p.toks) // give up on the rest of the line
		return false
	}
	return true
}

func (p *refParser) leave() { p.depth-- }

// namedExpr is expr with := allowed at the top.
func (p *refParser) namedExpr() *node {
	if p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == ":=" {
		t := p.peek()
		p.i += 2
		return p.mk(node{kind: nWalrus, op: t.text, args: []*node{p.expr()}, pos: t.pos})
	}
	return p.expr()
}

// expr reads a full expression: lambda, conditional, yield.
func (p *refParser) expr() *node {
	if !p.enter() {
		return p.unknown()
	}
	defer p.leave()
	t := p.peek()
	if t.kind == tName {
		switch t.text {
		case "lambda":
			p.i++
			params := p.params(":")
			p.accept(":")
			n := p.mk(node{kind: nLambda, pos: t.pos, args: []*node{p.expr()}})
			for _, pr := range params {
				n.kws = append(n.kws, kwarg{name: pr.name, val: pr.def})
			}
			return n
		case "yield":
			p.i++
			p.accept("from")
			if p.atEnd() || p.endOfExpr() || p.isOp(",") {
				return p.mk(node{kind: nConst, op: "None", pos: t.pos})
			}
			return p.exprList()
		}
	}
	n := p.orTest()
	if p.isKw("if") {
		p.i++
		cond := p.orTest()
		var other *node
		if p.accept("else") {
			other = p.expr()
		} else {
			other = p.unknown()
		}
		return p.mk(node{kind: nIf, args: []*node{cond, n, other}, pos: n.pos})
	}
	return n
}

func (p *refParser) orTest() *node  { return p.boolOp("or", p.andTest) }
func (p *refParser) andTest() *node { return p.boolOp("and", p.notTest) }

// boolOp reads operands joined by the keyword op (and, or).
func (p *refParser) boolOp(op string, operand func() *node) *node {
	n := operand()
	if !p.isKw(op) {
		return n
	}
	b := p.mk(node{kind: nBool, op: op, args: p.refs(n), pos: n.pos})
	for p.accept(op) {
		b.args = append(b.args, operand())
	}
	return b
}

func (p *refParser) notTest() *node {
	if t := p.peek(); t.kind == tName && t.text == "not" {
		p.i++
		if !p.enter() {
			return p.unknown()
		}
		defer p.leave()
		return p.mk(node{kind: nUnary, op: "not", args: []*node{p.notTest()}, pos: t.pos})
	}
	return p.comparison()
}

func (p *refParser) comparison() *node {
	n := p.orExpr()
	var ops []string
	var args []*node
	for {
		t := p.peek()
		op := ""
		switch {
		case t.kind == tOp && (t.text == "<" || t.text == ">" || t.text == "==" || t.text == ">=" || t.text == "<=" || t.text == "!=" || t.text == "<>"):
			op = t.text
			p.i++
		case t.kind == tName && t.text == "in":
			op = "in"
			p.i++
		case t.kind == tName && t.text == "is":
			p.i++
			op = "is"
			if p.accept("not") {
				op = "is not"
			}
		case t.kind == tName && t.text == "not" && p.peekAt(1).kind == tName && p.peekAt(1).text == "in":
			p.i += 2
			op = "not in"
		}
		if op == "" {
			break
		}
		if args == nil {
			args = []*node{n}
		}
		ops = append(ops, op)
		args = append(args, p.orExpr())
	}
	if len(ops) == 0 {
		return n
	}
	return p.mk(node{kind: nCmp, op: strings.Join(ops, " "), args: args, pos: n.pos})
}

// binary operator precedence, lowest first.
var refBinPrec = map[string]int{
	"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5,
	"*": 6, "/": 6, "//": 6, "%": 6, "@": 6,
}

func (p *refParser) orExpr() *node { return p.binary(1) }

func (p *refParser) binary(min int) *node {
	if !p.enter() {
		return p.unknown()
	}
	defer p.leave()
	left := p.unary()
	for {
		t := p.peek()
		prec, ok := refBinPrec[t.text]
		if t.kind != tOp || !ok || prec < min {
			return left
		}
		p.i++
		right := p.binary(prec + 1)
		left = p.mk(node{kind: nBin, op: t.text, args: p.refs(left, right), pos: left.pos})
	}
}

func (p *refParser) unary() *node {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") || t.kind == tName && t.text == "await" {
		p.i++
		if !p.enter() {
			return p.unknown()
		}
		defer p.leave()
		operand := p.unary()
		if t.text == "await" {
			return operand
		}
		return p.mk(node{kind: nUnary, op: t.text, args: p.refs(operand), pos: t.pos})
	}
	return p.power()
}

func (p *refParser) power() *node {
	n := p.atomExpr()
	if p.accept("**") {
		if !p.enter() {
			return p.unknown()
		}
		defer p.leave()
		n = p.mk(node{kind: nBin, op: "**", args: []*node{n, p.unary()}, pos: n.pos})
	}
	return n
}

// atomExpr reads an atom and its trailers: attributes, calls, subscripts.
func (p *refParser) atomExpr() *node {
	return p.postfix(p.atom())
}

func (p *refParser) postfix(n *node) *node {
	for !p.atEnd() {
		t := p.peek()
		if t.kind != tOp {
			return n
		}
		switch t.text {
		case ".":
			p.i++
			if a := p.peek(); a.kind == tName {
				p.i++
				n = p.mk(node{kind: nAttr, op: a.text, args: p.refs(n), pos: n.pos})
				continue
			}
			return n
		case "(":
			p.i++
			n = p.callArgs(n)
		case "[":
			p.i++
			idx := p.subscript()
			p.accept("]")
			n = p.mk(node{kind: nSub, args: p.refs(n, idx), pos: n.pos})
		default:
			return n
		}
	}
	return n
}

func (p *refParser) callArgs(fn *node) *node {
	call := p.mk(node{kind: nCall, args: p.refs(fn), pos: fn.pos})
	if !p.enter() {
		return call
	}
	defer p.leave()
	for !p.atEnd() && !p.isOp(")") {
		start := p.i
		switch {
		case p.isOp("**"):
			p.i++
			call.kws = append(call.kws, kwarg{val: p.expr()})
		case p.isOp("*"):
			t := p.peek()
			p.i++
			call.args = append(call.args, p.mk(node{kind: nStar, op: "*", args: []*node{p.expr()}, pos: t.pos}))
		case p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=":
			name := p.peek().text
			p.i += 2
			call.kws = append(call.kws, kwarg{name: name, val: p.expr()})
		default:
			a := p.namedExpr()
			if p.isKw("for") || p.isKw("async") {
				a = p.comprehension(nComp, a, nil)
			}
			call.args = append(call.args, a)
		}
		if !p.accept(",") {
			p.skipTo(",", ")")
			if !p.accept(",") {
				break
			}
		}
		if p.i == start {
			p.i++
		}
	}
	p.accept(")")
	return call
}

func (p *refParser) subscript() *node {
	var items []*node
	for !p.atEnd() && !p.isOp("]") {
		items = append(items, p.sliceItem())
		if !p.accept(",") {
			break
		}
	}
	if len(items) == 1 {
		return items[0]
	}
	return p.mk(node{kind: nTuple, args: items})
}

func (p *refParser) sliceItem() *node {
	var lo *node
	if !p.isOp(":") {
		lo = p.starOr(p.namedExpr)
		if !p.isOp(":") {
			return lo
		}
	}
	s := p.mk(node{kind: nSlice, args: []*node{lo}})
	for p.accept(":") {
		if p.isOp(":") || p.isOp("]") || p.isOp(",") || p.atEnd() {
			s.args = append(s.args, nil)
			continue
		}
		s.args = append(s.args, p.expr())
	}
	return s
}

// atom reads a name, literal, or bracketed display.
func (p *refParser) atom() *node {
	t := p.peek()
	switch t.kind {
	case tName:
		p.i++
		switch t.text {
		case "None", "True", "False", "__debug__":
			return p.mk(node{kind: nConst, op: t.text, pos: t.pos})
		}
		return p.mk(node{kind: nName, op: t.text, pos: t.pos})
	case tNumber:
		p.i++
		return p.mk(node{kind: nNum, op: t.text, pos: t.pos})
	case tString:
		p.i++
		lit := t.str
		for p.peek().kind == tString { // implicit concatenation
			lit = joinLits(lit, p.peek().str)
			p.i++
		}
		return p.mk(node{kind: nStr, str: lit, pos: t.pos})
	case tShell:
		p.i++
		return p.mk(node{kind: nShell, op: t.text, pos: t.pos})
	case tOp:
		switch t.text {
		case "(":
			p.i++
			return p.display(")", nTuple, t.pos)
		case "[":
			p.i++
			return p.display("]", nList, t.pos)
		case "{":
			p.i++
			return p.display("}", nSet, t.pos)
		case "...":
			p.i++
			return p.mk(node{kind: nConst, op: "...", pos: t.pos})
		}
	}
	// Not an expression: consume one token so callers always progress.
	if !p.atEnd() {
		p.i++
	}
	return p.mk(node{kind: nUnknown, pos: t.pos})
}

// display reads a parenthesized expression, tuple, list, set or dict,
// or a comprehension of one.
func (p *refParser) display(closer string, kind nodeKind, pos int) *node {
	n := p.mk(node{kind: kind, pos: pos})
	if !p.enter() {
		return n
	}
	defer p.leave()
	if p.accept(closer) {
		if kind == nSet {
			n.kind = nDict
		}
		return n
	}
	first := true
	paren := kind == nTuple
	trailingComma := false
	for !p.atEnd() && !p.isOp(closer) {
		start := p.i
		trailingComma = false
		if kind == nSet || kind == nDict {
			if p.accept("**") {
				n.kind = nDict
				n.args = append(n.args, nil, p.orExpr())
			} else {
				k := p.starOr(p.namedExpr)
				if p.accept(":") {
					n.kind = nDict
					v := p.expr()
					if first && (p.isKw("for") || p.isKw("async")) {
						c := p.comprehension(nComp, k, v)
						p.accept(closer)
						c.op = "dict"
						return c
					}
					n.args = append(n.args, k, v)
				} else {
					if first && (p.isKw("for") || p.isKw("async")) {
						c := p.comprehension(nComp, k, nil)
						p.accept(closer)
						c.op = "set"
						return c
					}
					n.args = append(n.args, k)
				}
			}
		} else {
			item := p.starOr(p.namedExpr)
			if p.isKw("yield") {
				item = p.expr()
			}
			if first && (p.isKw("for") || p.isKw("async")) {
				c := p.comprehension(nComp, item, nil)
				p.accept(closer)
				if kind == nList {
					c.op = "list"
				} else {
					c.op = "gen"
				}
				return c
			}
			n.args = append(n.args, item)
		}
		first = false
		if !p.accept(",") {
			p.skipTo(",", closer)
			if !p.accept(",") {
				break
			}
		}
		trailingComma = true
		if p.i == start {
			p.i++
		}
	}
	p.accept(closer)
	if paren && len(n.args) == 1 && !trailingComma {
		return n.args[0] // a parenthesized expression
	}
	return n
}

// comprehension reads the for/if clauses after a comprehension's element.
func (p *refParser) comprehension(kind nodeKind, elt, val *node) *node {
	c := p.mk(node{kind: kind, args: []*node{elt}, pos: elt.pos})
	if val != nil {
		c.args = append(c.args, val)
	}
	for {
		p.accept("async")
		if !p.accept("for") {
			break
		}
		cf := compFor{target: p.targetList()}
		if !p.accept("in") {
			break
		}
		cf.iter = p.orTest()
		for p.accept("if") {
			cf.conds = append(cf.conds, p.orTest()) // no conditional expression: it would take the next if
		}
		c.fors = append(c.fors, cf)
	}
	return c
}

// refScanString is scanString as it was before it took literal text as a
// slice of the source (the reference for TestScanStringReference).
func (lx *lexer) refScanString(start, q, nest int) token {
	src := lx.src
	prefix := strings.ToLower(src[start:q])
	raw := strings.ContainsRune(prefix, 'r')
	lit := &strLit{bytes: strings.ContainsRune(prefix, 'b'), fmt: strings.ContainsAny(prefix, "ft")}
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	var b strings.Builder
	flush := func() {
		if lit.fmt && b.Len() > 0 {
			lit.parts = append(lit.parts, fpart{text: b.String()})
			b.Reset()
		}
	}
	for {
		if i >= len(src) {
			lx.fail(q, "unterminated string literal")
			break
		}
		c := src[i]
		if c == quote {
			if !triple {
				i++
				break
			}
			if i+2 < len(src) && src[i+1] == quote && src[i+2] == quote {
				i += 3
				break
			}
		}
		if (c == '\n' || c == '\r') && !triple {
			lx.fail(q, "unterminated string literal")
			break // leave the line break to end the line
		}
		if c == '\\' {
			if raw {
				b.WriteByte(c)
				if i+1 < len(src) {
					b.WriteByte(src[i+1])
				}
				i += 2
				continue
			}
			i = unescape(src, i, lit.bytes, &b)
			continue
		}
		if lit.fmt && (c == '{' || c == '}') {
			if i+1 < len(src) && src[i+1] == c {
				b.WriteByte(c)
				i += 2
				continue
			}
			if c == '}' {
				lx.fail(i, "single '}' is not allowed in an f-string")
				i++
				continue
			}
			flush()
			expr, next := lx.scanFExpr(i+1, quote, triple, nest)
			lit.parts = append(lit.parts, fpart{text: expr, expr: true})
			i = next
			continue
		}
		b.WriteByte(c)
		i++
	}
	if lit.fmt {
		flush()
	} else {
		lit.value = b.String()
	}
	if i > len(src) {
		i = len(src)
	}
	lx.i = i
	return token{kind: tString, text: src[start:i], pos: start, str: lit}
}
