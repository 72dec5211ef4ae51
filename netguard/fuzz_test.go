package netguard

import (
	"bufio"
	"context"
	"encoding/json"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/idna"
)

// FuzzURL checks that no input panics the guard, that every verdict has
// a reason, and that an allowed URL is one whose host, as net/http and
// inet_aton-style clients read it, is not a blocked address.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://[fe80::1%25eth0]/",
		"http://①②⑦.⓪.⓪.①/", "http://evil.com@127.0.0.1/", "http://127.0.0.1@evil.com/", "http://a.nip.io/", "http://[64:ff9b::a9fe:a9fe]/",
		"http://10.0.0.1.nip.io:80/", "https://bücher.example/", "http://2130706433/", "gopher://x/", "http://[::1%lo]/", "http://0/"} {
		f.Add(s)
	}
	if fh, err := os.Open("../testdata/ssrf.jsonl"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var c ssrfCase
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				f.Add(c.URL)
			}
		}
		fh.Close()
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw string) {
		samePlain(t, raw)
		v := Default().Check(ctx, raw)
		if v.Reason == "" {
			t.Fatalf("%q: no reason", raw)
		}
		if v.Allowed != (v.Category == Public) {
			t.Fatalf("%q: allowed=%v with category %q", raw, v.Allowed, v.Category)
		}
		if again := Default().Check(ctx, raw); again.Allowed != v.Allowed || again.Reason != v.Reason {
			t.Fatalf("%q: two verdicts", raw)
		}
		local := Local(raw)
		if local && v.Allowed {
			t.Fatalf("%q: local yet allowed", raw)
		}
		_ = Default().CheckHost(ctx, raw)
		if !v.Allowed {
			return
		}
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil {
			t.Fatalf("%q: allowed but net/url refuses it: %v", raw, err)
		}
		h := u.Hostname()
		if a, err := idna.Lookup.ToASCII(h); err == nil {
			h = a
		}
		h = strings.TrimSuffix(strings.ToLower(h), ".")
		if i := strings.IndexByte(h, '%'); i >= 0 {
			h = h[:i]
		}
		if a, err := netip.ParseAddr(h); err == nil {
			if c := classify(a); c.cat != Public && c.cat != Documentation {
				t.Fatalf("%q: allowed, yet net/http dials %s (%s)", raw, a, c.cat)
			}
		}
		if a, _, ok := parseIPv4(h); ok {
			if c := classify(a); c.cat != Public && c.cat != Documentation {
				t.Fatalf("%q: allowed, yet inet_aton reads %s (%s)", raw, a, c.cat)
			}
		}
	})
}

// FuzzParseHost holds parseIPv4 to refParseIPv4, the first-written one
// (strings.Split), and checks what matchTarget relies on: the host of an
// IP literal is the canonical form of its address, so matchTarget is
// matchHost of the host.
func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "0x7f.1", "2130706433", "1.2.3.4.5", "017.0.0.1", "::ffff:127.0.0.1", "[fe80::1%eth0]",
		"example.com", "a.b.c.d", "1..2", "0x", "10.0.0.1.", "①②⑦.⓪.⓪.①", "169.254.169.254", ".", ""} {
		f.Add(s)
	}
	lists := []hostList{{}}
	for _, es := range [][]string{{"10.0.0.0/8", "example.com", "*.corp.example", "127.0.0.1", "::1"}, {"1.2.3.4", "*.nip.io", "fd00::/8"}} {
		l, err := parseHostList("test", es)
		if err != nil {
			f.Fatal(err)
		}
		lists = append(lists, l)
	}
	f.Fuzz(func(t *testing.T, h string) {
		a, canon, ok := parseIPv4(h)
		ra, rcanon, rok := refParseIPv4(h)
		if a != ra || canon != rcanon || ok != rok {
			t.Fatalf("parseIPv4(%q) = %v, %v, %v, want %v, %v, %v", h, a, canon, ok, ra, rcanon, rok)
		}
		tg, err := parseHost(h)
		if err != nil {
			return
		}
		if tg.addr.IsValid() {
			if p, err := netip.ParseAddr(tg.host); err != nil || p != tg.addr || tg.host != tg.addr.String() {
				t.Fatalf("parseHost(%q): host %q is not the address %v", h, tg.host, tg.addr)
			}
		}
		for _, l := range lists {
			if got, want := l.matchTarget(tg), l.matchHost(tg.host); got != want {
				t.Fatalf("matchTarget(%q) = %v, matchHost = %v", h, got, want)
			}
		}
	})
}

// refParseIPv4 is parseIPv4 as first written.
func refParseIPv4(s string) (a netip.Addr, canonical, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false, false
	}
	canonical = len(parts) == 4
	var vals [4]uint64
	for i, p := range parts {
		v, plain, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false, false
		}
		vals[i], canonical = v, canonical && plain
	}
	n := len(parts)
	var ip uint64
	for i := 0; i < n-1; i++ {
		if vals[i] > 255 {
			return netip.Addr{}, false, false
		}
		ip |= vals[i] << (8 * (3 - i))
	}
	last := vals[n-1]
	if last >= 1<<(8*(5-n)) {
		return netip.Addr{}, false, false
	}
	ip |= last
	return netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)}), canonical, true
}
