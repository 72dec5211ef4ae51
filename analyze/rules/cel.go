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

func (c *condition) eval(act expr.Activation) (bool, error) {
	out, err := c.prg.Eval(act)
	if err != nil {
		return false, fmt.Errorf("condition %q: %w", c.src, err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("condition %q: result is %s, not bool", c.src, expr.Format(out))
	}
	return b, nil
}

// celVars are the names of the variables of the schema.
var celVars = [...]string{"tool", "server", "class", "args", "commands", "code", "sql", "urls", "paths", "content",
	"cwd", "home", "agent", "session_id"}

// Activation returns the CEL variables for a call.
func Activation(c *tool.Call) map[string]any {
	m := make(map[string]any, len(celVars))
	for _, name := range celVars {
		m[name], _ = callVars{c}.Resolve(name)
	}
	return m
}

// callVars are the CEL variables of a call (Activation's), each made
// when a condition reads it: a condition reads few of them, and most
// calls none.
type callVars struct{ c *tool.Call }

// Resolve implements expr.Activation.
func (v callVars) Resolve(name string) (any, bool) {
	c := v.c
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	switch name {
	case "tool":
		return c.Name, true
	case "server":
		return c.Server, true
	case "class":
		return string(c.Class), true
	case "args":
		if args := c.Action.Arguments; args != nil {
			return args, true
		}
		return map[string]any{}, true
	case "commands":
		return nz(c.Shell), true
	case "code":
		return nz(texts(c, OnCode)), true
	case "sql":
		return nz(c.SQL), true
	case "urls":
		return nz(c.URLs), true
	case "paths":
		return nz(texts(c, OnPath)), true
	case "content":
		return nz(texts(c, OnContent)), true
	case "cwd":
		return c.Cwd, true
	case "home":
		return c.Home, true
	case "agent":
		return c.Action.Agent, true
	case "session_id":
		return c.Action.SessionID, true
	}
	return nil, false
}
