package expr

import (
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// frame is the state of one evaluation.
type frame struct {
	act   Activation
	slots []any // the program's variables (unset until read), then its iteration variables
	small [8]any
	cost  int64
	limit int64
}

// spend charges n to the evaluation's cost.
func (f *frame) spend(n int64) error {
	f.cost += n
	if f.cost > f.limit {
		return errCost
	}
	return nil
}

// evaluator is one compiled node.
type evaluator interface {
	eval(f *frame) (any, error)
}

type constE struct{ v any }

func (e *constE) eval(*frame) (any, error) { return e.v, nil }

type varE struct {
	slot int
	name string
}

func (e *varE) eval(f *frame) (any, error) {
	if err := f.spend(1); err != nil {
		return nil, err
	}
	v := f.slots[e.slot]
	if _, ok := v.(unset); !ok {
		return v, nil
	}
	raw, ok := f.act.Resolve(e.name)
	if !ok {
		return nil, errorf("no such attribute: %s", e.name)
	}
	v, err := norm(raw)
	if err != nil {
		return nil, err
	}
	f.slots[e.slot] = v
	return v, nil
}

type localE struct{ slot int }

func (e *localE) eval(f *frame) (any, error) {
	if err := f.spend(1); err != nil {
		return nil, err
	}
	return f.slots[e.slot], nil
}

type selectE struct {
	x     evaluator
	field string
	test  bool // has()
}

func (e *selectE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	if _, ok := mapLen(v); ok {
		x, found, err := mapFind(v, e.field)
		switch {
		case err != nil:
			return nil, err
		case e.test:
			return found, nil
		case !found:
			return nil, errorf("no such key: %s", e.field)
		}
		return x, nil
	}
	if _, ok := listLen(v); ok {
		return nil, errorf("unsupported index type 'string' in list")
	}
	if e.test {
		return false, nil
	}
	return nil, errorf("no such key: %s", e.field)
}

type indexE struct{ x, i evaluator }

func (e *indexE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	k, err := e.i.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	if n, ok := listLen(v); ok {
		var i int64
		switch x := k.(type) {
		case int64:
			i = x
		case uint64:
			if x > math.MaxInt64 {
				return nil, errorf("unsupported index value %s in list", Format(k))
			}
			i = int64(x)
		case float64:
			var exact bool
			if i, exact = floatToInt(x); !exact {
				return nil, errorf("unsupported index value %s in list", Format(k))
			}
		default:
			return nil, errorf("unsupported index type '%s' in list", typeName(k))
		}
		if i < 0 || i >= int64(n) {
			return nil, errorf("index out of bounds: %d", i)
		}
		return listAt(v, int(i))
	}
	x, found, err := mapFind(v, k)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errorf("no such key: %s", Format(k))
	}
	return x, nil
}

// logicE is && (or) or ||: false (true) wins over errors on either side;
// otherwise the first error, else true (false).
type logicE struct {
	l, r evaluator
	or   bool
}

func (e *logicE) eval(f *frame) (any, error) {
	l, lerr := e.l.eval(f)
	if lerr == errCost {
		return nil, lerr
	}
	lb, ok := l.(bool)
	if lerr == nil && !ok {
		lerr = errNoOverload
	}
	if lerr == nil && lb == e.or {
		return lb, nil
	}
	r, rerr := e.r.eval(f)
	if rerr == errCost {
		return nil, rerr
	}
	rb, ok := r.(bool)
	if rerr == nil && !ok {
		rerr = errNoOverload
	}
	if rerr == nil && rb == e.or {
		return rb, nil
	}
	if lerr != nil {
		return nil, lerr
	}
	if rerr != nil {
		return nil, rerr
	}
	return !e.or, nil
}

type notE struct{ x evaluator }

func (e *notE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	b, ok := v.(bool)
	if !ok {
		return nil, errNoOverload
	}
	return !b, nil
}

type negE struct{ x evaluator }

func (e *negE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case int64:
		if x == -x && x != 0 {
			return nil, errIntRange
		}
		return -x, nil
	case float64:
		return -x, nil
	}
	return nil, errNoOverload
}

type condE struct{ c, yes, no evaluator }

func (e *condE) eval(f *frame) (any, error) {
	c, err := e.c.eval(f)
	if err != nil {
		return nil, err
	}
	b, ok := c.(bool)
	if !ok {
		return nil, errNoOverload
	}
	if b {
		return e.yes.eval(f)
	}
	return e.no.eval(f)
}

// binE evaluates both operands, left first, and returns the first error.
func binE(f *frame, l, r evaluator) (any, any, error) {
	a, err := l.eval(f)
	if err != nil {
		return nil, nil, err
	}
	b, err := r.eval(f)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

type eqE struct {
	l, r evaluator
	ne   bool
}

func (e *eqE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.l, e.r)
	if err != nil {
		return nil, err
	}
	eq, err := f.equal(a, b)
	if err != nil {
		return nil, err
	}
	return eq != e.ne, nil
}

type relE struct {
	l, r evaluator
	op   string
}

func (e *relE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.l, e.r)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1 + min(size(a), size(b))/10); err != nil {
		return nil, err
	}
	switch a.(type) {
	case int64, uint64, float64, string, []byte, bool:
	default:
		return nil, errNoOverload // before NaN, as in cel-go
	}
	if isNaN(a) || isNaN(b) {
		return false, nil
	}
	c, err := compare(a, b)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case "_<_":
		return c < 0, nil
	case "_<=_":
		return c <= 0, nil
	case "_>_":
		return c > 0, nil
	}
	return c >= 0, nil
}

type arithE struct {
	l, r evaluator
	op   byte
}

func (e *arithE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.l, e.r)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	if e.op == '+' {
		switch x := a.(type) {
		case string:
			y, ok := b.(string)
			if !ok {
				return nil, errNoOverload
			}
			if err := f.spend(int64(len(x)+len(y)) / 10); err != nil {
				return nil, err
			}
			return x + y, nil
		case []byte:
			y, ok := b.([]byte)
			if !ok {
				return nil, errNoOverload
			}
			if err := f.spend(int64(len(x)+len(y)) / 10); err != nil {
				return nil, err
			}
			return append(append(make([]byte, 0, len(x)+len(y)), x...), y...), nil
		}
		if n, ok := listLen(a); ok {
			m, ok := listLen(b)
			if !ok {
				return nil, errNoOverload
			}
			if err := f.spend(int64(n+m) / 10); err != nil {
				return nil, err
			}
			out := make([]any, 0, n+m)
			out = appendList(out, a)
			return appendList(out, b), nil
		}
	}
	return arith(e.op, a, b)
}

func appendList(out []any, l any) []any {
	switch l := l.(type) {
	case []any:
		return append(out, l...)
	case []string:
		for _, s := range l {
			out = append(out, s)
		}
	}
	return out
}

type inE struct{ l, r evaluator }

func (e *inE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.l, e.r)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	if n, ok := listLen(b); ok {
		for i := range n {
			x, err := listAt(b, i)
			if err != nil {
				return nil, err
			}
			eq, err := f.equal(a, x)
			if err != nil {
				return nil, err
			}
			if eq {
				return true, nil
			}
		}
		return false, nil
	}
	_, found, err := mapFind(b, a)
	if err != nil {
		return nil, err
	}
	return found, nil
}

type listE struct{ elems []evaluator }

func (e *listE) eval(f *frame) (any, error) {
	if err := f.spend(10 + int64(len(e.elems))); err != nil {
		return nil, err
	}
	out := make([]any, len(e.elems))
	for i, x := range e.elems {
		v, err := x.eval(f)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

type mapE struct{ keys, vals []evaluator }

func (e *mapE) eval(f *frame) (any, error) {
	if err := f.spend(30 + int64(len(e.keys))); err != nil {
		return nil, err
	}
	m := &mapValue{vals: make(map[any]any, len(e.keys))}
	for i, kx := range e.keys {
		k, err := kx.eval(f)
		if err != nil {
			return nil, err
		}
		v, err := e.vals[i].eval(f)
		if err != nil {
			return nil, err
		}
		if !hashable(k) {
			return nil, errorf("unsupported map key type: %s", typeName(k))
		}
		if _, dup := m.vals[k]; !dup {
			m.keys = append(m.keys, k)
		}
		m.vals[k] = v
	}
	return m, nil
}

type sizeE struct{ x evaluator }

func (e *sizeE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case string:
		if err := f.spend(int64(len(x)) / 64); err != nil {
			return nil, err
		}
		return int64(utf8.RuneCountInString(x)), nil
	case []byte:
		return int64(len(x)), nil
	}
	if n, ok := listLen(v); ok {
		return int64(n), nil
	}
	if n, ok := mapLen(v); ok {
		return int64(n), nil
	}
	return nil, errNoOverload
}

// strE is contains, startsWith or endsWith.
type strE struct {
	x, arg evaluator
	fn     func(s, t string) bool
}

func (e *strE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.x, e.arg)
	if err != nil {
		return nil, err
	}
	s, ok1 := a.(string)
	t, ok2 := b.(string)
	if !ok1 || !ok2 {
		return nil, errNoOverload
	}
	if err := f.spend(1 + int64(len(s))/10); err != nil {
		return nil, err
	}
	return e.fn(s, t), nil
}

type matchesE struct {
	x, pat evaluator
	re     *regexp.Regexp // a constant pattern, compiled with the program
	insts  int64          // re's program size
}

func (e *matchesE) eval(f *frame) (any, error) {
	a, b, err := binE(f, e.x, e.pat)
	if err != nil {
		return nil, err
	}
	s, ok1 := a.(string)
	p, ok2 := b.(string)
	if !ok1 || !ok2 {
		return nil, errNoOverload
	}
	re, insts := e.re, e.insts
	if re == nil {
		if err := f.spend(1 + int64(len(p))); err != nil {
			return nil, err
		}
		if re, insts, err = compileRegexp(p); err != nil {
			return nil, err
		}
	}
	// Matching is linear in the text times the program's size.
	if err := f.spend(1 + (int64(len(s))+1)*insts/100); err != nil {
		return nil, err
	}
	return re.MatchString(s), nil
}

// compileRegexp compiles an RE2 pattern and returns its program's size.
func compileRegexp(p string) (*regexp.Regexp, int64, error) {
	if len(p) > maxPatterns {
		return nil, 0, errorf("a regular expression longer than %d bytes", maxPatterns)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, 0, &evalError{err.Error()}
	}
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, 0, &evalError{err.Error()}
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, 0, &evalError{err.Error()}
	}
	return re, int64(len(prog.Inst)), nil
}

type convE struct {
	fn string
	x  evaluator
}

func (e *convE) eval(f *frame) (any, error) {
	v, err := e.x.eval(f)
	if err != nil {
		return nil, err
	}
	if err := f.spend(1 + size(v)/10); err != nil {
		return nil, err
	}
	return convert(e.fn, v)
}

// callE calls a function the Env declared.
type callE struct {
	fn   *funcDecl
	args []evaluator
}

func (e *callE) eval(f *frame) (any, error) {
	args := make([]any, len(e.args))
	for i, a := range e.args {
		v, err := a.eval(f)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	if err := f.spend(1); err != nil {
		return nil, err
	}
	for i, p := range e.fn.overloads[0].params {
		if !p.isDyn() && typeValue(p) != typeName(args[i]) {
			return nil, errorf("no such overload: %s(%s)", e.fn.name, typeName(args[i]))
		}
	}
	v, err := e.fn.impl(args)
	if err != nil {
		return nil, &evalError{fmt.Sprintf("%s: %v", e.fn.name, err)}
	}
	return norm(v)
}

type macroE struct {
	kind      macroKind
	rng       evaluator
	slot      int
	pred, fun evaluator
	keep      any // filter: what it keeps instead of the element (see planner)
}

func (e *macroE) eval(f *frame) (any, error) {
	r, err := e.rng.eval(f)
	if err != nil {
		return nil, err
	}
	var n int
	var keys []any
	if l, ok := listLen(r); ok {
		n = l
	} else if m, ok := mapLen(r); ok {
		if err := f.spend(int64(m)); err != nil {
			return nil, err
		}
		keys = mapKeys(r)
		n = len(keys)
	} else if size(r) != 0 || !isSized(r) {
		// cel-go ranges over nothing in an empty string or bytes.
		return nil, errorf("got '%s', expected iterable type", typeName(r))
	}
	var firstErr error
	count := 0
	var out []any
	for i := range n {
		if err := f.spend(1); err != nil {
			return nil, err
		}
		var elem any
		if keys != nil {
			elem = keys[i]
		} else if elem, err = listAt(r, i); err != nil {
			return nil, err
		}
		f.slots[e.slot] = elem
		if e.pred != nil {
			v, err := e.pred.eval(f)
			if err == errCost {
				return nil, err
			}
			b, ok := v.(bool)
			if err == nil && !ok {
				err = errNoOverload
			}
			switch e.kind {
			case mAll, mExists:
				if err == nil && b == (e.kind == mExists) {
					return b, nil
				}
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			if !b {
				continue
			}
		}
		switch e.kind {
		case mExistsOne:
			count++
		case mFilter:
			if e.keep != nil {
				out = append(out, e.keep)
			} else {
				out = append(out, elem)
			}
		case mMap, mMapFilter:
			v, err := e.fun.eval(f)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	switch e.kind {
	case mAll, mExists:
		if firstErr != nil {
			return nil, firstErr
		}
		return e.kind == mAll, nil
	case mExistsOne:
		return count == 1, nil
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}
