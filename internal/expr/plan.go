package expr

import (
	"fmt"
	"strings"
)

// planner turns a checked syntax tree into evaluators. As cel-go does,
// it evaluates what is constant once: list and map literals of
// constants, conversions of constants (so that int("x") is a compile
// error), and regular expressions given as literals.
type planner struct {
	vars       []string       // the variables read, by slot
	slots      map[string]int // their slots
	locals     map[*node]int  // the slot of each macro's iteration variable, among them
	nloc       int
	localEvals []*localE
	macroEvals []*macroE
}

type planError struct{ err *Error }

func (pl *planner) plan(root *node) (ev evaluator, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(planError)
			if !ok {
				panic(r)
			}
			ev, err = nil, pe.err
		}
	}()
	ev = pl.node(root)
	// Iteration variables come after the variables in the frame.
	for _, l := range pl.localEvals {
		l.slot += len(pl.vars)
	}
	for _, m := range pl.macroEvals {
		m.slot += len(pl.vars)
	}
	return ev, nil
}

func (pl *planner) fail(n *node, format string, args ...any) {
	panic(planError{&Error{pos: n.pos, Msg: fmt.Sprintf(format, args...)}})
}

// fold evaluates an evaluator of constants now; an error is the
// expression's compile error.
func (pl *planner) fold(n *node, ev evaluator) evaluator {
	v, err := ev.eval(&frame{limit: DefaultCostLimit})
	if err != nil {
		pl.fail(n, "%v", err)
	}
	return &constE{v}
}

func isConst(ev evaluator) bool {
	_, ok := ev.(*constE)
	return ok
}

func allConst(evs []evaluator) bool {
	for _, e := range evs {
		if !isConst(e) {
			return false
		}
	}
	return true
}

func (pl *planner) node(n *node) evaluator {
	switch n.kind {
	case nLit:
		return &constE{n.val}
	case nIdent:
		if n.typ.kind == TypeKind {
			// As in cel-go, a name whose type is a type names one.
			t, ok := typeIdent(n.name)
			if !ok {
				pl.fail(n, "reference to undefined type: %s", n.name)
			}
			return &constE{typeValue(t)}
		}
		if n.local != nil {
			l := &localE{slot: pl.localSlot(n.local)}
			pl.localEvals = append(pl.localEvals, l)
			return l
		}
		slot, ok := pl.slots[n.name]
		if !ok {
			if pl.slots == nil {
				pl.slots = map[string]int{}
			}
			slot = len(pl.vars)
			pl.slots[n.name] = slot
			pl.vars = append(pl.vars, n.name)
		}
		return &varE{slot: slot, name: n.name}
	case nSelect:
		return &selectE{x: pl.node(n.x), field: n.name, test: n.test}
	case nList:
		elems := pl.nodes(n.args)
		ev := evaluator(&listE{elems})
		if allConst(elems) {
			return pl.fold(n, ev)
		}
		return ev
	case nMap:
		var keys, vals []evaluator
		for i := 0; i < len(n.args); i += 2 {
			keys = append(keys, pl.node(n.args[i]))
			vals = append(vals, pl.node(n.args[i+1]))
		}
		ev := evaluator(&mapE{keys, vals})
		if allConst(keys) && allConst(vals) {
			return pl.fold(n, ev)
		}
		return ev
	case nMacro:
		m := &macroE{kind: n.macro, rng: pl.node(n.x), slot: pl.localSlot(n)}
		pl.macroEvals = append(pl.macroEvals, m)
		switch n.macro {
		case mMap:
			m.fun = pl.node(n.args[0])
		case mMapFilter:
			m.pred, m.fun = pl.node(n.args[0]), pl.node(n.args[1])
		default:
			m.pred = pl.node(n.args[0])
		}
		if n.macro == mFilter && n.elem.kind == TypeKind {
			// cel-go's filter reads its iteration variable as a name
			// whose type is a type: a type name, or an error.
			t, ok := typeIdent(n.name)
			if !ok {
				pl.fail(n, "reference to undefined type: %s", n.name)
			}
			m.keep = typeValue(t)
		}
		return m
	case nCall:
		return pl.call(n)
	}
	pl.fail(n, "unexpected expression")
	return nil
}

func (pl *planner) localSlot(m *node) int {
	if pl.locals == nil {
		pl.locals = map[*node]int{}
	}
	s, ok := pl.locals[m]
	if !ok {
		s = pl.nloc
		pl.nloc++
		pl.locals[m] = s
	}
	return s
}

func (pl *planner) nodes(ns []*node) []evaluator {
	out := make([]evaluator, len(ns))
	for i, n := range ns {
		out[i] = pl.node(n)
	}
	return out
}

func (pl *planner) call(n *node) evaluator {
	var args []evaluator
	if n.recv {
		args = append(args, pl.node(n.x))
	}
	args = append(args, pl.nodes(n.args)...)
	if n.fn != nil && n.fn.impl != nil {
		return &callE{fn: n.fn, args: args}
	}
	switch n.name {
	case "_&&_", "_||_":
		return &logicE{l: args[0], r: args[1], or: n.name == "_||_"}
	case "!_":
		return &notE{args[0]}
	case "-_":
		return &negE{args[0]}
	case "_?_:_":
		return &condE{args[0], args[1], args[2]}
	case "_==_", "_!=_":
		return &eqE{l: args[0], r: args[1], ne: n.name == "_!=_"}
	case "_<_", "_<=_", "_>_", "_>=_":
		return &relE{l: args[0], r: args[1], op: n.name}
	case "_+_", "_-_", "_*_", "_/_", "_%_":
		return &arithE{l: args[0], r: args[1], op: n.name[1]}
	case "@in":
		if c, ok := args[1].(*constE); ok {
			if n, ok := listLen(c.v); ok && n == 0 {
				// As in cel-go: x in [] is false, whatever x is.
				return &constE{false}
			}
		}
		return &inE{args[0], args[1]}
	case "_[_]":
		if c, ok := args[1].(*constE); ok {
			switch c.v.(type) {
			case string, int64, uint64, bool, float64:
			default:
				// As in cel-go, whose qualifiers are of these types only.
				pl.fail(n, "invalid index of type %s", typeName(c.v))
			}
		}
		return &indexE{args[0], args[1]}
	case "size":
		return &sizeE{args[0]}
	case "contains":
		return &strE{x: args[0], arg: args[1], fn: strings.Contains}
	case "startsWith":
		return &strE{x: args[0], arg: args[1], fn: strings.HasPrefix}
	case "endsWith":
		return &strE{x: args[0], arg: args[1], fn: strings.HasSuffix}
	case "matches":
		m := &matchesE{x: args[0], pat: args[1]}
		if c, ok := args[1].(*constE); ok {
			if p, ok := c.v.(string); ok {
				re, insts, err := compileRegexp(p)
				if err != nil {
					pl.fail(n, "invalid regular expression: %v", err)
				}
				m.re, m.insts = re, insts
			}
		}
		return m
	case "int", "uint", "double", "string", "bool", "bytes", "dyn", "type":
		ev := &convE{fn: n.name, x: args[0]}
		if isConst(args[0]) {
			return pl.fold(n, ev)
		}
		return ev
	}
	pl.fail(n, "no implementation of %s", n.name)
	return nil
}
