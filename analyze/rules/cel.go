package rules

import (
	"fmt"
	"sync"

	"github.com/agentwarden/warden/internal/expr"
	"github.com/agentwarden/warden/tool"
)

// The CEL schema a rule condition sees (the subset of CEL that package
// internal/expr implements). Every variable is always set.
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
var celEnv = sync.OnceValue(func() *expr.Env {
	list := expr.ListOf(expr.String)
	return expr.NewEnv(
		expr.Var("tool", expr.String),
		expr.Var("server", expr.String),
		expr.Var("class", expr.String),
		expr.Var("args", expr.MapOf(expr.String, expr.Dyn)),
		expr.Var("commands", list),
		expr.Var("code", list),
		expr.Var("sql", list),
		expr.Var("urls", list),
		expr.Var("paths", list),
		expr.Var("content", list),
		expr.Var("cwd", expr.String),
		expr.Var("home", expr.String),
		expr.Var("agent", expr.String),
		expr.Var("session_id", expr.String),
		expr.CostLimit(celCostLimit),
	)
})

// celCostLimit bounds one evaluation, so that no condition can hang the engine.
const celCostLimit = 100_000

type condition struct {
	src string
	prg *expr.Program
}

func compileCondition(src string) (*condition, error) {
	prg, err := celEnv().Compile(src)
	if err != nil {
		return nil, err
	}
	if !prg.Type().Is(expr.Bool) {
		return nil, fmt.Errorf("must be a bool expression, not %s", prg.Type())
	}
	return &condition{src: src, prg: prg}, nil
}

func (c *condition) eval(act map[string]any) (bool, error) {
	out, err := c.prg.Eval(expr.Vars(act))
	if err != nil {
		return false, fmt.Errorf("condition %q: %w", c.src, err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("condition %q: result is %s, not bool", c.src, expr.Format(out))
	}
	return b, nil
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
