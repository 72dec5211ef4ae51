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
