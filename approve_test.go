package warden_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// TestApprove: an approved call is not asked about again — for the rest
// of its conversation, or, approved for the project, by every engine that
// loads the project's policy; never past a deny rule or a critical,
// irreversible finding.
func TestApprove(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	p, err := policy.Parse("p.yaml", []byte(`deny: ["Bash(kubectl delete deployment prod-*)"]`))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := warden.New(warden.WithPolicy(p), warden.WithCwd(repo), warden.WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	act := func(session, cmd string) risk.Action {
		return risk.Action{Tool: "Bash", SessionID: session, Arguments: map[string]any{"command": cmd}}
	}
	verdict := func(a risk.Action) risk.Verdict {
		_, d, err := eng.Check(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return d.Verdict
	}
	const cmd = "kubectl delete deployment web-1 -n staging"
	if v := verdict(act("s1", cmd)); v != risk.Ask {
		t.Fatalf("before approval: %s", v)
	}
	rule, err := eng.Approve(ctx, act("s1", cmd), policy.ScopeSession)
	if err != nil || rule != "Bash("+cmd+")" {
		t.Fatalf("Approve = %q, %v", rule, err)
	}
	if v := verdict(act("s1", cmd)); v != risk.Allow {
		t.Errorf("approved in s1, asked again: %s", v)
	}
	if v := verdict(act("s1", "kubectl delete deployment web-2 -n staging")); v != risk.Ask {
		t.Errorf("the approval covers another deployment: %s", v)
	}
	if v := verdict(act("s2", cmd)); v != risk.Ask {
		t.Errorf("the session approval leaks into s2: %s", v)
	}
	eng.EndSession(context.Background(), "s1")
	if v := verdict(act("s1", cmd)); v != risk.Ask {
		t.Errorf("the approval outlives its session: %s", v)
	}

	// a compound command cannot be remembered
	if _, err := eng.Approve(ctx, act("s1", cmd+" && rm -f notes.txt"), policy.ScopeSession); err == nil {
		t.Error("a compound command was remembered")
	}
	// a deny rule still wins
	if _, err := eng.Approve(ctx, act("s3", "kubectl delete deployment prod-db-0"), policy.ScopeSession); err != nil {
		t.Fatal(err)
	}
	if v := verdict(act("s3", "kubectl delete deployment prod-db-0")); v != risk.Deny {
		t.Errorf("an approval overrode a deny rule: %s", v)
	}
	// a locked action (critical destruction) is approved exactly, for the
	// conversation only: no rule is remembered, a variant is still asked
	// about, and it cannot be approved for the project
	rule, err = eng.Approve(ctx, act("s3", "rm -rf /home/user"), policy.ScopeSession)
	if err != nil || !strings.HasPrefix(rule, "exact action ") {
		t.Fatalf("Approve of a locked action = %q, %v", rule, err)
	}
	if v := verdict(act("s3", "rm -rf /home/user")); v != risk.Allow {
		t.Errorf("the exactly approved action is asked again: %s", v)
	}
	for _, variant := range []string{"rm -rf /home/user/", "rm -rf  /home/user", "rm -fr /home/user", "rm -rf ~"} {
		if v := verdict(act("s3", variant)); v == risk.Allow {
			t.Errorf("the approval of rm -rf /home/user allows %q", variant)
		}
	}
	if v := verdict(act("s4", "rm -rf /home/user")); v == risk.Allow {
		t.Errorf("the exact approval leaks into another session")
	}
	if _, err := eng.Approve(ctx, risk.Action{Tool: "Bash", Cwd: repo, Arguments: map[string]any{"command": "rm -rf /home/user"}}, policy.ScopeProject); err == nil ||
		!strings.Contains(err.Error(), "cannot be approved for the project") {
		t.Errorf("a project approval of a locked action: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".warden", "policy.yaml")); err == nil {
		t.Error("the refused project approval wrote the project's file")
	}

	// project scope: written to <repo>/.warden/policy.yaml, read by a new engine
	rule, err = eng.Approve(ctx, risk.Action{Tool: "Bash", Cwd: repo, Arguments: map[string]any{"command": cmd}}, policy.ScopeProject)
	if err != nil {
		t.Fatal(err)
	}
	if v := verdict(act("s9", cmd)); v != risk.Allow {
		t.Errorf("approved for the project, asked in the same engine: %s", v)
	}
	data, err := os.ReadFile(filepath.Join(repo, ".warden", "policy.yaml"))
	if err != nil || !strings.Contains(string(data), rule) {
		t.Fatalf("project file: %q, %v", data, err)
	}
	loaded, err := policy.Load(policy.FindSources(repo, ""))
	if err != nil {
		t.Fatal(err)
	}
	eng2, err := warden.New(warden.WithPolicy(loaded), warden.WithCwd(repo), warden.WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	if _, d, _ := eng2.Check(ctx, act("", cmd)); d.Verdict != risk.Allow {
		t.Errorf("a new engine on the project asks again: %+v", d)
	}
}

// The policy's analyzer settings reach the engine.
func TestPolicySettingsReachTheEngine(t *testing.T) {
	ctx := context.Background()
	p, err := policy.Parse("p.yaml", []byte(`
analyzers: {disabled_rules: [netguard.local_service]}
netguard: {extra_blocked_hosts: [api.example.com]}
`))
	if err != nil {
		t.Fatal(err)
	}
	eng, err := warden.New(warden.WithPolicy(p))
	if err != nil {
		t.Fatal(err)
	}
	as, _, _ := eng.Check(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "curl -s http://localhost:8080/health"}})
	for _, f := range as.Findings {
		if f.Rule == "netguard.local_service" {
			t.Errorf("a disabled rule still fires: %+v", f)
		}
	}
	as, _, _ = eng.Check(ctx, risk.Action{Tool: "WebFetch", Arguments: map[string]any{"url": "https://api.example.com/x", "prompt": "p"}})
	if !as.Level.AtLeast(risk.High) {
		t.Errorf("extra_blocked_hosts from the policy is not applied: %s %v", as.Level, as.Reasons)
	}
	p, _ = policy.Parse("p.yaml", []byte("analyzers: {disabled: [nosuch]}\n"))
	if _, err := warden.New(warden.WithPolicy(p)); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("an unknown analyzer name: %v", err)
	}
}
