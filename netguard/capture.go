package netguard

import (
	"encoding/base64"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/people"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/tool"
)

// RuleCaptureService is a request to a service whose business is to
// capture requests for whoever made the endpoint (webhook.site,
// RequestBin, Pipedream's endpoints, interactsh and Burp Collaborator
// hosts, canary tokens): carrying data (a query value, a body, a file,
// data in its path or host), high, since the data is read by the
// endpoint's owner and by no service; without data, medium (the request
// itself tells its owner it was made, and from where). The services'
// home pages are an ordinary fetch.
const RuleCaptureService = "exfil.capture_service"

// captureServices are the domains of request-capture services. The
// decisions: webhook.site, RequestBin, Pipedream's endpoint domain
// (pipedream.net; pipedream.com is the product's site), Beeceptor,
// Hookbin, Request Catcher, requestrepo, PostBin, PTSV, interactsh's
// public servers (oast.*), Burp Collaborator, DNSLog and CEYE (out-of-band
// callbacks), canarytokens.com (tripwires that report who fetched them).
// Not here: tunnels to a developer's own machine (ngrok, Cloudflare
// quick tunnels, localtunnel), which are how webhooks are tested, and
// echo services that keep nothing (httpbin.org): what a request to them
// carries is judged by its content, as to any host.
var captureServices = []string{
	"webhook.site", "requestbin.net", "requestbin.com", "pipedream.net", "beeceptor.com", "hookbin.com", "requestcatcher.com",
	"requestrepo.com", "postb.in", "ptsv2.com", "ptsv3.com", "requestinspector.com", "webhook.cool", "typedwebhook.tools",
	"interact.sh", "oast.pro", "oast.live", "oast.site", "oast.online", "oast.fun", "oast.me",
	"burpcollaborator.net", "oastify.com", "dnslog.cn", "ceye.io", "canarytokens.com",
}

// captureService returns the capture service host is (or is an endpoint
// under), "" for any other host.
func captureService(host string) string {
	for _, d := range captureServices {
		if host == d || len(host) > len(d) && strings.HasSuffix(host, d) && host[len(host)-len(d)-1] == '.' {
			return d
		}
	}
	return ""
}

// captureDomains is captureServices as a set.
var captureDomains = func() map[string]bool {
	m := make(map[string]bool, len(captureServices))
	for _, d := range captureServices {
		m[d] = true
	}
	return m
}()

// mayCapture reports whether u may name a capture service's host (every
// service's domain is two labels): false only when u's authority (after
// the first "://", up to / ? or #, after its last @, before its port) is
// ASCII without escapes or brackets and its last two labels, lower-cased
// without one trailing dot, are no service's domain; what parseURL would
// read as the host then ends in those labels. It saves parsing the URLs
// of every other request.
func mayCapture(u string) bool {
	u = strings.TrimSpace(u)
	i := strings.Index(u, "://")
	if i < 0 {
		return true
	}
	auth := u[i+3:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	if j := strings.LastIndexByte(auth, '@'); j >= 0 {
		auth = auth[j+1:]
	}
	for j := 0; j < len(auth); j++ {
		if c := auth[j]; c >= 0x80 || c == '%' || c == '[' || c == ']' || c == '\\' {
			return true
		}
	}
	if j := strings.LastIndexByte(auth, ':'); j >= 0 {
		auth = auth[:j]
	}
	auth = strings.TrimSuffix(auth, ".")
	dot := strings.LastIndexByte(auth, '.')
	if dot < 0 {
		return false
	}
	key := auth[strings.LastIndexByte(auth[:dot], '.')+1:]
	return captureDomains[lowerASCII(key)]
}

// captures reports the requests of c to a request-capture service.
func captures(c *tool.Call) []risk.Finding {
	var best risk.Finding
	check := func(u string) {
		if best.Level == risk.High || !mayCapture(u) {
			return
		}
		t, err := parseURL(u)
		if err != nil || t.host == "" {
			return
		}
		svc := captureService(t.host)
		if svc == "" {
			return
		}
		data := urlCarries(u)
		if !data {
			for _, e := range c.Effects {
				if e.Kind == tool.SendData && (e.Inline && len(strings.TrimSpace(e.Text)) >= 4 || len(e.From) > 0) && (e.URL == "" || e.URL == u) {
					data = true
				}
			}
		}
		if !data {
			data = sendsTo(c, u)
		}
		if !data && !c.Known {
			for _, s := range c.Text {
				if len(s) >= 16 && s != u {
					data = true // a body given to an HTTP tool
				}
			}
		}
		switch {
		case data:
			best = risk.Finding{Analyzer: Name, Rule: RuleCaptureService, Level: risk.High, Resource: resource(cutHost(u)),
				Reason: "The request sends data to " + t.host + ", a " + svc + " request-capture endpoint: what it carries is read by whoever made the endpoint, not by a service"}
		case (t.host == svc || t.host == "www."+svc) && homePage(u):
			// the service's own site
		case best.Level == risk.Unknown:
			best = risk.Finding{Analyzer: Name, Rule: RuleCaptureService, Level: risk.Medium, Resource: resource(cutHost(u)),
				Reason: "The request goes to " + t.host + ", a " + svc + " request-capture endpoint: the request itself tells its owner it was made, and from where"}
		}
	}
	for _, u := range c.URLs {
		check(u)
	}
	for _, d := range c.Dests {
		if d.URL != "" && !containsURL(c.URLs, d.URL) {
			check(d.URL)
		}
	}
	if best.Level == risk.Unknown {
		return nil
	}
	return []risk.Finding{best}
}

// sendsTo reports whether a command or code of c that requests u sends
// data with it: a body, a form, a file (curl -d, -F, -T, --json; wget
// --post-data, --body-file; httpie's field=value and @file items; code
// that posts). The session's effects say so too, where there is one.
func sendsTo(c *tool.Call, u string) bool {
	n := 0
	for _, d := range c.Dests {
		if d.URL != u {
			continue
		}
		switch d.Via {
		case "python", "node", "javascript", "ruby", "perl", "php":
			for _, code := range c.Code {
				low := lowerASCII(code.Text[:min(len(code.Text), maxPayloadText)])
				for _, w := range [...]string{".post(", ".put(", ".patch(", "data=", "json=", "files=", "body:", "method: 'post'", `method: "post"`, "urlopen(req"} {
					if strings.Contains(low, w) {
						return true
					}
				}
			}
			continue
		}
		for _, sc := range c.Scripts {
			if sc.Err != nil {
				continue
			}
			for _, cmd := range sc.Commands {
				if n++; n > 64 || len(cmd.Args) < 2 {
					continue
				}
				name := cmd.Args[0][strings.LastIndexByte(cmd.Args[0], '/')+1:]
				if name != d.Via || !slices.Contains(cmd.Args[1:], u) && !slices.ContainsFunc(cmd.Args[1:], func(a string) bool { return strings.Contains(u, a) && len(a) > 8 }) {
					continue
				}
				for _, rd := range cmd.Redirs {
					if (rd.Stdin() || rd.Op == "<") && (name == "nc" || name == "ncat" || name == "curl") {
						return true
					}
				}
				for _, a := range cmd.Args[1:] {
					switch {
					case a == "-d" || a == "-F" || a == "-T" || a == "--json" || a == "--form" || a == "--upload-file" || a == "--url-query" ||
						strings.HasPrefix(a, "--data") || strings.HasPrefix(a, "--post-") || strings.HasPrefix(a, "--body-") ||
						strings.HasPrefix(a, "-d") && name == "curl" && len(a) > 2 && a[2] != '-':
						return true
					case (name == "http" || name == "https" || name == "xh" || name == "httpie") && !strings.HasPrefix(a, "-") && a != u &&
						(strings.Contains(a, "=") || strings.HasPrefix(a, "@")):
						return true
					}
				}
			}
		}
	}
	return false
}

// homePage reports a URL with no path beyond / and no query.
func homePage(u string) bool {
	if strings.IndexByte(u, '?') >= 0 {
		return false
	}
	i := strings.Index(u, "://")
	rest := u[i+3:]
	p := strings.IndexByte(rest, '/')
	return p < 0 || strings.Trim(rest[p:], "/#") == ""
}

// urlCarries reports a URL that carries data: a query value of four
// characters or more, or an encoded blob in its path or host.
func urlCarries(u string) bool {
	if q := strings.IndexByte(u, '?'); q >= 0 {
		for _, kv := range strings.Split(u[q+1:], "&") {
			if _, v, ok := strings.Cut(kv, "="); ok && len(v) >= 4 {
				return true
			}
		}
	}
	return len(tool.URLData(u)) > 0
}

// maxDecoded bounds the encoded query values decoded per call.
const maxDecoded = 8

// encodedData reports what the base64 (or base64url) query values of the
// URLs c requests carry when decoded: a secret the detector knows, sent
// to a host that is not its service (critical, as exfil.secret), the
// records of several people (high, as exfil.sensitive_data), an
// injection payload (as netguard.injection_payload). The same data is
// judged the same, encoded or not, whatever the host.
func encodedData(c *tool.Call) []risk.Finding {
	n := 0
	var out []risk.Finding
	check := func(u string) {
		q := strings.IndexByte(u, '?')
		if q < 0 || len(u)-q < 17 {
			return
		}
		query := u[q+1:]
		if i := strings.IndexByte(query, '#'); i >= 0 {
			query = query[:i]
		}
		for kv := range strings.SplitSeq(query, "&") {
			_, v, _ := strings.Cut(kv, "=")
			if len(v) < 16 || len(v) > maxPayloadText {
				continue
			}
			if uv, err := url.QueryUnescape(v); err == nil {
				v = uv
			}
			dec, ok := base64Text(v)
			if !ok {
				continue
			}
			if n++; n > maxDecoded {
				return
			}
			if f, ok := decodedFinding(u, dec); ok {
				out = append(out, f)
				return
			}
		}
	}
	for _, u := range c.URLs {
		check(u)
	}
	for _, d := range c.Dests {
		if d.URL != "" && !containsURL(c.URLs, d.URL) {
			check(d.URL)
		}
	}
	return out
}

// decodedFinding judges the decoded text dec of a query value of u.
func decodedFinding(u, dec string) (risk.Finding, bool) {
	off := offMachine(u)
	if off {
		t, err := parseURL(u)
		local := err == nil && t.host != "" && func() bool {
			cat := classifyName(t.host).cat
			if t.addr.IsValid() {
				cat = classify(t.addr).cat
			}
			return cat.Internal()
		}()
		for _, f := range secrets.Default().ScanString("", dec) {
			hosts, never := secrets.Default().Services(f.Type)
			if len(hosts) == 0 && !never || local && !never || err == nil && secrets.ForService(t.host, hosts) {
				continue
			}
			return risk.Finding{Analyzer: Name, Rule: RuleSecretSent, Level: risk.Critical, Locked: true, Resource: resource(cutHost(u)),
				Reason: "The " + f.Description + " encoded (base64) in the URL's query (" + f.Match + ") is sent to " + cutHost(u) + ", which is not the service it is for: the secret leaves for someone else"}, true
		}
		if n := people.Records(plainText(dec)); n > 0 {
			return peopleFinding(n, cutHost(u), resource(cutHost(u))), true
		}
	}
	if p := payloadIn(dec); p.found() {
		return risk.Finding{Analyzer: Name, Rule: RuleInjection, Level: p.level, Resource: resource(cutHost(u)),
			Reason: "The request to " + cutHost(u) + " carries, encoded in base64 in its query, " + p.what}, true
	}
	return risk.Finding{}, false
}

// base64Text decodes v when it is base64 or base64url (padded or not)
// of printable text.
func base64Text(v string) (string, bool) {
	url := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c == '-' || c == '_':
			url = true
		case c == '+' || c == '/':
		case c == '=' && i >= len(v)-2:
		default:
			return "", false
		}
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	b, err := enc.DecodeString(strings.TrimRight(v, "="))
	if err != nil || len(b) < 8 || !utf8.Valid(b) {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return "", false
		}
	}
	return string(b), true
}
