package webapi

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestDNSChange: a DNS provider's API asked to create or change a record
// that decides where the domain's mail or traffic goes is high; another
// record, a read, another host are not judged by it.
func TestDNSChange(t *testing.T) {
	for _, r := range []Request{
		{Method: "POST", URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records", Body: []string{`{"type":"MX","name":"acme.com","content":"mx.evil.net","priority":10}`}},
		{Method: "PUT", URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records/1", Body: []string{`{"type":"A","name":"acme.com","content":"203.0.113.9"}`}},
		{Method: "PATCH", URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records/1", Body: []string{`{"type":"TXT","name":"_dmarc.acme.com","content":"v=DMARC1; p=none"}`}},
		{Method: "POST", URL: "https://api.digitalocean.com/v2/domains/acme.com/records", Body: []string{`{"type":"NS","name":"@","data":"ns1.evil.net."}`}},
		{Method: "PUT", URL: "https://api.godaddy.com/v1/domains/acme.com/records/MX/@", Body: []string{`[{"data":"mx.evil.net","priority":10}]`}},
		{Method: "POST", URL: "https://dns.hetzner.com/api/v1/records", Body: []string{`{"type":"CAA","name":"@","value":"0 issue \"evil.ca\""}`}},
	} {
		if f, ok := Judge(r); !ok || f.Rule != RuleDNSChange || f.Level != risk.High {
			t.Errorf("%s %s %v: %s %s, want %s high", r.Method, r.URL, r.Body, f.Rule, f.Level, RuleDNSChange)
		}
	}
	for _, r := range []Request{
		{Method: "PATCH", URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records/1", Body: []string{`{"type":"A","name":"blog.acme.com","content":"1.2.3.4"}`}},
		{Method: "POST", URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records", Body: []string{`{"type":"CNAME","name":"docs","content":"x.gitbook.io"}`}},
		{URL: "https://api.cloudflare.com/client/v4/zones/abc/dns_records?type=MX"},
		{Method: "POST", URL: "https://api.example.com/records", Body: []string{`{"type":"MX","name":"@"}`}},
	} {
		if f, ok := Judge(r); ok && (f.Rule == RuleDNSChange || f.Level >= risk.High) {
			t.Errorf("%s %s %v: %s %s, want below high and not %s", r.Method, r.URL, r.Body, f.Rule, f.Level, RuleDNSChange)
		}
	}
	for _, n := range []string{"acme.com", "acme.com.", "@", "", "acme.co.uk"} {
		if !ApexName(n) {
			t.Errorf("ApexName(%q) = false", n)
		}
	}
	for _, n := range []string{"www.acme.com", "api.eu.acme.com", "staging.acme.io"} {
		if ApexName(n) {
			t.Errorf("ApexName(%q) = true", n)
		}
	}
}
