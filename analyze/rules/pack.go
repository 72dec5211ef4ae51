package rules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Sample is an example a rule must or must not fire on: either a bare string,
// read as the rule's first target (a Bash command, python code, an SQL query,
// written content, a fetched URL or a file path), or a whole action.
type Sample struct {
	Text   string
	Action *risk.Action
}

// UnmarshalYAML reads a string or an action mapping.
func (s *Sample) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s.Text = n.Value
		return nil
	}
	var m map[string]any
	if err := n.Decode(&m); err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	a, err := risk.ParseAction(b, risk.DefaultLimits)
	if err != nil {
		return err
	}
	s.Action = &a
	return nil
}

// SampleEnv is the environment samples are evaluated in: the eval corpus's.
const (
	SampleCwd  = "/home/user/project"
	SampleHome = "/home/user"
)

// Call builds the tool call a sample stands for under rule r.
func (s Sample) Call(r *Rule) *tool.Call {
	a := s.Action
	if a == nil {
		a = &risk.Action{}
		t := r.targets()[0]
		switch t {
		case OnCommand:
			a.Tool, a.Arguments = "Bash", map[string]any{"command": s.Text}
		case OnCode:
			a.Tool, a.Arguments = "python", map[string]any{"code": s.Text}
		case OnSQL:
			a.Tool, a.Arguments = "query", map[string]any{"sql": s.Text}
		case OnContent:
			a.Tool, a.Arguments = "Write", map[string]any{"file_path": SampleCwd + "/file.txt", "content": s.Text}
		case OnURL:
			a.Tool, a.Arguments = "WebFetch", map[string]any{"url": s.Text, "prompt": "summarize"}
		case OnPath:
			a.Tool, a.Arguments = "Read", map[string]any{"file_path": s.Text}
			if slices.Contains(r.Classes, tool.Edit) {
				a.Tool, a.Arguments = "Write", map[string]any{"file_path": s.Text, "content": "x"}
			}
		case OnText:
			a.Tool, a.Arguments = "custom_tool", map[string]any{"input": s.Text}
		}
	}
	return tool.Normalize(a, SampleCwd, SampleHome)
}

// Matches reports whether r fires on the sample.
func (s Sample) Matches(r *Rule) (bool, error) {
	rc := *r
	idx := index([]*Rule{&rc})
	st := idx.newScanState()
	ok, _, err := rc.match(s.Call(&rc), st, 0)
	return ok, err
}

// String describes the sample for test output.
func (s Sample) String() string {
	if s.Action != nil {
		b, _ := json.Marshal(s.Action)
		return string(b)
	}
	return s.Text
}

type packFile struct {
	// Vars are pattern fragments: {{name}} in a pattern is replaced by the
	// fragment, so that a long shared piece is written once.
	Vars  map[string]string `yaml:"vars"`
	Rules []yaml.Node       `yaml:"rules"`
}

var varRef = lazyre.New(`\{\{([a-z_][a-z0-9_]*)\}\}`)

func expandVars(pattern string, vars map[string]string) (string, error) {
	var missing string
	out := varRef.Get().ReplaceAllStringFunc(pattern, func(m string) string {
		name := m[2 : len(m)-2]
		v, ok := vars[name]
		if !ok {
			missing = name
		}
		return v
	})
	if missing != "" {
		return "", fmt.Errorf("pattern uses undefined var {{%s}}", missing)
	}
	return out, nil
}

// Load parses a rule pack in YAML. name is used in error positions:
// "name:line:col: message".
func Load(name string, data []byte) ([]Rule, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		top := doc.Content[0].Content
		for i := 0; i+1 < len(top); i += 2 {
			if k := top[i]; k.Value != "vars" && k.Value != "rules" {
				return nil, fmt.Errorf("%s:%d:%d: unknown key %q (want vars, rules)", name, k.Line, k.Column, k.Value)
			}
		}
	}
	var pf packFile
	if err := doc.Decode(&pf); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// A var may use vars defined before it; expand until none is left.
	for range 8 {
		changed := false
		for k, v := range pf.Vars {
			x, err := expandVars(v, pf.Vars)
			if err != nil {
				return nil, fmt.Errorf("%s: var %s: %w", name, k, err)
			}
			if x != v {
				pf.Vars[k], changed = x, true
			}
		}
		if !changed {
			break
		}
	}
	out := make([]Rule, 0, len(pf.Rules))
	for i := range pf.Rules {
		n := &pf.Rules[i]
		if err := knownKeys(n); err != nil {
			return nil, fmt.Errorf("%s:%w", name, err)
		}
		var r Rule
		var err error
		if err = n.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %w", name, n.Line, n.Column, err)
		}
		if r.Pattern, err = expandVars(r.Pattern, pf.Vars); err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %s: %w", name, n.Line, n.Column, r.Name, err)
		}
		if err := r.compile(); err != nil {
			return nil, fmt.Errorf("%s:%d:%d: %w", name, n.Line, n.Column, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ruleKeys are the keys a rule mapping may have: Rule's yaml tags.
var ruleKeys = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	for f := range reflect.TypeFor[Rule]().Fields() {
		if tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); tag != "" && tag != "-" {
			keys[tag] = true
		}
	}
	return keys
})

// knownKeys reports the first key of rule mapping n that a Rule does not
// have, as "line:col: unknown key": a misspelt key (loked: true) must
// not pass for a rule that does what it says.
func knownKeys(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return nil // a wrong type is reported when decoding
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !ruleKeys()[k.Value] {
			return fmt.Errorf("%d:%d: unknown key %q", k.Line, k.Column, k.Value)
		}
	}
	return nil
}

//go:generate go test -run TestPackGenerated . -args -update
//go:generate go test -run ^TestKeywordsGenerated$ . -args -update
//go:generate go test -run ^TestShapesGenerated$ . -args -update

// defaultRules are the built-in rules with their programs, made once: the
// copies Default hands out share the programs, so each pattern and
// condition is compiled once a process, when a call first needs it.
//
// A process does not check the pack again: it is generated from
// default.yaml by the package's tests (TestPackGenerated fails when it is
// stale), which also check every rule as compile does and the names
// unique (TestPackChecked). Only what compile derives is set here.
var defaultRules = sync.OnceValues(func() ([]Rule, error) {
	rules := slices.Clone(defaultPack)
	for i := range rules {
		r := &rules[i]
		r.prog = newProgram(r)
		r.prog.gate = defaultGates[i]
		r.prog.mode, r.prog.known = defaultModes[i], true
		r.derive()
	}
	return rules, nil
})

// derive sets on a rule of the default pack what compile sets on a rule
// it checked (its func, its target indices); TestPackChecked checks
// derive and compile agree.
func (r *Rule) derive() {
	if r.FuncName != "" {
		r.Func = Funcs[r.FuncName]
	}
	r.cmd = commandRules[r.FuncName]
	r.fgate = funcGates[r.FuncName] != nil
	r.tix = r.tix[:0]
	for _, t := range r.targets() {
		r.tix = append(r.tix, targetIndex(t))
	}
}

// Default returns a fresh copy of the built-in default rule pack, without
// its samples. The pack is written in default.yaml and compiled into the
// binary as Go data (pack_gen.go, made by go generate), so that a new
// process parses no YAML; its samples are checked by the package's tests.
func Default() ([]Rule, error) {
	rules, err := defaultRules()
	if err != nil {
		return nil, err
	}
	return slices.Clone(rules), nil
}
