package code

import (
	"github.com/agentwarden/warden/internal/envname"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// scope maps names to values; lookups fall back to the parent.
type scope struct {
	vars   map[string]value
	parent *scope
	log    []string        // names bound while a branch is being tracked
	global map[string]bool // names a function declares global
}

func newScope(parent *scope) *scope { return &scope{vars: map[string]value{}, parent: parent} }

func (s *scope) lookup(name string) (value, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return value{}, false
}

// loop is a loop or comprehension the analysis is inside of.
type loop struct {
	src       *listing
	unbounded bool  // while True: and the like
	exits     bool  // its body can leave it (break, return, exit)
	count     int64 // iterations of a for loop over range(n), when known
	// endless: a comprehension over an iterable without end (iter(int,
	// 1), itertools.count()): no break, no pause, every turn runs the
	// element
	endless bool
}

// analysis is the state of one reading of a code text.
type analysis struct {
	call  *tool.Call
	env   paths.Env
	cwdOK bool // the working directory is known (no dynamic chdir)

	scope *scope
	// top is the module scope; its parent, when there is one, holds the
	// variables earlier calls left in the interpreter (see session.go).
	top   *scope
	loops []loop
	// conds holds, for each selective condition the analysis is inside of,
	// the number of loops around it: a deletion is selective with respect
	// to a loop when some condition lies inside that loop.
	conds []int

	funcs     []*function
	track     int // depth of if statements whose branches are tracked
	callDepth int
	calls     int
	ret       *value // return value of the function being called
	retCount  int

	stars []string // modules imported with *

	// written holds what the code wrote to files, by absolute path, so
	// that a script it writes and then runs is read.
	written map[string]string

	// secretVars are the secret variables (envname.Secret) the code
	// reads, at most maxSecretVars, for the requests that send them.
	secretVars []string

	// Reverse shell evidence.
	socket, dup2, shellIO, interactive bool
	peer                               value // the address a socket connected to last

	// maybe counts the constructs around the analysis that may not run
	// or run one of several ways (branches, handlers, loops, functions
	// never called): what happens inside is possible, not certain.
	maybe int
	// partial holds module names bound where they may not have been;
	// forget is set when code the analysis cannot read may bind any name;
	// raises counts the statements run that may raise an exception, which
	// ends a cell: what comes after them may not happen.
	partial map[string]bool
	forget  bool
	raises  int
	// session is set when the call runs in a conversation's persistent
	// interpreter (it has a Prior): only then are effects reported.
	// effects counts them (variables apart); netURL is the one URL the
	// code fetched from, netMany set when there are more.
	session bool
	effects int
	netURL  string
	netMany bool

	depth    int // exec/eval nesting
	added    int // lines added to the call
	budget   int
	overrun  bool
	findings []risk.Finding
}

// maxCallDepth bounds how deeply calls to the code's own functions are
// followed; maxCalls bounds how many are followed in all.
const (
	maxCallDepth = 3
	maxCalls     = 128
	maxExecDepth = 3
	maxUnroll    = 16
)

func newAnalysis(c *tool.Call, budget int) *analysis {
	top := newScope(priorScope(c.Prior))
	return &analysis{
		call:   c,
		env:    c.Env(),
		cwdOK:  true,
		scope:  top,
		top:    top,
		budget: budget,
		// Effects are for the session that lends the call its Prior.
		session: c.Prior != nil,
	}
}

// tokenCost is the work charged per token read: what reading, parsing
// and keeping one costs, in the budget's units (about a nanosecond).
const tokenCost = 64

// run analyzes a code text: tokenizes, parses, walks the statements, then
// the functions no call reached.
func (a *analysis) run(src string) {
	a.call.Work.Charge(len(src), "code parsing") // spend() stops the walk once it is out
	// each token costs what tokenCost says, read before any is charged:
	// no more are read than the budget pays for (1 MB of ";" was 4
	// million tokens, 1.2 GB and 2 s)
	lines, cell, lexErr, over := tokenizeAtMost(src, int(min(a.call.Work.Left()/tokenCost, math.MaxInt32)))
	tokens := tokenCount(lines)
	if !a.call.Work.Charge(tokens*tokenCost, "code tokens") || over {
		a.overrun = true
	}
	if lexErr != nil {
		a.forget = true // what it binds is not read
		if refused(src, lexErr) {
			a.add(risk.Finding{Rule: RuleUnparsable, Level: risk.Low, Reversible: true,
				Reason: "The Python code does not parse (" + lexErr.Error() + "): Python compiles a program or cell whole and runs none of it"})
		} else {
			a.add(risk.Finding{Rule: RuleUnparsable, Level: risk.Unknown,
				Reason: "The Python code could not be read (" + lexErr.Error() + "), so what it does is unknown"})
		}
	}
	sts := parseTokens(lines, tokens)
	a.block(sts)
	if cell != nil {
		a.cellMagic(cell)
	}
}

// refused reports a tokenizer error that every Python refuses to compile,
// so that none of src runs (CPython, python -c, exec and IPython's
// run_cell compile the whole text before running any of it): an
// unterminated string, an unclosed or unmatched bracket, a character
// Python does not allow. Text with f-strings is not: what an f-string may
// hold changed between versions (PEP 701), so an error there may be code
// that another Python runs; it stays unknown.
func refused(src string, err *lexError) bool {
	if strings.Contains(err.msg, "f-string") || strings.Contains(err.msg, "cell magic") {
		return false
	}
	for i := 0; i+1 < len(src); i++ {
		if c := src[i] | 0x20; c == 'f' && (src[i+1] == '"' || src[i+1] == '\'') {
			return false // f"…", rf'…', Rf"…"
		}
	}
	return true
}

// finish analyzes the functions that were defined but never called, with
// unknown arguments.
func (a *analysis) finish() {
	a.maybe++
	defer func() { a.maybe-- }()
	for i := 0; i < len(a.funcs) && !a.overrun; i++ { // funcs may grow
		f := a.funcs[i]
		if f.analyzed {
			continue
		}
		a.callDepth, a.calls = 0, 0
		a.invoke(f, nil, nil)
	}
	a.reverseShell()
}

func (a *analysis) spend() bool {
	a.budget--
	if a.budget < 0 || !a.call.Work.Charge(1, "code analysis") {
		a.overrun = true
		return false
	}
	return true
}

// block runs statements in order.
func (a *analysis) block(sts []*stmt) {
	for i := 0; i < len(sts); i++ {
		if !a.spend() {
			return
		}
		st := sts[i]
		if mayRaise(st) {
			a.raises++
		}
		if st.kind == sIf && !st.elif && mainGuard(st.value) && (i+1 == len(sts) || sts[i+1].kind != sElse && !sts[i+1].elif) {
			a.eval(st.value)
			a.block(st.body) // a cell or script runs as __main__
			continue
		}
		if st.kind == sIf && !st.elif || st.kind == sExcept {
			// An if with its elifs and else, or the except handlers of a
			// try (one of them or none runs instead of the rest of its
			// body) and its else: branches.
			j := i + 1
			for j < len(sts) && (st.kind == sIf && sts[j].kind == sIf && sts[j].elif || st.kind == sExcept && sts[j].kind == sExcept) {
				j++
			}
			if j < len(sts) && sts[j].kind == sElse {
				j++
			}
			a.ifChain(sts[i:j])
			i = j - 1
			continue
		}
		a.stmt(st)
	}
}

// ifChain runs an if statement with its elif and else branches (or the
// except handlers of a try), each from the state before it, and merges
// what they assign: a name assigned differently in two branches keeps
// both values as alternatives.
func (a *analysis) ifChain(chain []*stmt) {
	sc := a.scope
	before := maps.Clone(sc.vars)
	partial := maps.Clone(a.partial) // names partial before the branches
	a.track++
	a.maybe++
	var changed []map[string]value
	var names []string
	hasElse, sel := false, false
	for _, st := range chain {
		a.budget -= len(before) // the clone's cost
		if !a.spend() {
			break
		}
		sc.vars = maps.Clone(before)
		start := len(sc.log)
		switch st.kind {
		case sElse:
			hasElse = true
		case sExcept:
			if st.value != nil {
				a.eval(st.value)
			}
			for _, t := range st.targets {
				a.assign(t, dynValue)
			}
		default:
			a.eval(st.value)
			sel = sel || selective(st.value)
		}
		a.condBody(st.body, sel)
		got := map[string]value{}
		for _, n := range sc.log[start:] {
			if _, seen := got[n]; !seen && !slices.Contains(names, n) {
				names = append(names, n)
			}
			got[n] = sc.vars[n]
		}
		sc.log = sc.log[:start]
		changed = append(changed, got)
	}
	a.track--
	a.maybe--
	sc.vars = before
	for _, n := range names {
		var vals []value
		prev, hadPrev := before[n]
		if !hadPrev && sc == a.top && sc.parent != nil {
			prev, hadPrev = sc.parent.vars[n] // the value an earlier call left
		}
		for _, got := range changed {
			if v, ok := got[n]; ok {
				vals = append(vals, v)
			} else if hadPrev {
				vals = append(vals, prev)
			}
		}
		if !hasElse && hadPrev {
			vals = append([]value{prev}, vals...)
		}
		if sc == a.top && !partial[n] {
			delete(a.partial, n) // the alternatives stand for what the branches do
		}
		a.bind(n, alternatives(vals))
	}
}

// mainGuard recognizes __name__ == '__main__'.
func mainGuard(n *node) bool {
	if n == nil || n.kind != nCmp || n.op != "==" || len(n.args) != 2 {
		return false
	}
	x, y := n.args[0], n.args[1]
	if x.kind == nStr {
		x, y = y, x
	}
	return x.kind == nName && x.op == "__name__" && y.kind == nStr && y.str.value == "__main__" && !y.str.fmt
}

// condBody runs the body of a condition; a selective one marks deletions
// inside it as choosing among the entries of the loops around it.
func (a *analysis) condBody(body []*stmt, sel bool) {
	if sel {
		a.conds = append(a.conds, len(a.loops))
		defer func() { a.conds = a.conds[:len(a.conds)-1] }()
	}
	a.block(body)
}

func (a *analysis) stmt(st *stmt) {
	switch st.kind {
	case sExpr:
		a.eval(st.value)
		for _, n := range st.items {
			a.eval(n)
		}
	case sDel:
		a.eval(st.value)
		a.unbind(st.value)
	case sGlobal:
		if a.scope != a.top {
			if a.scope.global == nil {
				a.scope.global = map[string]bool{}
			}
			for _, in := range st.names {
				a.scope.global[in.name] = true
			}
		}
	case sAssign:
		v := a.eval(st.value)
		for _, t := range st.targets {
			a.assign(t, v)
		}
	case sImport:
		for _, in := range st.names {
			if in.as != "" {
				a.bind(in.as, a.refValue(in.name))
			} else {
				top, _, _ := strings.Cut(in.name, ".")
				a.bind(top, ref(top))
			}
		}
	case sFrom:
		mod := strings.TrimLeft(st.module, ".")
		for _, in := range st.names {
			if in.name == "*" {
				a.stars = append(a.stars, canon(mod))
				a.forget = true // binds names the analysis does not know
				continue
			}
			name := in.as
			if name == "" {
				name = in.name
			}
			a.bind(name, a.refValue(mod+"."+in.name))
		}
	case sFor:
		a.forLoop(st)
	case sWhile:
		cond := a.eval(st.value)
		a.loops = append(a.loops, loop{unbounded: truthy(cond) || unboundedCond(st.value), exits: exits(st.body, true)})
		a.maybe++
		a.block(st.body)
		a.maybe--
		a.loops = a.loops[:len(a.loops)-1]
	case sWith:
		for i, it := range st.items {
			v := a.eval(it)
			if t := st.targets[i]; t != nil {
				a.assign(t, v)
			}
		}
		a.block(st.body)
	case sCase:
		a.maybe++
		a.block(st.body)
		a.maybe--
	case sTry, sFinally, sElse, sMatch, sIf:
		if st.value != nil {
			a.eval(st.value)
		}
		a.block(st.body)
	case sExcept:
		if st.value != nil {
			a.eval(st.value)
		}
		for _, t := range st.targets {
			a.assign(t, dynValue)
		}
		a.block(st.body)
	case sDef:
		f := &function{def: st, params: st.params, scope: a.scope}
		a.funcs = append(a.funcs, f)
		a.bind(st.name, value{k: kFunc, obj: &object{fn: f}})
	case sClass:
		if st.value != nil {
			a.eval(st.value)
		}
		outer := a.scope
		a.scope = newScope(outer)
		a.block(st.body)
		a.scope = outer
		a.bind(st.name, dynValue)
	case sReturn:
		var v value
		if st.value != nil {
			v = a.eval(st.value)
		} else {
			v = value{k: kNone}
		}
		if a.ret != nil {
			if a.retCount == 0 {
				*a.ret = v
			} else {
				*a.ret = alternatives([]value{*a.ret, v})
			}
			a.retCount++
		}
	case sRaise:
		if st.value != nil {
			a.eval(st.value)
		}
	case sShell:
		a.shellEscape(st.text)
		for _, t := range st.targets {
			a.assign(t, dynValue)
		}
	case sMagic:
		a.lineMagic(st.text)
	}
}

func sameValue(a, b value) bool {
	return a.k == b.k && a.s == b.s && a.n == b.n && len(a.items) == 0 && len(b.items) == 0
}

// forLoop runs a for statement's body: once per item of a short known
// list, else once with the target unknown (drawn from the iterable's
// listing, if it is one).
func (a *analysis) forLoop(st *stmt) {
	it := a.eval(st.value)
	target := st.targets[0]
	lp := loop{src: it.src, exits: exits(st.body, true), unbounded: unboundedIter(st.value), count: rangeCount(it)}
	a.loops = append(a.loops, lp)
	a.maybe++
	defer func() { a.loops, a.maybe = a.loops[:len(a.loops)-1], a.maybe-1 }()
	if it.k == kList && len(it.items) > 0 && len(it.items) <= maxUnroll {
		for _, item := range it.items {
			a.assign(target, item.with(it))
			a.block(st.body)
		}
		return
	}
	a.assign(target, derived(it))
	a.block(st.body)
}

// rangeCount is the number of items of a range() value (0 if unknown).
func rangeCount(v value) int64 {
	if v.k == kObj && v.s == "range" {
		return v.n
	}
	return 0
}

// exits reports whether a loop body can leave the loop: a break (not
// inside a nested loop), return, raise or a call that ends the process.
func exits(body []*stmt, top bool) bool {
	for _, st := range body {
		switch st.kind {
		case sBreak:
			if top {
				return true
			}
		case sReturn, sRaise:
			return true
		case sExpr:
			if st.value != nil && st.value.kind == nCall {
				if name := calleeName(st.value); strings.HasSuffix(name, "exit") || strings.HasSuffix(name, "quit") || strings.HasSuffix(name, "abort") {
					return true
				}
			}
		case sDef, sClass:
			continue
		}
		nested := top && st.kind != sFor && st.kind != sWhile
		if exits(st.body, nested) {
			return true
		}
	}
	return false
}

// calleeName renders the dotted name of a call's callee, as written.
func calleeName(n *node) string {
	f := n.args[0]
	var parts []string
	for f != nil {
		switch f.kind {
		case nName:
			parts = append(parts, f.op)
			f = nil
		case nAttr:
			parts = append(parts, f.op)
			f = f.args[0]
		default:
			f = nil
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		if i > 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// unboundedCond recognizes loop conditions that never become false
// without the body's help: True, 1, not False, not 0.
func unboundedCond(n *node) bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case nConst:
		return n.op == "True"
	case nNum:
		return n.op != "0"
	case nUnary:
		if n.op == "not" && len(n.args) == 1 {
			a := n.args[0]
			return a.kind == nConst && (a.op == "False" || a.op == "None") || a.kind == nNum && a.op == "0"
		}
	}
	return false
}

// unboundedIter recognizes iterables without end: itertools.count(),
// itertools.repeat(x), iter(int, 1).
func unboundedIter(n *node) bool {
	if n == nil || n.kind != nCall {
		return false
	}
	name := calleeName(n)
	switch {
	case strings.HasSuffix(name, "count") && len(n.args) <= 2,
		strings.HasSuffix(name, "repeat") && len(n.args) == 2 && len(n.kws) == 0,
		strings.HasSuffix(name, "cycle"),
		name == "iter" && len(n.args) == 3:
		return true
	}
	return false
}

// selective reports whether a condition picks some entries rather than
// only telling files from directories (if p.is_file(): … else: …).
func selective(n *node) bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case nBool:
		for _, x := range n.args {
			if selective(x) {
				return true
			}
		}
		return false
	case nUnary:
		if n.op == "not" {
			return selective(n.args[0])
		}
	case nCall:
		name := calleeName(n)
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		switch name {
		case "is_file", "is_dir", "is_symlink", "isfile", "isdir", "islink", "exists", "lexists", "is_junction", "is_mount":
			return false
		}
	}
	return true
}

// bind sets a name in the current scope (the module's for a name the
// function declares global).
func (a *analysis) bind(name string, v value) {
	if name == "" {
		return
	}
	sc := a.scope
	if sc.global != nil && sc.global[name] {
		sc = a.top
	}
	if sc == a.top && a.session {
		a.boundTop(name, v)
	}
	sc.vars[name] = v
	if a.track > 0 {
		a.scope.log = append(a.scope.log, name)
	}
}

// unbind reads del targets: a deleted name is no longer known.
func (a *analysis) unbind(t *node) {
	if t == nil {
		return
	}
	switch t.kind {
	case nName:
		a.bind(t.op, dynValue)
	case nTuple, nList:
		for _, x := range t.args {
			a.unbind(x)
		}
	}
}

// assign binds an assignment target to a value.
func (a *analysis) assign(t *node, v value) {
	if t == nil {
		return
	}
	switch t.kind {
	case nName:
		a.bind(t.op, v)
	case nTuple, nList:
		if v.k == kList && len(v.items) == len(t.args) {
			for i, x := range t.args {
				a.assign(x, v.items[i])
			}
			return
		}
		for _, x := range t.args {
			a.assign(x, derived(v))
		}
	case nStar:
		a.assign(t.args[0], derived(v))
	case nAttr, nSub:
		if x := a.eval(t.args[0]); t.kind == nSub && x.k == kObj && x.s == "globals" {
			a.forget = true // globals()['x'] = …
		}
		if t.kind == nSub {
			a.eval(t.args[1])
		}
		a.escape(v) // a file object stored away is written where the analysis does not look
	}
}

// lookup resolves a name: bound values first, then names a star import
// brings in, then the name itself as a module or builtin.
func (a *analysis) lookup(name string) value {
	if v, ok := a.scope.lookup(name); ok {
		return v
	}
	for _, m := range a.stars {
		full := m + "." + name
		if _, ok := knownFuncs()[full]; ok {
			return ref(full)
		}
	}
	if name == "__builtins__" || name == "builtins" {
		return ref("")
	}
	return a.refValue(name)
}

// refValue turns a dotted name into the value it denotes: a constant such
// as os.sep or os.environ, or a reference.
func (a *analysis) refValue(name string) value {
	name = canon(name)
	switch name {
	case "os.environ", "os.environb", "posix.environ":
		return value{k: kObj, s: "environ", t: tEnviron}
	case "os.sep", "os.path.sep", "os.altsep":
		return str("/")
	case "os.curdir":
		return str(".")
	case "os.pardir":
		return str("..")
	case "os.devnull":
		return str("/dev/null")
	case "sys.executable":
		return str("python3")
	case "sys.argv", "sys.stdin":
		return dynValue
	}
	if v, ok := statConsts[name]; ok {
		return intVal(v)
	}
	return ref(name)
}

// statConsts are the stat and os constants that permission and open flag
// arithmetic uses.
var statConsts = map[string]int64{
	"stat.S_ISUID": 0o4000, "stat.S_ISGID": 0o2000, "stat.S_ISVTX": 0o1000,
	"stat.S_IRWXU": 0o700, "stat.S_IRUSR": 0o400, "stat.S_IWUSR": 0o200, "stat.S_IXUSR": 0o100,
	"stat.S_IRWXG": 0o70, "stat.S_IRGRP": 0o40, "stat.S_IWGRP": 0o20, "stat.S_IXGRP": 0o10,
	"stat.S_IRWXO": 0o7, "stat.S_IROTH": 0o4, "stat.S_IWOTH": 0o2, "stat.S_IXOTH": 0o1,
	"os.O_RDONLY": 0, "os.O_WRONLY": 1, "os.O_RDWR": 2, "os.O_CREAT": 0o100, "os.O_TRUNC": 0o1000, "os.O_APPEND": 0o2000,
}

// canon maps module aliases to the names the analyzer knows.
func canon(name string) string {
	root, _, _ := strings.Cut(name, ".")
	if !canonRoots()[root] {
		return name
	}
	name = strings.TrimPrefix(name, "builtins.")
	name = strings.TrimPrefix(name, "__builtins__.")
	for _, r := range canonPrefixes {
		// name is r[0] or starts with r[0] and a dot
		if rest, ok := strings.CutPrefix(name, r[0]); ok && (rest == "" || rest[0] == '.') {
			return r[1] + rest
		}
	}
	return name
}

// canonRoots returns the first components of the names canon rewrites,
// built on first use.
var canonRoots = sync.OnceValue(func() map[string]bool {
	roots := map[string]bool{"builtins": true, "__builtins__": true}
	for _, r := range canonPrefixes {
		root, _, _ := strings.Cut(r[0], ".")
		roots[root] = true
	}
	return roots
})

var canonPrefixes = [][2]string{
	{"posixpath", "os.path"}, {"ntpath", "os.path"}, {"posix", "os"}, {"nt", "os"},
	{"pathlib.PosixPath", "pathlib.Path"}, {"pathlib.WindowsPath", "pathlib.Path"}, {"pathlib.PurePath", "pathlib.Path"},
	{"pathlib.PurePosixPath", "pathlib.Path"}, {"pathlib.PureWindowsPath", "pathlib.Path"},
	{"urllib2", "urllib.request"}, {"urllib.urlopen", "urllib.request.urlopen"}, {"urllib.urlretrieve", "urllib.request.urlretrieve"},
	{"six.moves.urllib.request", "urllib.request"}, {"future.moves.urllib.request", "urllib.request"},
	{"subprocess32", "subprocess"}, {"cPickle", "pickle"}, {"_pickle", "pickle"}, {"dill", "pickle"}, {"cloudpickle", "pickle"},
	{"httplib", "http.client"}, {"pathlib2", "pathlib"}, {"commands", "subprocess"},
	{"pandas.io.sql", "pandas"}, {"pd", "pandas"}, {"sqlalchemy.sql.expression", "sqlalchemy"}, {"sqlalchemy.sql", "sqlalchemy"},
	{"psycopg2", "psycopg"}, {"MySQLdb", "pymysql"}, {"mysql.connector", "pymysql"}, {"pymssql", "pymysql"},
}

// eval computes the static value of an expression, checking every call
// in it on the way.
func (a *analysis) eval(n *node) value {
	if n == nil || !a.spend() {
		return dynValue
	}
	switch n.kind {
	case nName:
		return a.lookup(n.op)
	case nNum:
		return number(n.op)
	case nConst:
		switch n.op {
		case "True":
			return value{k: kBool, n: 1}
		case "False":
			return value{k: kBool}
		case "None":
			return value{k: kNone}
		}
		return dynValue
	case nStr:
		return a.strValue(n.str)
	case nAttr:
		return a.attr(a.eval(n.args[0]), n.op)
	case nCall:
		return a.callNode(n)
	case nSub:
		return a.subscript(a.eval(n.args[0]), a.eval(n.args[1]))
	case nBin:
		x, y := a.eval(n.args[0]), a.eval(n.args[1])
		if k := altCount(x, y); k > 0 {
			vals := make([]value, 0, k+1)
			for i := 0; i <= k; i++ {
				vals = append(vals, a.binary(n.op, pick(x, i), pick(y, i)))
			}
			return alternatives(vals)
		}
		return a.binary(n.op, x, y)
	case nUnary:
		v := a.eval(n.args[0])
		switch n.op {
		case "-":
			if x, ok := v.staticInt(); ok {
				return intVal(-x)
			}
		case "+":
			return v
		case "~":
			if x, ok := v.staticInt(); ok {
				return intVal(^x)
			}
		}
		return derived(v)
	case nBool, nCmp:
		var vs []value
		for _, x := range n.args {
			vs = append(vs, a.eval(x))
		}
		if n.kind == nBool && n.op == "or" && len(vs) == 2 && vs[0].k == kDyn && vs[1].textual() {
			// os.environ.get('X') or '/tmp/x': keep the fallback's text
			// as the known part.
			return derived(vs...)
		}
		return derived(vs...)
	case nIf:
		a.eval(n.args[0])
		return alternatives([]value{a.eval(n.args[2]), a.eval(n.args[1])})
	case nTuple, nList, nSet:
		return a.sequence(n.args)
	case nDict:
		out := value{k: kDict}
		for _, x := range n.args {
			v := a.eval(x)
			out.t |= v.t
			if len(out.items) < maxItems {
				out.items = append(out.items, v)
			}
		}
		return out
	case nComp:
		return a.comprehension(n)
	case nLambda:
		f := &function{lambda: n, scope: a.scope}
		for _, kw := range n.kws {
			f.params = append(f.params, param{name: kw.name, def: kw.val})
		}
		a.funcs = append(a.funcs, f)
		return value{k: kFunc, obj: &object{fn: f}}
	case nStar:
		return a.eval(n.args[0])
	case nSlice:
		sl := value{k: kObj, s: "slice"}
		for _, x := range n.args {
			if x == nil {
				sl.items = append(sl.items, value{k: kNone})
				continue
			}
			sl.items = append(sl.items, a.eval(x))
		}
		return sl
	case nWalrus:
		v := a.eval(n.args[0])
		a.bind(n.op, v)
		return v
	case nShell:
		a.shellEscape(n.op)
		return dynValue
	}
	return dynValue
}

// sequence builds a list value from displayed items, splicing *x.
func (a *analysis) sequence(items []*node) value {
	out := value{k: kList}
	for _, x := range items {
		v := a.eval(x)
		out.t |= v.t
		if x.kind == nStar {
			if v.k == kList {
				out.items = append(out.items, v.items...)
				continue
			}
			return derived(out, v)
		}
		out.items = append(out.items, v)
		if out.src == nil {
			out.src = v.src
		}
	}
	if len(out.items) > maxItems {
		return derived(out)
	}
	return out
}

func number(s string) value {
	t := strings.ReplaceAll(strings.ToLower(s), "_", "")
	t = strings.TrimSuffix(t, "l")
	base := 10
	switch {
	case strings.HasPrefix(t, "0x"):
		base, t = 16, t[2:]
	case strings.HasPrefix(t, "0o"):
		base, t = 8, t[2:]
	case strings.HasPrefix(t, "0b"):
		base, t = 2, t[2:]
	case len(t) > 1 && t[0] == '0' && strings.Trim(t, "01234567") == "":
		base = 8 // Python 2 octal: 0777
	}
	if n, err := strconv.ParseInt(t, base, 64); err == nil {
		return intVal(n)
	}
	return dynValue
}

// strValue evaluates a string literal; an f-string's fields are parsed
// and evaluated in turn.
func (a *analysis) strValue(l *strLit) value {
	k := kStr
	if l.bytes {
		k = kBytes
	}
	if !l.fmt {
		return value{k: k, s: l.value}
	}
	var fields []value
	for _, p := range l.parts {
		if p.expr {
			fields = append(fields, a.exprText(p.text))
		}
	}
	n := altCount(fields...)
	vals := make([]value, 0, n+1)
	for i := 0; i <= n; i++ {
		out := value{k: k}
		var b strings.Builder
		f := 0
		for _, p := range l.parts {
			if !p.expr {
				b.WriteString(p.text)
				continue
			}
			v := pick(fields[f], i)
			f++
			out = out.with(v)
			b.WriteString(v.text())
			if b.Len() > maxText {
				return derived(out)
			}
		}
		out.s = b.String()
		vals = append(vals, out)
	}
	return alternatives(vals)
}

// exprText evaluates the source of one expression (an f-string field).
func (a *analysis) exprText(src string) value {
	if a.depth >= maxExecDepth+4 || strings.TrimSpace(src) == "" {
		return dynValue
	}
	lines, _, _ := tokenize(src)
	if len(lines) != 1 {
		return dynValue
	}
	p := &parser{toks: lines[0].toks}
	n := p.exprList()
	a.depth++
	defer func() { a.depth-- }()
	return a.eval(n)
}

// comprehension evaluates a comprehension's element inside its loops.
func (a *analysis) comprehension(n *node) value {
	outer := a.scope
	a.scope = newScope(outer)
	a.maybe++
	defer func() { a.maybe-- }()
	nloops, nconds := len(a.loops), len(a.conds)
	out := value{k: kDyn}
	for _, cf := range n.fors {
		it := a.eval(cf.iter)
		out.t |= it.t
		// a comprehension over an endless iterable never ends: it has no
		// break ([x.append(b' ' * 2**30) for _ in iter(int, 1)])
		endless := unboundedIter(cf.iter)
		a.loops = append(a.loops, loop{src: it.src, count: rangeCount(it), unbounded: endless, endless: endless})
		a.assign(cf.target, derived(it))
		for _, c := range cf.conds {
			a.eval(c)
			if selective(c) {
				a.conds = append(a.conds, len(a.loops))
			}
		}
	}
	for _, x := range n.args {
		out = out.with(a.eval(x))
	}
	a.loops, a.conds = a.loops[:nloops], a.conds[:nconds]
	a.scope = outer
	out.k = kDyn
	return out
}

// binary evaluates a binary operator.
func (a *analysis) binary(op string, x, y value) value {
	if x.loose || y.loose {
		x, y = unloose(op, x, y)
	}
	switch op {
	case "+":
		return concat(x, y)
	case "/":
		if x.k == kPath || (x.textual() && y.k == kPath) {
			return pathVal(joinPath([]value{x, y})).with(x, y)
		}
	case "%":
		if x.k == kStr || x.k == kBytes {
			return format(x, y)
		}
	case "*":
		if x.textual() || y.textual() || x.k == kList || y.k == kList {
			return repeat(x, y)
		}
	}
	p, ok1 := x.staticInt()
	q, ok2 := y.staticInt()
	if ok1 && ok2 {
		if r, ok := intOp(op, p, q); ok {
			return intVal(r)
		}
	}
	return derived(x, y)
}

func intOp(op string, p, q int64) (int64, bool) {
	const lim = 1 << 40
	if p > lim || p < -lim || q > lim || q < -lim {
		return 0, false
	}
	switch op {
	case "+":
		return p + q, true
	case "-":
		return p - q, true
	case "*":
		return p * q, true
	case "|":
		return p | q, true
	case "&":
		return p & q, true
	case "^":
		return p ^ q, true
	case "<<":
		if q >= 0 && q < 20 {
			return p << q, true
		}
	case ">>":
		if q >= 0 && q < 64 {
			return p >> q, true
		}
	case "//":
		if q != 0 {
			r := p / q
			if (p%q != 0) && ((p < 0) != (q < 0)) {
				r--
			}
			return r, true
		}
	case "%":
		if q != 0 {
			r := p % q
			if r != 0 && (r < 0) != (q < 0) {
				r += q
			}
			return r, true
		}
	case "**":
		if q >= 0 && q < 40 {
			r := int64(1)
			for i := int64(0); i < q; i++ {
				r *= p
				if r > lim || r < -lim {
					return 0, false
				}
			}
			return r, true
		}
	}
	return 0, false
}

// repeat evaluates s * n.
func repeat(x, y value) value {
	if y.textual() || y.k == kList {
		x, y = y, x
	}
	n, ok := y.staticInt()
	if !ok || n < 0 {
		return derived(x, y)
	}
	if x.k == kList {
		if int64(len(x.items))*n > maxItems {
			return derived(x)
		}
		var items []value
		for i := int64(0); i < n; i++ {
			items = append(items, x.items...)
		}
		return value{k: kList, items: items, t: x.t}
	}
	if int64(len(x.s))*n > maxText {
		return derived(x)
	}
	return value{k: x.k, s: strings.Repeat(x.s, int(n)), t: x.t}
}

// format evaluates printf-style formatting: "rm -rf %s" % path.
func format(f, args value) value {
	var list []value
	if args.k == kList {
		list = args.items
	} else {
		list = []value{args}
	}
	out := value{k: f.k}.with(f, args)
	var b strings.Builder
	s := f.s
	k := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		// Skip flags, width, precision and a (name).
		j := i + 1
		named := false
		if j < len(s) && s[j] == '(' {
			named = true
			for j < len(s) && s[j] != ')' {
				j++
			}
			j++
		}
		for j < len(s) && strings.IndexByte("#0- +*.0123456789hlL", s[j]) >= 0 {
			j++
		}
		if j >= len(s) {
			return derived(f, args)
		}
		if named || k >= len(list) {
			b.WriteString(dyn)
		} else {
			b.WriteString(list[k].text())
		}
		k++
		i = j
	}
	out.s = b.String()
	return out
}

// subscript evaluates x[i].
func (a *analysis) subscript(x, i value) value {
	switch {
	case x.k == kObj && x.s == "environ":
		if key, ok := i.static(); ok {
			return a.envVar(key, value{})
		}
		return derived(x)
	case x.k == kList:
		if n, ok := i.staticInt(); ok {
			if n < 0 {
				n += int64(len(x.items))
			}
			if n >= 0 && n < int64(len(x.items)) {
				return x.items[n].with(x)
			}
		}
	case x.k == kDict:
		if key, ok := i.static(); ok {
			for j := 0; j+1 < len(x.items); j += 2 {
				if k, ok := x.items[j].static(); ok && k == key {
					return x.items[j+1]
				}
			}
		}
	case i.k == kObj && i.s == "slice":
		return slice(x, i.items)
	case x.k == kRef && strings.HasSuffix(x.s, ".__dict__"):
		if name, ok := i.static(); ok { // os.__dict__['system']
			return a.refValue(strings.TrimSuffix(x.s, ".__dict__") + "." + name)
		}
	case x.k == kRef && x.s == "sys.modules":
		if name, ok := i.static(); ok {
			return a.refValue(name)
		}
	case x.k == kRef && x.s == "":
		if name, ok := i.static(); ok { // __builtins__['eval']
			return a.refValue(name)
		}
	}
	return derived(x)
}

// attr evaluates x.name.
func (a *analysis) attr(x value, name string) value {
	if x.loose && x.k == kStr {
		x.k = kPath // a str has no attributes but its methods
	}
	switch x.k {
	case kRef:
		if x.s == "" {
			return a.refValue(name)
		}
		return a.refValue(x.s + "." + name)
	case kPath:
		s := x.s
		switch name {
		case "parent":
			if st, ok := x.static(); ok {
				return pathVal(parentDir(a.env.Abs(st)))
			}
		case "name", "stem", "suffix":
			return derived(x)
		}
		return value{k: kDyn, t: x.t, src: x.src, s: s}.with()
	case kObj:
		if v, ok := sdkAttr(x, name); ok {
			return v
		}
	}
	return derived(x)
}

// slice evaluates x[lo:hi:step] on a known string or list.
func slice(x value, idx []value) value {
	var n int
	switch {
	case x.k == kList:
		n = len(x.items)
	case x.textual() && !strings.Contains(x.s, dyn):
		n = len(x.s)
	default:
		return derived(x)
	}
	bound := func(i int, v value, def int) (int, bool) {
		if v.k == kNone || i >= len(idx) {
			return def, true
		}
		k, ok := v.staticInt()
		return int(k), ok
	}
	step, ok := bound(2, value{k: kNone}, 1)
	if len(idx) > 2 {
		step, ok = bound(2, idx[2], 1)
	}
	if !ok || step == 0 || len(idx) == 0 {
		return derived(x)
	}
	lo, hi := 0, n
	if step < 0 {
		lo, hi = n-1, -n-1
	}
	lo, ok1 := bound(0, idx[0], lo)
	hi, ok2 := hi, true
	if len(idx) > 1 {
		hi, ok2 = bound(1, idx[1], hi)
	}
	if !ok1 || !ok2 {
		return derived(x)
	}
	clamp := func(i, lo, hi int) int { return max(lo, min(i, hi)) }
	norm := func(i int) int {
		if i < 0 {
			i += n
		}
		return i
	}
	var pick []int
	if step > 0 {
		for i := clamp(norm(lo), 0, n); i < clamp(norm(hi), 0, n); i += step {
			pick = append(pick, i)
		}
	} else {
		start, stop := clamp(norm(lo), -1, n-1), clamp(norm(hi), -1, n-1)
		if idx[0].k == kNone {
			start = n - 1
		}
		if len(idx) < 2 || idx[1].k == kNone {
			stop = -1
		}
		for i := start; i > stop; i += step {
			pick = append(pick, i)
		}
	}
	if x.k == kList {
		out := value{k: kList, t: x.t}
		for _, i := range pick {
			out.items = append(out.items, x.items[i])
		}
		return out
	}
	b := make([]byte, 0, len(pick))
	for _, i := range pick {
		b = append(b, x.s[i])
	}
	return value{k: x.k, s: string(b), t: x.t}
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// envVar is the value of an environment variable; def is the default
// given to os.getenv (unused: a variable may be set).
func (a *analysis) envVar(name string, def value) value {
	switch name {
	case "HOME":
		if a.env.Home != "" {
			return str(a.env.Home)
		}
	case "PWD":
		if a.cwdOK && a.env.Cwd != "" {
			return str(a.env.Cwd)
		}
	case "USER", "LOGNAME", "USERNAME":
		if a.env.Home != "" {
			return str(a.env.Home[strings.LastIndexByte(a.env.Home, '/')+1:])
		}
	case "TMPDIR", "TMP", "TEMP", "TEMPDIR":
		// names a temporary directory by convention, as tempfile.gettempdir
		// reads it (the shell resolves $TMPDIR the same way)
		return str("/tmp")
	}
	if envname.Secret(name) {
		// a token, key or password: where it goes is judged (see sendOrFetch)
		if len(a.secretVars) < maxSecretVars && !slices.Contains(a.secretVars, name) {
			a.secretVars = append(a.secretVars, name)
		}
		return value{k: kDyn, t: tSecretVar}
	}
	return dynValue
}

// maxSecretVars bounds the secret variables an analysis remembers.
const maxSecretVars = 4
