// Package envname reads the names of environment variables: which hold
// secrets (NPM_TOKEN, AWS_SECRET_ACCESS_KEY), and which service a secret
// belongs to. The code and inline analyzers judge a program that sends
// such a variable by it, as shell analysis judges $NPM_TOKEN in a curl
// command line (analyze/shell keeps the same rules for the shell).
package envname

import "strings"

// Secret reports whether the variable name says it holds a credential:
// it contains SECRET, TOKEN, PASSWORD, PASSWD, PASSPHRASE, API_KEY,
// ACCESS_KEY, PRIVATE_KEY, CREDENTIAL, AUTH_KEY, SESSION_KEY, _PAT or
// _PWD, and does not name where one is (…_URL, …_FILE, …_PATH, …_NAME,
// …_ID).
func Secret(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range [...]string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTH_KEY", "SESSION_KEY", "_PAT", "_PWD"} {
		if strings.Contains(n, w) {
			return !strings.HasSuffix(n, "_URL") && !strings.HasSuffix(n, "_FILE") && !strings.HasSuffix(n, "_PATH") && !strings.HasSuffix(n, "_NAME") && !strings.HasSuffix(n, "_ID")
		}
	}
	return false
}

// OwnService reports whether the secret in variable name goes to the
// service it is for: the variable's first word is a label of host, or
// begins one that goes on in letters (GITHUB_TOKEN to api.github.com or
// raw.githubusercontent.com, NPM_TOKEN to registry.npmjs.org,
// TELEGRAM_BOT_TOKEN to api.telegram.org). A label that only starts
// with the word and goes on after a hyphen or digit names some other
// party (npm-metrics.dev, github-status.io). Generic first words (API_,
// APP_, PROD_ …) name no service.
func OwnService(name, host string) bool {
	word, _, _ := strings.Cut(strings.ToLower(name), "_")
	if len(word) < 3 || host == "" {
		return false
	}
	switch word {
	case "api", "app", "my", "prod", "dev", "secret", "access", "client", "auth", "private", "token", "user", "admin", "test", "web", "aws", "the":
		return false
	}
	for label := range strings.SplitSeq(strings.ToLower(host), ".") {
		if rest, ok := strings.CutPrefix(label, word); ok && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz") == "" {
			return true
		}
	}
	return false
}
