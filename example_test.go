package warden_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// deleteAnalyzer is a tiny analyzer: recursive deletes in shell commands
// are critical, and it cannot read commands that hold backticks.
type deleteAnalyzer struct{}

func (deleteAnalyzer) Name() string { return "delete" }

func (deleteAnalyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	var out []risk.Finding
	for _, s := range c.Shell {
		if strings.Contains(s, "`") {
			return out, fmt.Errorf("cannot parse %q", s)
		}
		if strings.Contains(s, "rm -rf") {
			out = append(out, risk.Finding{Analyzer: "delete", Rule: "delete.recursive", Level: risk.Critical,
				Reason: "Recursive file deletion", Resource: "file:" + c.Cwd})
		}
	}
	return out, nil
}

func ExampleEngine_Check() {
	eng, err := warden.New(warden.WithAnalyzers(deleteAnalyzer{}), warden.WithCwd("/home/user/project"))
	if err != nil {
		panic(err)
	}
	a, err := risk.ParseAction([]byte(`{"tool":"Bash","arguments":{"command":"rm -rf build"}}`), eng.Limits())
	if err != nil {
		panic(err)
	}
	as, d, err := eng.Check(context.Background(), a)
	fmt.Println(as.Level, as.Score, as.SecurityRisk, as.Reversible, err)
	fmt.Println(as.Reasons, as.AffectedResources)
	fmt.Println(as.EstimatedImpact)
	fmt.Println(d)
	// Output:
	// critical 97 HIGH false <nil>
	// [Recursive deletion of /home/user/project/build removes everything under it for good Recursive file deletion] [file:/home/user/project/build file:/home/user/project]
	// Potentially severe and irreversible impact
	// ask (confirm_risky)
}

// An analyzer that cannot assess an action makes it unknown, which the
// default policy asks about.
func ExampleEngine_Check_unknown() {
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}))
	as, d, _ := eng.Check(context.Background(), risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "echo `date`"}})
	fmt.Println(as.Level, as.Unknown, d)
	// Output:
	// unknown true ask (confirm_risky)
}

// An action that is not valid at all is answered, never dropped.
func ExampleEngine_Check_invalid() {
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}))
	as, d, err := eng.Check(context.Background(), risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls\x00"}})
	fmt.Println(as.Level, d.Verdict, risk.IsInputError(err))
	fmt.Println(err)
	// Output:
	// unknown ask true
	// invalid action: a string contains a NUL byte
}

func ExampleEngine_Reject() {
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}))
	_, err := risk.ParseAction([]byte(`{"tool":"Bash","arguments":42}`), eng.Limits())
	as, d := eng.Reject(context.Background(), err)
	fmt.Println(as.Level, d.Verdict)
	fmt.Println(as.Reasons[0])
	// Output:
	// unknown ask
	// invalid action: arguments must be a JSON object or an argv list, not a number
}

func ExampleWithMode() {
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}), warden.WithMode(policy.ModeDontAsk))
	_, d, _ := eng.Check(context.Background(), risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm -rf /"}})
	fmt.Println(d)
	// Output:
	// deny (mode.dontAsk)
}

func ExampleWithConfirmationPolicy() {
	lenient, _ := policy.NewConfirmRisky(risk.Critical, false)
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}), warden.WithConfirmationPolicy(lenient))
	_, d, _ := eng.Check(context.Background(), risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "echo `date`"}})
	fmt.Println(d.Verdict)
	// Output:
	// allow
}

func ExampleWithPolicy() {
	p, err := policy.Parse("policy.yaml", []byte("mode: plan\nconfirmation:\n  threshold: medium\n"))
	if err != nil {
		panic(err)
	}
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}), warden.WithPolicy(p))
	read := risk.Action{Tool: "Read", Arguments: map[string]any{"file_path": "README.md"}}
	write := risk.Action{Tool: "Write", Arguments: map[string]any{"file_path": "README.md", "content": "x"}}
	for _, a := range []risk.Action{read, write} {
		_, d, _ := eng.Check(context.Background(), a)
		fmt.Println(a.Tool, d)
	}
	// Output:
	// Read allow (confirm_risky)
	// Write ask (mode.plan)
}
