package netguard

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests of the safe client talk to loopback servers only.

func mustGuard(t *testing.T, cfg Config) *Guard {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// localhostGuard may reach this machine by the name localhost, and only
// by it.
func localhostGuard(t *testing.T) *Guard {
	return mustGuard(t, Config{AllowPrivate: []string{"localhost"}})
}

// server is a loopback test server that counts its requests.
type server struct {
	*httptest.Server
	hits atomic.Int32
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// port is the server's port.
func (s *server) port() string {
	return strconv.Itoa(s.Listener.Addr().(*net.TCPAddr).Port)
}

// byName is the server's URL with the host localhost.
func (s *server) byName(path string) string {
	return "http://localhost:" + s.port() + path
}

// get sends a GET with header, reads and closes the response.
func get(t *testing.T, c *http.Client, raw string, header http.Header) error {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, vv := range header {
		req.Header[k] = vv
	}
	resp, err := c.Do(req)
	if resp != nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

// wantBlocked returns the *BlockedError err wraps, and fails the test
// unless there is one, of the category cat, refused at dial or before.
func wantBlocked(t *testing.T, err error, cat Category, atDial bool) *BlockedError {
	t.Helper()
	var be *BlockedError
	if !errors.As(err, &be) {
		t.Fatalf("error %v, want one wrapping *BlockedError", err)
	}
	if be.Verdict.Allowed || be.Verdict.Category != cat || be.AtDial != atDial {
		t.Errorf("blocked as %q (allowed: %v, at dial: %v), want %q (at dial: %v): %s",
			be.Verdict.Category, be.Verdict.Allowed, be.AtDial, cat, atDial, be.Verdict.Reason)
	}
	return be
}

// wantHits fails the test unless s got n requests.
func wantHits(t *testing.T, s *server, n int32) {
	t.Helper()
	if got := s.hits.Load(); got != n {
		t.Errorf("the server %s got %d requests, want %d", s.URL, got, n)
	}
}

func TestClientRedirectToLoopbackLiteral(t *testing.T) {
	inner := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	outer := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:"+inner.port()+"/admin", http.StatusFound)
	})
	err := get(t, localhostGuard(t).Client(ClientOptions{}), outer.byName("/"), nil)
	be := wantBlocked(t, err, Loopback, false)
	if got := be.Error(); got != "netguard: blocked 127.0.0.1: "+be.Verdict.Reason {
		t.Errorf("Error() = %q", got)
	}
	wantHits(t, outer, 1)
	wantHits(t, inner, 0)
}

// fakeDNS is a DNS server on loopback UDP. It answers an A query with the
// next of its answers (the last one repeats) and an AAAA query with no
// records.
type fakeDNS struct {
	conn     net.PacketConn
	answers  []netip.Addr
	aQueries atomic.Int32
}

func startDNS(t *testing.T, answers ...string) *fakeDNS {
	t.Helper()
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &fakeDNS{conn: conn}
	for _, a := range answers {
		d.answers = append(d.answers, netip.MustParseAddr(a))
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1500)
		for {
			n, from, err := conn.ReadFrom(buf)
			if err != nil {
				return
			}
			if resp := d.answer(buf[:n]); resp != nil {
				conn.WriteTo(resp, from)
			}
		}
	}()
	t.Cleanup(func() {
		conn.Close()
		<-done
	})
	return d
}

// resolver is a Go resolver that asks d, whatever the system's
// configuration names.
func (d *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var nd net.Dialer
		return nd.DialContext(ctx, "udp", d.conn.LocalAddr().String())
	}}
}

// answer builds the response to the query q, or nil for a message that
// is not a query of one question.
func (d *fakeDNS) answer(q []byte) []byte {
	be := binary.BigEndian
	if len(q) < 12 || q[2]&0x80 != 0 || be.Uint16(q[4:]) != 1 {
		return nil
	}
	end := 12 // past the question's name: labels up to the root
	for end < len(q) && q[end] != 0 {
		end += 1 + int(q[end])
	}
	end += 1 + 4 // the root label, QTYPE, QCLASS
	if end > len(q) {
		return nil
	}
	qtype := be.Uint16(q[end-4:])
	resp := make([]byte, 12, 512)
	copy(resp, q[:2])                                      // ID
	be.PutUint16(resp[2:], 0x8480|be.Uint16(q[2:])&0x0100) // QR, AA, RA; RD as asked
	be.PutUint16(resp[4:], 1)                              // one question
	resp = append(resp, q[12:end]...)
	if qtype != 1 { // AAAA and the rest: no records
		return resp
	}
	a := d.answers[min(int(d.aQueries.Add(1)), len(d.answers))-1]
	be.PutUint16(resp[6:], 1)            // one answer
	resp = be.AppendUint16(resp, 0xc00c) // the question's name
	resp = be.AppendUint16(resp, 1)      // A
	resp = be.AppendUint16(resp, 1)      // IN
	resp = be.AppendUint32(resp, 0)      // TTL
	resp = be.AppendUint16(resp, 4)
	return append(resp, a.AsSlice()...)
}

// TestClientDNSRebinding resolves rebind.test to a public address for the
// pre-flight check, then to 127.0.0.1, where a server listens, for the
// dial: the dial-time check refuses the connection.
func TestClientDNSRebinding(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	dns := startDNS(t, "93.184.215.14", "127.0.0.1")
	res := dns.resolver()
	g := mustGuard(t, Config{ResolveDNS: true, Resolver: res})
	// the timeout bounds the test should the public answer be dialed
	c := g.Client(ClientOptions{Resolver: res, Timeout: 5 * time.Second})
	err := get(t, c, "http://rebind.test:"+srv.port()+"/", nil)
	be := wantBlocked(t, err, Loopback, true)
	if want := []netip.Addr{netip.MustParseAddr("127.0.0.1")}; fmt.Sprint(be.Verdict.Addrs) != fmt.Sprint(want) {
		t.Errorf("judged %v, want %v", be.Verdict.Addrs, want)
	}
	if be.Verdict.Host != "rebind.test" {
		t.Errorf("judged for the host %q, want rebind.test", be.Verdict.Host)
	}
	if n := dns.aQueries.Load(); n != 2 {
		t.Errorf("%d A queries, want 2 (the pre-flight check, the dial)", n)
	}
	wantHits(t, srv, 0)
}

// headerSink records the headers of the requests to each path.
type headerSink struct {
	mu   sync.Mutex
	seen map[string]http.Header
}

func (s *headerSink) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]http.Header{}
	}
	s.seen[r.URL.Path] = r.Header.Clone()
}

func (s *headerSink) at(path string) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[path]
}

func TestClientRedirectStripsHeaders(t *testing.T) {
	var sink headerSink
	var a, b *server
	a = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		sink.record(r)
		switch r.URL.Path {
		case "/to-b":
			http.Redirect(w, r, b.byName("/b"), http.StatusFound)
		case "/same":
			http.Redirect(w, r, "/same-end", http.StatusFound)
		case "/chain":
			http.Redirect(w, r, b.byName("/back"), http.StatusTemporaryRedirect)
		}
	})
	b = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		sink.record(r)
		if r.URL.Path == "/back" {
			http.Redirect(w, r, a.byName("/chain-end"), http.StatusFound)
		}
	})
	sensitive := http.Header{
		"Authorization":       {"Bearer t0ken"},
		"Cookie":              {"session=c00kie"},
		"Proxy-Authorization": {"Basic cHJveHk="},
		"x-api-key":           {"k3y"}, // not canonical: stripped all the same
		"X-Deploy-Token":      {"d3ploy"},
	}
	header := http.Header{"Accept": {"text/plain"}}
	for k, v := range sensitive {
		header[k] = v
	}
	c := localhostGuard(t).Client(ClientOptions{StripHeaders: []string{"x-deploy-token"}})
	for _, tc := range []struct {
		start string
		ends  []string // the paths that must not see the sensitive headers
		keeps string   // a path that must see them
	}{
		{start: "/to-b", ends: []string{"/b"}},
		{start: "/same", keeps: "/same-end"},
		{start: "/chain", ends: []string{"/back", "/chain-end"}},
	} {
		t.Run(tc.start, func(t *testing.T) {
			if err := get(t, c, a.byName(tc.start), header); err != nil {
				t.Fatal(err)
			}
			if h := sink.at(tc.start); h.Get("Authorization") == "" {
				t.Errorf("the first request lost Authorization: %v", h)
			}
			for _, p := range tc.ends {
				h := sink.at(p)
				if h == nil {
					t.Fatalf("%s got no request", p)
				}
				for k := range sensitive {
					if v := h.Get(k); v != "" {
						t.Errorf("%s got %s: %s", p, k, v)
					}
				}
				if v := h.Get("Referer"); v != "" {
					t.Errorf("%s got Referer: %s", p, v)
				}
				if h.Get("Accept") != "text/plain" {
					t.Errorf("%s lost Accept: %v", p, h)
				}
			}
			if tc.keeps != "" {
				h := sink.at(tc.keeps)
				for k, v := range sensitive {
					if got := h.Get(k); got != v[0] {
						t.Errorf("%s got %s %q, want %q (same origin)", tc.keeps, k, got, v[0])
					}
				}
				if h.Get("Referer") == "" {
					t.Errorf("%s lost Referer (same origin)", tc.keeps)
				}
			}
		})
	}
}

func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://example.com/a", "http://EXAMPLE.com:80/b", true},
		{"https://example.com/", "https://example.com:443/x?y", true},
		{"http://example.com/", "http://example.com:0080/", true},
		{"http://[::1]:8080/", "http://[0:0:0:0:0:0:0:1]:8080/", true},
		{"http://example.com/", "https://example.com/", false},
		{"http://example.com/", "http://example.com:8080/", false},
		{"http://example.com/", "http://api.example.com/", false},
		{"http://example.com/", "http://example.com./", true},
	} {
		a, b := request(t, tc.a), request(t, tc.b)
		if got := sameOrigin(b, []*http.Request{a}); got != tc.same {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

func request(t *testing.T, raw string) *http.Request {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Request{URL: u, Header: http.Header{}}
}

func TestClientMaxRedirects(t *testing.T) {
	for _, tc := range []struct {
		max, requests int32
	}{
		{max: 3, requests: 4},
		{max: 0, requests: 6}, // the default: 5 redirects
		{max: -1, requests: 1},
	} {
		t.Run(fmt.Sprint(tc.max), func(t *testing.T) {
			loop := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/again", http.StatusFound)
			})
			c := localhostGuard(t).Client(ClientOptions{MaxRedirects: int(tc.max)})
			err := get(t, c, loop.byName("/"), nil)
			if !errors.Is(err, ErrTooManyRedirects) {
				t.Fatalf("error %v, want ErrTooManyRedirects", err)
			}
			wantHits(t, loop, tc.requests)
		})
	}
}

// countDials makes c's transport count its dials.
func countDials(t *testing.T, c *http.Client) *atomic.Int32 {
	t.Helper()
	tr := c.Transport.(*preflight).next.(*http.Transport)
	var n atomic.Int32
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		n.Add(1)
		return dial(ctx, network, addr)
	}
	return &n
}

func TestClientBlocksBeforeDialing(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  func() *http.Request
		cat  Category
		host string
	}{
		{"metadata", get1("http://169.254.169.254/latest/meta-data/"), Metadata, "169.254.169.254"},
		{"gopher", get1("gopher://127.0.0.1:6379/_FLUSHALL"), Scheme, "127.0.0.1"},
		{"credentials", get1("http://admin:s3cret@169.254.169.254/latest?token=t0ken#frag"), Metadata, "169.254.169.254"},
		{"token as user", get1("http://eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl@169.254.169.254/"), Metadata, "169.254.169.254"},
		{"opaque", func() *http.Request {
			// the request line says example.com; the client dials Host
			r := get1("http://169.254.169.254/")()
			r.URL.Opaque = "//example.com/"
			return r
		}, Metadata, "169.254.169.254"},
		{"mapped", get1("http://[::ffff:a9fe:a9fe]/"), Metadata, "::ffff:169.254.169.254"},
		{"decimal", get1("http://2852039166/"), Metadata, "169.254.169.254"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Default().Client(ClientOptions{})
			dials := countDials(t, c)
			resp, err := c.Do(tc.req())
			if resp != nil {
				resp.Body.Close()
			}
			be := wantBlocked(t, err, tc.cat, false)
			if be.Verdict.Host != tc.host {
				t.Errorf("host %q, want %q", be.Verdict.Host, tc.host)
			}
			for _, secret := range []string{"s3cret", "t0ken", "frag", "eyJzdWIi"} {
				if strings.Contains(be.Error(), secret) || strings.Contains(be.Verdict.URL, secret) {
					t.Errorf("the error shows %q: %s (URL %s)", secret, be.Error(), be.Verdict.URL)
				}
			}
			if n := dials.Load(); n != 0 {
				t.Errorf("%d dials, want none", n)
			}
		})
	}
}

func get1(raw string) func() *http.Request {
	return func() *http.Request {
		r, err := http.NewRequest(http.MethodGet, raw, nil)
		if err != nil {
			panic(err)
		}
		return r
	}
}

// TestClientDialCheck shows the dial-time check on its own: a name the
// pre-flight check allows without resolving it is refused when it
// resolves to a loopback address, and allow_private opens it by name.
func TestClientDialCheck(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {})
	res := startDNS(t, "127.0.0.1").resolver()
	raw := "http://app.example.com:" + srv.port() + "/"

	err := get(t, Default().Client(ClientOptions{Resolver: res}), raw, nil)
	wantBlocked(t, err, Loopback, true)
	wantHits(t, srv, 0)

	g := mustGuard(t, Config{AllowPrivate: []string{"app.example.com"}})
	if err := get(t, g.Client(ClientOptions{Resolver: res}), raw, nil); err != nil {
		t.Fatalf("allow_private names the host: %v", err)
	}
	wantHits(t, srv, 1)
}

// TestClientProxy sends requests through a loopback proxy: the proxy's
// address is not judged, the destination's name is resolved by the
// pre-flight check although the guard does not resolve names.
func TestClientProxy(t *testing.T) {
	proxy := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "proxied ", r.URL.Host)
	})
	g := mustGuard(t, Config{Resolver: fakeResolver{
		"example.com":          {"93.184.215.14"},
		"intranet.example.com": {"10.1.2.3"},
	}})
	pu, _ := url.Parse(proxy.URL)
	c := g.Client(ClientOptions{Proxy: http.ProxyURL(pu)})

	resp, err := c.Get("http://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "proxied example.com" {
		t.Errorf("got %q", body)
	}

	for raw, cat := range map[string]Category{
		"http://intranet.example.com/": Private,
		"http://unknown.example.com/":  Unresolvable,
	} {
		t.Run(raw, func(t *testing.T) {
			err := get(t, c, raw, nil)
			wantBlocked(t, err, cat, false)
		})
	}
	wantHits(t, proxy, 1)
	if g.Config().ResolveDNS {
		t.Error("the client changed the guard's configuration")
	}
}

func ExampleGuard_Client() {
	g, err := New(Config{AllowPrivate: []string{"localhost"}})
	if err != nil {
		panic(err)
	}
	c := g.Client(ClientOptions{StripHeaders: []string{"X-Deploy-Token"}})
	_, err = c.Get("http://169.254.169.254/latest/meta-data/")
	var be *BlockedError
	if errors.As(err, &be) {
		fmt.Println(be.Verdict.Category)
	}
	// Output: metadata
}
