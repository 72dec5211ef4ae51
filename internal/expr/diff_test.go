package expr

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// The differential tests compare this package with cel-go v0.33, the
// implementation it replaces, on one environment: variables of every
// kind and a function like the policy's rank.

func testArgs() map[string]any {
	return map[string]any{
		"n": float64(3), "f": 2.5, "neg": float64(-2), "big": 1e300, "x": "str", "empty": "",
		"l": []any{float64(1), "a", nil, true}, "m": map[string]any{"k": "v", "n": float64(1)},
		"nul": nil, "b": true, "nested": map[string]any{"a": []any{map[string]any{"b": "deep"}}},
		"my-key": "dash", "ls": []any{"x", "y"},
	}
}

func testActivation() map[string]any {
	return map[string]any{
		"s": "hello", "i": int64(3), "u": uint64(7), "d": 2.5, "b": true, "by": []byte("hi"),
		"ls": []string{"a", "b", "a/b.go"}, "li": []any{int64(1), int64(2), int64(3)},
		"args": testArgs(), "sm": map[string]any{"k": "v", "x": "y"},
		"action.tool": "Bash", "action.paths": []string{"/home/user/project/package.json", "/etc/passwd"},
		"empty": []string{},
	}
}

func rankImpl(s string) (int64, error) {
	switch s {
	case "low":
		return 1, nil
	case "high":
		return 3, nil
	}
	return 0, fmt.Errorf("unknown level %q", s)
}

func testEnv() *Env {
	return NewEnv(
		Var("s", String), Var("i", Int), Var("u", Uint), Var("d", Double), Var("b", Bool), Var("by", Bytes),
		Var("ls", ListOf(String)), Var("li", ListOf(Int)), Var("args", MapOf(String, Dyn)),
		Var("sm", MapOf(String, String)), Var("action.tool", String), Var("action.paths", ListOf(String)),
		Var("empty", ListOf(String)),
		Function("rank", []*Type{String}, Int, func(args []any) (any, error) { return rankImpl(args[0].(string)) }),
		CostLimit(diffCostLimit),
	)
}

const diffCostLimit = 200_000

func celEnv(t testing.TB) *cel.Env {
	env, err := cel.NewEnv(
		cel.Variable("s", cel.StringType), cel.Variable("i", cel.IntType), cel.Variable("u", cel.UintType),
		cel.Variable("d", cel.DoubleType), cel.Variable("b", cel.BoolType), cel.Variable("by", cel.BytesType),
		cel.Variable("ls", cel.ListType(cel.StringType)), cel.Variable("li", cel.ListType(cel.IntType)),
		cel.Variable("args", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("sm", cel.MapType(cel.StringType, cel.StringType)),
		cel.Variable("action.tool", cel.StringType), cel.Variable("action.paths", cel.ListType(cel.StringType)),
		cel.Variable("empty", cel.ListType(cel.StringType)),
		cel.Function("rank", cel.Overload("rank_string", []*cel.Type{cel.StringType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.NewErr("rank: not a string")
				}
				r, err := rankImpl(string(s))
				if err != nil {
					return types.NewErr("rank: %v", err)
				}
				return types.Int(r)
			}))),
	)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// outcome is what one implementation made of an expression.
type outcome struct {
	compileErr error
	typ        string
	val        any
	evalErr    error
	skip       string // a known, deliberate divergence: why the two are not compared
}

func (o outcome) String() string {
	switch {
	case o.compileErr != nil:
		return "compile error: " + o.compileErr.Error()
	case o.evalErr != nil:
		return fmt.Sprintf("[%s] eval error: %v", o.typ, o.evalErr)
	}
	return fmt.Sprintf("[%s] %s", o.typ, Format(o.val))
}

func runOurs(env *Env, src string, act map[string]any) (o outcome) {
	p, err := env.Compile(src)
	if err != nil {
		o.compileErr = err
		return o
	}
	o.typ = p.Type().String()
	o.val, o.evalErr = p.Eval(Vars(act))
	return o
}

func runCEL(env *cel.Env, src string, act map[string]any) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{skip: fmt.Sprintf("cel-go panics: %v", r)}
		}
	}()
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		o.compileErr = iss.Err()
		return o
	}
	o.typ = ast.OutputType().String()
	prg, err := env.Program(ast, cel.CostLimit(diffCostLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		o.compileErr = err
		return o
	}
	out, _, err := prg.Eval(act)
	if err != nil {
		o.evalErr = err
		return o
	}
	o.val = fromCEL(out)
	return o
}

// fromCEL converts a cel-go value to this package's representation.
func fromCEL(v ref.Val) any {
	switch x := v.(type) {
	case types.Null:
		return nil
	case types.Bool:
		return bool(x)
	case types.Int:
		return int64(x)
	case types.Uint:
		return uint64(x)
	case types.Double:
		return float64(x)
	case types.String:
		return string(x)
	case types.Bytes:
		return []byte(x)
	case *types.Type:
		return TypeValue(x.TypeName())
	case traits.Lister:
		var out []any
		for it := x.Iterator(); it.HasNext() == types.True; {
			out = append(out, fromCEL(it.Next()))
		}
		if out == nil {
			out = []any{}
		}
		return out
	case traits.Mapper:
		m := &mapValue{vals: map[any]any{}}
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			m.keys = append(m.keys, fromCEL(k))
			m.vals[fromCEL(k)] = fromCEL(x.Get(k))
		}
		return m
	}
	return fmt.Sprintf("unconverted %T", v)
}

// same reports whether two results are the same value of the same type:
// stricter than CEL's ==, with NaN the same as NaN and maps compared
// whatever their iteration order. Lists compare in order unless
// unordered (a macro ranged over a map, whose order cel-go leaves to
// Go's map iteration).
func same(a, b any, unordered bool) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb && math.Signbit(fa) == math.Signbit(fb) || math.IsNaN(fa) && math.IsNaN(fb))
	}
	if la, ok := listOf(a); ok {
		lb, ok := listOf(b)
		if !ok || len(la) != len(lb) {
			return false
		}
		ordered := true
		for i := range la {
			if !same(la[i], lb[i], unordered) {
				ordered = false
				break
			}
		}
		if ordered || !unordered {
			return ordered
		}
		used := make([]bool, len(lb))
	next:
		for _, x := range la {
			for j, y := range lb {
				if !used[j] && same(x, y, unordered) {
					used[j] = true
					continue next
				}
			}
			return false
		}
		return true
	}
	if ma, ok := entries(a); ok {
		mb, ok := entries(b)
		if !ok || len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !same(va, vb, unordered) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func listOf(v any) ([]any, bool) {
	n, ok := listLen(v)
	if !ok {
		return nil, false
	}
	out := make([]any, n)
	for i := range out {
		out[i], _ = listAt(v, i)
	}
	return out, true
}

func entries(v any) (map[string]any, bool) {
	if _, ok := mapLen(v); !ok {
		return nil, false
	}
	out := map[string]any{}
	for _, k := range mapKeys(v) {
		x, _, _ := mapFind(v, k)
		out[fmt.Sprintf("%T:%s", k, Format(k))] = x
	}
	return out, true
}

// unsupported are the names of cel-go's standard library that this
// package deliberately refuses: timestamps, durations and protobuf types.
var unsupported = []string{"timestamp", "duration", "google.protobuf", "getFullYear", "getMonth", "getDayOfYear",
	"getDayOfMonth", "getDate", "getDayOfWeek", "getHours", "getMinutes", "getSeconds", "getMilliseconds"}

var uintIndex = regexp.MustCompile(`\[[^\]]*(\d[uU]|\d\.\d)[^\]]*\]`)

// knownDivergence returns why the two outcomes need not agree, or "".
// Each reason is a documented, deliberate difference (see the package
// documentation and the table below).
func knownDivergence(src string, ours, theirs outcome) string {
	if theirs.skip != "" {
		return theirs.skip
	}
	if !utf8.ValidString(src) {
		return "invalid UTF-8 (refused here, replaced by cel-go)"
	}
	for _, o := range []outcome{ours, theirs} {
		for _, err := range []error{o.compileErr, o.evalErr} {
			if err == nil {
				continue
			}
			msg := err.Error()
			for _, limit := range []string{"recursion limit", "recursion depth", "nests deeper", "cost limit",
				"unsupported map key type", "regular expression longer", "expression code point size"} {
				if strings.Contains(msg, limit) {
					return "a limit: " + msg
				}
			}
		}
	}
	if ours.evalErr == nil && theirs.evalErr != nil && strings.Contains(theirs.evalErr.Error(), "no such overload") &&
		uintIndex.MatchString(src) {
		return "cel-go fails conversions of a JSON list element read with a uint or double index"
	}
	if ours.compileErr != nil && theirs.compileErr == nil {
		for _, name := range unsupported {
			if strings.Contains(ours.compileErr.Error(), "'"+name) {
				return "unsupported: " + name
			}
		}
	}
	return ""
}

// agree compares two outcomes: the same accept/reject class, and when
// both compile, the same type and the same value or both an error.
func agree(src string, ours, theirs outcome) error {
	if why := knownDivergence(src, ours, theirs); why != "" {
		return nil
	}
	if (ours.compileErr != nil) != (theirs.compileErr != nil) {
		return fmt.Errorf("compile: ours %v, cel-go %v", ours, theirs)
	}
	if ours.compileErr != nil {
		return nil
	}
	if ours.typ != theirs.typ {
		return fmt.Errorf("type: ours %v, cel-go %v", ours, theirs)
	}
	if (ours.evalErr != nil) != (theirs.evalErr != nil) {
		return fmt.Errorf("eval: ours %v, cel-go %v", ours, theirs)
	}
	unordered := strings.Contains(src, "map(") || strings.Contains(src, "filter(")
	if ours.evalErr == nil && !same(ours.val, theirs.val, unordered) {
		return fmt.Errorf("value: ours %v, cel-go %v", ours, theirs)
	}
	return nil
}

var _ = errors.New
var _ = sort.Strings
