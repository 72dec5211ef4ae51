package expr

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

type funcDecl struct {
	name      string
	overloads []*overload
	impl      func(args []any) (any, error) // a declared (not standard) function
}

type overload struct {
	member bool
	params []*Type // the receiver first, for a member overload
	result *Type
}

var (
	stdOnce  sync.Once
	stdFuncs map[string]*funcDecl
)

// standard returns the standard functions, as cel-go declares them,
// without timestamps and durations (whose overloads stay in the operator
// tables only so that null checks as it does there).
func standard() map[string]*funcDecl {
	stdOnce.Do(func() {
		a, b := param("A"), param("B")
		la, mab := ListOf(a), MapOf(a, b)
		ts, dur := timestampType, durationType
		ov := func(result *Type, params ...*Type) *overload { return &overload{params: params, result: result} }
		mem := func(result *Type, params ...*Type) *overload {
			return &overload{member: true, params: params, result: result}
		}
		cmp := func() []*overload {
			var l []*overload
			for _, t := range []*Type{Bool, Int, Uint, Double, String, Bytes, ts, dur} {
				l = append(l, ov(Bool, t, t))
			}
			return l
		}
		conv := func(result *Type, from ...*Type) []*overload {
			var l []*overload
			for _, t := range from {
				l = append(l, ov(result, t))
			}
			return l
		}
		size := func() []*overload {
			var l []*overload
			for _, t := range []*Type{Bytes, la, mab, String} {
				l = append(l, ov(Int, t), mem(Int, t))
			}
			return l
		}
		m := map[string][]*overload{
			"_?_:_": {ov(a, Bool, a, a)},
			"!_":    {ov(Bool, Bool)},
			"_==_":  {ov(Bool, a, a)},
			"_!=_":  {ov(Bool, a, a)},
			"_+_": {ov(Bytes, Bytes, Bytes), ov(Double, Double, Double), ov(dur, dur, dur), ov(ts, dur, ts),
				ov(ts, ts, dur), ov(Int, Int, Int), ov(la, la, la), ov(String, String, String), ov(Uint, Uint, Uint)},
			"_-_": {ov(Double, Double, Double), ov(dur, dur, dur), ov(Int, Int, Int), ov(ts, ts, dur),
				ov(dur, ts, ts), ov(Uint, Uint, Uint)},
			"_*_":        {ov(Double, Double, Double), ov(Int, Int, Int), ov(Uint, Uint, Uint)},
			"_/_":        {ov(Double, Double, Double), ov(Int, Int, Int), ov(Uint, Uint, Uint)},
			"_%_":        {ov(Int, Int, Int), ov(Uint, Uint, Uint)},
			"-_":         {ov(Double, Double), ov(Int, Int)},
			"_<_":        cmp(),
			"_<=_":       cmp(),
			"_>_":        cmp(),
			"_>=_":       cmp(),
			"_[_]":       {ov(a, la, Int), ov(b, mab, a)},
			"@in":        {ov(Bool, a, la), ov(Bool, a, mab)},
			"size":       size(),
			"type":       {ov(typeOf(a), a)},
			"dyn":        {ov(Dyn, a)},
			"bool":       conv(Bool, Bool, String),
			"bytes":      conv(Bytes, Bytes, String),
			"double":     conv(Double, Double, Int, String, Uint),
			"int":        conv(Int, Int, Double, dur, String, ts, Uint),
			"string":     conv(String, String, Bool, Bytes, Double, dur, Int, ts, Uint),
			"uint":       conv(Uint, Uint, Double, Int, String),
			"contains":   {mem(Bool, String, String)},
			"endsWith":   {mem(Bool, String, String)},
			"startsWith": {mem(Bool, String, String)},
			"matches":    {ov(Bool, String, String), mem(Bool, String, String)},
		}
		stdFuncs = make(map[string]*funcDecl, len(m))
		for name, ovs := range m {
			stdFuncs[name] = &funcDecl{name: name, overloads: ovs}
		}
	})
	return stdFuncs
}

// typeIdents are the type names an expression may use as values.
func typeIdent(name string) (*Type, bool) {
	switch name {
	case "bool":
		return Bool, true
	case "bytes":
		return Bytes, true
	case "double":
		return Double, true
	case "int":
		return Int, true
	case "uint":
		return Uint, true
	case "string":
		return String, true
	case "null_type":
		return Null, true
	case "type":
		return typeType, true
	case "list":
		return ListOf(Dyn), true
	case "map":
		return MapOf(Dyn, Dyn), true
	}
	return nil, false
}

// checker types a syntax tree and resolves its names.
type checker struct {
	env    *Env
	s      subst
	fresh  int
	scopes []*node // the macros around the expression being checked, innermost last
}

type checkError struct{ err *Error }

func (c *checker) fail(n *node, format string, args ...any) {
	panic(checkError{&Error{pos: n.pos, Msg: fmt.Sprintf(format, args...)}})
}

func (c *checker) run(root *node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(checkError)
			if !ok {
				panic(r)
			}
			err = ce.err
		}
	}()
	c.check(root)
	c.finalize(root)
	return nil
}

// finalize replaces the type parameters left in the tree's types by
// their bindings, or dyn.
func (c *checker) finalize(n *node) {
	if n.typ != nil {
		n.typ = c.s.substitute(n.typ, true)
	}
	if n.elem != nil {
		n.elem = c.s.substitute(n.elem, true)
	}
	if n.x != nil {
		c.finalize(n.x)
	}
	for _, a := range n.args {
		c.finalize(a)
	}
}

func (c *checker) newVar() *Type {
	t := param("_var" + strconv.Itoa(c.fresh))
	c.fresh++
	return t
}

func litType(v any) *Type {
	switch v.(type) {
	case nil:
		return Null
	case bool:
		return Bool
	case int64:
		return Int
	case uint64:
		return Uint
	case float64:
		return Double
	case string:
		return String
	case []byte:
		return Bytes
	}
	return Dyn
}

func (c *checker) check(n *node) {
	switch n.kind {
	case nLit:
		n.typ = litType(n.val)
	case nIdent:
		c.checkIdent(n)
	case nSelect:
		c.checkSelect(n)
	case nCall:
		c.checkCall(n)
	case nList:
		var elem *Type
		for _, e := range n.args {
			c.check(e)
			elem = c.join(elem, e.typ)
		}
		if elem == nil {
			elem = c.newVar()
		}
		n.typ = ListOf(elem)
	case nMap:
		var k, v *Type
		for i := 0; i < len(n.args); i += 2 {
			c.check(n.args[i])
			k = c.join(k, n.args[i].typ)
			c.check(n.args[i+1])
			v = c.join(v, n.args[i+1].typ)
		}
		if k == nil {
			k, v = c.newVar(), c.newVar()
		}
		n.typ = MapOf(k, v)
	case nMacro:
		c.checkMacro(n)
	}
}

// join is the element type of a list or map literal: the most general
// of the elements', or dyn when they differ.
func (c *checker) join(prev, cur *Type) *Type {
	if prev == nil {
		return cur
	}
	if c.s.assignable(prev, cur) {
		return mostGeneral(prev, cur)
	}
	return Dyn
}

// lookupLocal returns the innermost macro whose iteration variable is
// name.
func (c *checker) lookupLocal(name string) *node {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if c.scopes[i].name == name {
			return c.scopes[i]
		}
	}
	return nil
}

// resolve resolves an identifier, or a dotted name, to a variable or a
// type name.
func (c *checker) resolve(n *node, name string) bool {
	global := strings.TrimPrefix(name, ".")
	if global == name && !strings.Contains(name, ".") {
		if m := c.lookupLocal(name); m != nil {
			n.kind, n.name, n.local, n.typ = nIdent, name, m, m.typ
			return true
		}
	}
	if strings.Contains(name, ".") && global == name {
		// a.b is no variable when a is an iteration variable.
		if c.lookupLocal(name[:strings.IndexByte(name, '.')]) != nil {
			return false
		}
	}
	if t, ok := c.env.vars[global]; ok {
		n.kind, n.name, n.typ, n.x = nIdent, global, t, nil
		return true
	}
	if t, ok := typeIdent(global); ok {
		n.kind, n.val, n.typ, n.x = nLit, typeValue(t), typeOf(t), nil
		return true
	}
	return false
}

func (c *checker) checkIdent(n *node) {
	if !c.resolve(n, n.name) {
		c.fail(n, "undeclared reference to '%s'", strings.TrimPrefix(n.name, "."))
	}
}

// qualified returns the dotted name a chain of selections spells, and
// the identifier it starts from.
func qualified(n *node) (string, *node, bool) {
	var parts []string
	for n.kind == nSelect && !n.test {
		parts = append(parts, n.name)
		n = n.x
	}
	if n.kind != nIdent || len(parts) == 0 {
		return "", nil, false
	}
	parts = append(parts, n.name)
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "."), n, true
}

func (c *checker) checkSelect(n *node) {
	if !n.test {
		if name, base, ok := qualified(n); ok {
			if c.resolve(n, name) {
				return
			}
			// Nothing along the chain resolves: name it whole.
			if !c.anyPrefix(name) {
				c.fail(base, "undeclared reference to '%s'", strings.TrimPrefix(name, "."))
			}
		}
	}
	c.check(n.x)
	t := c.s.substitute(n.x.typ, false)
	var res *Type
	switch t.kind {
	case MapKind:
		res = t.params[1]
	case paramKind:
		c.s.assignable(Dyn, t)
		res = Dyn
	case DynKind, errorKind:
		res = Dyn
	default:
		c.fail(n, "type '%s' does not support field selection", t)
	}
	if n.test {
		res = Bool
	}
	n.typ = c.s.substitute(res, false)
}

// anyPrefix reports whether some prefix of a dotted name resolves.
func (c *checker) anyPrefix(name string) bool {
	parts := strings.Split(name, ".")
	if parts[0] == "" { // a leading dot
		parts = parts[1:]
		parts[0] = "." + parts[0]
	}
	probe := &node{}
	for i := 1; i <= len(parts); i++ {
		if c.resolve(probe, strings.Join(parts[:i], ".")) {
			return true
		}
	}
	return false
}

func (c *checker) lookupFunc(name string) *funcDecl {
	if f, ok := c.env.funcs[name]; ok {
		return f
	}
	return standard()[name]
}

func (c *checker) checkCall(n *node) {
	for _, a := range n.args {
		c.check(a)
	}
	if n.name == "_&&_" || n.name == "_||_" {
		for _, a := range n.args {
			if !c.s.assignable(a.typ, Bool) {
				c.fail(a, "expected type 'bool' but found '%s'", c.s.substitute(a.typ, true))
			}
		}
		n.typ = Bool
		return
	}
	name := strings.TrimPrefix(n.name, ".")
	if n.recv {
		c.check(n.x)
		name = n.name
	}
	fn := c.lookupFunc(name)
	if fn == nil {
		c.fail(n, "undeclared reference to '%s'", name)
	}
	n.name, n.fn = name, fn
	argTypes := make([]*Type, 0, len(n.args)+1)
	if n.recv {
		argTypes = append(argTypes, n.x.typ)
	}
	for _, a := range n.args {
		argTypes = append(argTypes, a.typ)
	}
	var result *Type
	for _, o := range fn.overloads {
		if o.member != n.recv {
			continue
		}
		params, res := c.instantiate(o)
		if !c.s.assignableList(argTypes, params) {
			continue
		}
		r := c.s.substitute(res, false)
		switch {
		case result == nil:
			result = r
		case !result.isDyn() && !r.Is(result):
			result = Dyn
		}
	}
	if result == nil {
		shown := make([]string, len(argTypes))
		for i, t := range argTypes {
			shown[i] = c.s.substitute(t, true).String()
		}
		if n.recv {
			c.fail(n, "no matching overload for '%s' applied to %s.(%s)", displayName(name), shown[0], strings.Join(shown[1:], ", "))
		}
		c.fail(n, "no matching overload for '%s' applied to (%s)", displayName(name), strings.Join(shown, ", "))
	}
	n.typ = result
}

// displayName is how an error shows an operator: == rather than _==_.
func displayName(fn string) string {
	switch fn {
	case "_?_:_":
		return "?:"
	case "@in":
		return "in"
	case "_[_]":
		return "[]"
	}
	if s, ok := strings.CutPrefix(fn, "_"); ok {
		return strings.TrimSuffix(s, "_")
	}
	return strings.TrimSuffix(fn, "_")
}

// instantiate returns an overload's parameter and result types with
// fresh type variables for its parameters A and B.
func (c *checker) instantiate(o *overload) ([]*Type, *Type) {
	var fresh map[string]*Type
	var rename func(t *Type) *Type
	rename = func(t *Type) *Type {
		switch t.kind {
		case paramKind:
			if fresh == nil {
				fresh = map[string]*Type{}
			}
			v, ok := fresh[t.name]
			if !ok {
				v = c.newVar()
				fresh[t.name] = v
			}
			return v
		case ListKind:
			return ListOf(rename(t.params[0]))
		case MapKind:
			return MapOf(rename(t.params[0]), rename(t.params[1]))
		case TypeKind:
			if len(t.params) > 0 {
				return typeOf(rename(t.params[0]))
			}
		}
		return t
	}
	params := make([]*Type, len(o.params))
	for i, p := range o.params {
		params[i] = rename(p)
	}
	return params, rename(o.result)
}

func (c *checker) checkMacro(n *node) {
	c.check(n.x)
	rng := c.s.substitute(n.x.typ, false)
	var elem *Type
	switch rng.kind {
	case ListKind, MapKind:
		elem = rng.params[0]
	case DynKind, errorKind, paramKind:
		c.s.assignable(Dyn, rng)
		elem = Dyn
	default:
		c.fail(n.x, "expression of type '%s' cannot be range of a comprehension (must be list, map, or dynamic)", rng)
	}
	n.typ, n.elem = elem, elem // n.typ is the iteration variable's while the body is checked
	c.scopes = append(c.scopes, n)
	for _, a := range n.args {
		c.check(a)
	}
	c.scopes = c.scopes[:len(c.scopes)-1]
	cond := func(a *node) {
		if !c.s.assignable(a.typ, Bool) {
			c.fail(a, "expected type 'bool' but found '%s'", c.s.substitute(a.typ, true))
		}
	}
	switch n.macro {
	case mAll, mExists, mExistsOne:
		cond(n.args[0])
		n.typ = Bool
	case mMap:
		n.typ = ListOf(c.s.substitute(n.args[0].typ, false))
	case mMapFilter:
		cond(n.args[0])
		n.typ = ListOf(c.s.substitute(n.args[1].typ, false))
	case mFilter:
		cond(n.args[0])
		n.typ = ListOf(elem)
	}
}
