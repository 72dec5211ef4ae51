// Package webapi judges an HTTP request by what it asks the server to
// do: its method, where it goes and the action its path names. Every
// route that makes requests (curl, wget, httpie and the other command-line
// clients, Python's requests and httpx, the fetch and axios calls of
// inline JavaScript) reduces a request to a Request and asks Judge, so the
// same request gets the same level whichever way it is written.
//
// DELETE (and PURGE) destroys what the URL names; so does a POST to a path
// that names a destructive action (_delete_by_query, doDelete, /purge,
// /shutdown). PUT and PATCH replace or change a resource, an admin or
// configuration endpoint's most of all. The target decides how much that
// matters: another machine, a host computed at run time, and a data
// store's, queue's or orchestrator's admin API on this machine
// (Elasticsearch on :9200, Consul on :8500, the Docker socket) are
// someone's data; some other server on this machine is most likely the
// development server the agent is working on, a step lower. GET, HEAD and
// OPTIONS are left to the destination checks (package netguard), and what
// a request carries (secrets, files) to the exfiltration checks.
package webapi

import (
	"strings"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
)

// The rule IDs of Judge's findings. They are stable: audit records and
// policy files refer to them.
const (
	RuleDelete        = "http.delete"             // DELETE or PURGE: high (medium to a development server on this machine)
	RuleAction        = "http.destructive_action" // a request to a path naming a destructive action: high (medium likewise)
	RuleConfig        = "http.config_change"      // PUT or PATCH to an admin or configuration endpoint: high (medium likewise)
	RuleClearCache    = "http.clear_cache"        // a deletion inside a cache: low
	RuleWrite         = "http.write"              // PUT, PATCH or another method that changes a resource: medium
	RuleDynamicMethod = "http.dynamic_method"     // a method computed at run time: medium
	RuleGrant         = "cloud.iam_grant"         // a write whose body sets a permission or role to admin, owner, maintain: high (medium likewise)
)

// Request is one HTTP request a command or a program makes.
type Request struct {
	// Method is the method as written (any case); "" is the client's
	// default, GET, when MethodDynamic is not set.
	Method string
	// MethodDynamic is set when the method is computed at run time.
	MethodDynamic bool
	// URL is the URL requested, with the scheme the client defaults to
	// when none is written; "" when it is computed entirely at run time.
	URL string
	// Dynamic is set when parts of URL are computed at run time: they read
	// as shell expansions ($x, ${x}, $(…), `…`) or NUL bytes. A host with
	// such a part is unknown.
	Dynamic bool
	// Socket is set when the request goes over a local Unix socket (curl
	// --unix-socket /var/run/docker.sock): a daemon's API on this machine.
	Socket string
	// Body are the texts the request carries inline, as far as they are
	// known (curl -d, httpie's items, gh api -f, a program's data=):
	// their actions count (see bodyAction) and SQL in them is returned by
	// SQL.
	Body []string
	// Via names the client, for the reason: "curl", "python requests".
	Via string
	// Sandbox is set when the request's credentials name a provider's
	// test mode (Stripe's sk_test_ keys): it moves no money.
	Sandbox bool
}

// target is where a request goes, as far as its risk is concerned.
type target struct {
	local   bool   // this machine (set by place)
	known   bool   // the host is known
	service string // the admin API the port, path or socket names ("" none)
	path    string // the path, without query and fragment
	shown   string // the URL as shown in findings: no user information, query or fragment (set by place)
	// scheme and authority are the host's as written: scheme is set
	// when the host is known
	scheme, authority string
}

// Judge returns the finding a request deserves, without its Analyzer,
// and false when its method and target call for none (GET, a POST to a
// path that names no destructive action).
func Judge(r Request) (risk.Finding, bool) {
	m := strings.ToUpper(strings.TrimSpace(r.Method))
	if !r.MethodDynamic && strings.ContainsAny(m, "$`\x00") {
		r.MethodDynamic = true
	}
	switch {
	case r.MethodDynamic:
		m = ""
	case m == "":
		m = "GET"
	}
	read := false
	if !r.MethodDynamic {
		switch m {
		case "GET", "HEAD", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "REPORT", "SEARCH":
			read = true
		}
	}
	var action string
	var actionLevel risk.Level
	if read {
		// a read, unless its query names an action (Solr's ?action=DELETE):
		// decided before the target is read
		if action, actionLevel = queryAction(r.URL); actionLevel == risk.Safe {
			return risk.Finding{}, false
		}
	}
	t := parse(r)
	t.place(r)
	if !read {
		action, actionLevel = pathAction(t.path)
		if a, l := queryAction(r.URL); l > actionLevel {
			action, actionLevel = a, l
		}
		if a, l := bodyAction(r.Body, t.service); l > actionLevel {
			action, actionLevel = a, l
		}
	}
	// dev: some server on this machine that is no known admin API, most
	// likely the agent's own development server: a step lower.
	f := risk.Finding{Resource: "url:" + t.shown}
	if t.shown == "" {
		f.Resource = ""
	}
	where := describe(t)
	via := r.Via
	if via == "" {
		via = "The request"
	}
	dev := t.local && t.service == ""
	if !read && !r.MethodDynamic && m != "DELETE" {
		// what a request to a known service does beyond its path's verb
		if f, ok := money(r, t, m, via); ok {
			return f, true
		}
		if f, ok := impair(r, t, m, via, where); ok {
			return f, true
		}
		if f, ok := dnsChange(r, t, m, via); ok {
			return f, true
		}
		if f, ok := massSend(r, t, m, via); ok {
			return f, true
		}
		if field, val := grantField(r.Body); field != "" {
			f.Rule, f.Level = RuleGrant, risk.High
			f.Reason = via + " sends " + m + " to " + where + " setting " + field + " to " + val + ", granting administrator rights"
			if val == "*" {
				f.Reason = via + " sends " + m + " to " + where + " giving " + field + " of *: a key, token or role that may do everything"
			}
			if dev {
				f.Level = risk.Medium
				f.Reason += " (a server on this machine that is no known data store, most likely a development server)"
			}
			return f, true
		}
		if all := purgeAll(t.path, r.Body); all != "" && t.known && !t.local {
			f.Rule, f.Level = RuleAction, risk.High
			f.Reason = via + " sends " + m + " to " + where + " (" + all + "), purging every object a CDN caches: every request then goes to the origin at once"
			return f, true
		}
	}
	switch {
	case m == "DELETE" || m == "PURGE":
		f.Rule, f.Level = RuleDelete, risk.High
		f.Reason = via + " sends " + m + " to " + where + ", destroying the resource the URL names"
	case action != "":
		f.Rule, f.Level = RuleAction, actionLevel
		what := m
		if r.MethodDynamic {
			what = "a request (method computed at run time)"
		}
		kind := "a destructive action"
		if actionLevel < risk.High {
			kind = "an action that disrupts a service until it is undone"
		}
		f.Reason = via + " sends " + what + " to " + where + ", which names " + kind + " (" + action + ")"
	case r.MethodDynamic:
		if dev {
			return risk.Finding{}, false
		}
		f.Rule, f.Level = RuleDynamicMethod, risk.Medium
		f.Reason = via + " sends a request whose method is computed at run time to " + where + ", so whether it changes or deletes something cannot be checked"
	case m == "POST":
		return risk.Finding{}, false
	case configPath(t.path):
		f.Rule, f.Level = RuleConfig, risk.High
		f.Reason = via + " sends " + m + " to an admin or configuration endpoint of " + where + ", changing how the service behaves"
	default:
		if dev {
			return risk.Finding{}, false // test data on the agent's own server
		}
		f.Rule, f.Level = RuleWrite, risk.Medium
		f.Reason = via + " sends " + m + " to " + where + ", replacing or changing the resource the URL names"
	}
	if f.Rule == RuleAction && actionLevel == risk.Medium && productionAction(t.path, action) {
		// a flag killed or a service disabled in production reaches
		// everyone who uses it
		f.Level = risk.High
		f.Reason += ", in a production environment"
	}
	if (f.Rule == RuleDelete || f.Rule == RuleAction && actionLevel == risk.High) && (cachePath(t.path) || cdnPurge(t)) {
		// a cache's contents are rebuilt on demand (gh api -X DELETE
		// …/actions/caches/1 is gh cache delete 1)
		f.Rule, f.Level, f.Reversible = RuleClearCache, risk.Low, true
		f.Reason = via + " sends " + m + " to " + where + ", emptying a cache, which is rebuilt on demand"
		return f, true
	}
	if dev {
		f.Level-- // High to Medium, Medium to Low
		f.Reason += " (a server on this machine that is no known data store, most likely a development server)"
	}
	return f, true
}

// describe names a request's target for a reason.
func describe(t target) string {
	switch {
	case t.service != "" && t.local:
		return t.service + " on this machine (" + t.shown + ")"
	case t.service != "" && t.known:
		return t.service + " at " + t.shown
	case t.service != "":
		return t.service + " at a host computed at run time"
	case t.local:
		return "a server on this machine (" + t.shown + ")"
	case t.known:
		return t.shown
	}
	return "a host computed at run time"
}

// parse reads a request's target: where it goes (known, service, path),
// without what only Judge needs (local, shown: see place).
func parse(r Request) target {
	u := r.URL
	var t target
	rest := u
	hostKnown := false
	authority := ""
	if i := strings.Index(u, "://"); i > 0 && !dynamicText(u[:i]) {
		rest = u[i+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		authority = rest[:end]
		rest = rest[end:]
		hostKnown = authority != "" && !dynamicText(authority)
	} else if !r.Dynamic && u != "" {
		// no scheme, nothing computed: a host as curl reads one
		end := strings.IndexAny(u, "/?#")
		if end < 0 {
			end = len(u)
		}
		authority, rest = u[:end], u[end:]
		hostKnown = authority != ""
	} else if i := strings.IndexByte(u, '/'); i >= 0 {
		rest = u[i:] // $ES/_all: the host is computed, the path is not
	} else {
		rest = ""
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	path := rest
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	t.path = path
	t.known = hostKnown
	if hostKnown {
		t.scheme = "http"
		if i := strings.Index(u, "://"); i > 0 {
			t.scheme = strings.ToLower(u[:i])
		}
		t.authority = authority
	}
	if r.Socket != "" {
		t.known = true
		t.service = socketService(r.Socket)
	}
	if t.service == "" && hostKnown {
		t.service = portService(port(authority))
	}
	if t.service == "" {
		t.service = pathService(path)
	}
	return t
}

// place sets what t, parsed from r, shows in findings and whether it is
// on this machine.
func (t *target) place(r Request) {
	if t.scheme != "" {
		t.shown = t.scheme + "://" + t.authority + strings.ReplaceAll(t.path, "\x00", "…")
		t.local = netguard.Local(t.scheme + "://" + t.authority + "/")
	} else if t.path != "" {
		t.shown = "…" + strings.ReplaceAll(t.path, "\x00", "…")
	}
	if r.Socket != "" {
		t.local = true
		t.shown = "unix:" + r.Socket + strings.ReplaceAll(t.path, "\x00", "…")
	}
}

// port returns the port of an authority, "" when none is written.
func port(authority string) string {
	h := authority
	if strings.HasPrefix(h, "[") {
		if i := strings.IndexByte(h, ']'); i >= 0 {
			h = h[i+1:]
		}
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		return h[i+1:]
	}
	return ""
}

// dynamicText reports text with a part computed at run time.
func dynamicText(s string) bool { return strings.ContainsAny(s, "$`\x00") }
