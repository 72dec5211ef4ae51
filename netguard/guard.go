package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden/secrets"
)

// Config is the guard's configuration (the netguard section of a policy
// file). The zero Config is the default: http and https only, every
// non-public destination blocked, no DNS resolution.
type Config struct {
	// Schemes are the URL schemes allowed (default http and https).
	Schemes []string `yaml:"schemes,omitempty" json:"schemes,omitempty"`
	// AllowedHosts, when not empty, is an allowlist: only hosts it
	// matches are allowed. An entry is a host name ("api.example.com"),
	// a wildcard ("*.example.com": every name below example.com, not
	// example.com itself), an IP address or a CIDR range. A host it
	// matches is still judged by its address: an allowed host that is
	// private or loopback is blocked unless AllowPrivate matches it too.
	AllowedHosts []string `yaml:"allowed_hosts,omitempty" json:"allowed_hosts,omitempty"`
	// AllowPrivate lists the hosts (same forms as AllowedHosts) that may
	// be private, loopback, link-local or internal: it is the only way
	// to open those. Cloud metadata endpoints can never be opened, and
	// an IP literal written in a non-canonical form is always blocked.
	AllowPrivate []string `yaml:"allow_private,omitempty" json:"allow_private,omitempty"`
	// ExtraBlockedHosts are blocked besides the built-in ranges: CIDR
	// ranges, addresses, host names or wildcards. They win over every
	// allow list.
	ExtraBlockedHosts []string `yaml:"extra_blocked_hosts,omitempty" json:"extra_blocked_hosts,omitempty"`
	// ResolveDNS resolves host names and judges every address they
	// resolve to; a name that does not resolve is blocked. Without it a
	// name is judged by what it is known to be (localhost, metadata
	// names, wildcard DNS services, internal suffixes), and the safe
	// client still checks every address it connects to.
	ResolveDNS bool `yaml:"resolve_dns,omitempty" json:"resolve_dns,omitempty"`
	// BlockDocumentation blocks the IPv4 documentation ranges
	// (192.0.2/24, 198.51.100/24, 203.0.113/24), which are not routed on
	// the Internet but are allowed by default (examples and tests use
	// them for external hosts). The IPv6 documentation ranges
	// (2001:db8::/32, 3fff::/20) are always blocked: nothing legitimate
	// is reached there, and a request to one is probing.
	BlockDocumentation bool `yaml:"block_documentation,omitempty" json:"block_documentation,omitempty"`
	// Resolver resolves names when ResolveDNS is set (default
	// net.DefaultResolver).
	Resolver Resolver `yaml:"-" json:"-"`
	// ResolveTimeout bounds a resolution (default 5s).
	ResolveTimeout time.Duration `yaml:"-" json:"-"`
}

// Resolver resolves host names; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Guard judges destinations. It is safe for concurrent use.
type Guard struct {
	cfg          Config
	schemes      []string
	allowed      hostList
	allowPrivate hostList
	extraBlocked hostList
}

// New returns a guard for cfg, or an error naming the first entry of a
// host list that cannot be read.
func New(cfg Config) (*Guard, error) {
	g := &Guard{cfg: cfg, schemes: []string{"http", "https"}}
	if len(cfg.Schemes) > 0 {
		g.schemes = nil
		for _, s := range cfg.Schemes {
			s = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), "://"))
			if s == "" || strings.ContainsAny(s, ":/ ") {
				return nil, fmt.Errorf("netguard: schemes: %q is not a URL scheme", s)
			}
			g.schemes = append(g.schemes, s)
		}
	}
	var err error
	if g.allowed, err = parseHostList("allowed_hosts", cfg.AllowedHosts); err != nil {
		return nil, err
	}
	if g.allowPrivate, err = parseHostList("allow_private", cfg.AllowPrivate); err != nil {
		return nil, err
	}
	if g.extraBlocked, err = parseHostList("extra_blocked_hosts", cfg.ExtraBlockedHosts); err != nil {
		return nil, err
	}
	if g.cfg.Resolver == nil {
		g.cfg.Resolver = net.DefaultResolver
	}
	if g.cfg.ResolveTimeout <= 0 {
		g.cfg.ResolveTimeout = 5 * time.Second
	}
	return g, nil
}

var defaultGuard, _ = New(Config{})

// Default returns the guard of the zero Config.
func Default() *Guard { return defaultGuard }

// Config returns the guard's configuration.
func (g *Guard) Config() Config { return g.cfg }

// Verdict is the guard's answer about one destination.
type Verdict struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	// Category is why it is blocked ("" when allowed).
	Category Category `json:"category,omitempty"`
	// Host is the host clients dial, normalized; Addrs are the addresses
	// judged (the literal, the address a name is known or resolved to).
	Host  string       `json:"host,omitempty"`
	Addrs []netip.Addr `json:"addrs,omitempty"`
	// Disguised is set when the destination is written in a form that
	// hides what it is: a numeric or Unicode IP literal, an IPv4 address
	// inside an IPv6 one, a zone, a name that echoes an address, user
	// information that reads as a host.
	Disguised bool `json:"disguised,omitempty"`
}

func blocked(raw string, cat Category, reason string) Verdict {
	return Verdict{URL: raw, Category: cat, Reason: reason}
}

// Check judges a URL before any request is made: its scheme, its host
// (in every form clients accept), the lists of the configuration and,
// when ResolveDNS is set, every address the name resolves to. Anything
// it cannot parse is blocked.
func (g *Guard) Check(ctx context.Context, raw string) Verdict {
	v := g.check(ctx, raw)
	// what it shows of the URL never holds its password
	v.URL, v.Reason = secrets.MaskURLPasswords(v.URL), secrets.MaskURLPasswords(v.Reason)
	return v
}

func (g *Guard) check(ctx context.Context, raw string) Verdict {
	t, err := parseURL(raw)
	if err != nil && t.scheme == "" {
		return blocked(raw, Invalid, "cannot be parsed unambiguously: "+err.Error())
	}
	if !slices.Contains(g.schemes, t.scheme) {
		v := blocked(raw, Scheme, fmt.Sprintf("the scheme %s is not allowed (allowed: %s)", t.scheme, strings.Join(g.schemes, ", ")))
		v.Host = t.host
		return v
	}
	if err != nil {
		return blocked(raw, Invalid, "cannot be parsed unambiguously: "+err.Error())
	}
	return g.judge(ctx, raw, t)
}

// CheckHost judges a host or host:port a program connects to without a
// URL (nc, telnet, socat), as Check judges a URL's host.
func (g *Guard) CheckHost(ctx context.Context, hostport string) Verdict {
	t, err := parseHostPort(hostport)
	if err != nil {
		return blocked(hostport, Invalid, "cannot be parsed unambiguously: "+err.Error())
	}
	return g.judge(ctx, hostport, t)
}

// parseHostPort parses a host, or host:port, without a URL.
func parseHostPort(hostport string) (target, error) {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return parseHost(host)
	}
	return parseHost(hostport)
}

// judge decides on a parsed destination: its host, then the URLs its
// query carries for a redirect.
func (g *Guard) judge(ctx context.Context, raw string, t target) Verdict {
	return g.judgeDepth(ctx, raw, t, 0)
}

func (g *Guard) judgeDepth(ctx context.Context, raw string, t target, depth int) Verdict {
	v := g.judgeHost(ctx, raw, t)
	if !v.Allowed || t.scheme == "" {
		return v
	}
	if r, ok := g.redirectParam(ctx, raw, depth); ok {
		return r
	}
	return v
}

// Redirect parameters. A server that redirects to the URL its query
// names (?next=, ?url=, ?redirect_uri=) takes a request to a public host
// on to wherever that URL points; a client that follows redirects without
// a dial-time check gets there. A query value that is an http(s) URL to a
// destination the guard blocks blocks the URL that carries it.
const (
	maxParams       = 64 // query values read per URL
	maxRedirectNest = 2  // URLs inside URLs inside URLs followed
)

// redirectParam judges the URLs raw's query values hold (decoded once,
// and once more when the value is itself percent-encoded), and returns
// the verdict for the first that is blocked for where it leads.
func (g *Guard) redirectParam(ctx context.Context, raw string, depth int) (Verdict, bool) {
	q := strings.IndexByte(raw, '?')
	if q < 0 || depth >= maxRedirectNest {
		return Verdict{}, false
	}
	query := raw[q+1:]
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	n := 0
	for query != "" && n < maxParams {
		var kv string
		kv, query, _ = strings.Cut(query, "&")
		n++
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for range 2 { // ?u=http%3A%2F%2F… and ?u=http%253A%252F%252F…
			d, err := url.QueryUnescape(val)
			if err != nil || d == val {
				break
			}
			val = d
		}
		inner, ok := nestedURL(val)
		if !ok {
			continue
		}
		t, err := parseURL(inner)
		if err != nil {
			continue
		}
		iv := g.judgeDepth(ctx, inner, t, depth+1)
		switch iv.Category {
		case Public, NotAllowed, Invalid, Scheme, Unresolvable:
			continue // not a place the redirect reaches that a direct request could not
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		return Verdict{URL: raw, Host: iv.Host, Category: iv.Category, Addrs: iv.Addrs, Disguised: true,
			Reason: fmt.Sprintf("its query parameter %q carries the URL of %s, where a redirect would take the request: %s", secrets.Redact(name), iv.Host, iv.Reason)}, true
	}
	return Verdict{}, false
}

// nestedURL returns the http(s) URL a query value holds ("//host/…",
// a scheme-relative URL, read as http).
func nestedURL(val string) (string, bool) {
	val = strings.TrimSpace(val)
	switch {
	case len(val) > 7 && strings.EqualFold(val[:7], "http://"), len(val) > 8 && strings.EqualFold(val[:8], "https://"):
		return val, true
	case strings.HasPrefix(val, "//") && len(val) > 2 && val[2] != '/':
		return "http:" + val, true
	}
	return "", false
}

// judgeHost decides on a parsed destination's host.
func (g *Guard) judgeHost(ctx context.Context, raw string, t target) Verdict {
	v := Verdict{URL: raw, Host: t.host}
	disguise := func(v Verdict) Verdict {
		if t.disguise != "" {
			v.Disguised = true
			v.Reason += " (" + t.disguise + ")"
		}
		if t.lure != "" && v.Category != Public && !v.Allowed {
			v.Disguised = true
			// the user information may be a token: shown masked if it is one
			v.Reason += fmt.Sprintf(" (behind the user information %q, which reads as a host)", secrets.Redact(t.lure))
		}
		return v
	}
	if g.extraBlocked.matchTarget(t) {
		v.Category, v.Reason = ExtraBlocked, t.host+" is in extra_blocked_hosts"
		return disguise(v)
	}
	if t.lureAddr {
		v.Category, v.Disguised = Ambiguous, true
		v.Reason = fmt.Sprintf("the user information %q reads as an address, written before the host %s: which one is reached depends on who reads the URL", secrets.Redact(t.lure), t.host)
		return v
	}
	if t.addr.IsValid() {
		v.Addrs = []netip.Addr{t.addr}
		emb := classify(t.addr).embedded
		c, why, opened := g.address(t.host, t.addr)
		// ::ffff:a.b.c.d is how dual-stack sockets write an IPv4 peer:
		// a public address in that form is judged as the address itself
		mappedPublic := t.addr.Is4In6() && c == Public && t.disguise == ""
		if emb.IsValid() && !mappedPublic {
			v.Disguised = true
			if t.disguise == "" && c == Public {
				t.disguise = "the IPv4 address " + emb.String() + " inside an IPv6 one"
			}
		}
		switch {
		case c != Public && !opened:
			v.Category, v.Reason = c, why
			return disguise(v)
		case c != Public && t.disguise != "":
			v.Category, v.Reason = c, why+"; allow_private never opens a literal written in a non-canonical form"
			return disguise(v)
		case t.disguise != "":
			v.Category, v.Reason = NonCanonical, t.host+" is a public address written in a form no one writes by hand"
			return disguise(v)
		case !g.allowed.empty() && !g.allowed.matchTarget(t) && !g.allowed.matchAddr(t.addr) && !(mappedPublic && g.allowed.matchAddr(emb)):
			v.Category, v.Reason = NotAllowed, t.host+" is not in allowed_hosts"
			return disguise(v)
		case c != Public:
			v.Allowed, v.Reason = true, why+", allowed by allow_private"
			return v
		}
		v.Allowed, v.Reason = true, t.host+" is a public address"
		if mappedPublic {
			v.Reason = t.host + " is the IPv4-mapped form of the public address " + emb.String()
		}
		return v
	}
	nc := classifyName(t.host)
	if nc.addr.IsValid() {
		v.Addrs = []netip.Addr{nc.addr}
		if g.extraBlocked.matchAddr(nc.addr) {
			v.Category, v.Reason = ExtraBlocked, fmt.Sprintf("%s (%s) is in extra_blocked_hosts", t.host, nc.addr)
			return v
		}
	}
	switch {
	case nc.cat == Metadata:
		v.Category, v.Reason = Metadata, t.host+" is "+nc.what
		return disguise(v)
	case nc.cat == Documentation && !g.cfg.BlockDocumentation && nc.addr.Is4():
	case nc.cat != Public && !g.allowPrivate.matchHost(t.host) && !(nc.addr.IsValid() && g.allowPrivate.matchAddr(nc.addr)):
		v.Category, v.Reason = nc.cat, t.host+" is "+nc.what
		if nc.addr.IsValid() {
			v.Disguised = true
		}
		return disguise(v)
	}
	if !g.allowed.empty() && !g.allowed.matchHost(t.host) {
		v.Category, v.Reason = NotAllowed, t.host+" is not in allowed_hosts"
		return disguise(v)
	}
	if !g.cfg.ResolveDNS || nc.addr.IsValid() {
		v.Allowed, v.Reason = true, t.host+" is a public name"
		if nc.addr.IsValid() {
			v.Reason = t.host + " resolves to the public address " + nc.addr.String()
		}
		if nc.cat != Public {
			v.Reason = t.host + " is " + nc.what + ", allowed by allow_private"
		}
		return v
	}
	return g.resolve(ctx, v)
}

// resolve judges every address v.Host resolves to.
func (g *Guard) resolve(ctx context.Context, v Verdict) Verdict {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.ResolveTimeout)
	defer cancel()
	addrs, err := g.cfg.Resolver.LookupNetIP(ctx, "ip", v.Host)
	if err != nil || len(addrs) == 0 {
		if err == nil {
			err = errors.New("no addresses")
		}
		v.Category, v.Reason = Unresolvable, fmt.Sprintf("%s does not resolve: %v", v.Host, err)
		return v
	}
	v.Addrs = addrs
	for _, a := range addrs {
		if c, why, opened := g.address(v.Host, a); c != Public && !opened {
			v.Category, v.Reason = c, fmt.Sprintf("%s resolves to %s, %s", v.Host, a.WithZone(""), why)
			return v
		}
	}
	v.Allowed, v.Reason = true, fmt.Sprintf("%s resolves to public addresses only (%s)", v.Host, joinAddrs(addrs))
	return v
}

func joinAddrs(as []netip.Addr) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// address judges one address of host: the built-in ranges (the IPv4
// address an IPv6 one carries included), extra_blocked_hosts and
// allow_private. It returns the address's category and why, and opened
// when allow_private lets a non-public address be reached; Public and ""
// for an ordinary address.
func (g *Guard) address(host string, a netip.Addr) (cat Category, why string, opened bool) {
	a = a.WithZone("")
	c := classify(a)
	if g.extraBlocked.matchAddr(a) || c.embedded.IsValid() && g.extraBlocked.matchAddr(c.embedded) {
		return ExtraBlocked, a.String() + " is in extra_blocked_hosts", false
	}
	switch {
	case c.cat == Public, c.cat == Documentation && !g.cfg.BlockDocumentation && a.Is4():
		return Public, "", false
	case c.embedded.IsValid():
		why = a.String() + " carries " + c.what
	default:
		why = a.String() + " is " + c.what
	}
	opened = c.cat != Metadata && (g.allowPrivate.matchHost(host) || g.allowPrivate.matchAddr(a))
	return c.cat, why, opened
}

// CheckAddr judges an address a client is about to connect to for host
// (the dial-time check of the safe client): the built-in ranges and the
// lists, as for a literal.
func (g *Guard) CheckAddr(host string, a netip.Addr) Verdict {
	t, err := parseHost(host)
	if err == nil {
		host = t.host
	}
	v := Verdict{URL: host, Host: host, Addrs: []netip.Addr{a}}
	if g.extraBlocked.matchHost(host) {
		v.Category, v.Reason = ExtraBlocked, host+" is in extra_blocked_hosts"
		return v
	}
	if c, why, opened := g.address(host, a); c != Public && !opened {
		v.Category, v.Reason = c, fmt.Sprintf("%s connects to %s: %s", host, a, why)
		return v
	}
	v.Allowed, v.Reason = true, a.String()+" is a public address"
	return v
}

// Local reports whether a URL or host names this machine, in any form
// (localhost, 127.0.0.1, 0x7f000001, [::ffff:127.0.0.1], a name that
// echoes a loopback address): what is sent there does not leave it.
func Local(dest string) bool {
	parse := parseHostPort
	if strings.Contains(dest, "://") {
		parse = parseURL
	}
	t, err := parse(dest)
	if err != nil {
		return false
	}
	if t.addr.IsValid() {
		return classify(t.addr).cat.Local()
	}
	return classifyName(t.host).cat.Local()
}

// hostList is a list of host patterns and address ranges.
type hostList struct {
	exact    map[string]bool
	suffixes []string // ".example.com"
	prefixes []netip.Prefix
}

func (l hostList) empty() bool {
	return len(l.exact) == 0 && len(l.suffixes) == 0 && len(l.prefixes) == 0
}

func parseHostList(field string, entries []string) (hostList, error) {
	l := hostList{exact: map[string]bool{}}
	for i, e := range entries {
		e = strings.TrimSpace(e)
		bad := func(why string) error {
			return fmt.Errorf("netguard: %s[%d]: %q %s", field, i, e, why)
		}
		switch {
		case e == "":
			return l, bad("is empty")
		case strings.Contains(e, "/"):
			p, err := netip.ParsePrefix(e)
			if err != nil {
				return l, bad("is not a CIDR range")
			}
			l.prefixes = append(l.prefixes, p.Masked())
		case strings.HasPrefix(e, "*."):
			t, err := parseHost(e[2:])
			if err != nil || t.addr.IsValid() {
				return l, bad("is not a wildcard domain (*.example.com)")
			}
			l.suffixes = append(l.suffixes, "."+t.host)
		case strings.Contains(e, "*"):
			return l, bad("has a wildcard that is not a leading *. label")
		default:
			if a, err := netip.ParseAddr(strings.Trim(e, "[]")); err == nil {
				l.prefixes = append(l.prefixes, netip.PrefixFrom(a.WithZone(""), a.BitLen()))
				continue
			}
			t, err := parseHost(e)
			if err != nil {
				return l, bad("is not a host name: " + err.Error())
			}
			if t.addr.IsValid() {
				return l, bad("is an IP address written in a non-canonical form")
			}
			l.exact[t.host] = true
		}
	}
	return l, nil
}

func (l hostList) matchHost(h string) bool {
	if l.exact[h] {
		return true
	}
	for _, s := range l.suffixes {
		if strings.HasSuffix(h, s) {
			return true
		}
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return l.matchAddr(a)
	}
	return false
}

// matchTarget is matchHost(t.host) for a target parseHost returned: the
// address of an IP literal, whose host is its canonical form, is not
// parsed again.
func (l hostList) matchTarget(t target) bool {
	if !t.addr.IsValid() {
		return l.matchHost(t.host)
	}
	if l.exact[t.host] {
		return true
	}
	for _, s := range l.suffixes {
		if strings.HasSuffix(t.host, s) {
			return true
		}
	}
	return l.matchAddr(t.addr)
}

func (l hostList) matchAddr(a netip.Addr) bool {
	a = a.WithZone("")
	for _, p := range l.prefixes {
		if p.Contains(a) || a.Is4In6() && p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}
