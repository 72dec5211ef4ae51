package code

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/analyze/webapi"
)

// request judges a request the code makes by its method and target (see
// package webapi), as the shell analysis judges the same request through
// curl, wget or httpie: requests.delete(url), session.put(url),
// requests.request("DELETE", url), urllib's Request(url,
// method="DELETE"). method is upper-case, "" for the library's default
// (GET) and dyn when computed at run time; u is the URL's value.
func (a *analysis) request(method string, u value, body []value) {
	s := u.text()
	if u.k == kObj && u.obj != nil && u.obj.url != nil {
		s = u.obj.url.text()
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, dyn)
	}
	r := webapi.Request{Method: method, URL: s, Dynamic: strings.Contains(s, dyn), Via: "Code"}
	for _, v := range body {
		if t := bodyText(v, 0); t != "" && !strings.Contains(t, dyn) && len(r.Body) < 16 {
			r.Body = append(r.Body, t)
		}
	}
	if strings.Contains(method, dyn) {
		r.Method, r.MethodDynamic = "", true
	}
	if f, ok := webapi.Judge(r); ok {
		a.add(f)
	}
	for _, t := range webapi.SQL(r) {
		a.sqlText(value{k: kStr, s: t}, true)
	}
}

// bodyText renders a request body's value as the text sent: a string as
// it is, a dict as JSON (json= and data= dicts alike: their keys and
// string values are what webapi reads), "" for what is unknown.
func bodyText(v value, depth int) string {
	switch {
	case v.textual():
		return v.s
	case v.k == kDict && depth < 4:
		var b strings.Builder
		b.WriteByte('{')
		for i := 0; i+1 < len(v.items); i += 2 {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonQuote(v.items[i].text()))
			b.WriteString(": ")
			switch w := v.items[i+1]; {
			case w.textual():
				b.WriteString(jsonQuote(w.s))
			case w.k == kDict:
				b.WriteString(bodyText(w, depth+1))
			case w.k == kInt || w.k == kBool:
				b.WriteString(strings.ToLower(w.text()))
			default:
				b.WriteString("null")
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	return ""
}

// jsonQuote writes s as a JSON string (the escapes webapi reads back).
func jsonQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// methodArg returns the HTTP method argument i (or keyword name) of a
// call, upper-case: "" when it is not given, dyn when it is computed at
// run time.
func methodArg(c *args, i int, name string) string {
	v, ok := c.get(i, name)
	if !ok || v.k == kNone {
		return ""
	}
	m, ok := v.static()
	if !ok {
		return dyn
	}
	return strings.ToUpper(m)
}

// withParams returns URL u with the query a params= dict adds, for
// judging the request (its action and SQL parameters); unknown keys and
// values read as unknown.
func withParams(u, p value) value {
	if p.k != kDict || !u.textual() {
		return u
	}
	var q []string
	for i := 0; i+1 < len(p.items); i += 2 {
		k, v := p.items[i], p.items[i+1]
		if !k.textual() || !(v.textual() || v.k == kInt || v.k == kBool) {
			continue
		}
		q = append(q, url.QueryEscape(k.s)+"="+url.QueryEscape(v.text()))
	}
	if len(q) == 0 {
		return u
	}
	sep := "?"
	if strings.Contains(u.s, "?") {
		sep = "&"
	}
	return value{k: kStr, s: u.s + sep + strings.Join(q, "&")}.with(u)
}
