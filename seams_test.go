package warden

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/rules"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// preparerNames lists the names of e's preparers.
func preparerNames(e *Engine) []string {
	var out []string
	for _, p := range e.preparers {
		out = append(out, p.Name())
	}
	return out
}

// stamp is a preparer that marks the calls it sees.
type stamp struct{ name string }

func (s stamp) Name() string { return s.name }

func (s stamp) Prepare(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	return []risk.Finding{{Analyzer: s.name, Rule: s.name + ".seen", Level: risk.Low, Reversible: true, Reason: s.name + " saw the call"}}, nil
}

// WithAnalyzers replaces analyzers only; WithPreparers replaces preparers
// only.
func TestPreparerOptions(t *testing.T) {
	defaults := []string{"code", "shell", "sql", "secrets"}
	tests := []struct {
		name string
		opts []Option
		want []string
	}{
		{"defaults", nil, defaults},
		{"WithAnalyzers keeps the preparers", []Option{WithAnalyzers(finds("x"))}, defaults},
		{"WithAnalyzers() keeps the preparers", []Option{WithAnalyzers()}, defaults},
		{"WithPreparers replaces them", []Option{WithPreparers(stamp{"p"})}, []string{"p"}},
		{"WithPreparers() removes them", []Option{WithPreparers()}, nil},
		{"both, either order", []Option{WithPreparers(stamp{"p"}), WithAnalyzers(finds("x"))}, []string{"p"}},
		{"the last WithPreparers wins", []Option{WithPreparers(stamp{"p"}), WithPreparers(stamp{"q"}, stamp{"r"})}, []string{"q", "r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := preparerNames(newEngine(t, tt.opts...)); !slices.Equal(got, tt.want) {
				t.Errorf("preparers %q, want %q", got, tt.want)
			}
		})
	}
	// analyzers are untouched by WithPreparers
	if e, d := newEngine(t, WithPreparers()), newEngine(t); len(e.analyzers) != len(d.analyzers) || len(e.analyzers) == 0 {
		t.Errorf("WithPreparers() changed the analyzers: %d, not %d", len(e.analyzers), len(d.analyzers))
	}
	for _, o := range []Option{WithAnalyzers(nil), WithAnalyzer(nil), WithPreparers(nil)} {
		if _, err := New(o); err == nil {
			t.Error("a nil analyzer or preparer accepted")
		}
	}
}

// An engine with only the rule pack still sees through obfuscated
// scripts: the shell preparer resolves them before the rules read them.
func TestWithAnalyzersKeepsPreparers(t *testing.T) {
	ra, err := rules.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e := newEngine(t, WithAnalyzers(ra), WithHome("/home/user"), WithCwd("/home/user/project"))
	for _, cmd := range []string{`r''m -rf ~`, `"r"m -rf $HOME`, `\rm -rf ~/`} {
		as, d, err := e.Check(ctx, bash(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if as.Level != risk.Critical || d.Verdict == risk.Allow {
			t.Errorf("%s with the rule pack alone: %s %s %q", cmd, as.Level, d.Verdict, ruleIDs(as))
		}
	}
	// python code's subprocess commands reach the rules too (the code preparer)
	py := risk.Action{Tool: "python", Arguments: map[string]any{"code": "import subprocess\nsubprocess.run(['rm', '-rf', '/home/user'])"}}
	if as, _, _ := e.Check(ctx, py); as.Level != risk.Critical {
		t.Errorf("python rm -rf home with the rule pack alone: %s %q", as.Level, ruleIDs(as))
	}
	// without preparers, the rule pack reads the script as written: the
	// test above can fail
	bare := newEngine(t, WithAnalyzers(ra), WithPreparers(), WithHome("/home/user"), WithCwd("/home/user/project"))
	if as, _, _ := bare.Check(ctx, bash(`r''m -rf ~`)); as.Level == risk.Critical {
		t.Errorf("without preparers the obfuscated script is still critical: the test above proves nothing")
	}
}

// analyzers.disabled turns an analyzer off on every route: its findings
// are dropped wherever they are made, and they are made on each route
// when it is on.
func TestDisabledAnalyzerEveryRoute(t *testing.T) {
	ctx := context.Background()
	routes := []struct {
		name   string
		action risk.Action
	}{
		{"database tool", risk.Action{Tool: "query", Arguments: map[string]any{"sql": "DROP TABLE users"}}},
		{"MCP postgres tool", risk.Action{Tool: "mcp__postgres__query", Arguments: map[string]any{"sql": "DROP TABLE users"}}},
		{"MCP sqlite tool", risk.Action{Tool: "mcp__sqlite__write_query", Arguments: map[string]any{"query": "DELETE FROM users"}}},
		{"psql -c", bash(`psql -h db -c 'DROP TABLE users'`)},
		{"mysql -e in a script", bash(`cd /tmp && mysql -e "DELETE FROM users"`)},
		{"python cursor.execute", risk.Action{Tool: "python", Arguments: map[string]any{"code": "import sqlite3\nconn = sqlite3.connect('app.db')\ncur = conn.cursor()\ncur.execute('DROP TABLE users')\n"}}},
	}
	analyzers := func(as risk.Assessment) []string {
		var out []string
		for _, f := range as.Findings {
			if !slices.Contains(out, f.Analyzer) {
				out = append(out, f.Analyzer)
			}
		}
		return out
	}
	on := newEngine(t, WithHome("/home/user"), WithCwd("/home/user/project"))
	p, err := policy.Parse("p.yaml", []byte("analyzers: {disabled: [sql]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	off := newEngine(t, WithPolicy(p), WithHome("/home/user"), WithCwd("/home/user/project"))
	for _, r := range routes {
		t.Run(r.name, func(t *testing.T) {
			as, _, err := on.Check(ctx, r.action)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(analyzers(as), "sql") {
				t.Fatalf("the sql analyzer judges nothing on this route: %q %q", analyzers(as), ruleIDs(as))
			}
			as, _, err = off.Check(ctx, r.action)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(analyzers(as), "sql") {
				t.Errorf("sql is disabled but still judges: %q", ruleIDs(as))
			}
		})
	}
}

// Disabling a preparer drops its findings too, and an analyzer's findings
// are dropped even when another step made them under its name.
func TestDisabledDropsByAnalyzerName(t *testing.T) {
	ctx := context.Background()
	ventriloquist := &fake{name: "v", fn: func(context.Context, *tool.Call) ([]risk.Finding, error) {
		return []risk.Finding{
			{Analyzer: "mute", Rule: "mute.x", Level: risk.High, Reason: "made for mute"},
			{Analyzer: "v", Rule: "v.x", Level: risk.Low, Reason: "v's own"},
		}, nil
	}}
	mute := finds("mute", risk.Medium)
	p, err := policy.Parse("p.yaml", []byte("analyzers: {disabled: [mute, shell]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, WithAnalyzers(ventriloquist, mute), WithPolicy(p))
	as, _, _ := e.Check(ctx, bash("rm -rf /"))
	if got := ruleIDs(as); !slices.Equal(got, []string{"v.x=low"}) {
		t.Errorf("findings %q, want only v's own", got)
	}
}

// An analysis nested in a step (inline, in the shell preparer) can be
// disabled by its name: its findings are dropped, the step still runs.
func TestDisabledNestedAnalysis(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("analyzers: {disabled: [inline]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, WithPolicy(p))
	if !e.off["inline"] || !slices.Contains(preparerNames(e), "shell") {
		t.Errorf("off %v, preparers %q", e.off, preparerNames(e))
	}
	if _, err := New(WithPolicy(p), WithPreparers()); err == nil {
		t.Error("inline disabled without the shell preparer it runs in")
	}
}

// TestPolicyCannotTurnTheGuardOff: disabling the guard, or the rule of a
// locked finding, would open what no allow rule may.
func TestPolicyCannotTurnTheGuardOff(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("analyzers: {disabled: [guard]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(WithPolicy(p)); err == nil || !strings.Contains(err.Error(), "cannot be disabled") {
		t.Errorf("disabling the guard: %v, want an error", err)
	}
	p, err = policy.Parse("p.yaml", []byte("allow: [Bash]\nanalyzers: {disabled_rules: [guard.self_modification, guard.warden_command, fs.recursive_delete, shell.too_deep]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, WithPolicy(p), WithHome("/home/user"), WithCwd("/home/user/project"))
	for _, cmd := range []string{"rm .warden/policy.yaml", "warden policy allow Bash", "rm -rf ~", strings.Repeat("nice ", 40) + "rm -rf ~"} {
		as, d, err := e.Check(context.Background(), bash(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict == risk.Allow || as.Level < risk.High {
			t.Errorf("%.60s with its rules disabled: %s %s %v", cmd, as.Level, d.Verdict, ruleIDs(as))
		}
	}
}
