package expr

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// FuzzExpr mutates expressions (seeded with the differential table) and
// checks that nothing panics and that, unless a documented divergence
// applies, this package and cel-go agree: both refuse the expression, or
// both accept it with the same type and evaluate it to the same value or
// both to an error.
func FuzzExpr(f *testing.F) {
	for _, src := range diffTable {
		f.Add(src)
	}
	env, cenv := testEnv(), celEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return // keeps cel-go's parser (and the run) fast
		}
		ours := runOurs(env, src, testActivation())
		theirs := runCEL(cenv, src, testActivation())
		if err := agree(src, ours, theirs); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	})
}

// FuzzGenerated builds an expression from the fuzzer's bytes with gen, so
// that most inputs are well formed and reach the checker and evaluator,
// and compares as FuzzExpr does.
func FuzzGenerated(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte("some bytes to start from"))
	f.Add([]byte{7, 1, 200, 3, 99, 42, 13, 250, 17, 0, 5})
	env, cenv := testEnv(), celEnv(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		src := gen(&byteSource{data: data}, 4)
		ours := runOurs(env, src, testActivation())
		theirs := runCEL(cenv, src, testActivation())
		if err := agree(src, ours, theirs); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	})
}

// TestGenerated compares a few thousand generated expressions, the same
// ones on every run.
func TestGenerated(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	env, cenv := testEnv(), celEnv(t)
	r := rand.New(rand.NewPCG(1, 2))
	compiled := 0
	for range n {
		src := gen(r, 4)
		ours := runOurs(env, src, testActivation())
		theirs := runCEL(cenv, src, testActivation())
		if ours.compileErr == nil {
			compiled++
		}
		if err := agree(src, ours, theirs); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	// The generator is useful only if most of what it makes compiles.
	if compiled < n/4 {
		t.Errorf("only %d of %d generated expressions compile", compiled, n)
	}
}

// source is where gen draws its choices.
type source interface{ IntN(n int) int }

type byteSource struct {
	data []byte
	i    int
}

func (b *byteSource) IntN(n int) int {
	if b.i >= len(b.data) {
		return 0
	}
	v := int(b.data[b.i])
	b.i++
	return v % n
}

func pick[T any](r source, xs ...T) T { return xs[r.IntN(len(xs))] }

var (
	genAtoms = []string{
		`s`, `i`, `u`, `d`, `b`, `by`, `ls`, `li`, `args`, `sm`, `action.tool`, `action.paths`, `empty`,
		`args.n`, `args.f`, `args.x`, `args.l`, `args.m`, `args.nul`, `args.b`, `args.missing`, `args.neg`,
		`args.big`, `args.ls`, `args.m.k`, `args["x"]`, `sm.k`, `args.nested.a`, "args.`my-key`",
		`0`, `1`, `-1`, `2`, `3`, `9223372036854775807`, `-9223372036854775808`, `0u`, `1u`, `7u`,
		`18446744073709551615u`, `0.0`, `1.0`, `-0.5`, `2.5`, `1e300`, `"a"`, `""`, `"hello"`, `'b'`,
		`"a/b.go"`, `r"\d+"`, `b"hi"`, `b"\xff"`, `true`, `false`, `null`, `[]`, `{}`, `int`, `string`,
		`double`, `uint`, `bool`, `bytes`, `list`, `map`, `null_type`, `type`, `double("NaN")`,
	}
	genBinary = []string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "in", "&&", "||"}
	genConv   = []string{"int", "uint", "double", "string", "bool", "bytes", "dyn", "type", "size", "rank"}
	genMethod = []string{"startsWith", "endsWith", "contains", "matches", "size"}
	genMacro  = []string{"all", "exists", "exists_one", "filter", "map"}
)

// gen returns a random expression over testEnv's variables, mostly well
// typed, nesting at most depth levels.
func gen(r source, depth int) string { return genIn(r, depth, nil) }

// genIn is gen with the iteration variables in scope.
func genIn(r source, depth int, vars []string) string {
	atom := func() string {
		if len(vars) > 0 && r.IntN(3) == 0 {
			return pick(r, vars...)
		}
		return pick(r, genAtoms...)
	}
	if depth <= 0 {
		return atom()
	}
	d := depth - 1
	sub := func(depth int) string { return genIn(r, depth, vars) }
	switch r.IntN(14) {
	case 0, 1, 2:
		return atom()
	case 3, 4:
		return sub(d) + " " + pick(r, genBinary...) + " " + sub(d)
	case 5:
		return pick(r, "!", "-", "!!", "--") + sub(min(d, 1))
	case 6:
		return "(" + sub(d) + " ? " + sub(d) + " : " + sub(d) + ")"
	case 7:
		return pick(r, genConv...) + "(" + sub(d) + ")"
	case 8:
		arg := ""
		if r.IntN(4) != 0 {
			arg = sub(d)
		}
		return sub(min(d, 1)) + "." + pick(r, genMethod...) + "(" + arg + ")"
	case 9:
		v := pick(r, "x", "y", "s", "i")
		rng := sub(min(d, 1))
		inner := append(append([]string{}, vars...), v)
		body := genIn(r, d, inner)
		m := pick(r, genMacro...)
		if m == "map" && r.IntN(2) == 0 {
			return rng + ".map(" + v + ", " + body + ", " + genIn(r, d, inner) + ")"
		}
		return rng + "." + m + "(" + v + ", " + body + ")"
	case 10:
		parts := make([]string, r.IntN(4))
		for k := range parts {
			parts[k] = sub(d)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 11:
		parts := make([]string, r.IntN(3))
		for k := range parts {
			parts[k] = pick(r, `"a"`, `"k"`, `1`, `2u`, `true`, atom()) + ": " + sub(d)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case 12:
		return sub(min(d, 1)) + "[" + pick(r, "0", "1", "-1", "1u", "1.0", `"k"`, `"x"`, strconv.Itoa(r.IntN(5)), sub(d)) + "]"
	default:
		sel := sub(min(d, 1)) + "." + pick(r, "k", "x", "n", "l", "missing", "a")
		if r.IntN(2) == 0 {
			return "has(" + sel + ")"
		}
		return sel
	}
}
