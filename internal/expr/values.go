package expr

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Values at run time are Go values: nil (null), bool, int64, uint64,
// float64, string, []byte, lists ([]any, []string), maps (map[string]any,
// *mapValue) and types (TypeValue). Values read from an activation or
// from inside a list or map go through norm first.

// TypeValue is the value of a type, as type(x) returns it and int names
// it: its runtime name (int, list, map, null_type, type).
type TypeValue string

func typeValue(t *Type) TypeValue {
	switch t.kind {
	case NullKind:
		return "null_type"
	case TypeKind:
		return "type"
	case ListKind:
		return "list"
	case MapKind:
		return "map"
	}
	return TypeValue(t.String())
}

// typeName returns the runtime type of a normalized value.
func typeName(v any) TypeValue {
	switch v.(type) {
	case nil:
		return "null_type"
	case bool:
		return "bool"
	case int64:
		return "int"
	case uint64:
		return "uint"
	case float64:
		return "double"
	case string:
		return "string"
	case []byte:
		return "bytes"
	case []any, []string:
		return "list"
	case map[string]any, *mapValue:
		return "map"
	case TypeValue:
		return "type"
	}
	return "unknown"
}

// mapValue is a map built by the expression: its keys in the order they
// were first written, the last value written for each.
type mapValue struct {
	keys []any
	vals map[any]any
}

// evalError is an error value of an evaluation.
type evalError struct{ msg string }

func (e *evalError) Error() string { return e.msg }

func errorf(format string, args ...any) error { return &evalError{fmt.Sprintf(format, args...)} }

var (
	errNoOverload = &evalError{"no such overload"}
	errCost       = &evalError{"cost limit exceeded"}
	errIntRange   = &evalError{"integer overflow"}
	errUintRange  = &evalError{"unsigned integer overflow"}
)

// unset marks a variable slot not read yet.
type unset struct{}

// norm converts a value from an activation or a container to the
// representation above.
func norm(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int64, uint64, float64, string, []byte, []any, []string, map[string]any, *mapValue, TypeValue:
		return v, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case uint:
		return uint64(x), nil
	case uint32:
		return uint64(x), nil
	case uint16:
		return uint64(x), nil
	case uint8:
		return uint64(x), nil
	case float32:
		return float64(x), nil
	}
	return nil, errorf("unsupported value of Go type %T", v)
}

func listLen(v any) (int, bool) {
	switch l := v.(type) {
	case []any:
		return len(l), true
	case []string:
		return len(l), true
	}
	return 0, false
}

// listAt returns element i of a list, normalized.
func listAt(v any, i int) (any, error) {
	switch l := v.(type) {
	case []any:
		return norm(l[i])
	case []string:
		return l[i], nil
	}
	return nil, errNoOverload
}

func mapLen(v any) (int, bool) {
	switch m := v.(type) {
	case map[string]any:
		return len(m), true
	case *mapValue:
		return len(m.keys), true
	}
	return 0, false
}

// mapFind looks key up in a map: exactly, and in a map the expression
// built, also as an equal number of another numeric type (1 finds 1u).
func mapFind(m, key any) (any, bool, error) {
	switch m := m.(type) {
	case map[string]any:
		s, ok := key.(string)
		if !ok {
			return nil, false, nil
		}
		v, ok := m[s]
		if !ok {
			return nil, false, nil
		}
		v, err := norm(v)
		return v, true, err
	case *mapValue:
		if !hashable(key) {
			return nil, false, nil
		}
		if v, ok := m.vals[key]; ok {
			return v, true, nil
		}
		for _, k := range numericKeys(key) {
			if v, ok := m.vals[k]; ok {
				return v, true, nil
			}
		}
		return nil, false, nil
	}
	return nil, false, errNoOverload
}

// numericKeys returns the other numeric values equal to key that a map
// key may have been written as.
func numericKeys(key any) []any {
	switch k := key.(type) {
	case float64:
		var out []any
		if i, ok := floatToInt(k); ok {
			out = append(out, i)
		}
		if u, ok := floatToUint(k); ok {
			out = append(out, u)
		}
		return out
	case int64:
		if k >= 0 {
			return []any{uint64(k)}
		}
	case uint64:
		if k <= math.MaxInt64 {
			return []any{int64(k)}
		}
	}
	return nil
}

func hashable(v any) bool {
	switch v.(type) {
	case nil, bool, int64, uint64, float64, string, TypeValue:
		return true
	}
	return false
}

// floatToInt converts f to an int64 if it is one exactly.
func floatToInt(f float64) (int64, bool) {
	i, err := doubleToInt(f)
	return i, err == nil && float64(i) == f
}

func floatToUint(f float64) (uint64, bool) {
	u, err := doubleToUint(f)
	return u, err == nil && float64(u) == f
}

func doubleToInt(f float64) (int64, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) || f <= math.MinInt64 || f >= math.MaxInt64 {
		return 0, errIntRange
	}
	return int64(f), nil
}

func doubleToUint(f float64) (uint64, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) || f < 0 || f >= 18446744073709551616.0 {
		return 0, errUintRange
	}
	return uint64(f), nil
}

// mapKeys returns a map's keys in iteration order: sorted for a map from
// the activation (so that an expression means the same every time), as
// written for one the expression built.
func mapKeys(m any) []any {
	switch m := m.(type) {
	case map[string]any:
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out
	case *mapValue:
		return m.keys
	}
	return nil
}

// isSized reports whether v is a string or bytes.
func isSized(v any) bool {
	switch v.(type) {
	case string, []byte:
		return true
	}
	return false
}

// size returns a value's size for the cost: bytes of a string, elements
// of a list or map, 1 otherwise.
func size(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []byte:
		return int64(len(x))
	}
	if n, ok := listLen(v); ok {
		return int64(n)
	}
	if n, ok := mapLen(v); ok {
		return int64(n)
	}
	return 1
}

// equal is CEL's equality: numbers compare across int, uint and double,
// lists and maps element by element, values of different types are not
// equal. It charges each element it compares to f.
func (f *frame) equal(a, b any) (bool, error) {
	if err := f.spend(1); err != nil {
		return false, err
	}
	if a == nil || b == nil {
		return a == nil && b == nil, nil
	}
	switch x := a.(type) {
	case int64, uint64, float64:
		c, ok := numCompare(a, b)
		return ok && c == 0, nil
	case string:
		y, ok := b.(string)
		if ok && len(x) == len(y) {
			if err := f.spend(int64(len(x)) / 16); err != nil {
				return false, err
			}
		}
		return ok && x == y, nil
	case []byte:
		y, ok := b.([]byte)
		if ok && len(x) == len(y) {
			if err := f.spend(int64(len(x)) / 16); err != nil {
				return false, err
			}
		}
		return ok && bytes.Equal(x, y), nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y, nil
	case TypeValue:
		y, ok := b.(TypeValue)
		return ok && x == y, nil
	}
	if n, ok := listLen(a); ok {
		m, ok := listLen(b)
		if !ok || n != m {
			return false, nil
		}
		for i := range n {
			x, err := listAt(a, i)
			if err != nil {
				return false, err
			}
			y, err := listAt(b, i)
			if err != nil {
				return false, err
			}
			eq, err := f.equal(x, y)
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	}
	if n, ok := mapLen(a); ok {
		m, ok := mapLen(b)
		if !ok || n != m {
			return false, nil
		}
		if err := f.spend(int64(n)); err != nil {
			return false, err
		}
		for _, k := range mapKeys(a) {
			x, _, err := mapFind(a, k)
			if err != nil {
				return false, err
			}
			y, found, err := mapFind(b, k)
			if err != nil {
				return false, err
			}
			if !found {
				return false, nil
			}
			eq, err := f.equal(x, y)
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	}
	return false, nil
}

// numCompare compares two numbers of any numeric types; ok is false when
// one is not a number or is NaN.
func numCompare(a, b any) (int, bool) {
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return cmp3(x < y, x > y), true
		case uint64:
			if x < 0 || y > math.MaxInt64 {
				return -1, true
			}
			return cmp3(x < int64(y), x > int64(y)), true
		case float64:
			c, ok := doubleIntCompare(y, x)
			return -c, ok
		}
	case uint64:
		switch y := b.(type) {
		case uint64:
			return cmp3(x < y, x > y), true
		case int64:
			c, ok := numCompare(y, x)
			return -c, ok
		case float64:
			c, ok := doubleUintCompare(y, x)
			return -c, ok
		}
	case float64:
		switch y := b.(type) {
		case float64:
			if math.IsNaN(x) || math.IsNaN(y) {
				return 0, false
			}
			return cmp3(x < y, x > y), true
		case int64:
			return doubleIntCompare(x, y)
		case uint64:
			return doubleUintCompare(x, y)
		}
	}
	return 0, false
}

func cmp3(lt, gt bool) int {
	if lt {
		return -1
	}
	if gt {
		return 1
	}
	return 0
}

func doubleIntCompare(d float64, i int64) (int, bool) {
	if math.IsNaN(d) {
		return 0, false
	}
	if d < math.MinInt64 {
		return -1, true
	}
	if d > math.MaxInt64 {
		return 1, true
	}
	f := float64(i)
	return cmp3(d < f, d > f), true
}

func doubleUintCompare(d float64, u uint64) (int, bool) {
	if math.IsNaN(d) {
		return 0, false
	}
	if d < 0 {
		return -1, true
	}
	if d > math.MaxUint64 {
		return 1, true
	}
	f := float64(u)
	return cmp3(d < f, d > f), true
}

func isNaN(v any) bool {
	f, ok := v.(float64)
	return ok && math.IsNaN(f)
}

// compare orders two values of the same kind: numbers (across numeric
// types), strings, bytes and bools.
func compare(a, b any) (int, error) {
	switch x := a.(type) {
	case int64, uint64, float64:
		if c, ok := numCompare(a, b); ok {
			return c, nil
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), nil
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			return cmp3(!x && y, x && !y), nil
		}
	}
	return 0, errNoOverload
}

func arith(op byte, a, b any) (any, error) {
	switch x := a.(type) {
	case int64:
		y, ok := b.(int64)
		if !ok {
			return nil, errNoOverload
		}
		return intArith(op, x, y)
	case uint64:
		y, ok := b.(uint64)
		if !ok {
			return nil, errNoOverload
		}
		return uintArith(op, x, y)
	case float64:
		y, ok := b.(float64)
		if !ok {
			return nil, errNoOverload
		}
		switch op {
		case '+':
			return x + y, nil
		case '-':
			return x - y, nil
		case '*':
			return x * y, nil
		case '/':
			return x / y, nil
		}
	}
	return nil, errNoOverload
}

func intArith(op byte, x, y int64) (any, error) {
	switch op {
	case '+':
		if y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y {
			return nil, errIntRange
		}
		return x + y, nil
	case '-':
		if y < 0 && x > math.MaxInt64+y || y > 0 && x < math.MinInt64+y {
			return nil, errIntRange
		}
		return x - y, nil
	case '*':
		if x == -1 && y == math.MinInt64 || y == -1 && x == math.MinInt64 ||
			x > 0 && y > 0 && x > math.MaxInt64/y || x > 0 && y < 0 && y < math.MinInt64/x ||
			x < 0 && y > 0 && x < math.MinInt64/y || x < 0 && y < 0 && y < math.MaxInt64/x {
			return nil, errIntRange
		}
		return x * y, nil
	case '/', '%':
		if y == 0 {
			if op == '/' {
				return nil, errorf("division by zero")
			}
			return nil, errorf("modulus by zero")
		}
		if x == math.MinInt64 && y == -1 {
			return nil, errIntRange
		}
		if op == '/' {
			return x / y, nil
		}
		return x % y, nil
	}
	return nil, errNoOverload
}

func uintArith(op byte, x, y uint64) (any, error) {
	switch op {
	case '+':
		if x > math.MaxUint64-y {
			return nil, errUintRange
		}
		return x + y, nil
	case '-':
		if y > x {
			return nil, errUintRange
		}
		return x - y, nil
	case '*':
		if y != 0 && x > math.MaxUint64/y {
			return nil, errUintRange
		}
		return x * y, nil
	case '/', '%':
		if y == 0 {
			if op == '/' {
				return nil, errorf("division by zero")
			}
			return nil, errorf("modulus by zero")
		}
		if op == '/' {
			return x / y, nil
		}
		return x % y, nil
	}
	return nil, errNoOverload
}

// convert is the conversion function fn (int, uint, double, string,
// bool, bytes, dyn, type) applied to v.
func convert(fn string, v any) (any, error) {
	switch fn {
	case "dyn":
		return v, nil
	case "type":
		return typeName(v), nil
	case "int":
		switch x := v.(type) {
		case int64:
			return x, nil
		case uint64:
			if x > math.MaxInt64 {
				return nil, errIntRange
			}
			return int64(x), nil
		case float64:
			return doubleToInt(x)
		case string:
			if i, err := strconv.ParseInt(x, 10, 64); err == nil {
				return i, nil
			}
			return nil, errorf("type conversion error from 'string' to 'int'")
		}
	case "uint":
		switch x := v.(type) {
		case uint64:
			return x, nil
		case int64:
			if x < 0 {
				return nil, errUintRange
			}
			return uint64(x), nil
		case float64:
			return doubleToUint(x)
		case string:
			if u, err := strconv.ParseUint(x, 10, 64); err == nil {
				return u, nil
			}
			return nil, errorf("type conversion error from 'string' to 'uint'")
		}
	case "double":
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		case uint64:
			return float64(x), nil
		case string:
			if d, err := strconv.ParseFloat(x, 64); err == nil {
				return d, nil
			}
			return nil, errorf("type conversion error from 'string' to 'double'")
		}
	case "string":
		switch x := v.(type) {
		case string:
			return x, nil
		case bool:
			return strconv.FormatBool(x), nil
		case int64:
			return strconv.FormatInt(x, 10), nil
		case uint64:
			return strconv.FormatUint(x, 10), nil
		case float64:
			return fmt.Sprintf("%g", x), nil
		case []byte:
			if !utf8.Valid(x) {
				return nil, errorf("invalid UTF-8 in bytes, cannot convert to string")
			}
			return string(x), nil
		}
	case "bool":
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return b, nil
			}
			return nil, errorf("type conversion error from 'string' to 'bool'")
		}
	case "bytes":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	}
	return nil, errorf("no such overload: %s(%s)", fn, typeName(v))
}

// Format renders a value in CEL's notation, for messages and tests.
func Format(v any) string {
	var b strings.Builder
	format(&b, v)
	return b.String()
}

func format(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10) + "u")
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		b.WriteString(strconv.Quote(x))
	case []byte:
		b.WriteString("b" + strconv.Quote(string(x)))
	case TypeValue:
		b.WriteString(string(x))
	default:
		if n, ok := listLen(v); ok {
			b.WriteString("[")
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				e, _ := listAt(v, i)
				format(b, e)
			}
			b.WriteString("]")
			return
		}
		if _, ok := mapLen(v); ok {
			b.WriteString("{")
			for i, k := range mapKeys(v) {
				if i > 0 {
					b.WriteString(", ")
				}
				format(b, k)
				b.WriteString(": ")
				e, _, _ := mapFind(v, k)
				format(b, e)
			}
			b.WriteString("}")
			return
		}
		fmt.Fprintf(b, "%v", v)
	}
}
