package secrets

import "testing"

func TestForService(t *testing.T) {
	hosts := []string{"github.com", "ghcr.io", "github*"}
	for host, want := range map[string]bool{
		"github.com": true, "api.github.com": true, "API.GitHub.com.": true, "ghcr.io": true,
		"github.example.com": true, "code.githubenterprise.example": true,
		"notgithub.com": false, "github.com.evil.example": false, "api.github.com-x.evil.example": true, // the last: a label that starts with github, read as a company's server (a lure so spelled stays a hard-coded secret: high)
		"evil.example.com": false, "ghcr.io.example": false, "203.0.113.5": false, "": false,
	} {
		if got := ForService(host, hosts); got != want {
			t.Errorf("ForService(%q) = %v, want %v", host, got, want)
		}
	}
}

// Every rule of a kind of secret that one service issues names that
// service's hosts, or says no request carries it; the generic kinds
// (passwords, connection strings, tokens of any issuer) name none.
func TestServicesOfRules(t *testing.T) {
	d := Default()
	for typ, want := range map[string]string{
		"github_token": "github.com", "gitlab_token": "gitlab.com", "slack_token": "slack.com", "slack_webhook": "slack.com",
		"stripe_key": "stripe.com", "google_api_key": "googleapis.com", "openai_key": "openai.com",
		"anthropic_key": "anthropic.com", "npm_token": "npmjs.org", "pypi_token": "pypi.org", "aws_access_key": "amazonaws.com",
	} {
		hosts, never := d.Services(typ)
		if never || !ForService(want, hosts) {
			t.Errorf("%s: services %v (never sent %v), want %s among them", typ, hosts, never, want)
		}
	}
	for _, typ := range []string{"private_key", "aws_secret_key"} {
		if hosts, never := d.Services(typ); !never || len(hosts) > 0 {
			t.Errorf("%s: services %v, never sent %v; want never sent", typ, hosts, never)
		}
	}
	for _, typ := range []string{"jwt", "db_connection_string", "url_password", "command_line_password", "password_in_code", "http_auth_header", "generic_api_key"} {
		if hosts, never := d.Services(typ); never || len(hosts) > 0 {
			t.Errorf("%s: services %v, never sent %v; want none (not judged)", typ, hosts, never)
		}
	}
}
