package code

import "strings"

// nodeKind is the kind of an expression node.
type nodeKind uint8

const (
	nUnknown nodeKind = iota // something the parser does not model
	nName
	nNum
	nStr
	nConst // True, False, None, ...
	nAttr  // args[0].op
	nCall  // args[0](args[1:]..., kws...)
	nSub   // args[0][args[1]]
	nBin   // args[0] op args[1]
	nUnary // op args[0]
	nBool  // args joined by op (and, or)
	nCmp   // args[0] op args[1] …: ops joined by spaces in op
	nTuple
	nList
	nSet
	nDict // args: key, value, key, value …; a nil key is **x
	nComp // comprehension: args[0] the element (and args[1] the value of a dict one), fors its clauses
	nLambda
	nIf    // args[1] if args[0] else args[2]
	nStar  // *args[0] or **args[0] (op)
	nSlice // args may hold nil
	nWalrus
	nShell // an IPython !cmd used as a value
)

// node is an expression.
type node struct {
	kind nodeKind
	op   string // name, attribute, operator, number or constant text
	str  *strLit
	args []*node
	kws  []kwarg
	fors []compFor
	pos  int
}

type kwarg struct {
	name string // "" for **mapping
	val  *node
}

type compFor struct {
	target *node
	iter   *node
	conds  []*node
}

// stmtKind is the kind of a statement.
type stmtKind uint8

const (
	sExpr stmtKind = iota
	sAssign
	sImport
	sFrom
	sFor
	sWhile
	sIf // if and elif
	sElse
	sWith
	sDef
	sClass
	sTry
	sExcept
	sFinally
	sMatch
	sCase
	sReturn
	sBreak
	sContinue
	sRaise
	sDel
	sGlobal // global names: names holds them
	sShell  // IPython !cmd (text), targets when assigned
	sMagic  // IPython %magic (text)
	sOther
)

// stmt is a statement. Compound statements hold their body.
type stmt struct {
	kind    stmtKind
	pos     int
	targets []*node // assignment targets, for-loop target
	value   *node   // assigned value, expression, loop iterable, condition
	items   []*node // with: context managers; their "as" targets are in targets
	names   []importName
	module  string // from-import module (with leading dots)
	name    string // def, class
	params  []param
	text    string // shell, magic
	body    []*stmt
	async   bool
	elif    bool // an sIf that is an elif
	// annotated marks an annotated assignment, whose annotation Python
	// evaluates (and the parser skips).
	annotated bool
}

type importName struct{ name, as string }

type param struct {
	name string
	def  *node
}

// maxDepth bounds the nesting of expressions the parser follows; deeper
// input is read as an unknown expression. maxChain bounds the operators
// of one chain (a + b + …) likewise.
const (
	maxDepth = 100
	maxChain = 1000
)

type parser struct {
	toks  []token
	i     int
	depth int
	nodes []node  // room for the next nodes (see mk)
	ptrs  []*node // room for the next lists of operands (see refs)
	stmts []stmt  // room for the next statements (see newStmt)
	// line holds the statements of the line being parsed (see line).
	line []*stmt
	// args is a stack of the operands of the calls being read (see
	// callArgs), each call's on top of its caller's.
	args []*node
	// Initial room for args and line.
	argsRoom [16]*node
	lineRoom [4]*stmt
}

// mk allocates a node. Nodes are allocated in chunks, each twice the last
// up to maxChunk, kept by the parser across the lines it parses: a line
// is a handful of nodes, a script a few hundred.
func (p *parser) mk(n node) *node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]node, 0, min(max(2*cap(p.nodes), 4), maxChunk))
	}
	p.nodes = append(p.nodes, n)
	return &p.nodes[len(p.nodes)-1]
}

// maxChunk bounds the nodes mk allocates at once.
const maxChunk = 32

// newStmt allocates a statement, in chunks as mk allocates nodes.
func (p *parser) newStmt(st stmt) *stmt {
	if len(p.stmts) == cap(p.stmts) {
		p.stmts = make([]stmt, 0, min(max(2*cap(p.stmts), 4), maxChunk))
	}
	p.stmts = append(p.stmts, st)
	return &p.stmts[len(p.stmts)-1]
}

// refs returns a node's list of operands ns, allocated in chunks as mk
// allocates nodes. The list's capacity is its length: an append to it
// copies it out of the chunk.
func (p *parser) refs(ns ...*node) []*node {
	if cap(p.ptrs)-len(p.ptrs) < len(ns) {
		p.ptrs = make([]*node, 0, max(min(max(2*cap(p.ptrs), 8), 4*maxChunk), len(ns)))
	}
	i := len(p.ptrs)
	p.ptrs = append(p.ptrs, ns...)
	return p.ptrs[i:len(p.ptrs):len(p.ptrs)]
}

// tokenCount is the number of tokens lines hold.
func tokenCount(lines []line) int {
	n := 0
	for _, ln := range lines {
		n += len(ln.toks)
	}
	return n
}

// parseTokens builds statements from logical lines, nesting bodies by
// indent; lines hold ntoks tokens (tokenCount), which size its chunks.
func parseTokens(lines []line, ntoks int) []*stmt {
	type frame struct {
		indent int
		st     *stmt
	}
	if len(lines) == 0 {
		return nil
	}
	module := make([]*stmt, 0, len(lines)) // room for a statement per line
	stack := []frame{{indent: -1}}
	p := &parser{} // one for every line, for its room for nodes
	p.args, p.line = p.argsRoom[:0], p.lineRoom[:0]
	// the first chunks sized to the code (see mk and newStmt): a line is
	// mostly one statement, and there are about half as many nodes as
	// tokens, so that the small programs most calls hold take one chunk
	// of each and little more room than they use
	p.stmts = make([]stmt, 0, min(max(len(lines), 1), maxChunk))
	p.nodes = make([]node, 0, min(ntoks/2+4, maxChunk))
	for _, ln := range lines {
		for len(stack) > 1 && ln.indent <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		p.toks, p.i, p.depth = ln.toks, 0, 0
		open := p.parseLine()
		sts := p.line
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
	if len(module) == 0 {
		return nil
	}
	return module
}

// parseLine parses one logical line, p.toks, into p.line: simple
// statements separated by ; or a compound statement's header with an
// optional inline body. open reports a header whose body follows on
// indented lines. p.line is valid until the next call.
func (p *parser) parseLine() (open bool) {
	toks := p.toks
	p.line = p.line[:0]
	if len(toks) > 0 && toks[0].kind == tMagic {
		p.line = append(p.line, p.newStmt(stmt{kind: sMagic, text: toks[0].text, pos: toks[0].pos}))
		return false
	}
	if len(toks) > 0 && toks[0].kind == tShell {
		p.line = append(p.line, p.newStmt(stmt{kind: sShell, text: toks[0].text, pos: toks[0].pos}))
		return false
	}
	if h := p.header(); h != nil {
		if p.i >= len(p.toks) {
			p.line = append(p.line, h)
			return true
		}
		p.simpleStmts()
		h.body = append([]*stmt(nil), p.line...)
		p.line = append(p.line[:0], h)
		return false
	}
	p.i = 0
	p.simpleStmts()
	return false
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{}
}

func (p *parser) peekAt(k int) token {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return token{}
}

func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *parser) isKw(s string) bool {
	t := p.peek()
	return t.kind == tName && t.text == s
}

func (p *parser) accept(s string) bool {
	t := p.peek()
	if (t.kind == tOp || t.kind == tName) && t.text == s {
		p.i++
		return true
	}
	return false
}

func (p *parser) atEnd() bool { return p.i >= len(p.toks) }

// skipTo advances to the next top-level occurrence of one of the
// operators (or the end). Brackets are balanced by the tokenizer's line
// logic, so nesting is counted here only to skip over them.
func (p *parser) skipTo(ops ...string) {
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
func (p *parser) header() *stmt {
	t := p.peek()
	if t.kind != tName {
		return nil
	}
	st := stmt{pos: t.pos} // allocated once it is known to be a header
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
	return p.newStmt(st)
}

func lastIsColon(toks []token) bool {
	n := len(toks)
	return n > 0 && toks[n-1].kind == tOp && toks[n-1].text == ":"
}

func hasTopColon(toks []token) bool {
	depth := 0
	for _, t := range toks {
		if t.kind != tOp {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// withParens reports whether a with statement's opening parenthesis wraps
// its items (with (open(a) as f, open(b) as g):) rather than starting the
// first expression.
func (p *parser) withParens() bool {
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
func (p *parser) params(closer string) []param {
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

// simpleStmts appends the simple statements of the rest of the line to
// p.line.
func (p *parser) simpleStmts() {
	for !p.atEnd() {
		start := p.i
		if st := p.simple(); st != nil {
			p.line = append(p.line, st)
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
}

// simple parses one simple statement.
func (p *parser) simple() *stmt {
	t := p.peek()
	st := p.newStmt(stmt{pos: t.pos})
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
		// The targets and the value go on p.args, then into one list.
		st.kind = sAssign
		base := len(p.args)
		p.args = append(p.args, first)
		for p.accept("=") {
			if p.peek().kind == tShell {
				st.kind, st.text = sShell, p.peek().text
				p.i++
				st.targets = p.refs(p.args[base:]...)
				p.args = p.args[:base]
				return st
			}
			p.args = append(p.args, p.exprListStar())
		}
		st.value = p.args[len(p.args)-1]
		st.targets = p.refs(p.args[base : len(p.args)-1]...)
		p.args = p.args[:base]
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

func isAugOp(t token) bool {
	if t.kind != tOp || len(t.text) < 2 || !strings.HasSuffix(t.text, "=") {
		return false
	}
	switch t.text {
	case "==", "!=", "<=", ">=", ":=":
		return false
	}
	return true
}

// dotted reads a dotted name (os.path).
func (p *parser) dotted() string {
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

var keywords = map[string]bool{
	"and": true, "as": true, "assert": true, "async": true, "await": true, "break": true, "class": true,
	"continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true, "None": true, "True": true, "False": true,
}

func isKeyword(s string) bool { return keywords[s] }

// targetList reads the target of a for loop or comprehension: names,
// attributes, subscripts and tuples of them, up to "in".
func (p *parser) targetList() *node {
	first := p.starOrOr()
	if !p.isOp(",") {
		return first
	}
	tup := p.mk(node{kind: nTuple, args: []*node{first}, pos: first.pos})
	for p.accept(",") {
		if p.isKw("in") || p.atEnd() {
			break
		}
		tup.args = append(tup.args, p.starOrOr())
	}
	return tup
}

func (p *parser) atomTarget() *node {
	if p.isOp("(") || p.isOp("[") {
		return p.atomExpr()
	}
	return p.orExpr()
}

// exprList reads expressions separated by commas; more than one (or a
// trailing comma) makes a tuple.
func (p *parser) exprList() *node { return p.list(false) }

// exprListStar is exprList that also allows *x items.
func (p *parser) exprListStar() *node { return p.list(true) }

// list is exprList, or exprListStar if star.
func (p *parser) list(star bool) *node {
	first := p.listItem(star)
	if !p.isOp(",") {
		return first
	}
	tup := p.mk(node{kind: nTuple, args: []*node{first}, pos: first.pos})
	for p.accept(",") {
		if p.atEnd() || p.endOfExpr() {
			break
		}
		tup.args = append(tup.args, p.listItem(star))
	}
	return tup
}

func (p *parser) listItem(star bool) *node {
	if star {
		if n := p.star(); n != nil {
			return n
		}
	}
	return p.expr()
}

// endOfExpr reports a token that cannot start an expression.
func (p *parser) endOfExpr() bool {
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

// star reads *x or **x, or returns nil when neither follows.
func (p *parser) star() *node {
	if t := p.peek(); t.kind == tOp && (t.text == "*" || t.text == "**") {
		p.i++
		return p.mk(node{kind: nStar, op: t.text, args: []*node{p.orExpr()}, pos: t.pos})
	}
	return nil
}

// starOrNamed reads *x, **x or a named expression.
func (p *parser) starOrNamed() *node {
	if n := p.star(); n != nil {
		return n
	}
	return p.namedExpr()
}

// starOrOr reads *x, **x or a binary expression (a target).
func (p *parser) starOrOr() *node {
	if n := p.star(); n != nil {
		return n
	}
	return p.orExpr()
}

func (p *parser) unknown() *node { return p.mk(node{kind: nUnknown, pos: p.peek().pos}) }

// enter guards recursion; leave must follow a successful enter.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.depth--
		p.i = len(p.toks) // give up on the rest of the line
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// namedExpr is expr with := allowed at the top.
func (p *parser) namedExpr() *node {
	if p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == ":=" {
		t := p.peek()
		p.i += 2
		return p.mk(node{kind: nWalrus, op: t.text, args: []*node{p.expr()}, pos: t.pos})
	}
	return p.expr()
}

// expr reads a full expression: lambda, conditional, yield.
func (p *parser) expr() *node {
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
	n := p.test(lOr)
	if p.isKw("if") {
		p.i++
		cond := p.test(lOr)
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

// The levels of test, loosest first.
const (
	lOr  = iota // operands joined by or
	lAnd        // operands joined by and
	lNot        // a negation or a comparison
)

// test reads a boolean expression by precedence climbing: at level lOr
// operands joined by or (lAnd) and by and (lNot) and their negations
// (not) and comparisons, whose operands are binary expressions. A lone
// operand costs one call whatever the level; the depth guard counts
// only the not operators (and binary's levels), as Python's grammar
// nests them.
func (p *parser) test(min int) *node {
	var n *node
	if t := p.peek(); t.kind == tName && t.text == "not" {
		p.i++
		if !p.enter() {
			return p.unknown()
		}
		n = p.mk(node{kind: nUnary, op: "not", args: []*node{p.test(lNot)}, pos: t.pos})
		p.leave()
	} else {
		n = p.comparison(p.binary(1))
	}
	if min <= lAnd && p.isKw("and") {
		b := p.mk(node{kind: nBool, op: "and", args: p.refs(n), pos: n.pos})
		for p.accept("and") {
			b.args = append(b.args, p.test(lNot))
		}
		n = b
	}
	if min <= lOr && p.isKw("or") {
		b := p.mk(node{kind: nBool, op: "or", args: p.refs(n), pos: n.pos})
		for p.accept("or") {
			b.args = append(b.args, p.test(lAnd))
		}
		n = b
	}
	return n
}

// orTest reads a full boolean expression (no conditional).
func (p *parser) orTest() *node { return p.test(lOr) }

// comparison reads the comparisons, if any, whose first operand is n.
func (p *parser) comparison(n *node) *node {
	if t := p.peek(); !maybeCmp(t) {
		return n
	}
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

// maybeCmp reports whether t may be or start a comparison operator, as
// a quick test before comparison's exact one.
func maybeCmp(t token) bool {
	switch t.kind {
	case tOp:
		return t.text != "" && (t.text[0] == '<' || t.text[0] == '>' || t.text[0] == '=' || t.text[0] == '!')
	case tName:
		return t.text == "in" || t.text == "is" || t.text == "not"
	}
	return false
}

// binPrec returns the precedence of a binary operator, lowest 1, or 0
// when op is none.
func binPrec(op string) int {
	switch op {
	case "|":
		return 1
	case "^":
		return 2
	case "&":
		return 3
	case "<<", ">>":
		return 4
	case "+", "-":
		return 5
	case "*", "/", "//", "%", "@":
		return 6
	}
	return 0
}

func (p *parser) orExpr() *node { return p.binary(1) }

// binary reads operands joined by binary operators of precedence min or
// more, by precedence climbing.
func (p *parser) binary(min int) *node {
	if !p.enter() {
		return p.unknown()
	}
	left := p.unary()
	for chain := 0; ; chain++ {
		t := p.peek()
		if t.kind != tOp {
			break
		}
		prec := binPrec(t.text)
		if prec == 0 || prec < min {
			break
		}
		if chain == maxChain {
			// a chain of operators builds a tree as deep as it is long,
			// which the analysis walks down: past maxChain, the rest of
			// the line is an unknown expression, as deeper nesting is
			p.i = len(p.toks)
			p.leave()
			return p.unknown()
		}
		p.i++
		right := p.binary(prec + 1)
		left = p.mk(node{kind: nBin, op: t.text, args: p.refs(left, right), pos: left.pos})
	}
	p.leave()
	return left
}

// unary reads an operand of a binary operator: unary operators, await,
// an atom with its trailers and a power.
func (p *parser) unary() *node {
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "+" || t.text == "~") || t.kind == tName && t.text == "await" {
		p.i++
		if !p.enter() {
			return p.unknown()
		}
		operand := p.unary()
		p.leave()
		if t.text == "await" {
			return operand
		}
		return p.mk(node{kind: nUnary, op: t.text, args: p.refs(operand), pos: t.pos})
	}
	n := p.postfix(p.atom())
	if p.accept("**") {
		if !p.enter() {
			return p.unknown()
		}
		right := p.unary()
		p.leave()
		n = p.mk(node{kind: nBin, op: "**", args: []*node{n, right}, pos: n.pos})
	}
	return n
}

// atomExpr reads an atom and its trailers: attributes, calls, subscripts.
func (p *parser) atomExpr() *node {
	return p.postfix(p.atom())
}

func (p *parser) postfix(n *node) *node {
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

func (p *parser) callArgs(fn *node) *node {
	call := p.mk(node{kind: nCall, args: p.refs(fn), pos: fn.pos})
	if !p.enter() {
		return call
	}
	// The operands go on p.args, then into one list of the right length.
	base := len(p.args)
	p.args = append(p.args, fn)
	for !p.atEnd() && !p.isOp(")") {
		start := p.i
		switch {
		case p.isOp("**"):
			p.i++
			call.kws = append(call.kws, kwarg{val: p.expr()})
		case p.isOp("*"):
			t := p.peek()
			p.i++
			p.args = append(p.args, p.mk(node{kind: nStar, op: "*", args: []*node{p.expr()}, pos: t.pos}))
		case p.peek().kind == tName && p.peekAt(1).kind == tOp && p.peekAt(1).text == "=":
			name := p.peek().text
			p.i += 2
			call.kws = append(call.kws, kwarg{name: name, val: p.expr()})
		default:
			a := p.namedExpr()
			if p.isKw("for") || p.isKw("async") {
				a = p.comprehension(nComp, a, nil)
			}
			p.args = append(p.args, a)
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
	p.leave()
	if len(p.args)-base > 1 {
		call.args = p.refs(p.args[base:]...)
	}
	p.args = p.args[:base]
	p.accept(")")
	return call
}

func (p *parser) subscript() *node {
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

func (p *parser) sliceItem() *node {
	var lo *node
	if !p.isOp(":") {
		lo = p.starOrNamed()
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
func (p *parser) atom() *node {
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

// joinLits concatenates two adjacent string literals.
func joinLits(a, b *strLit) *strLit {
	out := &strLit{bytes: a.bytes || b.bytes, fmt: a.fmt || b.fmt}
	if !out.fmt {
		out.value = a.value + b.value
		return out
	}
	for _, l := range []*strLit{a, b} {
		if l.fmt {
			out.parts = append(out.parts, l.parts...)
		} else if l.value != "" {
			out.parts = append(out.parts, fpart{text: l.value})
		}
	}
	return out
}

// display reads a parenthesized expression, tuple, list, set or dict,
// or a comprehension of one.
func (p *parser) display(closer string, kind nodeKind, pos int) *node {
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
				k := p.starOrNamed()
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
			item := p.starOrNamed()
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
func (p *parser) comprehension(kind nodeKind, elt, val *node) *node {
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
