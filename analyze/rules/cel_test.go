package rules

import (
	"errors"
	"reflect"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"github.com/agentwarden/warden/internal/expr"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// TestConditionsMatchCEL checks that rule conditions compile, and
// evaluate on calls, as they did with cel-go and the schema rules had
// then: the same refusals, the same results, errors where cel-go had
// errors.
func TestConditionsMatchCEL(t *testing.T) {
	list := cel.ListType(cel.StringType)
	env, err := cel.NewEnv(
		cel.Variable("tool", cel.StringType), cel.Variable("server", cel.StringType), cel.Variable("class", cel.StringType),
		cel.Variable("args", cel.MapType(cel.StringType, cel.DynType)), cel.Variable("commands", list),
		cel.Variable("code", list), cel.Variable("sql", list), cel.Variable("urls", list), cel.Variable("paths", list),
		cel.Variable("content", list), cel.Variable("cwd", cel.StringType), cel.Variable("home", cel.StringType),
		cel.Variable("agent", cel.StringType), cel.Variable("session_id", cel.StringType),
	)
	if err != nil {
		t.Fatal(err)
	}
	calls := []map[string]any{
		Activation(call("Write", map[string]any{"file_path": SampleCwd + "/package.json", "content": `{"scripts":{}}`})),
		Activation(call("Edit", map[string]any{"file_path": SampleCwd + "/.vscode/tasks.json", "old_string": "a", "new_string": "b"})),
		Activation(call("Bash", map[string]any{"command": "git config --global core.hooksPath /tmp/h", "timeout": float64(30)})),
		Activation(call("query", map[string]any{"sql": "select * from prod_users", "limit": float64(10)})),
		Activation(code("open('/data/warehouse/x')")),
		Activation(call("WebFetch", map[string]any{"url": "https://example.com/a", "prompt": "p"})),
		Activation(call("mcp__github__create_issue", map[string]any{"title": "x", "labels": []any{"bug"}, "n": nil})),
	}
	var pack []string
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.Condition != "" {
			pack = append(pack, r.Condition)
		}
	}
	if len(pack) == 0 {
		t.Fatal("the default pack has no condition")
	}
	for _, src := range append(pack,
		`cwd.startsWith("/srv")`, `class == "database" && sql.exists(s, s.contains("prod"))`,
		`tool == "Bash" && args.timeout > 10`, `args.limit == 10 && args.limit < 11u`, `has(args.n) && args.n == null`,
		`paths.all(p, p.startsWith(cwd)) && home != ""`, `urls.exists(u, u.matches("^https://example\\.com/"))`,
		`content.exists(c, c.contains("scripts"))`, `code.size() > 0 || commands.size() > 0`, `agent == "" && session_id == ""`,
		`args.labels[0] == "bug"`, `args.missing == 1`, `args.missing == 1 || tool != ""`, `server == "github"`,
		`args.title.size() == 1`, `commands.map(c, c.split(" "))[0] == []`, `class + 1`, `tool.size()`, `nosuchvar == 1`, `class ==`,
		`args.x`, `paths`, `size(args) >= 1`,
	) {
		ours, err := compileCondition(src)
		ast, iss := env.Compile(src)
		celErr := iss.Err()
		var prg cel.Program
		if celErr == nil && ast.OutputType() != cel.BoolType {
			celErr = errors.New("not a bool")
		}
		if celErr == nil {
			prg, celErr = env.Program(ast, cel.CostLimit(celCostLimit), cel.EvalOptions(cel.OptOptimize))
		}
		if (err == nil) != (celErr == nil) {
			t.Errorf("%s: compile error %v, cel-go %v", src, err, celErr)
			continue
		}
		if err != nil {
			continue
		}
		for i, act := range calls {
			got, gotErr := ours.eval(expr.Vars(act))
			out, _, celErr := prg.Eval(act)
			if (gotErr == nil) != (celErr == nil) || celErr == nil && out != types.Bool(got) {
				t.Errorf("%s on call %d: %v, %v; cel-go %v, %v", src, i, got, gotErr, out, celErr)
			}
		}
	}
}

// activationRef is Activation as it was, a map made whole: the
// reference callVars is held to.
func activationRef(c *tool.Call) map[string]any {
	args := c.Action.Arguments
	if args == nil {
		args = map[string]any{}
	}
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return map[string]any{
		"tool":       c.Name,
		"server":     c.Server,
		"class":      string(c.Class),
		"args":       args,
		"commands":   nz(c.Shell),
		"code":       nz(texts(c, OnCode)),
		"sql":        nz(c.SQL),
		"urls":       nz(c.URLs),
		"paths":      nz(texts(c, OnPath)),
		"content":    nz(texts(c, OnContent)),
		"cwd":        c.Cwd,
		"home":       c.Home,
		"agent":      c.Action.Agent,
		"session_id": c.Action.SessionID,
	}
}

// TestCallVars holds callVars, variable by variable, and Activation to
// activationRef on every action the differential test assesses, and
// every condition of the pack to its result on the reference map.
func TestCallVars(t *testing.T) {
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var conds []*condition
	for _, r := range rules {
		if r.Condition != "" {
			c, err := compileCondition(r.Condition)
			if err != nil {
				t.Fatal(err)
			}
			conds = append(conds, c)
		}
	}
	acts := corpusActions(t)
	acts = append(acts, risk.Action{Tool: "mcp__x__y", Agent: "a", SessionID: "s"})
	for k := range acts {
		c := prepare(t, &acts[k], 0)
		want := activationRef(c)
		if got := Activation(c); !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: Activation %v, want %v", acts[k], got, want)
		}
		for name, w := range want {
			if got, ok := (callVars{c}).Resolve(name); !ok || !reflect.DeepEqual(got, w) {
				t.Fatalf("%v: %s is %#v, %v; want %#v", acts[k], name, got, ok, w)
			}
		}
		if got, ok := (callVars{c}).Resolve("nope"); ok || got != nil {
			t.Fatalf("an undeclared variable resolves to %v", got)
		}
		for _, cond := range conds {
			got, gotErr := cond.eval(callVars{c})
			want, wantErr := cond.eval(expr.Vars(want))
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("%s on %v: %v, %v; on the map %v, %v", cond.src, acts[k], got, gotErr, want, wantErr)
			}
		}
	}
}
