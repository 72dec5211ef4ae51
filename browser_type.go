package warden

import (
	"slices"
	"strings"
	"unicode"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// A browser tool that types or fills text (playwright's browser_type and
// browser_fill_form, puppeteer_fill, another server's tool of those
// names) hands the page what it types: a password or a secret typed into
// a credential field, or into a site that is not this machine's, is a
// credential given away, as a secret sent to a host that is not its
// service is (high). Ordinary text, and what is typed into a local test
// page, is not.

// ruleCredentialTyped is the finding's rule.
const ruleCredentialTyped = "browser.credential_typed"

// credentialFieldWords name a field that takes a credential.
var credentialFieldWords = []string{"password", "passwd", "passphrase", "pwd", "passcode", "secret", "token", "api key",
	"apikey", "api_key", "credential", "otp", "one-time", "2fa", "mfa", "pin code", "private key"}

// hostInText finds a host name in an element's description ("Password
// field on acme-sso-verify.net").
var hostInText = lazyre.New(`(?i)(?:^|\s|://)((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}|localhost|127\.0\.0\.1)(?::\d+)?\b`)

// typedFields returns the text a browser call types and the description
// of where (element, selector, field name, then a tab and the host the
// element's description names, if any), one pair per field.
func typedFields(c *tool.Call) (texts, targets []string) {
	if c.Class != tool.Browser && c.Like != tool.Browser {
		return nil, nil
	}
	n := strings.ToLower(c.Name)
	if !strings.Contains(n, "type") && !strings.Contains(n, "fill") {
		return nil, nil
	}
	args := c.Action.Arguments
	where := func(m map[string]any) string {
		var b []string
		for _, k := range [...]string{"element", "selector", "name", "label", "type", "placeholder"} {
			if s, ok := m[k].(string); ok {
				b = append(b, s)
			}
		}
		// the host a human description names (a CSS selector's
		// input.email is none), after a tab
		for _, k := range [...]string{"element", "label", "url"} {
			if s, ok := m[k].(string); ok {
				if h := hostInText.Get().FindStringSubmatch(s); h != nil {
					b = append(b, "\t"+h[1])
					break
				}
			}
		}
		return strings.Join(b, " ")
	}
	for _, k := range [...]string{"text", "value"} {
		if s, ok := args[k].(string); ok && s != "" {
			texts, targets = append(texts, s), append(targets, where(args))
		}
	}
	if fields, ok := args["fields"].([]any); ok {
		for _, f := range fields {
			if m, ok := f.(map[string]any); ok {
				if s, ok := m["value"].(string); ok && s != "" {
					texts, targets = append(texts, s), append(targets, where(m))
				}
			}
		}
	}
	return texts, targets
}

// credentialTyped returns the finding that a browser call types a
// password or a secret where it leaves this machine, if it does.
func credentialTyped(c *tool.Call) (risk.Finding, bool) {
	texts, targets := typedFields(c)
	for i, text := range texts {
		secret := slices.ContainsFunc(c.SecretsFound, func(s tool.Secret) bool { return strings.Contains(text, s.Raw) })
		if !secret && !passwordShaped(text) {
			continue
		}
		target, host, _ := strings.Cut(strings.ToLower(targets[i]), "\t")
		field := slices.ContainsFunc(credentialFieldWords, func(w string) bool { return strings.Contains(target, w) })
		local := host != "" && (netguard.Local(host) || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".test"))
		if local || !field && host == "" {
			continue
		}
		why := "a credential field"
		if host != "" {
			why = host
		}
		return risk.Finding{Analyzer: "hints", Rule: ruleCredentialTyped, Level: risk.High, Resource: "browser:" + host,
			Reason: "Tool " + c.Name + " types a password or secret into " + why + ": whoever runs that page gets the credential"}, true
	}
	return risk.Finding{}, false
}

// passwordShaped reports text that reads as a password: 8 to 128
// characters without spaces, with at least three of lower case, upper
// case, digits and symbols (Acme!Prod#2026-ops; not 4242 4242 4242 4242,
// hello-world or 20261126).
func passwordShaped(s string) bool {
	if len(s) < 8 || len(s) > 128 {
		return false
	}
	var lower, upper, digit, symbol bool
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			return false
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		default:
			symbol = true
		}
	}
	n := 0
	for _, b := range [...]bool{lower, upper, digit, symbol} {
		if b {
			n++
		}
	}
	return n >= 3
}
