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
	// carry a GraphQL document or SQL (body: JSON.stringify({query: …}));
	// a body computed at run time sends data all the same (see sink), and
	// one that reads an environment variable sends that variable
	sends := method != "" && method != "GET" && method != "HEAD"
	for _, k := range []string{"body", "data", "query", "stmt", "statement", "sql", "json", "form"} {
		v, ok := field(toks, k)
		if !ok {
			continue
		}
		sends = true
		if env := fieldEnv(toks, k); env != "" {
			flag += "--data-raw \"${" + env + "}\" "
		} else if v != "" && k != "json" && k != "form" {
			if k != "body" && k != "data" {
				v = k + "=" + v
			}
			flag += "--data-raw " + tool.Quote(v) + " "
		}
	}
	rendered := false
	target := func(u string) {
		s.run("curl " + flag + u)
		rendered = true
		if sends {
			s.sink("curl " + flag + "--data-binary @- " + u)
		}
	}
	for k, e := range exprs {
		if dynamic(e) {
			continue
		}
		if v := text(e); urlLike(v) {
			// a URL that carries an environment variable sends it: the
			// variable stays in the line (curl "https://x/?k=${TOKEN}")
			u := tool.Quote(v)
			if w, ok := envURL(e); ok {
				u = w
			}
			if len(e) > 1 {
				sends = true // a URL built at run time may carry data
			}
			target(u)
		} else if k == 0 && flag != "" && len(e) > 0 && e[0].dyn {
			target(word(e)) // base + "/users/1"
		}
	}
	if !rendered {
		if u, ok := field(toks, "url"); ok && urlLike(u) {
			target(tool.Quote(u))
			return
		}
		// http.request({hostname: "x.example", method: "POST"}): the
		// host names the target
		for _, k := range []string{"hostname", "host"} {
			if h, ok := field(toks, k); ok && hostLike(h) {
				target(tool.Quote("https://" + h + "/"))
				return
			}
		}
		// Net::HTTP.post(URI("https://…"), data), axios.post(new
		// URL("https://…"), data): a call that sends names its target
		// inside a nested call; the first literal URL among its arguments
		if sends {
			for _, t := range toks {
				if t.k == tStr && !dynamic(t.parts) && urlLike(text(t.parts)) {
					target(tool.Quote(text(t.parts)))
					return
				}
			}
		}
	}
}

// envURL renders a URL expression that reads an environment variable as
// one double-quoted shell word, the variable as ${NAME}; pieces computed
// otherwise are left out, as text leaves them. ok is false when no piece
// reads the environment.
func envURL(e []part) (string, bool) {
	env := false
	for _, p := range e {
		env = env || p.env != ""
	}
	if !env {
		return "", false
	}
	var lit []part
	for _, p := range e {
		if !p.dyn || p.env != "" {
			lit = append(lit, p)
		}
	}
	return word(lit), true
}

// fieldEnv returns the environment variable the key: value field of an
// object among toks reads as its whole value (body: process.env.TOKEN),
// or "".
func fieldEnv(toks []token, key string) string {
	if i, ok := fieldValue(toks, key); ok {
		if name, next := envAt(toks, i); next > i {
			return name
		}
	}
	return ""
}

// fieldValue returns the index of the value of the first key: value (or
// key => value, key = value) field among toks.
func fieldValue(toks []token, key string) (int, bool) {
	for i := 0; i+2 < len(toks); i++ {
		t := toks[i]
		if !(t.k == tIdent && t.text == key || t.k == tStr && text(t.parts) == key && !dynamic(t.parts)) {
			continue
		}
		if sep := toks[i+1]; sep.k != tPunct || sep.text != ":" && sep.text != "=>" && sep.text != "=" {
			continue
		}
		return i + 2, true
	}
	return 0, false
}

// field returns the literal string value of the key: value field of an
// object among toks (method: "DELETE", "url": "https://…"), and whether
// the key is there; "" with true when its value is computed at run time.
func field(toks []token, key string) (string, bool) {
	i, ok := fieldValue(toks, key)
	if !ok {
		return "", false
	}
	if v := toks[i]; v.k == tStr && len(v.parts) == 1 && !v.parts[0].dyn {
		return v.parts[0].text, true
	}
	return "", true
}
