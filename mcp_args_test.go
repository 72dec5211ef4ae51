package warden_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// TestMCPLookalikes: MCP calls that look like the high ones of the route
// groups (routes_test.go) but only read, grant little, keep a thing
// private or leave a control on stay below high.
func TestMCPLookalikes(t *testing.T) {
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"), warden.WithoutSessions())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []risk.Action{
		mcpA("kubernetes", "kubectl_get", `{"resourceType":"pods","namespace":"payments","output":"wide"}`),
		mcpA("kubernetes", "kubectl_describe", `{"resourceType":"pod","name":"payments-api-7d9f8c6b5-x2kqp","namespace":"payments"}`),
		mcpA("kubernetes", "kubectl_logs", `{"resourceType":"pod","name":"payments-api-7d9f8c6b5-x2kqp","namespace":"payments","previous":true,"tail":200}`),
		mcpA("kubernetes", "kubectl_rollout", `{"subCommand":"status","resourceType":"deployment","name":"payments-api","namespace":"payments"}`),
		mcpA("kubernetes", "kubectl_scale", `{"resourceType":"deployment","name":"web","namespace":"shop","replicas":3}`),
		mcpA("github", "add_collaborator", `{"owner":"acme","repo":"r","username":"bot","permission":"triage"}`),
		mcpA("github", "add_collaborator", `{"owner":"acme","repo":"r","username":"bot","permission":"read"}`),
		mcpA("gitlab", "update_project", `{"project_id":"platform/infra","visibility":"private"}`),
		mcpA("gitlab", "update_project", `{"project_id":"platform/infra","visibility":"internal"}`),
		mcpA("github", "update_branch_protection", `{"owner":"acme","repo":"r","branch":"main","enforce_admins":true,"allow_force_pushes":false}`),
		mcpA("redis", "set", `{"key":"feature:new_checkout","value":"false"}`),
		mcpA("redis", "set", `{"key":"migration:users:last_id","value":"184500"}`),
		mcpA("redis", "get", `{"key":"feature:auth:mfa_required"}`),
		mcpA("mongodb", "find", `{"database":"app","collection":"users","filter":{}}`),
		mcpA("mongodb", "count", `{"database":"app","collection":"users","query":{}}`),
		mcpA("gitlab", "create_or_update_file", `{"project_id":"p","file_path":".gitlab-ci.yml","branch":"main","commit_message":"ci","content":"test:\n  script:\n    - npm test\n"}`),
	} {
		as, _, err := eng.Check(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		if as.Level.AtLeast(risk.High) {
			t.Errorf("%s %v: %s, want below high (%v)", a.Tool, a.Arguments, as.Level, as.Findings)
		}
	}
}
