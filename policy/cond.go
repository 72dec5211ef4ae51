package policy

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentwarden/warden/internal/expr"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Condition is a CEL expression a policy rule holds when its pattern
// syntax cannot say enough. warden evaluates it with its own
// implementation of the subset of CEL that package internal/expr
// documents: cel-go's meaning, without timestamps, durations and
// protobuf types. It sees three groups of variables, every one always
// set:
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
//	assessment.locked  bool     some finding cannot be allowed away (risk.Finding.Locked)
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
	prg *expr.Program
}

// maxConditionLen bounds a condition's source.
const maxConditionLen = 4 << 10

// conditionCostLimit bounds one evaluation, so that no condition can
// hang the engine.
const conditionCostLimit = 50_000

var condEnv = sync.OnceValue(func() *expr.Env {
	str, list, i := expr.String, expr.ListOf(expr.String), expr.Int
	return expr.NewEnv(
		expr.Var("action.tool", str), expr.Var("action.name", str), expr.Var("action.server", str),
		expr.Var("action.class", str), expr.Var("action.agent", str), expr.Var("action.cwd", str),
		expr.Var("action.arguments", expr.MapOf(str, expr.Dyn)),
		expr.Var("action.commands", list), expr.Var("action.paths", list), expr.Var("action.urls", list),
		expr.Var("action.hosts", list), expr.Var("action.sql", list),
		expr.Var("assessment.level", str), expr.Var("assessment.rank", i), expr.Var("assessment.score", i),
		expr.Var("assessment.unknown", expr.Bool), expr.Var("assessment.reversible", expr.Bool),
		expr.Var("assessment.locked", expr.Bool),
		expr.Var("assessment.rules", list),
		expr.Var("session.id", str), expr.Var("session.env", str), expr.Var("session.steps", i),
		expr.Var("session.tainted", expr.Bool),
		expr.Function("rank", []*expr.Type{str}, i, func(args []any) (any, error) {
			l, err := risk.ParseLevel(args[0].(string))
			if err != nil {
				return nil, err
			}
			return levelRank(l), nil
		}),
		expr.CostLimit(conditionCostLimit),
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
	prg, err := condEnv().Compile(src)
	if err != nil {
		return nil, err
	}
	if !prg.Type().Is(expr.Bool) {
		return nil, fmt.Errorf("the condition is a %s, not a bool", prg.Type())
	}
	return &Condition{Src: src, prg: prg}, nil
}

// Eval evaluates the condition on the facts of one decision.
func (c *Condition) Eval(f *Facts) (bool, error) {
	out, err := c.prg.Eval(factsActivation{f})
	if err != nil {
		return false, fmt.Errorf("condition %q: %w", c.Src, err)
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("condition %q: the result is %s, not a bool", c.Src, expr.Format(out))
	}
	return b, nil
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

// factsActivation gives a condition the variables it reads, each
// computed when first read.
type factsActivation struct{ f *Facts }

func nz(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Resolve returns the value of one variable of the schema.
func (a factsActivation) Resolve(name string) (any, bool) {
	f := a.f
	c, as := f.Call, f.Assessment
	if as == nil {
		as = &risk.Assessment{Level: risk.Unknown, Unknown: true}
	}
	switch name {
	case "action.tool":
		return c.Action.Tool, true
	case "action.name":
		return c.Name, true
	case "action.server":
		return c.Server, true
	case "action.class":
		return string(c.Class), true
	case "action.agent":
		return c.Action.Agent, true
	case "action.cwd":
		return c.Cwd, true
	case "action.arguments":
		if c.Action.Arguments == nil {
			return map[string]any{}, true
		}
		return c.Action.Arguments, true
	case "action.commands":
		return nz(c.Shell), true
	case "action.sql":
		return nz(c.SQL), true
	case "action.paths":
		paths := make([]string, len(c.Paths))
		for i, p := range c.Paths {
			paths[i] = c.Abs(p)
		}
		return paths, true
	case "action.urls":
		return f.urls(), true
	case "action.hosts":
		return f.hosts(), true
	case "assessment.level":
		return as.Level.String(), true
	case "assessment.rank":
		return levelRank(as.Level), true
	case "assessment.score":
		return int(as.Score), true
	case "assessment.unknown":
		return as.Unknown, true
	case "assessment.reversible":
		return as.Reversible, true
	case "assessment.locked":
		return as.Locked, true
	case "assessment.rules":
		ids := make([]string, len(as.Findings))
		for i, fd := range as.Findings {
			ids[i] = fd.Rule
		}
		return ids, true
	case "session.id":
		return f.Session.ID, true
	case "session.env":
		return f.Session.Env, true
	case "session.steps":
		return f.Session.Steps, true
	case "session.tainted":
		return f.Session.Tainted, true
	}
	return nil, false
}

// urls are the URLs the call opens and those its commands and code request.
func (f *Facts) urls() []string {
	c := f.Call
	urls := append([]string{}, c.URLs...)
	for _, d := range c.Dests {
		if d.URL != "" {
			urls = append(urls, d.URL)
		}
	}
	return urls
}

// hosts are the hosts of those URLs and of connections without one.
func (f *Facts) hosts() []string {
	hosts := []string{}
	for _, u := range f.urls() {
		if h, err := netguard.Hostname(u); err == nil {
			hosts = append(hosts, h)
		}
	}
	for _, d := range f.Call.Dests {
		if d.URL == "" && d.Host != "" {
			if h, err := netguard.NormalizeHost(d.Host); err == nil {
				hosts = append(hosts, h)
			}
		}
	}
	return hosts
}
