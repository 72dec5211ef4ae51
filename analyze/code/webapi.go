package code

import (
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
func (a *analysis) request(method string, u value) {
	s := u.text()
	if u.k == kObj && u.obj != nil && u.obj.url != nil {
		s = u.obj.url.text()
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, dyn)
	}
	r := webapi.Request{Method: method, URL: s, Dynamic: strings.Contains(s, dyn), Via: "Code"}
	if strings.Contains(method, dyn) {
		r.Method, r.MethodDynamic = "", true
	}
	if f, ok := webapi.Judge(r); ok {
		a.add(f)
	}
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
