package netguard

import (
	"context"
	"net/url"
	"slices"
	"strings"

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
	RuleInvalid   = "netguard.invalid_url"
)

// Analyzer judges the destinations of a call with a guard. The URLs a
// fetch or browser tool opens are what a prompt injection chooses: any
// destination the guard blocks is high, a metadata endpoint critical. A
// command or code the agent runs on its own machine (curl, wget, httpie,
// nc, socat, Python requests) is judged by where it goes: a metadata
// endpoint is critical; a disguised address, a smuggling scheme
// (gopher://, dict://) or a host the configuration blocks is high; the
// local network is medium and this machine (a dev server on localhost)
// low. The analyzer never resolves names: analysis makes no network
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
		if v.Allowed {
			continue
		}
		f := risk.Finding{Analyzer: Name, Rule: RuleBlocked, Level: risk.High, Reversible: true, Resource: resource(u),
			Reason: "The tool is pointed at a destination the SSRF guard blocks: " + v.Reason}
		if v.Category == Metadata {
			f.Rule, f.Level, f.Locked = RuleMetadata, risk.Critical, true
			f.Reason = "The tool is pointed at a cloud metadata endpoint, which hands out the machine's credentials: " + v.Reason
		}
		out = append(out, f)
	}
	for _, d := range c.Dests {
		if f, ok := a.dest(ctx, g, d); ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// dest judges one destination of a command or code.
func (Analyzer) dest(ctx context.Context, g *Guard, d tool.Dest) (risk.Finding, bool) {
	var v Verdict
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
			v = g.judge(ctx, d.URL, t)
		}
	} else {
		v = g.CheckHost(ctx, d.Host)
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

// resource names a destination without its user information, query and
// fragment, which may hold secrets.
func resource(dest string) string {
	if !strings.Contains(dest, "://") {
		return "host:" + dest
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
