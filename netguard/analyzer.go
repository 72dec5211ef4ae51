package netguard

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Name is the analyzer's name in findings.
const Name = "netguard"

// The analyzer's rule IDs.
const (
	RuleMetadata  = "netguard.metadata"            // a cloud metadata endpoint: critical and locked (no allow rule or mode opens it)
	RuleBlocked   = "netguard.blocked_destination" // a fetch or browser tool pointed where the guard blocks: high
	RuleDisguised = "netguard.disguised_destination"
	RuleScheme    = "netguard.scheme"        // a scheme that smuggles requests to any service: high
	RuleLocal     = "netguard.local_service" // a command reaches a service on this machine: low
	RuleInternal  = "netguard.internal_network"
	RuleControl   = "netguard.control_plane" // a control plane or secret store on a local address: high
	RuleInvalid   = "netguard.invalid_url"
	// RuleFetch is an ordinary fetch of an Internet resource: low, as the
	// effect table judges a fetch from an external host on every route.
	RuleFetch = "net.fetch"
)

// Analyzer judges the destinations of a call with a guard. A fetch is
// judged by its destination's class with the effect table, whatever the
// route (a fetch or browser tool's URL, curl, wget, httpie, Python
// requests): a metadata endpoint is critical, the local network medium,
// this machine (a development server on localhost) low, an Internet host
// low. Beyond the class: a disguised address, a smuggling scheme
// (gopher://, dict://) or a host the configuration blocks is high; the
// URL a fetch or browser tool opens that the guard cannot read
// unambiguously is high too (a prompt injection chooses it), a command's
// medium. The analyzer never resolves names: analysis makes no network
// requests.
type Analyzer struct {
	// Guard judges the destinations (nil: Default()).
	Guard *Guard
}

// Name implements the engine's Analyzer.
func (Analyzer) Name() string { return Name }

// smuggling are the schemes whose requests carry raw bytes to any TCP
// service (Redis, memcached, SMTP), the classic SSRF escalations.
var smuggling = map[string]bool{"gopher": true, "dict": true, "ldap": true, "ldaps": true, "tftp": true,
	"telnet": true, "jar": true, "netdoc": true, "phar": true, "expect": true, "smb": true, "php": true}

// Analyze implements the engine's Analyzer.
func (a Analyzer) Analyze(ctx context.Context, c *tool.Call) ([]risk.Finding, error) {
	g := a.Guard
	if g == nil {
		g = Default()
	}
	if g.cfg.ResolveDNS {
		cp := *g
		cp.cfg.ResolveDNS = false
		g = &cp
	}
	var out []risk.Finding
	for _, u := range c.URLs {
		if slices.ContainsFunc(c.Dests, func(d tool.Dest) bool { return d.URL == u }) {
			continue // judged as a request of the code
		}
		v := g.Check(ctx, u)
		if f, ok := classed(v, "The tool", u, nil); ok {
			out = append(out, f)
			continue
		}
		if v.Allowed {
			continue
		}
		if v.Category == Metadata {
			// written to hide what it is ([::ffff:169.254.169.254]): a
			// metadata endpoint all the same, as a command's is (dest)
			out = append(out, risk.Finding{Analyzer: Name, Rule: RuleMetadata, Level: risk.Critical, Locked: true, Reversible: true,
				Resource: resource(u), Reason: "The tool reaches a cloud metadata endpoint, which hands out the machine's credentials: " + v.Reason})
			continue
		}
		out = append(out, risk.Finding{Analyzer: Name, Rule: RuleBlocked, Level: risk.High, Reversible: true, Resource: resource(u),
			Reason: "The tool is pointed at a destination the SSRF guard blocks: " + v.Reason})
	}
	for _, d := range c.Dests {
		if f, ok := a.dest(ctx, g, d); ok {
			out = append(out, f)
		}
	}
	out = append(out, peopleSent(c)...)
	out = append(out, leaks(c)...)
	if len(c.URLs) > 0 || len(c.Dests) > 0 {
		out = append(out, credentialParams(c)...)
		out = append(out, injections(c)...)
		out = append(out, captures(c)...)
		out = append(out, encodedData(c)...)
	}
	return out, nil
}

// dest judges one destination of a command or code.
func (Analyzer) dest(ctx context.Context, g *Guard, d tool.Dest) (risk.Finding, bool) {
	var v Verdict
	var parsed *target // d.URL, parsed without an error
	where := d.Host
	if d.URL != "" {
		where = d.URL
		t, err := parseURL(d.URL)
		switch {
		case smuggling[t.scheme]:
			return risk.Finding{Analyzer: Name, Rule: RuleScheme, Level: risk.High, Reversible: true, Resource: resource(d.URL),
				Reason: d.Via + " requests a " + t.scheme + ":// URL, which can carry raw commands to internal services (SSRF)"}, true
		case t.scheme == "file":
			return risk.Finding{}, false // a local file read, judged as one
		case err != nil:
			v = blocked(d.URL, Invalid, "cannot be parsed unambiguously: "+err.Error())
		default:
			parsed = &t
			v = g.judge(ctx, d.URL, t)
		}
	} else {
		v = g.CheckHost(ctx, d.Host)
	}
	if d.URL != "" && (d.Via != "python" || !v.Allowed) { // Python's reads of Internet resources are the code analyzer's
		if f, ok := classed(v, d.Via, d.URL, parsed); ok {
			return f, true
		}
	}
	if v.Allowed {
		return risk.Finding{}, false
	}
	f := risk.Finding{Analyzer: Name, Reversible: true, Resource: resource(where)}
	switch {
	case v.Category == Metadata:
		f.Rule, f.Level, f.Locked = RuleMetadata, risk.Critical, true
		f.Reason = d.Via + " reaches a cloud metadata endpoint, which hands out the machine's credentials: " + v.Reason
	case v.Disguised || v.Category == NonCanonical || v.Category == Rebinding:
		f.Rule, f.Level = RuleDisguised, risk.High
		f.Reason = d.Via + " reaches a destination written to hide what it is: " + v.Reason
	case v.Category == NotAllowed || v.Category == ExtraBlocked:
		f.Rule, f.Level = RuleBlocked, risk.High
		f.Reason = d.Via + " reaches a destination the configuration blocks: " + v.Reason
	case v.Category == Invalid:
		f.Rule, f.Level = RuleInvalid, risk.Medium
		f.Reason = d.Via + " gets a destination that cannot be read unambiguously: " + v.Reason
	case v.Category.Local():
		f.Rule, f.Level = RuleLocal, risk.Low
		f.Reason = d.Via + " reaches a service on this machine: " + v.Reason
	default:
		f.Rule, f.Level = RuleInternal, risk.Medium
		f.Reason = d.Via + " reaches the internal network: " + v.Reason
	}
	return f, true
}

// classed judges a fetch of url by who (a tool, a command) by its
// destination's class with the effect table, when the guard's verdict v
// is about the class of an address written plainly: an Internet host, a
// metadata endpoint, this machine or the local network. Other verdicts
// (a disguise, a scheme, the configuration's lists, a URL that cannot be
// read) are not a class: false. t is url parsed (parseURL without an
// error), nil when the caller did not parse it.
func classed(v Verdict, who, url string, t *target) (risk.Finding, bool) {
	var et effect.Target
	rule, what := "", ""
	res := ""
	switch {
	case v.Allowed:
		res = resource(url)
		et, rule, what = effect.External, RuleFetch, who+" requests "+res[len("url:"):]+", on the Internet"
	case v.Disguised:
		return risk.Finding{}, false
	case v.Category == Metadata:
		et, rule, what = effect.Metadata, RuleMetadata, who+" reaches a cloud metadata endpoint, which hands out the machine's credentials: "+v.Reason
	case v.Category.Local():
		et, rule, what = effect.Loopback, RuleLocal, who+" reaches a service on this machine: "+v.Reason
	case v.Category.Internal():
		et, rule, what = effect.Private, RuleInternal, who+" reaches the internal network: "+v.Reason
	default:
		return risk.Finding{}, false
	}
	if et == effect.Loopback || et == effect.Private {
		if t == nil {
			if u, err := parseURL(url); err == nil {
				t = &u
			}
		}
		if t != nil && controlPorts[t.port] != "" {
			et, rule = effect.Control, RuleControl
			what = who + " reaches " + controlPorts[t.port] + " on port " + t.port + ", which hands out secrets or control of machines: " + v.Reason
		}
	}
	ev, ok := effect.Judge(effect.Fetch, et)
	if !ok || !ev.Finds() {
		return risk.Finding{}, false
	}
	if res == "" {
		res = resource(url)
	}
	return risk.Finding{Analyzer: Name, Rule: rule, Level: ev.Level, Reversible: ev.Reversible, Locked: ev.Locked,
		Resource: res, Reason: what}, true
}

// controlPorts are the well-known ports of control planes and secret
// stores (see effect.Control), and what listens there.
var controlPorts = map[string]string{
	"8500": "Consul's API", "8501": "Consul's API", "8200": "Vault's API", "2379": "etcd", "2380": "etcd",
	"2375": "the Docker API", "2376": "the Docker API", "6443": "the Kubernetes API",
	"10250": "the kubelet", "10255": "the kubelet", "4646": "Nomad's API",
}

// resource names a destination without its user information, query and
// fragment, which may hold secrets.
func resource(dest string) string {
	if !strings.Contains(dest, "://") {
		return "host:" + dest
	}
	if plainURL(dest) {
		return "url:" + dest // what url.Parse and redactURL give back
	}
	u, err := url.Parse(dest)
	if err != nil {
		dest = dropUserinfo(dest)
		if i := strings.IndexAny(dest, "?#"); i >= 0 {
			dest = dest[:i]
		}
		return "url:" + dest
	}
	return "url:" + redactURL(u)
}

// plainURL reports whether dest is a URL that parses and redacts to
// itself: a lower-case scheme, a host of ASCII letters, digits, dots and
// dashes, maybe a port, and a path of unreserved characters and slashes;
// no user information, query, fragment or escape.
func plainURL(dest string) bool {
	_, _, _, ok := plainParts(dest)
	return ok
}

// plainParts returns the scheme, host and port (maybe "") of dest when
// it is a plain URL (see plainURL): what url.Parse reads as its Scheme,
// Hostname and Port.
func plainParts(dest string) (scheme, host, port string, ok bool) {
	i := strings.Index(dest, "://")
	if i <= 0 || dest[0] < 'a' || dest[0] > 'z' {
		return "", "", "", false
	}
	for j := 1; j < i; j++ {
		if plainClass[dest[j]]&plainScheme == 0 {
			return "", "", "", false
		}
	}
	authority, path, _ := strings.Cut(dest[i+3:], "/")
	host, port, ok = PlainAuthority(authority)
	if !ok {
		return "", "", "", false
	}
	for j := 0; j < len(path); j++ {
		if plainClass[path[j]]&plainPath == 0 {
			return "", "", "", false
		}
	}
	return dest[:i], host, port, true
}

// PlainAuthority returns the host and port (maybe "") of a URL's
// authority of ASCII letters, digits, dots and dashes, maybe with a port
// of digits, as url.Parse reads its Hostname and Port, without url.Parse
// and its allocations; false for any other authority.
func PlainAuthority(authority string) (host, port string, ok bool) {
	host, port, hasPort := strings.Cut(authority, ":")
	if host == "" || hasPort && port == "" {
		return "", "", false
	}
	for j := 0; j < len(host); j++ {
		if plainClass[host[j]]&plainHost == 0 {
			return "", "", false
		}
	}
	for j := 0; j < len(port); j++ {
		if c := port[j]; c < '0' || c > '9' {
			return "", "", false
		}
	}
	return host, port, true
}

// plainClass says, of each byte, where a plain URL may hold it: in the
// scheme after its first letter (a-z 0-9 + . -), the host (ASCII
// letters, digits, dots and dashes) and the path (unreserved bytes and
// slashes).
var plainClass = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		if 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '+' || b == '.' || b == '-' {
			t[c] |= plainScheme
		}
		if unreserved(b) && b != '_' && b != '~' {
			t[c] |= plainHost
		}
		if unreserved(b) || b == '/' {
			t[c] |= plainPath
		}
	}
	return
}()

const (
	plainScheme = 1 << iota
	plainHost
	plainPath
)

// unreserved reports a byte that URLs never escape: ASCII letters and
// digits, - . _ ~.
func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// dropUserinfo removes the user information (up to the last @ of the
// authority) of a URL that does not parse: a password may hold an @.
func dropUserinfo(dest string) string {
	i := strings.Index(dest, "://")
	if i < 0 {
		return dest
	}
	auth := i + 3
	end := auth + strings.IndexAny(dest[auth:], "/?#")
	if end < auth {
		end = len(dest)
	}
	if at := strings.LastIndexByte(dest[auth:end], '@'); at >= 0 {
		return dest[:auth] + dest[auth+at+1:]
	}
	return dest
}
