package policy

import (
	"errors"
	"strings"
	"testing"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// celConditionEnv is the cel-go environment conditions compiled in
// before warden had its own implementation of the CEL subset: the
// reference TestConditionsMatchCEL compares with.
func celConditionEnv(t *testing.T) *cel.Env {
	str, list, i := cel.StringType, cel.ListType(cel.StringType), cel.IntType
	env, err := cel.NewEnv(
		cel.Variable("action.tool", str), cel.Variable("action.name", str), cel.Variable("action.server", str),
		cel.Variable("action.class", str), cel.Variable("action.agent", str), cel.Variable("action.cwd", str),
		cel.Variable("action.arguments", cel.MapType(str, cel.DynType)),
		cel.Variable("action.commands", list), cel.Variable("action.paths", list), cel.Variable("action.urls", list),
		cel.Variable("action.hosts", list), cel.Variable("action.sql", list),
		cel.Variable("assessment.level", str), cel.Variable("assessment.rank", i), cel.Variable("assessment.score", i),
		cel.Variable("assessment.unknown", cel.BoolType), cel.Variable("assessment.reversible", cel.BoolType),
		cel.Variable("assessment.locked", cel.BoolType), cel.Variable("assessment.rules", list),
		cel.Variable("session.id", str), cel.Variable("session.env", str), cel.Variable("session.steps", i),
		cel.Variable("session.tainted", cel.BoolType),
		cel.Function("rank", cel.Overload("rank_string", []*cel.Type{str}, i,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				l, err := risk.ParseLevel(string(v.(types.String)))
				if err != nil {
					return types.NewErr("rank: %v", err)
				}
				return types.Int(levelRank(l))
			}))),
	)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

var conditionNames = []string{"action.tool", "action.name", "action.server", "action.class", "action.agent",
	"action.cwd", "action.arguments", "action.commands", "action.paths", "action.urls", "action.hosts",
	"action.sql", "assessment.level", "assessment.rank", "assessment.score", "assessment.unknown",
	"assessment.reversible", "assessment.locked", "assessment.rules", "session.id", "session.env",
	"session.steps", "session.tainted"}

// TestConditionsMatchCEL checks that conditions compile, and evaluate on
// the facts of a few decisions, as they did with cel-go: the same
// refusals, the same results, errors where cel-go had errors.
func TestConditionsMatchCEL(t *testing.T) {
	env := celConditionEnv(t)
	mk := func(js map[string]any, name string) *tool.Call {
		return tool.Normalize(&risk.Action{Tool: name, Arguments: js, Agent: "claude-code", SessionID: "s1"}, "/home/user/project", "/home/user")
	}
	bash := mk(map[string]any{"command": "npm run migrate && curl https://api.example.com/x"}, "Bash")
	bash.URLs = append(bash.URLs, "https://api.example.com/x")
	bash.Dests = append(bash.Dests, tool.Dest{Host: "10.0.0.1"})
	mcp := mk(map[string]any{"count": float64(3), "ratio": 2.5, "force": true, "title": "x", "labels": []any{"a", float64(1)}}, "mcp__github__create_issue")
	facts := []*Facts{
		{Assessment: &risk.Assessment{Level: risk.High, Score: 85, Findings: []risk.Finding{{Rule: "shell.recursive_delete"}}}, Call: bash,
			Session: SessionFacts{ID: "s1", Env: "prod", Steps: 12, Tainted: true}},
		{Assessment: &risk.Assessment{Level: risk.Low, Reversible: true}, Call: mk(map[string]any{"file_path": "/home/user/project/.env"}, "Read")},
		{Assessment: &risk.Assessment{Level: risk.Medium, Locked: true}, Call: mcp, Session: SessionFacts{Env: "dev"}},
		{Call: mk(map[string]any{"sql": "DELETE FROM users"}, "mcp__postgres__query")}, // no assessment: unknown
	}
	for _, src := range []string{
		`action.class == "database" && session.env == "prod" && assessment.rank >= rank("medium")`,
		`session.tainted && action.hosts.exists(h, !h.endsWith(".corp.example"))`,
		`action.class == "read" && assessment.rank <= rank("low")`,
		`action.arguments.missing == "x"`, `action.arguments.missing == "x" || true`,
		`session.env == "prod" && action.commands.exists(c, c.contains("migrate"))`,
		`session.env != "prod"`, `!assessment.locked`, `assessment.locked`, `assessment.unknown`,
		`action.arguments.count == 3`, `action.arguments.count > 2.5`, `action.arguments.ratio < 3`,
		`has(action.arguments.force) && action.arguments.force`, `action.arguments.force == true`,
		`action.paths.all(p, p.startsWith(action.cwd))`, `action.paths.exists(p, p.endsWith("/.env"))`,
		`action.urls.exists(u, u.matches("^https://[^/]*\\.example\\.com/"))`, `"shell.recursive_delete" in assessment.rules`,
		`assessment.score >= 80 || assessment.unknown`, `rank(assessment.level) == assessment.rank`,
		`rank("bogus") > 0`, `rank(assessment.level) > 0`, `action.tool.startsWith("mcp__") && action.server == "github"`,
		`action.name == "create_issue"`, `action.arguments.size() > 1`, `action.arguments["file_path"].endsWith(".env")`,
		`type(action.arguments.count) == double`, `session.steps > 10`, `session.steps / 5 == 2`,
		`action.hosts.exists_one(h, h == "api.example.com")`, `action.commands.map(c, c.size()).exists(n, n > 10)`,
		`action.agent in ["claude-code", "codex"]`, `action.arguments.labels[1] == 1`, `action.arguments.labels.size() == 2`,
		`size(action.sql) > 0 && action.sql.exists(q, q.startsWith("DELETE"))`, `action.sql[0].contains("users")`,
		`session.id == "" && action.cwd == "/home/user/project"`, `int(action.arguments.count) + 1 == 4`,
		`action.arguments.count + 1 == 4`, `action.arguments.title + "!" == "x!"`,
		`action.arguments.labels.all(l, type(l) == string)`, `action.hosts == ["api.example.com", "10.0.0.1"]`,
		`assessment.level in ["high", "critical"]`, `assessment.reversible ? session.steps < 3 : true`,
		// refused at load, by both
		`action.nope`, `action.arguments.x`, `action.class`, `action.class == 1`, `rank(1) > 0`, `action.`,
		`action.paths.exists(p, p)`, `assessment.rank >= "high"`, `timestamp("2020-01-01T00:00:00Z") < timestamp("2021-01-01T00:00:00Z")`,
		`action.sql.exists(q, q.lowerAscii().contains("drop"))`, `size(action.arguments) > 1.5`,
	} {
		ours, err := CompileCondition(src)
		ast, iss := env.Compile(src)
		celErr := iss.Err()
		var prg cel.Program
		if celErr == nil && !ast.OutputType().IsExactType(cel.BoolType) {
			celErr = errors.New("not a bool")
		}
		if celErr == nil {
			prg, celErr = env.Program(ast, cel.CostLimit(conditionCostLimit), cel.EvalOptions(cel.OptOptimize))
		}
		if strings.HasPrefix(src, "timestamp(") {
			// deliberately refused: warden's CEL has no timestamps
			if err == nil {
				t.Errorf("%s: compiled", src)
			}
			continue
		}
		if (err == nil) != (celErr == nil) {
			t.Errorf("%s: compile error %v, cel-go %v", src, err, celErr)
			continue
		}
		if err != nil {
			continue
		}
		for i, f := range facts {
			got, gotErr := ours.Eval(f)
			vars := map[string]any{}
			for _, name := range conditionNames {
				vars[name], _ = factsActivation{f}.Resolve(name)
			}
			out, _, celErr := prg.Eval(vars)
			if (gotErr == nil) != (celErr == nil) || celErr == nil && out != types.Bool(got) {
				t.Errorf("%s on facts %d: %v, %v; cel-go %v, %v", src, i, got, gotErr, out, celErr)
			}
		}
	}
}
