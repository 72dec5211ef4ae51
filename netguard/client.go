package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/net/idna"

	"github.com/agentwarden/warden/secrets"
)

// ClientOptions configures the safe client (Guard.Client). The zero value
// is the default.
type ClientOptions struct {
	// MaxRedirects is how many redirects a request follows (default 5; a
	// negative value follows none). One more is an error wrapping
	// ErrTooManyRedirects.
	MaxRedirects int
	// StripHeaders are removed, besides Authorization, Cookie,
	// Proxy-Authorization, X-Api-Key and Referer (which net/http sets to
	// the previous URL, query included), from a redirect that leaves the
	// origin of the request (scheme, host and port). Names are matched
	// regardless of case.
	StripHeaders []string
	// Timeout bounds a whole exchange: connections, redirects and reading
	// the body (default 30s; zero or negative is the default).
	Timeout time.Duration
	// Resolver resolves names for the dialer (default
	// net.DefaultResolver). The dial-time check judges what it answers.
	Resolver *net.Resolver
	// Proxy names the proxy of a request, as http.Transport.Proxy does
	// (default none: the environment's HTTP_PROXY is never read). Through a
	// proxy the client dials the proxy, not the destination, so the
	// dial-time check cannot see where a request goes: the pre-flight check
	// then resolves the destination's name itself (ResolveDNS is forced on,
	// with the guard's Resolver) and the proxy's own address is not
	// checked. The proxy resolves the name again, so a name that resolves
	// differently between the two lookups (DNS rebinding) is not caught;
	// the dial-time check is also skipped for a direct request whose host
	// and port are those of a proxy named earlier.
	Proxy func(*http.Request) (*url.URL, error)
}

// ErrTooManyRedirects is wrapped by the error of a request that was
// redirected more than ClientOptions.MaxRedirects times.
var ErrTooManyRedirects = errors.New("netguard: too many redirects")

// BlockedError is the error of a request the safe client refused, found
// with errors.As through the *url.Error the client returns. No connection
// was made to the destination.
type BlockedError struct {
	// Verdict is the guard's answer; never Allowed. Its URL carries no
	// user information, query or fragment.
	Verdict Verdict
	// AtDial is set when the URL passed the pre-flight check but the
	// address the client was about to connect to was refused: the name
	// resolved to it when dialing (DNS rebinding, or a name the pre-flight
	// check judged without resolving it).
	AtDial bool
}

func (e *BlockedError) Error() string {
	host := e.Verdict.Host
	if host == "" {
		host = e.Verdict.URL
	}
	return secrets.MaskURLPasswords("netguard: blocked " + host + ": " + e.Verdict.Reason)
}

// defaultStrip are the headers every redirect to another origin loses.
var defaultStrip = []string{"Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key", "Referer"}

// Client returns an http.Client for the outbound requests of warden and
// its users, which reaches only what g allows:
//
//   - every request (the first and each redirect) passes g.Check before
//     any connection is made;
//   - every address the client connects to passes g.CheckAddr for the
//     host it was resolved from, after resolution, so a name that
//     resolves to a blocked address (DNS rebinding included) is refused;
//   - a redirect that leaves the origin of the request (scheme, host or
//     port, unlike net/http, which only looks at the domain) loses the
//     credential headers, on that hop and every later one;
//   - redirects are bounded, no proxy is used unless opts names one.
//
// A refused request fails with an error wrapping *BlockedError, a request
// redirected too often with one wrapping ErrTooManyRedirects (and, as
// net/http does for every redirect error, the last response, its body
// closed). net/http wraps both in a *url.Error that quotes the request's
// URL without its password but with its user name and query: show the
// BlockedError, or pass the text through secrets.Redact.
//
// The transport has the settings of Go's http.DefaultTransport (timeouts,
// HTTP/2) but never its Proxy. The client is safe for concurrent use;
// callers may set its Jar, whose cookies keep their own scope. Replacing
// its Transport or CheckRedirect removes the checks.
func (g *Guard) Client(opts ClientOptions) *http.Client {
	d := &dialer{guard: g, resolver: opts.Resolver}
	tr := &http.Transport{
		DialContext:           d.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
	}
	pre := &preflight{guard: g, next: tr}
	if opts.Proxy != nil {
		d.userProxy = opts.Proxy
		tr.Proxy = d.proxy
		cfg := g.Config()
		cfg.ResolveDNS = true
		pre.guard, pre.err = New(cfg)
		if pre.err != nil {
			pre.err = fmt.Errorf("netguard: the client's pre-flight guard: %w", pre.err)
		}
	}
	r := &redirects{max: opts.MaxRedirects, strip: slices.Clone(defaultStrip)}
	switch {
	case r.max == 0:
		r.max = 5
	case r.max < 0:
		r.max = 0
	}
	for _, h := range opts.StripHeaders {
		if h = strings.TrimSpace(h); h != "" {
			r.strip = append(r.strip, http.CanonicalHeaderKey(h))
		}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	return &http.Client{Transport: pre, CheckRedirect: r.check, Timeout: timeout}
}

// preflight checks every request's URL before the transport sees it.
type preflight struct {
	guard *Guard
	err   error // the client cannot check anything: every request fails
	next  http.RoundTripper
}

var _ http.RoundTripper = (*preflight)(nil)

func (p *preflight) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := p.check(req); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	return p.next.RoundTrip(req)
}

func (p *preflight) check(req *http.Request) error {
	if p.err != nil {
		return p.err
	}
	if req.URL == nil {
		return errors.New("netguard: a request without a URL")
	}
	raw, ok := dialedURL(req.URL)
	if !ok {
		return &BlockedError{Verdict: Verdict{URL: redactURL(req.URL), Host: req.URL.Host, Category: Invalid,
			Reason: "the request's URL does not read back to the host the client dials"}}
	}
	v := p.guard.Check(req.Context(), raw)
	if v.Allowed {
		return nil
	}
	v.URL = redactURL(req.URL)
	if name := req.URL.User.Username(); name != "" {
		// the reason may quote the user information; it can be a token
		quoted := strconv.Quote(name)
		v.Reason = strings.ReplaceAll(v.Reason, quoted[1:len(quoted)-1], secrets.Mask(name))
		v.Reason = strings.ReplaceAll(v.Reason, name, secrets.Mask(name))
	}
	return &BlockedError{Verdict: v}
}

// CloseIdleConnections closes the transport's idle connections (what
// http.Client.CloseIdleConnections calls).
func (p *preflight) CloseIdleConnections() {
	if c, ok := p.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// dialedURL returns u as the text the guard judges: the URL of the host
// the transport dials. Opaque, which only the request line uses, is
// dropped; ok is false when the text does not read back to that host.
func dialedURL(u *url.URL) (raw string, ok bool) {
	c := *u
	c.Opaque = ""
	raw = c.String()
	back, err := url.Parse(raw)
	return raw, err == nil && back.Host == u.Host
}

// redactURL shows where u goes without the user information, query and
// fragment, which may hold secrets.
func redactURL(u *url.URL) string {
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return r.String()
}

// dialer connects only to addresses the guard allows for the host dialed.
type dialer struct {
	guard     *Guard
	resolver  *net.Resolver
	userProxy func(*http.Request) (*url.URL, error)
	proxies   sync.Map // the host:port of every proxy userProxy named
}

func (d *dialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	nd := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Resolver: d.resolver}
	if _, proxy := d.proxies.Load(addr); !proxy {
		// called with each resolved address, before connecting to it
		nd.Control = func(_, address string, _ syscall.RawConn) error {
			return d.check(host, address)
		}
	}
	return nd.DialContext(ctx, network, addr)
}

// check judges the address (ip:port) about to be connected to for host.
func (d *dialer) check(host, address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{AtDial: true, Verdict: Verdict{URL: host, Host: host, Category: Invalid,
			Reason: fmt.Sprintf("%s connects to %q, which is not an IP address and port", host, address)}}
	}
	if v := d.guard.CheckAddr(host, ap.Addr()); !v.Allowed {
		return &BlockedError{Verdict: v, AtDial: true}
	}
	return nil
}

// proxy is the transport's Proxy: userProxy, remembering the address of
// each proxy it names so that dial does not judge it.
func (d *dialer) proxy(req *http.Request) (*url.URL, error) {
	u, err := d.userProxy(req)
	if err != nil || u == nil {
		return u, err
	}
	d.proxies.Store(proxyAddr(u), true)
	return u, nil
}

// proxyAddr is the host:port the transport dials for the proxy u. Should
// it differ from the transport's, the proxy's address is judged: the
// mistake fails closed.
func proxyAddr(u *url.URL) string {
	host := u.Hostname()
	if !ascii(host) {
		if a, err := idna.Lookup.ToASCII(host); err == nil {
			host = a
		}
	}
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	return net.JoinHostPort(host, port)
}

func defaultPort(scheme string) string {
	switch strings.ToLower(scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	case "socks5", "socks5h":
		return "1080"
	}
	return ""
}

// redirects is the client's redirect policy. The URL of every hop is
// checked by preflight.
type redirects struct {
	max   int
	strip []string // canonical names
}

// check bounds the hops and strips the credential headers from a hop
// when the requests so far do not all share one origin. net/http copies
// the first request's headers onto every hop before calling check, so
// judging the whole chain keeps a chain that comes back to the first
// origin (A → B → A) stripped.
func (r *redirects) check(req *http.Request, via []*http.Request) error {
	if len(via) > r.max {
		return fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, r.max)
	}
	if sameOrigin(req, via) {
		return nil
	}
	for k := range req.Header {
		for _, s := range r.strip {
			if strings.EqualFold(k, s) {
				delete(req.Header, k)
				break
			}
		}
	}
	return nil
}

// sameOrigin reports whether req and every request of via have one
// origin; a URL whose origin cannot be read shares none.
func sameOrigin(req *http.Request, via []*http.Request) bool {
	o, ok := origin(req.URL)
	if !ok {
		return false
	}
	for _, v := range via {
		if p, ok := origin(v.URL); !ok || p != o {
			return false
		}
	}
	return true
}

// origin is scheme://host:port, the host normalized as clients dial it
// and the scheme's default port filled in.
func origin(u *url.URL) (string, bool) {
	t, err := parseHost(u.Hostname())
	if err != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = defaultPort(scheme)
	} else if n, err := strconv.Atoi(port); err != nil || n > 65535 {
		return "", false
	} else {
		port = strconv.Itoa(n)
	}
	return scheme + "://" + net.JoinHostPort(t.host, port), true
}
