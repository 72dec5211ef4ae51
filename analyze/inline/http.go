package inline

import (
	"strings"

	"github.com/agentwarden/warden/tool"
)

// request renders a call that makes HTTP requests (fetch, axios.delete,
// got.put, http.get) as the curl command line it amounts to, with the
// method it uses: the call's own name for the clients whose methods are
// named after HTTP's (axios.delete → DELETE), or the method: field of its
// options (fetch(url, {method: "DELETE"})); a URL given as the url: field
// of the options counts as well, and so do the literal texts it sends
// (body:, and query: and stmt: fields that carry GraphQL or SQL). So
// shell analysis judges the request by
// method and target (package webapi) as it judges curl's. A call whose
// URL is computed at run time is rendered when its method changes
// something, with the computed pieces as "$WARDEN_DYNAMIC": its target is
// unknown, not harmless.
func (s *scanner) request(name string, exprs [][]part, toks []token) {
	method := ""
	switch name {
	case "delete", "put", "patch", "post", "head", "purge":
		method = strings.ToUpper(name)
	}
	flag := ""
	if m, ok := field(toks, "method"); ok && m == "" {
		flag = `-X "$WARDEN_DYNAMIC" `
	} else if ok {
		method = strings.ToUpper(m)
	}
	if method != "" && method != "GET" {
		flag = "-X " + tool.Quote(method) + " "
	}
	// what the options send inline: a literal body, and the fields that
	// carry a GraphQL document or SQL (body: JSON.stringify({query: …}))
	for _, k := range []string{"body", "data", "query", "stmt", "statement", "sql"} {
		if v, ok := field(toks, k); ok && v != "" {
			if k != "body" && k != "data" {
				v = k + "=" + v
			}
			flag += "--data-raw " + tool.Quote(v) + " "
		}
	}
	rendered := false
	for k, e := range exprs {
		if dynamic(e) {
			continue
		}
		if v := text(e); urlLike(v) {
			s.run("curl " + flag + tool.Quote(v))
			rendered = true
		} else if k == 0 && flag != "" && len(e) > 0 && e[0].dyn {
			s.run("curl " + flag + word(e)) // base + "/users/1"
			rendered = true
		}
	}
	if !rendered {
		if u, ok := field(toks, "url"); ok && urlLike(u) {
			s.run("curl " + flag + tool.Quote(u))
		}
	}
}

// field returns the literal string value of the key: value field of an
// object among toks (method: "DELETE", "url": "https://…"), and whether
// the key is there; "" with true when its value is computed at run time.
func field(toks []token, key string) (string, bool) {
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if !(t.k == tIdent && t.text == key || t.k == tStr && text(t.parts) == key && !dynamic(t.parts)) {
			continue
		}
		if sep := toks[i+1]; sep.k != tPunct || sep.text != ":" && sep.text != "=>" && sep.text != "=" {
			continue
		}
		v := toks[i+2]
		if v.k == tStr && len(v.parts) == 1 && !v.parts[0].dyn {
			return v.parts[0].text, true
		}
		return "", true
	}
	return "", false
}
