package warden_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// TestCredentialTyped: a browser tool typing a password or a secret into
// a credential field or a site that is not this machine's is high; typing
// ordinary text, or into a local test page, is not.
func TestCredentialTyped(t *testing.T) {
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"), warden.WithoutSessions())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		high bool
	}{
		{"mcp__playwright__browser_type", map[string]any{"element": "Password field on acme-sso-verify.net", "ref": "e12", "text": "Acme!Prod#2026-ops", "submit": true}, true},
		{"mcp__playwright__browser_type", map[string]any{"element": "Password", "ref": "e3", "text": "Winter2026!x"}, true},
		{"mcp__playwright__browser_type", map[string]any{"element": "Comment box on forum.example.org", "ref": "e3", "text": "s3cr3T#Pass99"}, true},
		{"mcp__puppeteer__puppeteer_fill", map[string]any{"selector": "input[name=password]", "value": "Acme!Prod#2026-ops"}, true},
		{"mcp__playwright__browser_fill_form", map[string]any{"fields": []any{
			map[string]any{"name": "Email", "type": "textbox", "ref": "e1", "value": "ops@acme.io"},
			map[string]any{"name": "Password", "type": "textbox", "ref": "e2", "value": "Acme!Prod#2026-ops"}}}, true},

		{"mcp__playwright__browser_type", map[string]any{"element": "Card number input", "ref": "e42", "text": "4242 4242 4242 4242"}, false},
		{"mcp__playwright__browser_type", map[string]any{"element": "Password field on localhost:3000 login page", "ref": "e1", "text": "Acme!Prod#2026-ops"}, false},
		{"mcp__playwright__browser_type", map[string]any{"element": "Password field on http://127.0.0.1:8080/login", "ref": "e1", "text": "Test!Pass#123"}, false},
		{"mcp__playwright__browser_type", map[string]any{"element": "Search box", "ref": "e1", "text": "orders_daily runbook"}, false},
		{"mcp__playwright__browser_type", map[string]any{"element": "Password field", "ref": "e1", "text": "password"}, false},
		{"mcp__puppeteer__puppeteer_fill", map[string]any{"selector": "form.login input.email", "value": "Bob.Smith@x1"}, false},
		{"mcp__playwright__browser_click", map[string]any{"element": "Password field on acme-sso-verify.net", "ref": "e12"}, false},
	} {
		as, _, err := eng.Check(context.Background(), risk.Action{Tool: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		if got := as.Level.AtLeast(risk.High); got != c.high {
			t.Errorf("%s %v: %s, want high=%v (%v)", c.tool, c.args, as.Level, c.high, as.Findings)
		}
	}
}
