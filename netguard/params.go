package netguard

import (
	"net/url"
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// RuleCredentialParam is a URL whose query names a credential
// (aws_secret=…, api_key=…, token=…, password=…) with a value that is
// no placeholder, requested from a host off the machine that is not the
// credential's service: the credential leaves in the URL, on every route
// (a fetch tool, curl, wget, code, an MCP fetch). High: asked, as a
// detector's secret in a URL is locked (exfil.secret) only when the
// detector knows its shape.
const RuleCredentialParam = "exfil.url_credential"

// credentialParams reports the URLs of c whose query carries a
// credential by name (see credentialParam) to a host that is not its
// service.
func credentialParams(c *tool.Call) []risk.Finding {
	var out []risk.Finding
	check := func(u string) {
		q := strings.IndexByte(u, '?')
		if q < 0 || strings.IndexByte(u[q:], '=') < 0 {
			return
		}
		name, value := credentialIn(u[q+1:])
		if name == "" {
			return
		}
		t, err := parseURL(u)
		if err != nil || t.host == "" {
			return
		}
		cat := classifyName(t.host).cat
		if t.addr.IsValid() {
			cat = classify(t.addr).cat
		}
		if cat.Local() || cat.Internal() || ownService(name, value, t.host) {
			return
		}
		out = append(out, risk.Finding{Analyzer: Name, Rule: RuleCredentialParam, Level: risk.High, Resource: resource(cutHost(u)),
			Reason: "The URL's query carries a credential by name (" + name + "=…) to " + cutHost(u) + ", which is not the credential's service: it leaves in the URL"})
	}
	seen := 0
	for _, u := range c.URLs {
		if seen++; seen > 16 {
			break
		}
		check(u)
	}
	for _, d := range c.Dests {
		if seen++; seen > 16 || len(out) > 0 {
			break
		}
		if d.URL != "" && !containsURL(c.URLs, d.URL) {
			check(d.URL)
		}
	}
	if len(out) > 1 {
		out = out[:1]
	}
	return out
}

func containsURL(us []string, u string) bool {
	for _, v := range us {
		if v == u {
			return true
		}
	}
	return false
}

// credentialIn returns the first parameter of a query (the text after
// '?') named as a credential whose value is no placeholder, and its
// value; "" when none is.
func credentialIn(query string) (name, value string) {
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	for n := 0; query != "" && n < 32; n++ {
		var kv string
		kv, query, _ = strings.Cut(query, "&")
		k, v, ok := strings.Cut(kv, "=")
		if !ok || len(k) > 64 {
			continue
		}
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		low := strings.ToLower(k)
		if credentialParam(low) && realValue(v) && (len(v) >= 20 || !weakName(low)) {
			return k, v
		}
	}
	return "", ""
}

// weakName reports a short parameter name that names a credential only
// sometimes (session=2024-fall, pass=2): its value must be long too.
func weakName(k string) bool {
	return k == "session" || k == "sid" || k == "pass" || k == "pwd"
}

// credentialParam reports a parameter name (lower-case) that names a
// credential: a secret, a password, a token, an API or access key, a
// private key, a session key. Not the tokens of paging (page_token,
// next_token, continuation_token, sync_token), a form's CSRF token, a
// token's type or expiry, nor the fields of a signed URL (X-Amz-Credential,
// X-Goog-Signature), which its own service checks.
func credentialParam(k string) bool {
	for _, w := range [...]string{"page", "next", "prev", "continuation", "cursor", "sync", "resume", "csrf", "xsrf", "nonce",
		"captcha", "type", "expir", "signature", "x-amz-", "x-goog-", "hint", "length", "policy", "reset", "forgot", "strength"} {
		if strings.Contains(k, w) {
			return false
		}
	}
	switch k {
	case "pwd", "pass", "sid", "session", "key":
		return k != "key" // a key of what: a search, a cache, a map
	}
	for _, w := range [...]string{"secret", "password", "passwd", "passphrase", "private_key", "privatekey", "access_key", "accesskey",
		"api_key", "apikey", "api-key", "token", "auth_key", "session_key", "sessionid", "session_id", "credential", "client_key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// realValue reports a parameter's value that may be a credential: long
// enough, of more than one kind of character, and no placeholder
// (<token>, ${TOKEN}, {{key}}, xxx, YOUR_API_KEY, DEMO_KEY, changeme).
func realValue(v string) bool {
	if len(v) < 12 || len(v) > 4096 {
		return false
	}
	low := strings.ToLower(v)
	for _, w := range [...]string{"<", ">", "${", "{{", "$(", "xxxx", "****", "...", "your", "placeholder", "changeme", "redacted",
		"dummy", "demo", "sample", "insert", "replace", "my_", "my-", "token_here", "key_here"} {
		if strings.Contains(low, w) {
			return false
		}
	}
	if strings.HasPrefix(v, "$") {
		return false // a variable the shell did not expand
	}
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		switch b := v[i]; {
		case b >= 'a' && b <= 'z':
			lower = true
		case b >= 'A' && b <= 'Z':
			upper = true
		case b >= '0' && b <= '9':
			digit = true
		default:
			other = true
		}
	}
	kinds := 0
	for _, k := range [...]bool{lower, upper, digit, other} {
		if k {
			kinds++
		}
	}
	return kinds >= 2 && (digit || len(v) >= 20)
}

// paramVendors map the first word of a credential parameter, or the
// prefix of a value, to the domains of the service it is for.
var paramVendors = []struct {
	word, prefix string
	domains      []string
}{
	{"aws", "AKIA", []string{"amazonaws.com", "aws.amazon.com", "amazon.com"}},
	{"github", "ghp_", []string{"github.com", "githubusercontent.com"}},
	{"gh", "gho_", []string{"github.com", "githubusercontent.com"}},
	{"gitlab", "glpat-", []string{"gitlab.com"}},
	{"google", "AIza", []string{"googleapis.com", "google.com"}},
	{"slack", "xox", []string{"slack.com"}},
	{"stripe", "sk_live_", []string{"stripe.com"}},
	{"openai", "sk-", []string{"openai.com"}},
	{"telegram", "", []string{"telegram.org"}},
	{"azure", "", []string{"azure.com", "windows.net", "microsoft.com"}},
}

// ownService reports whether the credential named name, holding value,
// goes to host as its own service: a parameter or value of a known
// vendor to the vendor's domains, or a parameter whose first word names
// the host (mapbox_token to api.mapbox.com).
func ownService(name, value, host string) bool {
	low := strings.ToLower(name)
	word, _, _ := strings.Cut(strings.NewReplacer("-", "_", ".", "_").Replace(low), "_")
	under := func(domains []string) bool {
		for _, d := range domains {
			if host == d || strings.HasSuffix(host, "."+d) {
				return true
			}
		}
		return false
	}
	for _, v := range paramVendors {
		if word == v.word || v.prefix != "" && strings.HasPrefix(value, v.prefix) {
			return under(v.domains)
		}
	}
	if len(word) >= 4 && word != "access" && word != "secret" && word != "private" && word != "client" && word != "session" {
		for label := range strings.SplitSeq(host, ".") {
			if strings.HasPrefix(label, word) {
				return true
			}
		}
	}
	// a credential of no known vendor: where it belongs is not known,
	// so a URL that carries it to any host asks
	return false
}
