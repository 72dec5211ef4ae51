package rules

import (
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"github.com/agentwarden/warden/tool"
)

// The CEL schema a rule condition sees. Every variable is always set.
//
//	tool       string              the tool's name without an MCP prefix
//	server     string              the MCP server, or ""
//	class      string              read, edit, execute, network, database, browser, other
//	args       map(string, dyn)    the raw arguments
//	commands   list(string)        shell scripts that will run
//	code       list(string)        program text that will run
//	sql        list(string)        SQL that will run
//	urls       list(string)        URLs fetched or opened
//	paths      list(string)        file paths, absolute
//	content    list(string)        text written into files
//	cwd, home, agent, session_id   string
var celEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("tool", cel.StringType),
		cel.Variable("server", cel.StringType),
		cel.Variable("class", cel.StringType),
		cel.Variable("args", cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable("commands", cel.ListType(cel.StringType)),
		cel.Variable("code", cel.ListType(cel.StringType)),
		cel.Variable("sql", cel.ListType(cel.StringType)),
		cel.Variable("urls", cel.ListType(cel.StringType)),
		cel.Variable("paths", cel.ListType(cel.StringType)),
		cel.Variable("content", cel.ListType(cel.StringType)),
		cel.Variable("cwd", cel.StringType),
		cel.Variable("home", cel.StringType),
		cel.Variable("agent", cel.StringType),
		cel.Variable("session_id", cel.StringType),
	)
})

// celCostLimit bounds one evaluation, so that no condition can hang the engine.
const celCostLimit = 100_000

type condition struct {
	src string
	prg cel.Program
}

func compileCondition(src string) (*condition, error) {
	env, err := celEnv()
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		return nil, iss.Err()
	}
	if ast.OutputType() != cel.BoolType {
		return nil, fmt.Errorf("must be a bool expression, not %s", ast.OutputType())
	}
	prg, err := env.Program(ast, cel.CostLimit(celCostLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, err
	}
	return &condition{src: src, prg: prg}, nil
}

func (c *condition) eval(act map[string]any) (bool, error) {
	out, _, err := c.prg.Eval(act)
	if err != nil {
		return false, fmt.Errorf("condition %q: %w", c.src, err)
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("condition %q: result is %s, not bool", c.src, out.Type())
	}
	return bool(b), nil
}

// Activation returns the CEL variables for a call.
func Activation(c *tool.Call) map[string]any {
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
