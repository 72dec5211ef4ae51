package expr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Env declares what expressions may use: variables with their types,
// functions beyond the standard ones, and the cost limit of one
// evaluation. An Env is immutable and safe for concurrent use.
type Env struct {
	vars  map[string]*Type
	funcs map[string]*funcDecl
	limit int64
}

// Option configures an Env.
type Option func(*Env)

// Var declares a variable. Its name may hold dots (action.tool): the
// expression then spells it as a field selection.
func Var(name string, t *Type) Option {
	return func(e *Env) { e.vars[name] = t }
}

// Function declares a global function with one overload: impl receives
// arguments whose runtime types match params (dyn matches anything) and
// returns the result, or an error, which the expression sees as an error
// value.
func Function(name string, params []*Type, result *Type, impl func(args []any) (any, error)) Option {
	return func(e *Env) {
		e.funcs[name] = &funcDecl{name: name, overloads: []*overload{{params: params, result: result}}, impl: impl}
	}
}

// CostLimit bounds the work of one evaluation: each variable read,
// selection, operator and call costs at least 1, and operations on
// strings, lists and maps cost in proportion to their sizes. An
// evaluation over the limit stops with an error that no && or || absorbs.
// Without it the limit is DefaultCostLimit.
func CostLimit(n int64) Option {
	return func(e *Env) { e.limit = n }
}

// DefaultCostLimit is the cost limit of an Env without CostLimit.
const DefaultCostLimit = 1_000_000

// NewEnv returns an Env with the standard functions and macros and opts.
func NewEnv(opts ...Option) *Env {
	e := &Env{vars: map[string]*Type{}, funcs: map[string]*funcDecl{}, limit: DefaultCostLimit}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Error is a compile error, at a position in the expression.
type Error struct {
	Line, Col int // 1-based; Col counts characters
	Msg       string
	pos       int // byte offset
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func (e *Error) locate(src string) {
	pos := min(max(e.pos, 0), len(src))
	before := src[:pos]
	e.Line = strings.Count(before, "\n") + 1
	e.Col = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
}

// Program is a checked, compiled expression, safe for concurrent use.
type Program struct {
	typ    *Type
	root   evaluator
	vars   []string // the globals it reads, by slot
	locals int      // slots for iteration variables
	limit  int64
}

// Compile parses, checks and plans src. An error is an *Error: a syntax
// error, an unknown variable or function, a type error, or a constant
// operation that cannot succeed (int("x"), an invalid regular expression).
func (e *Env) Compile(src string) (*Program, error) {
	p, err := e.compile(src)
	if err != nil {
		if ce, ok := err.(*Error); ok {
			ce.locate(src)
		}
		return nil, err
	}
	return p, nil
}

func (e *Env) compile(src string) (*Program, error) {
	root, err := parse(src)
	if err != nil {
		return nil, err
	}
	c := &checker{env: e, s: subst{m: map[string]*Type{}}}
	if err := c.run(root); err != nil {
		return nil, err
	}
	pl := &planner{}
	ev, err := pl.plan(root)
	if err != nil {
		return nil, err
	}
	return &Program{typ: root.typ, root: ev, vars: pl.vars, locals: pl.nloc, limit: e.limit}, nil
}

// Type returns the type of the expression's result.
func (p *Program) Type() *Type { return p.typ }

// Activation gives an evaluation its variables.
type Activation interface {
	// Resolve returns the value of a declared variable, false when it
	// has none (an evaluation error). Values are Go's: nil, bool, the
	// integer and float types, string, []byte, []any, []string,
	// map[string]any (what encoding/json decodes).
	Resolve(name string) (any, bool)
}

// Vars is an Activation from a map.
type Vars map[string]any

// Resolve implements Activation.
func (v Vars) Resolve(name string) (any, bool) {
	x, ok := v[name]
	return x, ok
}

// Eval evaluates the program. The result is nil (null), bool, int64,
// uint64, float64, string, []byte, a list ([]any or []string), a map
// (map[string]any or another map value) or a type; the error is the
// expression's error value: a missing key, an overflow, a division by
// zero, a type mismatch of a dyn value, the cost limit. Eval never
// panics on any input of the declared kinds.
func (p *Program) Eval(act Activation) (any, error) {
	f := &frame{act: act, limit: p.limit}
	n := len(p.vars) + p.locals
	if n <= len(f.small) {
		f.slots = f.small[:n]
	} else {
		f.slots = make([]any, n)
	}
	for i := range p.vars {
		f.slots[i] = unset{}
	}
	return p.root.eval(f)
}
