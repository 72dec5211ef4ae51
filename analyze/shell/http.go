package shell

import (
	"net/url"
	"strings"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// httpFindings judges the HTTP requests of command i of cmds, named
// name, by method, target and what they carry (package webapi): curl -X
// DELETE, wget --method, httpie's and xh's METHOD word and data items,
// curlie, gh api, glab api and stripe's get, post and delete; a body read
// on stdin (curl -d @-, httpie's piped body, gh api --input -) is what the
// script shows it is fed (heredocs, here-strings, echo and printf); the
// SQL a request gives a database that takes it over HTTP is analyzed as a
// database client's (and recorded on call, see sqlFact).
func httpFindings(out []risk.Finding, cmds []Command, i int, name string, call *tool.Call) []risk.Finding {
	c := &cmds[i]
	sandbox := testKey(c)
	var stdin []string
	if bodyOnStdin(c, name) {
		stdin = stdinTexts(cmds, i)
	}
	for _, r := range Requests(*c, name) {
		r.Sandbox = r.Sandbox || sandbox
		for _, t := range stdin {
			if len(r.Body) < maxBodies {
				r.Body = append(r.Body[:len(r.Body):len(r.Body)], t)
			}
		}
		if f, ok := webapi.Judge(r); ok {
			f.Analyzer = "shell"
			out = append(out, mayRun(f, c))
		}
		if carriesText(r) {
			for _, t := range webapi.SQL(r) {
				out = append(out, sqlFact(call, t).Findings...)
			}
		}
	}
	return out
}

// testKey reports a payment provider's test-mode key among the words of c
// (curl -u sk_test_…:, -H "Authorization: Bearer sk_test_…"): its
// requests move no money (webapi.Request.Sandbox).
func testKey(c *Command) bool {
	for j, a := range c.Args {
		// each key holds _test_: one search for most words, none for
		// those too short to hold a key
		if len(a) >= len("sk_test_") && !c.Dynamic[j] && strings.Contains(a, "_test_") &&
			(strings.Contains(a, "sk_test_") || strings.Contains(a, "rk_test_") || strings.Contains(a, "rzp_test_")) {
			return true
		}
	}
	return false
}

// bodyOnStdin reports whether HTTP client c, named name, sends what it
// reads on stdin: curl's data and upload options given @- or - (-d @-,
// --data-binary=@-, -T -), gh and glab api's --input -, wget's
// --post-file or --body-file /dev/stdin; httpie and xh send a piped
// stdin as the body.
func bodyOnStdin(c *Command, name string) bool {
	switch httpKindOf(name) {
	case httpHTTPie:
		return true
	case noHTTP:
		return false
	}
	for j, a := range c.Args {
		// each form below ends in - or in /dev/stdin: a cheap test first
		if len(a) == 0 || a[len(a)-1] != '-' && a[len(a)-1] != 'n' || c.Dynamic[j] {
			continue
		}
		switch {
		case a == "@-" || strings.HasSuffix(a, "=@-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "@-"):
			return true
		case strings.HasSuffix(a, "/dev/stdin"):
			return true
		case a == "-" && j > 0 && (c.Args[j-1] == "--input" || c.Args[j-1] == "-T" || c.Args[j-1] == "--upload-file"):
			return true
		case a == "--input=-":
			return true
		}
	}
	return false
}

// carriesText reports whether request r carries text of its own: a body,
// or a query string. webapi.SQL reads the SQL a request gives a database
// from those alone, and finds none in a request that has neither.
func carriesText(r webapi.Request) bool {
	return len(r.Body) > 0 || strings.IndexByte(r.URL, '?') >= 0
}

// maxBodies bounds the inline texts kept of one request.
const maxBodies = 16

// Requests returns the HTTP requests command c makes when it is an HTTP
// client named name (see httpFindings), each with its method as the
// client picks it (an explicit method, or the one its data or upload
// options imply) and its URL (with the scheme the client defaults to);
// nil for any other command.
func Requests(c Command, name string) []webapi.Request {
	switch httpKindOf(name) {
	case httpCurl:
		return curlRequests(c, name, 1, name == "curlie")
	case httpWget:
		return wgetRequests(c)
	case httpHTTPie:
		return httpieRequests(c, name)
	case httpForge:
		if len(c.Args) > 1 && c.Args[1] == "api" && !c.Dynamic[1] {
			return apiRequests(c, name)
		}
	case httpStripe:
		if len(c.Args) > 2 && !c.Dynamic[1] && methodWord(c.Args[1]) {
			return stripeRequests(c)
		}
	}
	return nil
}

// httpKind is the kind of HTTP client a command name is, as Requests
// reads its requests.
type httpKind uint8

const (
	noHTTP     httpKind = iota // no HTTP client: Requests finds none
	httpCurl                   // curl, and curlie, which takes httpie's words too
	httpWget                   // wget
	httpHTTPie                 // httpie's http and https, xh and xhs
	httpForge                  // gh and glab, whose api subcommand makes requests
	httpStripe                 // stripe, whose get, post and delete make requests
)

// httpKindOf returns the kind of HTTP client name is.
func httpKindOf(name string) httpKind {
	switch name {
	case "curl", "curlie":
		return httpCurl
	case "wget":
		return httpWget
	case "http", "https", "xh", "xhs":
		return httpHTTPie
	case "gh", "glab":
		return httpForge
	case "stripe":
		return httpStripe
	}
	return noHTTP
}

// methodWord reports whether s is an HTTP method as httpie, xh and curlie
// take it, in any case.
func methodWord(s string) bool {
	switch strings.ToUpper(s) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "PURGE", "TRACE":
		return true
	}
	return false
}

// curlImplies are curl's options that choose the method when -X does not
// (-G and -I win over data; data over nothing).
var curlImplies = map[string]string{
	"-d": "POST", "--data": "POST", "--data-raw": "POST", "--data-binary": "POST", "--data-ascii": "POST",
	"--data-urlencode": "POST", "--json": "POST", "-F": "POST", "--form": "POST", "--form-string": "POST",
	"-T": "PUT", "--upload-file": "PUT", "-I": "HEAD", "--head": "HEAD", "-G": "GET", "--get": "GET",
}

// curlShortValue are curl's one-letter options that take a value (so a
// cluster such as -sXDELETE or -sX DELETE ends with them).
const curlShortValue = "oHXuAexmwbcrKdFTEyYzCUDQtP"

// cluster reads a word of one-letter options (-sS, -sXDELETE, -qO-):
// each is passed to each, up to the first that takes a value (one of
// takesValue), which is returned with the rest of the word as its value,
// or with next set when the value is the next word.
func cluster(a, takesValue string, each func(string)) (f byte, value string, next bool) {
	for k := 1; k < len(a); k++ {
		each(dashes[2*int(a[k]) : 2*int(a[k])+2]) // "-" + a[k:k+1], not built
		if strings.IndexByte(takesValue, a[k]) >= 0 {
			return a[k], a[k+1:], k+1 == len(a)
		}
	}
	return 0, "", false
}

// dashes holds "-" and each byte, in order: the option of each letter of a
// cluster, without building it.
var dashes = func() string {
	b := make([]byte, 2*256)
	for i := range 256 {
		b[2*i], b[2*i+1] = '-', byte(i)
	}
	return string(b)
}()

// curlRequests reads curl's requests (curlie's too, with methodWords:
// curlie also takes httpie's METHOD word and data items).
func curlRequests(c Command, name string, from int, methodWords bool) []webapi.Request {
	vf := clientValueFlags["curl"]
	var method, implied, socket string
	methodDyn, data := false, false
	var urls []webapi.Request
	var body []string
	addBody := func(flag, v string, dyn bool) {
		// a JSON body with a value spliced in at run time ('{"end":'$(date)'}')
		// is read as written: its literal keys and values are the agent's
		if t := bodyText(flag, v); t != "" && (!dyn || strings.Contains(t, `{"`)) && len(body) < maxBodies {
			body = append(body, t)
		}
	}
	addURL := func(u string, dyn bool) {
		if !dyn {
			u = withScheme(u)
		}
		urls = append(urls, webapi.Request{URL: u, Dynamic: dyn, Via: name})
	}
	imply := func(flag string) {
		switch m := curlImplies[flag]; m {
		case "":
		case "GET", "HEAD":
			implied = m
		case "PUT":
			if implied != "GET" && implied != "HEAD" {
				implied = m
			}
		default:
			data = true
		}
	}
	for j := from; j < len(c.Args); j++ {
		a := c.Args[j]
		value := func() (string, bool) {
			if j+1 < len(c.Args) {
				j++
				return c.Args[j], c.Dynamic[j]
			}
			return "", false
		}
		switch {
		case a == "--":
			continue
		case a == "-X" || a == "--request":
			method, methodDyn = value()
		case strings.HasPrefix(a, "--request="):
			method, methodDyn = a[len("--request="):], c.Dynamic[j]
		case a == "--url":
			if v, d := value(); v != "" {
				addURL(v, d)
			}
		case strings.HasPrefix(a, "--url="):
			addURL(a[len("--url="):], c.Dynamic[j])
		case a == "--unix-socket" || a == "--abstract-unix-socket":
			socket, _ = value()
		case strings.HasPrefix(a, "--") && curlImplies[a] != "":
			imply(a)
			if vf[a] {
				v, d := value()
				addBody(a, v, d)
			}
		case len(a) > 1 && a[0] == '-' && vf[a]: // each of vf is a flag: no lookup for a URL
			imply(a)
			v, d := value()
			addBody(a, v, d)
		case strings.HasPrefix(a, "--"):
			if f, v, ok := cutLong(a); ok {
				imply(f)
				addBody(f, v, c.Dynamic[j])
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// a cluster of one-letter options: -sS, -sXDELETE, -sX DELETE, -sd@f
			f, v, next := cluster(a, curlShortValue, imply)
			d := c.Dynamic[j]
			if next {
				v, d = value()
			}
			switch f {
			case 'X':
				method, methodDyn = v, d
			case 'd', 'F':
				addBody("-"+string(f), v, d)
			}
		case methodWords && method == "" && !c.Dynamic[j] && methodWord(a) && len(urls) == 0:
			method = a
		case methodWords && len(urls) > 0 && !c.Dynamic[j] && dataItem(a):
			data = true
			if len(body) < maxBodies {
				body = append(body, a)
			}
		case c.Dynamic[j]:
			addURL(a, true)
		case isURL(a) || hostish.MatchString(a):
			addURL(a, false)
		case methodWords && strings.HasPrefix(a, ":"):
			addURL("localhost"+a, false)
		}
	}
	m := method
	switch {
	case methodDyn:
	case m != "":
	case implied != "":
		m = implied
	case data:
		m = "POST"
	}
	for i := range urls {
		urls[i].Method, urls[i].MethodDynamic, urls[i].Socket, urls[i].Body = m, methodDyn, socket, body
	}
	return urls
}

// bodyText returns the text a curl data or form option (flag, with value
// v) sends inline, or "" for a file's or stdin's contents (@file, <file).
func bodyText(flag, v string) string {
	switch flag {
	case "--data-raw":
		return v
	case "-d", "--data", "--data-ascii", "--data-binary", "--json":
		if strings.HasPrefix(v, "@") {
			return ""
		}
		return v
	case "--data-urlencode":
		k, content, ok := strings.Cut(v, "=")
		if !ok && strings.Contains(k, "@") {
			return ""
		}
		if !ok {
			return v
		}
		return k + "=" + content
	case "-F", "--form", "--form-string":
		_, content, _ := strings.Cut(v, "=")
		if flag != "--form-string" && (strings.HasPrefix(content, "@") || strings.HasPrefix(content, "<")) {
			return ""
		}
		return v
	}
	return ""
}

// dataItem reports an httpie request item that sends data (field=value,
// field:=json, field@file, field=@file), not a header (Name:value) or a
// query parameter (name==value).
func dataItem(a string) bool {
	i := strings.IndexAny(a, ":=@")
	if i <= 0 {
		return false
	}
	rest := a[i:]
	switch {
	case strings.HasPrefix(rest, "=="):
		return false
	case strings.HasPrefix(rest, ":="), strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "@"):
		return true
	}
	return false
}

// httpieValue are the options of httpie (http, https) and xh (xh, xhs)
// that take a value.
var httpieValue = setOf("-a", "--auth", "-A", "--auth-type", "--session", "--session-read-only", "-o", "--output",
	"--pretty", "-s", "--style", "-p", "--print", "-P", "--history-print", "--verify", "--cert", "--cert-key",
	"--cert-key-pass", "--proxy", "--timeout", "--max-redirects", "--default-scheme", "--ssl", "--ciphers",
	"--format-options", "--response-charset", "--response-mime", "--boundary", "--raw", "--max-headers",
	"--http-version", "--resolve", "--interface", "--bearer", "--unix-socket")

// httpieRequests reads the request of httpie and xh: [METHOD] URL [ITEM…];
// without a method, data items make it a POST; --offline only prints it.
func httpieRequests(c Command, name string) []webapi.Request {
	scheme := "http://"
	if name == "https" || name == "xhs" {
		scheme = "https://"
	}
	var r webapi.Request
	r.Via = name
	seen, data := false, false
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		d := c.Dynamic[j]
		switch {
		case !d && (a == "--offline"):
			return nil
		case !d && (a == "--raw" || strings.HasPrefix(a, "--raw=")):
			data = true
			v, dyn := strings.TrimPrefix(a, "--raw="), d
			if a == "--raw" && j+1 < len(c.Args) {
				j++
				v, dyn = c.Args[j], c.Dynamic[j]
			}
			if !dyn && len(r.Body) < maxBodies {
				r.Body = append(r.Body, v)
			}
		case !d && (a == "--unix-socket"):
			if j+1 < len(c.Args) {
				j++
				r.Socket = c.Args[j]
			}
		case !d && httpieValue[a]:
			j++
		case !d && strings.HasPrefix(a, "-"):
		case seen:
			if k, v, ok := strings.Cut(a, "=="); ok && !d && k != "" && !r.Dynamic {
				// a query item: name==value
				sep := "?"
				if strings.Contains(r.URL, "?") {
					sep = "&"
				}
				r.URL += sep + url.QueryEscape(k) + "=" + url.QueryEscape(v)
				continue
			}
			if !d && dataItem(a) {
				data = true
				if len(r.Body) < maxBodies {
					r.Body = append(r.Body, a)
				}
			}
		case !d && r.Method == "" && !r.MethodDynamic && methodWord(a) && j+1 < len(c.Args):
			r.Method = a
		case d && r.Method == "" && !r.MethodDynamic && j+1 < len(c.Args) && !strings.Contains(a, "/") && urlWord(c, j+1):
			r.MethodDynamic = true // http $METHOD url
		case d:
			r.URL, r.Dynamic, seen = a, true, true
		case isURL(a):
			r.URL, seen = a, true
		case strings.HasPrefix(a, ":"):
			r.URL, seen = scheme+"localhost"+a, true
		default:
			r.URL, seen = scheme+a, true
		}
	}
	if !seen {
		return nil
	}
	if r.Method == "" && !r.MethodDynamic && data {
		r.Method = "POST"
	}
	return []webapi.Request{r}
}

// urlWord reports whether word j of c may be httpie's URL: a URL, a
// :port/path shorthand, a host, or a word computed at run time that is no
// request item.
func urlWord(c Command, j int) bool {
	a := c.Args[j]
	if c.Dynamic[j] {
		return !dataItem(a)
	}
	return isURL(a) || strings.HasPrefix(a, ":") || hostish.MatchString(a)
}

// apiValue are the options of gh api and glab api that take a value.
var apiValue = setOf("-X", "--method", "-f", "--raw-field", "-F", "--field", "-H", "--header", "--hostname",
	"--input", "-q", "--jq", "-t", "--template", "-p", "--preview", "--cache", "-R", "--repo")

// apiRequests reads gh api and glab api: the endpoint is relative to
// the forge's API (api.github.com, gitlab.com/api/v4, or --hostname's);
// -X or --method names the method, and fields or --input make it a POST.
func apiRequests(c Command, name string) []webapi.Request {
	var r webapi.Request
	r.Via = name + " api"
	host, endpoint, epDyn, fields := "", "", false, false
	for j := 2; j < len(c.Args); j++ {
		a := c.Args[j]
		d := c.Dynamic[j]
		flag, v, glued := cutLong(a)
		if !strings.HasPrefix(a, "--") && len(a) > 2 && a[0] == '-' && strings.Contains("XfFHqtp", a[1:2]) {
			flag, v, glued = a[:2], a[2:], true
		}
		if apiValue[flag] && !glued && j+1 < len(c.Args) {
			j++
			v, d = c.Args[j], c.Dynamic[j]
		}
		switch {
		case flag == "-X" || flag == "--method":
			r.Method, r.MethodDynamic = v, d
		case flag == "-f" || flag == "--raw-field" || flag == "-F" || flag == "--field" || flag == "--input":
			fields = true
			if flag != "--input" && !d && len(r.Body) < maxBodies {
				r.Body = append(r.Body, v)
			}
		case flag == "--hostname":
			host = v
		case apiValue[flag] || strings.HasPrefix(a, "-") && !d:
		case endpoint == "" && !epDyn:
			endpoint, epDyn = a, d
		}
	}
	if endpoint == "" && !epDyn {
		return nil
	}
	if r.Method == "" && !r.MethodDynamic && fields {
		r.Method = "POST"
	}
	switch {
	case isURL(endpoint):
		r.URL = endpoint
	case name == "gh" && host != "":
		r.URL = "https://" + host + "/api/v3/" + strings.TrimPrefix(endpoint, "/")
	case name == "gh":
		r.URL = "https://api.github.com/" + strings.TrimPrefix(endpoint, "/")
	case host != "":
		r.URL = "https://" + strings.TrimPrefix(strings.TrimPrefix(host, "https://"), "http://") + "/api/v4/" + strings.TrimPrefix(endpoint, "/")
	default:
		r.URL = "https://gitlab.com/api/v4/" + strings.TrimPrefix(endpoint, "/")
	}
	r.Dynamic = epDyn || dynamicText(host)
	return []webapi.Request{r}
}

// dynamicText reports text holding a shell expansion.
func dynamicText(s string) bool { return strings.ContainsAny(s, "$`") }

// wgetShortValue are wget's one-letter options that take a value.
const wgetShortValue = "OoaPUetTiwQlBDARIX"

// wgetRequests reads wget's requests: --method, or POST with
// --post-data and --post-file; GET otherwise.
func wgetRequests(c Command) []webapi.Request {
	vf := clientValueFlags["wget"]
	method, methodDyn, post := "", false, false
	var urls []webapi.Request
	var body []string
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		d := c.Dynamic[j]
		flag, v, glued := cutLong(a)
		if vf[flag] && !glued && j+1 < len(c.Args) {
			j++
			v, d = c.Args[j], c.Dynamic[j]
		} else if !vf[flag] && len(a) > 2 && a[0] == '-' && a[1] != '-' {
			if _, _, next := cluster(a, wgetShortValue, func(string) {}); next {
				j++ // -qO file
			}
			continue
		}
		switch {
		case flag == "--method":
			method, methodDyn = v, d
		case flag == "--post-data" || flag == "--post-file":
			post = true
			if flag == "--post-data" && !d && len(body) < maxBodies {
				body = append(body, v)
			}
		case flag == "--body-data" && !d && len(body) < maxBodies:
			body = append(body, v)
		case vf[flag] || strings.HasPrefix(a, "-") && len(a) > 1 && !d:
		case d:
			urls = append(urls, webapi.Request{URL: a, Dynamic: true, Via: "wget"})
		case isURL(a) || hostish.MatchString(a):
			urls = append(urls, webapi.Request{URL: withScheme(a), Via: "wget"})
		}
	}
	if method == "" && !methodDyn && post {
		method = "POST"
	}
	for i := range urls {
		urls[i].Method, urls[i].MethodDynamic, urls[i].Body = method, methodDyn, body
	}
	return urls
}

// stripeValue are the options of stripe get, post and delete that take a
// value.
var stripeValue = setOf("-d", "--data", "--api-key", "-c", "--color", "--config", "--device-name", "--log-level",
	"-p", "--project-name", "-e", "--expand", "-i", "--idempotency", "--stripe-account", "--stripe-version", "-v",
	"--limit", "--starting-after", "--ending-before")

// stripeRequests reads stripe get|post|delete PATH [-d key=value…]: a
// request to api.stripe.com, in test mode unless --live or a live key
// (--api-key sk_live_…) says otherwise.
func stripeRequests(c Command) []webapi.Request {
	r := webapi.Request{Method: c.Args[1], Via: "stripe " + strings.ToLower(c.Args[1]), Sandbox: true}
	path, pathDyn := "", false
	for j := 2; j < len(c.Args); j++ {
		a, d := c.Args[j], c.Dynamic[j]
		flag, v, glued := cutLong(a)
		if stripeValue[flag] && !glued && j+1 < len(c.Args) {
			j++
			v, d = c.Args[j], c.Dynamic[j]
		}
		switch {
		case flag == "--live":
			r.Sandbox = false
		case flag == "--api-key":
			r.Sandbox = !d && strings.Contains(v, "_test_")
		case flag == "-d" || flag == "--data":
			if !d && len(r.Body) < maxBodies {
				r.Body = append(r.Body, v)
			}
		case stripeValue[flag] || strings.HasPrefix(a, "-") && !d:
		case path == "" && !pathDyn:
			path, pathDyn = a, d
		}
	}
	if path == "" && !pathDyn {
		return nil
	}
	r.URL = "https://api.stripe.com/" + strings.TrimPrefix(path, "/")
	r.Dynamic = pathDyn
	return []webapi.Request{r}
}
