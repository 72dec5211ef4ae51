package policy

import (
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Condition is a CEL expression a policy rule holds when its pattern
// syntax cannot say enough. It sees three groups of variables, every one
// always set:
//
//	action.tool        string   the tool's name as the agent sent it (mcp__github__create_issue)
//	action.name        string   the tool's name without an MCP prefix (create_issue)
//	action.server      string   the MCP server, or ""
//	action.class       string   read, edit, execute, network, database, browser, other
//	action.agent       string   the agent that sent it, when known
//	action.cwd         string   its working directory
//	action.arguments   map(string, dyn)  the raw arguments
//	action.commands    list(string)      the shell scripts it runs
//	action.paths       list(string)      the files it reads or writes, absolute
//	action.urls        list(string)      the URLs it opens, and those its commands and code request
//	action.hosts       list(string)      the hosts of those URLs and of nc/socat targets, lower-case
//	action.sql         list(string)      the SQL it runs
//	assessment.level   string   safe, low, medium, high, critical or unknown
//	assessment.rank    int      0 (safe) to 4 (critical); -1 for unknown
//	assessment.score   int      0–100
//	assessment.unknown bool     some analyzer could not assess it
//	assessment.reversible bool
//	assessment.rules   list(string)  the rule IDs of its findings
//	session.id         string   the conversation ("" for a lone action)
//	session.env        string   the environment label (the policy's environment, e.g. "prod")
//	session.steps      int      how many actions the conversation had before this one
//	session.tainted    bool     sensitive data (credentials, personal data) was read into it
//
// and the function rank(level string) int, so that
// assessment.rank >= rank("high") compares levels. A condition must be a
// bool expression: anything else, an unknown variable or a type error is
// reported when the policy is loaded. An evaluation is bounded (cost
// limit); one that fails counts as true for deny and ask rules and false
// for allow rules, so that a broken condition never lets an action
// through.
type Condition struct {
	Src string
	prg cel.Program
}

// maxConditionLen bounds a condition's source.
const maxConditionLen = 4 << 10

// conditionCostLimit bounds one evaluation, so that no condition can
// hang the engine.
const conditionCostLimit = 50_000

var condEnv = sync.OnceValues(func() (*cel.Env, error) {
	str, list, i := cel.StringType, cel.ListType(cel.StringType), cel.IntType
	return cel.NewEnv(
		cel.Variable("action.tool", str), cel.Variable("action.name", str), cel.Variable("action.server", str),
		cel.Variable("action.class", str), cel.Variable("action.agent", str), cel.Variable("action.cwd", str),
		cel.Variable("action.arguments", cel.MapType(str, cel.DynType)),
		cel.Variable("action.commands", list), cel.Variable("action.paths", list), cel.Variable("action.urls", list),
		cel.Variable("action.hosts", list), cel.Variable("action.sql", list),
		cel.Variable("assessment.level", str), cel.Variable("assessment.rank", i), cel.Variable("assessment.score", i),
		cel.Variable("assessment.unknown", cel.BoolType), cel.Variable("assessment.reversible", cel.BoolType),
		cel.Variable("assessment.rules", list),
		cel.Variable("session.id", str), cel.Variable("session.env", str), cel.Variable("session.steps", i),
		cel.Variable("session.tainted", cel.BoolType),
		cel.Function("rank", cel.Overload("rank_string", []*cel.Type{str}, i,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.NewErr("rank: not a string")
				}
				l, err := risk.ParseLevel(string(s))
				if err != nil {
					return types.NewErr("rank: %v", err)
				}
				return types.Int(levelRank(l))
			}))),
	)
})

// CompileCondition checks and compiles a condition.
func CompileCondition(src string) (*Condition, error) {
	if strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("an empty condition")
	}
	if len(src) > maxConditionLen {
		return nil, fmt.Errorf("a condition longer than %d bytes", maxConditionLen)
	}
	env, err := condEnv()
	if err != nil {
		return nil, err
	}
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		return nil, fmt.Errorf("%s", strings.TrimSpace(iss.Err().Error()))
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		return nil, fmt.Errorf("the condition is a %s, not a bool", ast.OutputType())
	}
	prg, err := env.Program(ast, cel.CostLimit(conditionCostLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, err
	}
	return &Condition{Src: src, prg: prg}, nil
}

// Eval evaluates the condition on the facts of one decision.
func (c *Condition) Eval(f *Facts) (bool, error) {
	out, _, err := c.prg.Eval(f.activation())
	if err != nil {
		return false, fmt.Errorf("condition %q: %w", c.Src, err)
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("condition %q: the result is %s, not a bool", c.Src, out.Type())
	}
	return bool(b), nil
}

// SessionFacts is what a decision knows of the conversation.
type SessionFacts struct {
	ID      string
	Env     string
	Steps   int
	Tainted bool
}

// Facts are what one decision is made on.
type Facts struct {
	Assessment *risk.Assessment
	Call       *tool.Call
	Session    SessionFacts
	act        map[string]any // built once, when a condition asks
}

func levelRank(l risk.Level) int {
	switch l {
	case risk.Safe:
		return 0
	case risk.Low:
		return 1
	case risk.Medium:
		return 2
	case risk.High:
		return 3
	case risk.Critical:
		return 4
	}
	return -1
}

func (f *Facts) activation() map[string]any {
	if f.act != nil {
		return f.act
	}
	c, a := f.Call, f.Assessment
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	args := c.Action.Arguments
	if args == nil {
		args = map[string]any{}
	}
	var paths, urls, hosts []string
	for _, p := range c.Paths {
		paths = append(paths, c.Abs(p))
	}
	urls = append(urls, c.URLs...)
	for _, d := range c.Dests {
		if d.URL != "" {
			urls = append(urls, d.URL)
		} else if d.Host != "" {
			hosts = append(hosts, strings.ToLower(d.Host))
		}
	}
	for _, u := range urls {
		if h, err := hostOf(u); err == nil {
			hosts = append(hosts, h)
		}
	}
	var ruleIDs []string
	level, rank, score, unknown, reversible := risk.Unknown.String(), -1, 0, true, false
	if a != nil {
		for _, fd := range a.Findings {
			ruleIDs = append(ruleIDs, fd.Rule)
		}
		level, rank, score, unknown, reversible = a.Level.String(), levelRank(a.Level), int(a.Score), a.Unknown, a.Reversible
	}
	f.act = map[string]any{
		"action.tool": c.Action.Tool, "action.name": c.Name, "action.server": c.Server, "action.class": string(c.Class),
		"action.agent": c.Action.Agent, "action.cwd": c.Cwd, "action.arguments": args,
		"action.commands": nz(c.Shell), "action.paths": nz(paths), "action.urls": nz(urls), "action.hosts": nz(hosts),
		"action.sql":       nz(c.SQL),
		"assessment.level": level, "assessment.rank": rank, "assessment.score": score,
		"assessment.unknown": unknown, "assessment.reversible": reversible, "assessment.rules": nz(ruleIDs),
		"session.id": f.Session.ID, "session.env": f.Session.Env, "session.steps": f.Session.Steps,
		"session.tainted": f.Session.Tainted,
	}
	return f.act
}

func hostOf(u string) (string, error) { return netguard.Hostname(u) }
