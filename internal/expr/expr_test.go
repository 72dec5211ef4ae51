package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func eval(t *testing.T, env *Env, src string, act map[string]any) (any, error) {
	t.Helper()
	p, err := env.Compile(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p.Eval(Vars(act))
}

// TestSemantics pins what the conditions users write rely on, apart from
// the comparison with cel-go.
func TestSemantics(t *testing.T) {
	env, act := testEnv(), testActivation()
	for _, tc := range []struct {
		src  string
		want any // an error's text when a string starting with "error: "
	}{
		{`args.n == 3`, true}, // a JSON number is a double, equal to the int
		{`args.n < 4 && args.n > 2u`, true},
		{`args.n + 1`, "error: no such overload"}, // arithmetic does not mix types
		{`int(args.n) + 1`, int64(4)},
		{`args.missing == "x" || true`, true},
		{`false && args.missing == "x"`, false},
		{`args.missing == "x" && true`, "error: no such key: missing"},
		{`cwd_is_not_declared_here == 1 || true`, nil}, // refused at compile time, below
		{`action.paths.exists(p, p.endsWith("package.json"))`, true},
		{`action.paths.all(p, p.startsWith("/home"))`, false},
		{`ls.exists_one(x, x == "a")`, true},
		{`ls.filter(x, x.contains("/")).map(x, x.size())`, []any{int64(6)}},
		{`{"b": 1, "a": 2}.map(k, k)`, []any{"b", "a"}}, // a literal map: in writing order
		{`args.m.map(k, k)`, []any{"k", "n"}},           // an activation's map: in key order
		{"args.`my-key`", "dash"},
		{`args.nested.a[0].b`, "deep"},
		{`has(args.m.k) && !has(args.m.z)`, true},
		{`9223372036854775807 + 1`, "error: integer overflow"},
		{`1 / (i - 3)`, "error: division by zero"},
		{`i % 0`, "error: modulus by zero"},
		{`0u - 1u`, "error: unsigned integer overflow"},
		{`s.matches("^h.l+o$")`, true},
		{`rank("nope")`, `error: rank: unknown level "nope"`},
		{`type(args.l) == list && type(args.f) == double`, true},
		{`r"\d" + '''x` + "\n" + `y''' + "\u00e9"`, `\dx` + "\ny\u00e9"},
		{`b"\xff\101" == bytes("\u00ffA")`, false},
	} {
		if strings.Contains(tc.src, "not_declared") {
			if _, err := env.Compile(tc.src); err == nil || !strings.Contains(err.Error(), "undeclared reference to 'cwd_is_not_declared_here'") {
				t.Errorf("%s: compile error %v", tc.src, err)
			}
			continue
		}
		got, err := eval(t, env, tc.src, act)
		if want, ok := tc.want.(string); ok && strings.HasPrefix(want, "error: ") {
			if err == nil || err.Error() != strings.TrimPrefix(want, "error: ") {
				t.Errorf("%s = %s, %v; want %s", tc.src, Format(got), err, want)
			}
			continue
		}
		if err != nil || !same(got, tc.want, false) {
			t.Errorf("%s = %s, %v; want %s", tc.src, Format(got), err, Format(tc.want))
		}
	}
}

// TestCompileErrors checks that errors name the position in the
// expression, line and column in characters.
func TestCompileErrors(t *testing.T) {
	env := testEnv()
	for src, want := range map[string]string{
		`s == nope`:           "1:6: undeclared reference to 'nope'",
		"s ==\n  action.nope": "2:3: undeclared reference to 'action.nope'",
		`"é" == nope`:         "1:8: undeclared reference to 'nope'",
		`s == 1`:              "1:3: no matching overload for '==' applied to (string, int)",
		`s.size(1)`:           "1:3: no matching overload for 'size' applied to string.(int)",
		`1 +`:                 "1:4: syntax error: unexpected end of input, expecting an expression",
		`s.matches("[")`:      "1:3: invalid regular expression: error parsing regexp: missing closing ]: `[`",
		`int("x") == 1`:       "1:1: type conversion error from 'string' to 'int'",
		`ls.all(x.y, true)`:   "1:8: argument must be a simple name",
		`has(s)`:              "1:5: invalid argument to has() macro",
		`if`:                  "1:1: reserved identifier: if",
		`s.?x`:                "1:3: unsupported syntax '.?'",
		`timestamp("2020-01-01T00:00:00Z") < timestamp("2021-01-01T00:00:00Z")`: "1:1: undeclared reference to 'timestamp'",
		"\"a\xffb\"":             "1:3: invalid UTF-8",
		`ls.all(x, x)`:           "1:11: expected type 'bool' but found 'string'",
		`[int].all(t, t == int)`: "1:14: reference to undefined type: t",
		`args.l[null]`:           "1:7: invalid index of type null_type",
		`s ? 1 : 2`:              "1:3: no matching overload for '?:' applied to (string, int, int)",
		`"\q"`:                   "1:1: invalid escape sequence in string literal",
		`9223372036854775808`:    "1:1: invalid int literal",
		`ls.map(__result__, 1)`:  "1:8: iteration variable overwrites accumulator variable",
		`Msg{a: 1}`:              "1:1: message construction is not supported",
	} {
		_, err := env.Compile(src)
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}

// TestDivergences pins the documented, deliberate differences from
// cel-go (see diffTable's comment).
func TestDivergences(t *testing.T) {
	env := testEnv()
	for _, src := range []string{`timestamp("2020-01-01T00:00:00Z")`, `duration("1s")`, `google.protobuf.Timestamp`,
		`args.t.getFullYear() == 2020`, "\"\xff\""} {
		if _, err := env.Compile(src); err == nil {
			t.Errorf("%q compiled", src)
		}
	}
	for src, want := range map[string]string{
		`{[1]: 2}.size() == 1`:    "unsupported map key type: list",
		`{b"a": 2}.size() == 1`:   "unsupported map key type: bytes",
		`{args.l: 2}.size() == 1`: "unsupported map key type: list",
	} {
		p, err := env.Compile(src)
		if err != nil {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: compile error %v, want %s", src, err, want)
			}
			continue
		}
		if _, err := p.Eval(Vars(testActivation())); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
	long := strings.Repeat("a", maxPatterns+1)
	act := testActivation()
	act["s"] = long
	if _, err := eval(t, env, `"a".matches(s)`, act); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("a %d-byte pattern: %v", len(long), err)
	}
}

// TestCostLimit checks that an evaluation stops at the limit, and that
// && and || do not absorb it as they absorb other errors.
func TestCostLimit(t *testing.T) {
	big := make([]string, 200)
	for i := range big {
		big[i] = "echo hi"
	}
	act := testActivation()
	act["ls"] = big
	env := testEnv()
	for _, src := range []string{
		`ls.all(a, ls.all(b, ls.all(c, a + b + c != "")))`,
		`ls.all(a, ls.all(b, ls.all(c, a + b + c != ""))) || true`,
		`true && ls.exists(a, ls.exists(b, ls.exists(c, a + b + c == "")))`,
		`ls.exists(a, ls.exists(b, ls.exists(c, a + b + c == ""))) || ls.size() > 0`,
		`[ls.map(a, ls.map(b, ls.map(c, c)))].exists(x, true) || true`,
	} {
		if v, err := eval(t, env, src, act); !errors.Is(err, errCost) {
			t.Errorf("%s = %v, %v; want the cost limit", src, v, err)
		}
	}
	// Work on big text is charged by its size.
	act["s"] = strings.Repeat("x", 4*diffCostLimit*10)
	for _, src := range []string{`s.contains("y")`, `s + s == ""`, `s.matches("y")`, `s < s`, `s == s + ""`} {
		if v, err := eval(t, env, src, act); !errors.Is(err, errCost) {
			t.Errorf("%s on %d bytes = %v, %v; want the cost limit", src, len(act["s"].(string)), v, err)
		}
	}
	// A small expression stays well within it.
	act["s"] = "hello"
	if v, err := eval(t, env, `ls.exists(c, c.contains("hi")) && s.matches("^h")`, act); v != true || err != nil {
		t.Errorf("= %v, %v", v, err)
	}
}

// TestLimits checks the nesting and size limits of the parser.
func TestLimits(t *testing.T) {
	env := testEnv()
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{strings.Repeat("(", 249) + "1" + strings.Repeat(")", 249) + " == 1", true},
		{strings.Repeat("(", 250) + "1" + strings.Repeat(")", 250) + " == 1", false},
		{strings.Repeat("[", 300) + strings.Repeat("]", 300) + " == []", false},
		{strings.Repeat("1 + ", 249) + "1 == 250", true},
		{strings.Repeat("1 + ", 251) + "1 == 250", false},
		{"args" + strings.Repeat(".a", 260) + " == 1", false},
		{strings.Repeat("!", 10000) + "true", true},
		{strings.Repeat("true && ", 5000) + "true", true},
		{`"` + strings.Repeat("a", maxCodeLen) + `" == ""`, false},
		{strings.Repeat("size(", 300) + "1" + strings.Repeat(")", 300), false},
	} {
		_, err := env.Compile(tc.src)
		if (err == nil) != tc.ok {
			t.Errorf("%.40s… (%d bytes): error %v, want ok %v", tc.src, len(tc.src), err, tc.ok)
		}
	}
}

type odd struct{ X int }

// TestActivationValues checks values of the Go kinds an activation may
// hold, and that others are errors rather than panics.
func TestActivationValues(t *testing.T) {
	env := testEnv()
	for _, tc := range []struct {
		args map[string]any
		src  string
		want any
	}{
		{map[string]any{"n": 3}, `args.n == 3`, true},
		{map[string]any{"n": int32(-3)}, `args.n < 0`, true},
		{map[string]any{"n": uint8(3)}, `args.n == 3u`, true},
		{map[string]any{"n": float32(1.5)}, `args.n == 1.5`, true},
		{map[string]any{"l": []string{"a"}}, `args.l[0] == "a"`, true},
		{map[string]any{"l": []any(nil)}, `size(args.l) == 0`, true},
		{map[string]any{"m": map[string]any(nil)}, `size(args.m) == 0`, true},
		{map[string]any{"o": odd{1}}, `args.o == 1`, "error"},
		{map[string]any{"o": map[string]int{"a": 1}}, `args.o.a == 1`, "error"},
		{map[string]any{"o": make(chan int)}, `args.o == 1 || true`, true},
		{map[string]any{"o": []int{1}}, `size(args.o) == 1`, "error"},
	} {
		act := testActivation()
		act["args"] = tc.args
		got, err := eval(t, env, tc.src, act)
		if tc.want == "error" {
			if err == nil {
				t.Errorf("%s on %v = %v, want an error", tc.src, tc.args, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s on %v = %v, %v", tc.src, tc.args, got, err)
		}
	}
	act := testActivation()
	delete(act, "s")
	if _, err := eval(t, env, `s == ""`, act); err == nil || err.Error() != "no such attribute: s" {
		t.Errorf("a missing variable: %v", err)
	}
	if v, err := eval(t, env, `i == 3 || s == ""`, act); v != true || err != nil {
		t.Errorf("a missing variable absorbed: %v, %v", v, err)
	}
}

func ExampleEnv_Compile() {
	env := NewEnv(Var("action.paths", ListOf(String)), Var("args", MapOf(String, Dyn)))
	p, err := env.Compile(`action.paths.exists(p, p.endsWith("/.bashrc")) || args.force == true`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Eval(Vars{"action.paths": []string{"/home/me/.bashrc"}, "args": map[string]any{}}))
	fmt.Println(p.Eval(Vars{"action.paths": []string{}, "args": map[string]any{"force": true}}))
	fmt.Println(p.Eval(Vars{"action.paths": []string{}, "args": map[string]any{}}))
	_, err = env.Compile(`args.force == true &&` + "\n" + `action.path.size() > 0`)
	fmt.Println(err)
	// Output:
	// true <nil>
	// true <nil>
	// <nil> no such key: force
	// 2:1: undeclared reference to 'action.path'
}
