package netguard

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"strings"
	"testing"
)

// fakeResolver answers from a table; names it does not know do not
// resolve.
type fakeResolver map[string][]string

func (r fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := r[host]
	if !ok {
		return nil, fmt.Errorf("lookup %s: no such host", host)
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

type ssrfCase struct {
	URL        string `json:"url"`
	Expect     string `json:"expect"`
	Why        string `json:"why"`
	Category   string `json:"category"`
	NeedsDNS   bool   `json:"needs_dns"`
	ResolvesTo string `json:"resolves_to"`
}

func readCases(t *testing.T) []ssrfCase {
	t.Helper()
	f, err := os.Open("../testdata/ssrf.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []ssrfCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c ssrfCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if len(out) < 40 {
		t.Fatalf("only %d cases", len(out))
	}
	return out
}

// TestCorpus decides every case of testdata/ssrf.jsonl as labeled: the
// cases that need no DNS without resolution, the others with a fake
// resolver that answers as the label says (public names: a public
// address).
func TestCorpus(t *testing.T) {
	ctx := context.Background()
	for _, c := range readCases(t) {
		if !c.NeedsDNS {
			v := Default().Check(ctx, c.URL)
			if got := verdictWord(v); got != c.Expect {
				t.Errorf("%s (%s): %s, want %s: %s", c.URL, c.Why, got, c.Expect, v.Reason)
			}
			continue
		}
		res := fakeResolver{}
		host := hostOf(t, c.URL)
		if c.ResolvesTo != "" {
			res[host] = []string{c.ResolvesTo}
		} else {
			res[host] = []string{"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:25c3"}
		}
		g, err := New(Config{ResolveDNS: true, Resolver: res})
		if err != nil {
			t.Fatal(err)
		}
		v := g.Check(ctx, c.URL)
		if got := verdictWord(v); got != c.Expect {
			t.Errorf("%s (%s), resolving: %s, want %s: %s", c.URL, c.Why, got, c.Expect, v.Reason)
		}
	}
}

func verdictWord(v Verdict) string {
	if v.Allowed {
		return "allow"
	}
	return "block"
}

func hostOf(t *testing.T, raw string) string {
	tg, err := parseURL(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return tg.host
}

func TestCheck(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		url      string
		cat      Category // "" : allowed
		disguise bool
	}{
		// IPv4 literals in every form inet_aton and curl accept
		{"http://127.0.0.1/", Loopback, false},
		{"http://127.1/", Loopback, true},
		{"http://0x7f.1/", Loopback, true},
		{"http://0x7f.0.1/", Loopback, true},
		{"http://017700000001/", Loopback, true},
		{"http://127.0.0.1./", Loopback, false},
		{"http://127.0.0.1../", Invalid, false},
		{"http://0x7f.0.0.0x1/", Loopback, true},
		{"http://0xa9fea9fe/", Metadata, true},
		{"http://2852039166/", Metadata, true},
		{"http://169.254.169.254/latest/meta-data/", Metadata, false},
		{"http://4294967296/", Invalid, false},
		{"http://256.1.1.1/", Invalid, false},
		{"http://1.2.3.08/", Invalid, false},
		{"http://08.8.8.8/", Invalid, false},
		{"http://8.8.8.8/", "", false},
		{"http://134744072/", NonCanonical, true},
		{"http://0x7f000001.example.com/", "", false},
		{"http://example.0x10/", Invalid, false},
		{"http://100.64.0.1/", SharedAddress, false},
		{"http://100.100.100.200/latest/meta-data/", Metadata, false},
		{"http://168.63.129.16/machine?comp=goalstate", Metadata, false},
		{"http://192.168.1.1/", Private, false},
		{"http://172.31.255.255/", Private, false},
		{"http://172.32.0.1/", "", false},
		{"http://198.18.0.1/", Reserved, false},
		{"http://240.0.0.1/", Reserved, false},
		{"http://203.0.113.7/", "", false}, // documentation: allowed unless configured
		// IPv6
		{"http://[::1]/", Loopback, false},
		{"http://[::]/", Unspecified, false},
		{"http://[::ffff:169.254.169.254]/", Metadata, true},
		{"http://[::ffff:8.8.8.8]/", "", false}, // judged as the public address it maps
		{"http://[::ffff:808:808]/", "", false},
		{"http://[::ffff:8.8.8.8%25eth0]/", NonCanonical, true},
		{"http://[::ffff:10.0.0.1]/", Private, true},
		{"http://[::ffff:0:7f00:1]/", Loopback, true},
		{"http://[::127.0.0.1]/", Loopback, true},
		{"http://[::8.8.8.8]/", Reserved, true},
		{"http://[64:ff9b::8.8.8.8]/", NonCanonical, true},
		{"http://[64:ff9b:1::1]/", Private, false},
		{"http://[2002:7f00:1::]/", Loopback, true},
		{"http://[2002:0808:0808::1]/", NonCanonical, true},
		{"http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/", Reserved, true},
		{"http://[fe80::1%25eth0]/", LinkLocal, true},
		{"http://[2606:4700::1111%25eth0]/", NonCanonical, true},
		{"http://[fd12::1]/", UniqueLocal, false},
		{"http://[ff02::1]/", Multicast, false},
		{"http://[4000::1]/", Reserved, false},
		{"http://[2606:4700:4700::1111]/", "", false},
		{"http://[2001:db8::1]/", Documentation, false}, // IPv6 documentation: always blocked
		{"http://[2001:db8:85a3::8a2e:370:7334]:8080/x", Documentation, false},
		{"http://[3fff::1]/", Documentation, false},
		{"http://[::1/", Invalid, false},
		{"http://[zz::1]/", Invalid, false},
		// names
		{"http://localhost./", Loopback, false},
		{"http://api.localhost:8080/", Loopback, false},
		{"http://metadata.google.internal/computeMetadata/v1/", Metadata, false},
		{"http://METADATA/computeMetadata/v1/", Metadata, false},
		{"http://10.1.2.3.nip.io/", Private, true},
		{"http://app-169-254-169-254.sslip.io/", Metadata, false},
		{"http://7f000001.nip.io/", Loopback, true},
		{"http://8.8.8.8.nip.io/", "", false},
		{"http://nip.io/", "", false},
		{"http://whatever.localtest.me/", Loopback, false},
		{"http://7f000001.c0a80001.rbndr.us/", Rebinding, false},
		{"http://jenkins/", InternalName, false},
		{"http://db.prod.internal:5432/", InternalName, false},
		{"http://printer.local/", InternalName, false},
		{"http://api.default.svc/", InternalName, false},
		{"http://redis.cache.svc.cluster.local:6379/", InternalName, false},
		{"http://10-0-0-1.default.pod.cluster.local/", InternalName, false},
		{"https://svc.example.com/", "", false},
		{"http://router.home.arpa/", InternalName, false},
		{"https://internal.example.com/", "", false},
		{"https://xn--bcher-kva.example/", "", false},
		{"http://ｌｏｃａｌｈｏｓｔ/", Loopback, true},
		{"http://%E2%91%A0%E2%91%A1%E2%91%A6.0.0.1/", Loopback, true},
		// user information
		{"http://169.254.169.254@example.com/", Ambiguous, true}, // which host is meant depends on the reader
		{"http://127.0.0.1@example.com/", Ambiguous, true},
		{"http://0x7f.1@example.com/", Ambiguous, true},
		{"http://localhost@example.com/", Ambiguous, true},
		{"http://metadata.google.internal@example.com/", Ambiguous, true},
		{"http://first.last@example.com/", "", false},
		{"http://12345@example.com/", "", false},
		{"http://deploy-bot@example.com/", "", false},
		// redirect parameters carrying an internal URL
		{"https://example.com/redirect?url=http://169.254.169.254/latest/meta-data/", Metadata, true},
		{"https://example.com/login?next=http%3A%2F%2F127.0.0.1%3A8080%2Fadmin", Loopback, true},
		{"https://example.com/?u=http%253A%252F%252F10.0.0.1%252F", Private, true},
		{"https://example.com/r?a=1&to=//localhost/x", Loopback, true},
		{"https://example.com/go?u=https%3A%2F%2Fexample.org%2F%3Fnext%3Dhttp%3A%2F%2F10.1.2.3%2F", Private, true},
		{"https://example.com/r?to=https://github.com/x", "", false},
		{"https://example.com/search?q=http+tutorial&lang=en", "", false},
		{"https://example.com/r?to=http://", "", false},
		{"https://example.com/r?next=/dashboard", "", false},
		{"http://user:pass@localhost:5984/", Loopback, false},
		{"http://a@b@127.0.0.1/", Loopback, false},
		{"http://evil.com\\@127.0.0.1/", Invalid, false},
		// what clients read differently is refused
		{"http:127.0.0.1", Invalid, false},
		{"http:/127.0.0.1/", Invalid, false},
		{"//127.0.0.1/", Invalid, false},
		{"127.0.0.1", Invalid, false},
		{"http://127.0.0.1:99999/", Invalid, false},
		{"http://example.com:/", Invalid, false},
		{"http://exa mple.com/", Invalid, false},
		{"http://example.com\t/", Invalid, false},
		{"http://exam%70le.com/", Invalid, false},
		{"http://a..b/", Invalid, false},
		{"http://a_b.example.com/", "", false},
		{"http://example.com;127.0.0.1/", Invalid, false},
		{"", Invalid, false},
		{"gopher://127.0.0.1:6379/_FLUSHALL", Scheme, false},
		{"dict://example.com:11211/", Scheme, false},
		{"HTTPS://Example.COM/", "", false},
	}
	for _, c := range cases {
		v := Default().Check(ctx, c.url)
		if v.Allowed != (c.cat == "") || v.Category != c.cat {
			t.Errorf("%q: allowed=%v category %q, want %q: %s", c.url, v.Allowed, v.Category, c.cat, v.Reason)
			continue
		}
		if v.Disguised != c.disguise {
			t.Errorf("%q: disguised=%v, want %v: %s", c.url, v.Disguised, c.disguise, v.Reason)
		}
		if v.Reason == "" {
			t.Errorf("%q: no reason", c.url)
		}
	}
}

func TestConfig(t *testing.T) {
	ctx := context.Background()
	g, err := New(Config{
		AllowedHosts:      []string{"*.example.com", "api.github.com", "10.0.0.0/8", "localhost"},
		AllowPrivate:      []string{"localhost", "git.corp.example.com", "10.1.0.0/16"},
		ExtraBlockedHosts: []string{"bad.example.com", "8.8.4.0/24", "*.evil.test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url string
		cat Category
	}{
		{"https://www.example.com/", ""},
		{"https://a.b.example.com/", ""},
		{"https://example.com/", NotAllowed}, // *.example.com is below it only
		{"https://api.github.com/", ""},
		{"https://github.com/", NotAllowed},
		{"https://bad.example.com/", ExtraBlocked},
		{"http://8.8.4.4/", ExtraBlocked},
		{"http://[::ffff:8.8.4.4]/", ExtraBlocked},
		{"http://x.evil.test/", ExtraBlocked},
		{"http://localhost:8080/", ""},                 // allowed and allow_private
		{"http://127.0.0.1:8080/", Loopback},           // allow_private names localhost, not its address
		{"http://10.1.2.3/", ""},                       // in allowed_hosts and allow_private
		{"http://10.2.0.1/", Private},                  // allowed, but not allow_private
		{"http://169.254.169.254/", Metadata},          // never
		{"http://0x0a010203/", Private},                // non-canonical: never opened
		{"http://git.corp.example.com/", ""},           // .corp is internal, opened by allow_private
		{"http://www.corp.example.com/", ""},           // not a .corp name: example.com is the domain
		{"http://jenkins.corp/", NotAllowed + ""},      // internal, not opened
		{"http://metadata.google.internal/", Metadata}, // never
		{"http://1.1.1.1/", NotAllowed},                // public but not allowed
	}
	for _, c := range cases {
		v := g.Check(ctx, c.url)
		want := c.cat
		if c.url == "http://jenkins.corp/" {
			want = InternalName
		}
		if v.Allowed != (want == "") || v.Category != want {
			t.Errorf("%q: allowed=%v category %q, want %q: %s", c.url, v.Allowed, v.Category, want, v.Reason)
		}
	}
	for _, bad := range []Config{
		{AllowedHosts: []string{"*"}},
		{AllowedHosts: []string{"a.*.com"}},
		{AllowPrivate: []string{"10.0.0.0/33"}},
		{ExtraBlockedHosts: []string{""}},
		{ExtraBlockedHosts: []string{"0x7f000001"}},
		{Schemes: []string{"http://x"}},
	} {
		if _, err := New(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		} else if !strings.HasPrefix(err.Error(), "netguard: ") {
			t.Errorf("%+v: error %q does not say where", bad, err)
		}
	}
}

func TestSchemes(t *testing.T) {
	g, err := New(Config{Schemes: []string{"https", "wss"}})
	if err != nil {
		t.Fatal(err)
	}
	for u, ok := range map[string]bool{"https://example.com/": true, "wss://example.com/": true, "http://example.com/": false, "file:///etc/passwd": false} {
		if v := g.Check(context.Background(), u); v.Allowed != ok {
			t.Errorf("%s: allowed=%v: %s", u, v.Allowed, v.Reason)
		}
	}
}

func TestResolve(t *testing.T) {
	ctx := context.Background()
	res := fakeResolver{
		"public.example":  {"93.184.215.14"},
		"mixed.example":   {"93.184.215.14", "10.0.0.1"},
		"meta.example":    {"169.254.169.254"},
		"v6.example":      {"::ffff:127.0.0.1"},
		"printer.example": {"192.168.1.20"},
	}
	g, err := New(Config{ResolveDNS: true, Resolver: res, AllowPrivate: []string{"printer.example"}})
	if err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]Category{
		"http://public.example/":  "",
		"http://mixed.example/":   Private, // every address is judged
		"http://meta.example/":    Metadata,
		"http://v6.example/":      Loopback,
		"http://printer.example/": "",
		"http://nowhere.example/": Unresolvable, // fail closed
		"http://8.8.8.8/":         "",           // literals are not resolved
	} {
		v := g.Check(ctx, u)
		if v.Allowed != (want == "") || v.Category != want {
			t.Errorf("%s: allowed=%v category %q, want %q: %s", u, v.Allowed, v.Category, want, v.Reason)
		}
	}
}

func TestLocal(t *testing.T) {
	for dest, want := range map[string]bool{
		"http://localhost:8080/x":  true,
		"http://0x7f000001/":       true,
		"http://[::ffff:7f00:1]/":  true,
		"127.0.0.1:5432":           true,
		"localhost":                true,
		"http://0.0.0.0:8000/":     true,
		"http://127.0.0.1.nip.io/": true,
		"http://10.0.0.1/":         false,
		"https://example.com/":     false,
		"example.com:443":          false,
		"http://[::1/":             false,
	} {
		if got := Local(dest); got != want {
			t.Errorf("Local(%q) = %v, want %v", dest, got, want)
		}
	}
}

func TestParseIPv4(t *testing.T) {
	for s, want := range map[string]string{
		"127.0.0.1": "127.0.0.1", "127.1": "127.0.0.1", "127.0.1": "127.0.0.1", "2130706433": "127.0.0.1",
		"0x7f000001": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "0x7f.0x0.0x0.0x1": "127.0.0.1", "0": "0.0.0.0",
		"0x": "0.0.0.0", "1.0x10000": "1.1.0.0"[:0] + "", "255.255.255.255": "255.255.255.255", "1.16777215": "1.255.255.255",
		"1.2.3.4.5": "", "256.0.0.1": "", "1.2.3.256": "", "1.2.65536": "", "08": "", "0x100000000": "", "": "", "1..2": "",
	} {
		a, _, ok := parseIPv4(s)
		got := ""
		if ok {
			got = a.String()
		}
		if s == "1.0x10000" {
			want = "1.1.0.0"
		}
		if got != want {
			t.Errorf("parseIPv4(%q) = %q, want %q", s, got, want)
		}
	}
}

// User information quoted in a reason is masked when it is a secret.
func TestLureMasked(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdmMtMSIsImF1ZCI6ImFwaSIsImlhdCI6MTc2NzIyNTYwMH0.-qP6vtYMtANKXhG5_mxEpaTaKKwxjNE8IueX2nHcHdQ"
	v := Default().Check(context.Background(), "http://"+jwt+"@10.0.0.1/")
	if v.Allowed || !v.Disguised || strings.Contains(v.Reason, jwt[20:]) {
		t.Errorf("verdict %+v", v)
	}
	v = Default().Check(context.Background(), "http://docs.example.com@10.0.0.1/")
	if !strings.Contains(v.Reason, `"docs.example.com"`) {
		t.Errorf("a plain lure is not quoted: %s", v.Reason)
	}
}

func TestHostname(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.COM./x": "example.com", "http://[::FFFF:7f00:1]:80/": "::ffff:127.0.0.1", "bücher.example/x": "xn--bcher-kva.example",
		"http://0x7f.1/": "127.0.0.1", "http://a@b.example/": "b.example", "http://a..b/": "",
	} {
		got, err := Hostname(in)
		if got != want || (err != nil) != (want == "") {
			t.Errorf("Hostname(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if h, err := NormalizeHost("WWW.Example.com."); h != "www.example.com" || err != nil {
		t.Errorf("NormalizeHost: %q %v", h, err)
	}
}
