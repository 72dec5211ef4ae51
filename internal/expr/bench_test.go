package expr

import (
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
)

// The benchmarks compile and evaluate typical conditions with this
// package and with cel-go side by side: the default rule pack's
// persistence condition, and a policy condition with rank.
var benchConds = []struct{ name, src string }{
	{"paths", `action.paths.exists(p, p.endsWith("package.json") || p.contains("/.vscode/") || p.contains("/.git/hooks/") || p.contains("/.husky/") || p.contains("/.devcontainer/") || p.endsWith("/setup.py") || p.endsWith("/Makefile") || p.contains("/.github/workflows/") || p.endsWith(".pth"))`},
	{"policy", `action.tool == "Bash" && i >= rank("low") && ls.exists(c, c.contains("b.go")) && args.n == 3`},
}

func BenchmarkCompile(b *testing.B) {
	for _, c := range benchConds {
		b.Run(c.name+"/expr", func(b *testing.B) {
			env := testEnv()
			for b.Loop() {
				if _, err := env.Compile(c.src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/cel-go", func(b *testing.B) {
			env := celEnv(b)
			for b.Loop() {
				ast, iss := env.Compile(c.src)
				if iss.Err() != nil {
					b.Fatal(iss.Err())
				}
				if _, err := env.Program(ast, cel.CostLimit(diffCostLimit), cel.EvalOptions(cel.OptOptimize)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEval(b *testing.B) {
	for _, c := range benchConds {
		b.Run(c.name+"/expr", func(b *testing.B) {
			p, err := testEnv().Compile(c.src)
			if err != nil {
				b.Fatal(err)
			}
			act := Vars(testActivation())
			for b.Loop() {
				if v, err := p.Eval(act); err != nil || v != true {
					b.Fatal(v, err)
				}
			}
		})
		b.Run(c.name+"/cel-go", func(b *testing.B) {
			env := celEnv(b)
			ast, iss := env.Compile(c.src)
			if iss.Err() != nil {
				b.Fatal(iss.Err())
			}
			prg, err := env.Program(ast, cel.CostLimit(diffCostLimit), cel.EvalOptions(cel.OptOptimize))
			if err != nil {
				b.Fatal(err)
			}
			act := testActivation()
			for b.Loop() {
				if v, _, err := prg.Eval(act); err != nil || v != types.True {
					b.Fatal(v, err)
				}
			}
		})
	}
}
