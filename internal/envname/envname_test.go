package envname

import "testing"

func TestSecret(t *testing.T) {
	for _, n := range []string{"NPM_TOKEN", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PWD", "OPENAI_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS_JSON", "SSH_PRIVATE_KEY", "gh_pat", "secret"} {
		if !Secret(n) {
			t.Errorf("Secret(%q) = false", n)
		}
	}
	for _, n := range []string{"DEBUG", "HOME", "PATH", "NODE_ENV", "TOKEN_URL", "PASSWORD_FILE", "AWS_ACCESS_KEY_ID", "SECRET_NAME", "KEYBOARD"} {
		if Secret(n) {
			t.Errorf("Secret(%q) = true", n)
		}
	}
}

func TestOwnService(t *testing.T) {
	for _, c := range []struct {
		name, host string
		own        bool
	}{
		{"GITHUB_TOKEN", "api.github.com", true},
		{"TELEGRAM_BOT_TOKEN", "api.telegram.org", true},
		{"NPM_TOKEN", "registry.npmjs.org", true},
		{"GITHUB_TOKEN", "x.example", false},
		{"NPM_TOKEN", "npm-metrics.dev", false}, // another party's name that starts with npm
		{"GITHUB_TOKEN", "github-status.io", false},
		{"GITHUB_TOKEN", "raw.githubusercontent.com", true},
		{"API_TOKEN", "api.example.com", false},
		{"AWS_SECRET_ACCESS_KEY", "aws-metrics.example", false},
		{"GITHUB_TOKEN", "", false},
	} {
		if got := OwnService(c.name, c.host); got != c.own {
			t.Errorf("OwnService(%q, %q) = %v", c.name, c.host, got)
		}
	}
}
