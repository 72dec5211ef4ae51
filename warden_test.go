package warden

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// fake is an analyzer whose behaviour a test sets.
type fake struct {
	name  string
	fn    func(ctx context.Context, c *tool.Call) ([]risk.Finding, error)
	calls atomic.Int64
}

func (f *fake) Name() string { return f.name }

func (f *fake) Analyze(ctx context.Context, c *tool.Call) ([]risk.Finding, error) {
	f.calls.Add(1)
	return f.fn(ctx, c)
}

// finds returns an analyzer that always reports findings at levels.
func finds(name string, levels ...risk.Level) *fake {
	return &fake{name: name, fn: func(context.Context, *tool.Call) ([]risk.Finding, error) {
		var out []risk.Finding
		for _, l := range levels {
			out = append(out, risk.Finding{Analyzer: name, Rule: name + "." + l.String(), Level: l,
				Reason: name + " found " + l.String(), Reversible: l < risk.High})
		}
		return out, nil
	}}
}

// fails returns an analyzer that reports partial findings and an error.
func fails(name string, partial ...risk.Level) *fake {
	f := finds(name, partial...)
	inner := f.fn
	f.fn = func(ctx context.Context, c *tool.Call) ([]risk.Finding, error) {
		out, _ := inner(ctx, c)
		return out, errors.New("parser gave up")
	}
	return f
}

// panics returns an analyzer that panics with v.
func panics(name string, v any) *fake {
	return &fake{name: name, fn: func(context.Context, *tool.Call) ([]risk.Finding, error) { panic(v) }}
}

func newEngine(t *testing.T, opts ...Option) *Engine {
	t.Helper()
	e, err := New(opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}

func bash(cmd string) risk.Action {
	return risk.Action{Tool: "Bash", Arguments: map[string]any{"command": cmd}}
}

func ruleIDs(a risk.Assessment) []string {
	var out []string
	for _, f := range a.Findings {
		out = append(out, f.Rule+"="+f.Level.String())
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		analyzers []Analyzer
		level     risk.Level
		unknown   bool
		verdict   risk.Verdict
		rules     []string
	}{
		{"no analyzers: safe", nil, risk.Safe, false, risk.Allow, nil},
		{"nothing found", []Analyzer{finds("a")}, risk.Safe, false, risk.Allow, nil},
		{"medium", []Analyzer{finds("a", risk.Medium)}, risk.Medium, false, risk.Allow, []string{"a.medium=medium"}},
		{"high", []Analyzer{finds("a", risk.Low), finds("b", risk.High)}, risk.High, false, risk.Ask, []string{"a.low=low", "b.high=high"}},
		{"critical", []Analyzer{finds("a", risk.Critical, risk.Medium)}, risk.Critical, false, risk.Ask, []string{"a.critical=critical", "a.medium=medium"}},
		{"error: unknown, never silently safe", []Analyzer{fails("broken")}, risk.Unknown, true, risk.Ask, []string{"broken.error=unknown"}},
		{"error keeps partial findings", []Analyzer{fails("broken", risk.Low)}, risk.Low, true, risk.Ask, []string{"broken.low=low", "broken.error=unknown"}},
		{"error next to a concrete finding", []Analyzer{finds("ok", risk.Medium), fails("broken")}, risk.Medium, true, risk.Ask, []string{"ok.medium=medium", "broken.error=unknown"}},
		{"panic", []Analyzer{panics("boom", "index out of range")}, risk.Unknown, true, risk.Ask, []string{"boom.panic=unknown"}},
		{"panic with an error value", []Analyzer{panics("boom", errors.New("nil map"))}, risk.Unknown, true, risk.Ask, []string{"boom.panic=unknown"}},
		{"panic does not stop the others", []Analyzer{panics("boom", 1), finds("after", risk.High)}, risk.High, true, risk.Ask, []string{"boom.panic=unknown", "after.high=high"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, WithAnalyzers(tt.analyzers...))
			as, d, err := e.Check(context.Background(), bash("make"))
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if as.Level != tt.level || as.Unknown != tt.unknown {
				t.Errorf("level %v unknown %v, want %v %v", as.Level, as.Unknown, tt.level, tt.unknown)
			}
			if d.Verdict != tt.verdict {
				t.Errorf("decision %v, want %v", d, tt.verdict)
			}
			if got := ruleIDs(as); !slices.Equal(got, tt.rules) {
				t.Errorf("findings %q, want %q", got, tt.rules)
			}
			for _, f := range as.Findings {
				if f.Level == risk.Unknown && (f.Analyzer == "" || !strings.Contains(f.Reason, f.Analyzer)) {
					t.Errorf("unknown finding %+v does not name its analyzer", f)
				}
			}
		})
	}
}

func TestCheckErrorReasons(t *testing.T) {
	e := newEngine(t, WithAnalyzers(fails("sql"), panics("shell", "unexpected token")))
	as, _, _ := e.Check(context.Background(), bash("x"))
	joined := strings.Join(as.Reasons, "\n")
	for _, want := range []string{"sql", "parser gave up", "shell", "unexpected token"} {
		if !strings.Contains(joined, want) {
			t.Errorf("reasons %q do not mention %q", as.Reasons, want)
		}
	}
}

func TestCheckInvalidAction(t *testing.T) {
	deep := any("x")
	for range 100 {
		deep = map[string]any{"a": deep}
	}
	tests := []struct {
		name string
		a    risk.Action
		lim  *risk.Limits
	}{
		{"no tool", risk.Action{Arguments: map[string]any{"command": "ls"}}, nil},
		{"blank tool", risk.Action{Tool: " \t"}, nil},
		{"NUL byte", bash("rm -rf /\x00"), nil},
		{"invalid UTF-8", bash("ls \xff"), nil},
		{"too deep", risk.Action{Tool: "x", Arguments: map[string]any{"a": deep}}, nil},
		{"too large", bash(strings.Repeat("x", 100)), &risk.Limits{MaxBytes: 50, MaxDepth: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spy := finds("spy", risk.Safe)
			opts := []Option{WithAnalyzers(spy)}
			if tt.lim != nil {
				opts = append(opts, WithLimits(*tt.lim))
			}
			e := newEngine(t, opts...)
			as, d, err := e.Check(context.Background(), tt.a)
			if !risk.IsInputError(err) {
				t.Fatalf("error %v is not an *InputError", err)
			}
			if as.Level != risk.Unknown || !as.Unknown {
				t.Errorf("level %v unknown %v, want unknown", as.Level, as.Unknown)
			}
			if d.Verdict != risk.Ask || d.Rule != "confirm_risky" {
				t.Errorf("decision %v, want ask (confirm_risky) under the default policy", d)
			}
			if len(as.Reasons) == 0 || !strings.Contains(as.Reasons[0], err.Error()) {
				t.Errorf("reasons %q do not carry the error %q", as.Reasons, err)
			}
			if spy.calls.Load() != 0 {
				t.Error("an invalid action reached the analyzers")
			}
		})
	}
}

func TestReject(t *testing.T) {
	e := newEngine(t, WithAnalyzers())
	as, d := e.Reject(context.Background(), &risk.InputError{Reason: "not valid JSON"})
	if as.Level != risk.Unknown || d.Verdict != risk.Ask || !strings.Contains(strings.Join(as.Reasons, " "), "not valid JSON") {
		t.Errorf("Reject = %v %q, %v", as.Level, as.Reasons, d)
	}
	for _, tt := range []struct {
		mode policy.Mode
		want risk.Verdict
	}{{policy.ModeDontAsk, risk.Deny}, {policy.ModeBypassPermissions, risk.Allow}, {policy.ModePlan, risk.Ask}} {
		e := newEngine(t, WithAnalyzers(), WithMode(tt.mode))
		if _, d := e.Reject(context.Background(), errors.New("bad")); d.Verdict != tt.want {
			t.Errorf("%s: Reject decision %v, want %v", tt.mode, d, tt.want)
		}
	}
}

func TestModesThroughEngine(t *testing.T) {
	tests := []struct {
		mode   policy.Mode
		level  risk.Level
		action risk.Action
		want   risk.Verdict
	}{
		{policy.ModeDefault, risk.High, bash("x"), risk.Ask},
		{policy.ModeDontAsk, risk.High, bash("x"), risk.Allow},
		{policy.ModeDontAsk, risk.Critical, bash("x"), risk.Deny},
		{policy.ModeBypassPermissions, risk.Critical, bash("x"), risk.Allow},
		{policy.ModePlan, risk.Safe, bash("x"), risk.Ask},
		{policy.ModePlan, risk.Safe, risk.Action{Tool: "Read", Arguments: map[string]any{"file_path": "a"}}, risk.Allow},
		{policy.ModeAcceptEdits, risk.High, risk.Action{Tool: "Write", Arguments: map[string]any{"file_path": "src/a.go", "content": "x"}}, risk.Allow},
		{policy.ModeAcceptEdits, risk.High, risk.Action{Tool: "Write", Arguments: map[string]any{"file_path": "/etc/a", "content": "x"}}, risk.Ask},
	}
	for _, tt := range tests {
		e := newEngine(t, WithAnalyzers(finds("a", tt.level)), WithMode(tt.mode), WithCwd("/home/user/project"))
		_, d, err := e.Check(context.Background(), tt.action)
		if err != nil || d.Verdict != tt.want {
			t.Errorf("%s, %v, %s: decision %v, %v; want %v", tt.mode, tt.level, tt.action.Tool, d, err, tt.want)
		}
	}
}

func TestOptions(t *testing.T) {
	if _, err := New(WithAnalyzers(), WithMode("yolo")); err == nil {
		t.Error("WithMode(yolo) accepted")
	}
	if _, err := New(WithAnalyzers(), WithPolicy(nil)); err == nil {
		t.Error("WithPolicy(nil) accepted")
	}
	if _, err := New(WithAnalyzers(), WithConfirmationPolicy(nil)); err == nil {
		t.Error("WithConfirmationPolicy(nil) accepted")
	}

	// WithPolicy copies the policy: later changes to it do not leak in.
	p := &policy.Policy{Mode: policy.ModeDontAsk, Confirm: policy.DefaultConfirmRisky()}
	e := newEngine(t, WithAnalyzers(finds("a", risk.High)), WithPolicy(p))
	p.Mode = policy.ModeBypassPermissions
	p.Confirm = policy.NeverConfirm{}
	if _, d, _ := e.Check(context.Background(), bash("x")); d.Rule != "mode.dontAsk" {
		t.Errorf("decision %v, want the policy as given to New", d)
	}

	e = newEngine(t, WithAnalyzers(), WithConfirmationPolicy(policy.AlwaysConfirm{}))
	if _, d, _ := e.Check(context.Background(), bash("ls")); d.Verdict != risk.Ask || d.Rule != "always_confirm" {
		t.Errorf("AlwaysConfirm: %v", d)
	}

	if got := newEngine(t, WithAnalyzers()).Limits(); got != risk.DefaultLimits {
		t.Errorf("Limits() = %+v, want the defaults", got)
	}
	lim := risk.Limits{MaxBytes: 10, MaxDepth: 2}
	if got := newEngine(t, WithAnalyzers(), WithLimits(lim)).Limits(); got != lim {
		t.Errorf("Limits() = %+v, want %+v", got, lim)
	}
}

func TestAnalyzerOptions(t *testing.T) {
	names := func(e *Engine) []string {
		var out []string
		for _, a := range e.analyzers {
			out = append(out, a.Name())
		}
		return out
	}
	tests := []struct {
		opts []Option
		want []string
	}{
		{nil, []string{"rules", "sql", "secrets", "netguard", "guard", "effects", "hints"}},
		{[]Option{WithAnalyzer(finds("x"))}, []string{"rules", "sql", "secrets", "netguard", "guard", "effects", "hints", "x"}},
		{[]Option{WithAnalyzers(finds("x"), finds("y"))}, []string{"x", "y"}},
		{[]Option{WithAnalyzers(finds("x")), WithAnalyzer(finds("y"))}, []string{"x", "y"}},
		{[]Option{WithAnalyzer(finds("y")), WithAnalyzers(finds("x"))}, []string{"x"}},
		{[]Option{WithAnalyzers()}, nil},
	}
	for _, tt := range tests {
		if got := names(newEngine(t, tt.opts...)); !slices.Equal(got, tt.want) {
			t.Errorf("analyzers %q, want %q", got, tt.want)
		}
	}
}

func TestCwdAndHome(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	spy := &fake{name: "spy", fn: func(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, c.Cwd+" "+c.Home)
		return nil, nil
	}}
	e := newEngine(t, WithAnalyzers(spy), WithCwd("/w"), WithHome("/h"))
	ctx := context.Background()
	e.Check(ctx, bash("ls"))
	a := bash("ls")
	a.Cwd = "/elsewhere"
	e.Check(ctx, a)
	if want := []string{"/w /h", "/elsewhere /h"}; !slices.Equal(seen, want) {
		t.Errorf("analyzer saw %q, want %q", seen, want)
	}
}

func TestCheckPassesContext(t *testing.T) {
	type key struct{}
	var got any
	spy := &fake{name: "spy", fn: func(ctx context.Context, _ *tool.Call) ([]risk.Finding, error) {
		got = ctx.Value(key{})
		return nil, nil
	}}
	e := newEngine(t, WithAnalyzers(spy))
	e.Check(context.WithValue(context.Background(), key{}, "v"), bash("ls"))
	if got != "v" {
		t.Errorf("analyzer saw context value %v", got)
	}
}

func TestCheckConcurrent(t *testing.T) {
	e := newEngine(t, WithAnalyzers(finds("a", risk.Medium), fails("b"), panics("c", "x")))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				as, d, err := e.Check(context.Background(), bash(fmt.Sprintf("echo %d %d", g, i)))
				if err != nil || as.Level != risk.Medium || !as.Unknown || d.Verdict != risk.Ask {
					t.Errorf("Check = %v %v %v %v", as.Level, as.Unknown, d, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// seedRules are some of seed 004's default rules, as a test analyzer
// matching regular expressions against the code of an action.
var seedRules = []struct {
	name, pattern string
	level         risk.Level
	reason        string
	reversible    bool
}{
	{"rm_recursive", `rm\s+-rf?\s+|'rm',\s*'-rf?'`, risk.Critical, "Recursive file deletion can cause irreversible data loss", false},
	{"file_delete", `(os\.remove|os\.unlink|shutil\.rmtree|Path.*\.unlink)`, risk.High, "File deletion may cause data loss", false},
	{"file_write", `(open\(.*['"]w|\.write\(|Path.*\.write_)`, risk.Medium, "File modification may overwrite existing content", true},
	{"subprocess_exec", `(subprocess\.(run|call|Popen)|os\.system)`, risk.Medium, "Executing system commands", true},
	{"print_output", `print\(`, risk.Safe, "Output display only", true},
}

var seedAnalyzer = &fake{name: "seed", fn: func(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	var out []risk.Finding
	for _, code := range c.Code {
		for _, r := range seedRules {
			if regexp.MustCompile("(?i)" + r.pattern).MatchString(code.Text) {
				out = append(out, risk.Finding{Analyzer: "seed", Rule: r.name, Level: r.level, Reason: r.reason, Reversible: r.reversible})
			}
		}
	}
	return out, nil
}}

// TestSeed004Examples runs seed 004's examples, in its own action form,
// through the engine with the seed's rules as a custom analyzer.
func TestSeed004Examples(t *testing.T) {
	tests := []struct {
		name       string
		action     string
		level      risk.Level
		reasons    []string
		reversible bool
		resource   string
		verdict    risk.Verdict
	}{
		{"safe", `{"action": "code", "code": "print('hello')"}`, risk.Safe,
			[]string{"Output display only"}, true, "", risk.Allow},
		{"medium file write", `{"action": "code", "code": "with open('/tmp/output.txt', 'w') as f: f.write('data')"}`, risk.Medium,
			[]string{"File modification may overwrite existing content"}, true, "file:/tmp/output.txt", risk.Allow},
		{"critical recursive delete", `{"action": "code", "code": "import subprocess; subprocess.run(['rm', '-rf', '/home/user/data'])"}`, risk.Critical,
			[]string{"Recursive file deletion can cause irreversible data loss", "Executing system commands"}, false, "file:/home/user/data", risk.Ask},
		{"multiple rules", `{"action": "code", "code": "\nimport subprocess\nimport os\nsubprocess.run(['make', 'clean'])\nos.remove('/tmp/build.log')\n"}`, risk.High,
			[]string{"File deletion may cause data loss", "Executing system commands"}, false, "file:/tmp/build.log", risk.Ask},
	}
	e := newEngine(t, WithAnalyzers(seedAnalyzer))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := risk.ParseAction([]byte(tt.action), risk.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			as, d, err := e.Check(context.Background(), a)
			if err != nil {
				t.Fatal(err)
			}
			if as.Level != tt.level {
				t.Errorf("level %v, want %v (%q)", as.Level, tt.level, ruleIDs(as))
			}
			for _, r := range tt.reasons {
				if !slices.Contains(as.Reasons, r) {
					t.Errorf("reasons %q lack %q", as.Reasons, r)
				}
			}
			if as.Reversible != tt.reversible {
				t.Errorf("reversible %v, want %v", as.Reversible, tt.reversible)
			}
			if tt.resource != "" && !slices.Contains(as.AffectedResources, tt.resource) {
				t.Errorf("affected resources %q lack %q", as.AffectedResources, tt.resource)
			}
			if as.EstimatedImpact != risk.Impact(tt.level) {
				t.Errorf("impact %q", as.EstimatedImpact)
			}
			if (len(as.Recommendations) > 0) != tt.level.AtLeast(risk.High) {
				t.Errorf("recommendations %q at %v", as.Recommendations, tt.level)
			}
			if d.Verdict != tt.verdict {
				t.Errorf("decision %v, want %v", d, tt.verdict)
			}
		})
	}
}

func TestHints(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name   string
		action risk.Action
		want   []string // rule=level
	}{
		{"agent says HIGH", risk.Action{Tool: "execute_bash", Arguments: map[string]any{"command": "ls"}, SecurityRisk: "HIGH"},
			[]string{"hints.agent_security_risk=high"}},
		{"agent says medium", risk.Action{Tool: "execute_bash", SecurityRisk: "medium"},
			[]string{"hints.agent_security_risk=medium"}},
		{"agent says LOW: no finding, never lowers", risk.Action{Tool: "execute_bash", SecurityRisk: "LOW"}, nil},
		{"agent label unknown", risk.Action{Tool: "execute_bash", SecurityRisk: "UNKNOWN"}, nil},
		{"known tool, no label", risk.Action{Tool: "Bash"}, nil},
		{"known tool with annotations: catalog wins", risk.Action{Tool: "Read", Annotations: &risk.Annotations{}}, nil},
		{"unknown tool", risk.Action{Tool: "deploy"}, []string{"hints.unknown_tool=low"}},
		{"unknown tool, read-only", risk.Action{Tool: "get", Annotations: &risk.Annotations{ReadOnlyHint: &yes}}, nil},
		{"unknown tool, default annotations are destructive", risk.Action{Tool: "put", Annotations: &risk.Annotations{}},
			[]string{"hints.mcp_destructive=medium"}},
		{"unknown tool, not destructive", risk.Action{Tool: "put", Annotations: &risk.Annotations{DestructiveHint: &no}},
			[]string{"hints.mcp_writes=low"}},
		{"unknown tool given a destroying option", risk.Action{Tool: "mcp__infra__apply", Arguments: map[string]any{"destroy": true}},
			[]string{"hints.tool_args=high", "hints.unknown_tool=low"}},
		{"unknown removing tool given a scope kind", risk.Action{Tool: "mcp__k8s__delete", Arguments: map[string]any{"kind": "Namespace"}},
			[]string{"hints.tool_args=critical", "hints.tool_verb=high", "hints.unknown_tool=low"}},
		{"unknown tool, label and annotations", risk.Action{Tool: "put", SecurityRisk: "HIGH", Annotations: &risk.Annotations{}},
			[]string{"hints.agent_security_risk=high", "hints.mcp_destructive=medium"}},
	}
	for _, tt := range tests {
		c := tool.Normalize(&tt.action, "/w", "/h")
		fs, err := hints{}.Analyze(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.Rule+"="+f.Level.String())
			if f.Analyzer != "hints" || f.Reason == "" {
				t.Errorf("%s: finding %+v", tt.name, f)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: findings %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHintsFromParsedAction checks that seed 000's inline label reaches the
// hints through the engine's default analyzers.
func TestHintsFromParsedAction(t *testing.T) {
	a, err := risk.ParseAction([]byte(`{"name":"my_tool","arguments":{"x":"1","security_risk":"HIGH"},"annotations":{"readOnlyHint":true}}`), risk.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, WithAnalyzers(hints{}))
	as, d, err := e.Check(context.Background(), a)
	if err != nil || as.Level != risk.High || d.Verdict != risk.Ask {
		t.Errorf("Check = %v, %v, %v; want high, ask", as.Level, d, err)
	}
}

// The engine must not repeat seed 004's blind spots: every spelling of a
// recursive delete is judged by where it points.
func TestRecursiveDeleteForms(t *testing.T) {
	eng, err := New(WithCwd("/home/user/project"), WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want risk.Level
	}{
		{"rm -fr ~", risk.Critical},
		{"rm -r -f ~", risk.Critical},
		{"rm --recursive --force ~/", risk.Critical},
		{"rm -rf /", risk.Critical},
		{"r''m -rf /", risk.Critical},
		{"busybox rm -rf ~", risk.Critical},
		{"sudo rm -rf --no-preserve-root /", risk.Critical},
		{"rm -r build/", risk.Medium},
		{"rm -rf ./dist", risk.Medium},
		{"rm notes.txt", risk.Medium}, // a workspace file gone for good (package effect)
		{"rm -- -rf /", risk.Medium},  // not recursive: the file -rf, and /, which rm refuses,
	} {
		as, _, err := eng.Check(context.Background(), risk.Action{Tool: "Bash", Arguments: map[string]any{"command": tc.cmd}})
		if err != nil {
			t.Fatal(err)
		}
		if as.Level != tc.want {
			t.Errorf("%q: level %v, want %v (%v)", tc.cmd, as.Level, tc.want, as.Reasons)
		}
	}
}

// Seed 004's examples through the whole engine: the rule pack and the code
// analyzer together.
func TestSeedExamples(t *testing.T) {
	eng, err := New(WithCwd("/home/user/project"), WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(src string) risk.Assessment {
		as, _, err := eng.Check(context.Background(), risk.Action{Tool: "python", Arguments: map[string]any{"code": src}})
		if err != nil {
			t.Fatal(err)
		}
		return as
	}
	if got := check("print('hello')"); got.Level != risk.Safe {
		t.Errorf("print: level %v, want safe (%v)", got.Level, got.Reasons)
	}
	if w := check("with open('/tmp/output.txt', 'w') as f: f.write('data')"); w.Level != risk.Medium || !w.Reversible {
		t.Errorf("file write: %+v", w)
	}
	d := check("import subprocess; subprocess.run(['rm', '-rf', '/home/user/data'])")
	if d.Level != risk.Critical || d.Reversible || !slices.Contains(d.AffectedResources, "file:/home/user/data") {
		t.Errorf("rm -rf via subprocess: level %v reversible %v resources %v", d.Level, d.Reversible, d.AffectedResources)
	}
	if !d.RequiresApproval() || len(d.Recommendations) == 0 || d.EstimatedImpact != "Potentially severe and irreversible impact" {
		t.Errorf("critical assessment lacks approval, recommendations or impact: %+v", d)
	}
	if m := check("import subprocess\nimport os\nsubprocess.run(['make', 'clean'])\nos.remove(build_log)"); m.Level != risk.High || m.Reversible {
		t.Errorf("multiple rules: %+v", m)
	}
}
