package webapi

import "testing"

// FuzzEndsLike: UnderDomain never holds where endsLike, the cheap test
// before it, does not, for every domain listed and any host.
func FuzzEndsLike(f *testing.F) {
	for _, d := range append(append([]string(nil), paymentHosts...), defenseHosts...) {
		f.Add("api." + d)
		f.Add("checkout-" + d)
		f.Add(d)
	}
	f.Add("")
	f.Add("example.com")
	f.Fuzz(func(t *testing.T, host string) {
		for _, d := range append(append([]string(nil), paymentHosts...), defenseHosts...) {
			if d == "" {
				t.Fatal("an empty domain is listed")
			}
			for _, seps := range []string{"", "-"} {
				if UnderDomain(host, d, seps) && !endsLike(host, d) {
					t.Errorf("UnderDomain(%q, %q, %q) holds, endsLike does not", host, d, seps)
				}
			}
		}
	})
}
