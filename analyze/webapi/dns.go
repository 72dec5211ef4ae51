package webapi

import (
	"encoding/json"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// DNS records that decide where a domain's mail or traffic goes. A change
// to the MX records sends the company's mail elsewhere; to NS (or DS,
// SOA) hands the zone to other servers; to the apex A, AAAA, CNAME or
// ALIAS moves the domain's own site; to the SPF, DKIM or DMARC TXT
// records changes who may send mail as the domain; to CAA who may issue
// its certificates. Each takes effect for everyone as caches expire and
// lets whoever controls the new target receive or impersonate: high
// (dns.record_change), through a provider's CLI (aws route53
// change-resource-record-sets, gcloud dns record-sets, az network dns
// record-set, doctl compute domain records, flarectl dns) and through
// its HTTP API (Cloudflare's /zones/*/dns_records, DigitalOcean's
// /domains/*/records) alike. An ordinary subdomain's A or CNAME record
// changed is medium; a read is nothing.

// RuleDNSChange is the finding on a change of a DNS record.
const RuleDNSChange = "dns.record_change"

// SensitiveRecord says what a DNS record of type typ named name (a
// fully qualified name, a name relative to the zone, or @ for the apex)
// with content decides, or "" for an ordinary record.
func SensitiveRecord(name, typ, content string) string {
	typ = strings.ToUpper(strings.TrimSpace(typ))
	n := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), "."))
	switch typ {
	case "MX":
		return "where the domain's mail is delivered (MX)"
	case "NS", "DS", "SOA":
		return "which servers answer for the zone (" + typ + ")"
	case "CAA":
		return "who may issue the domain's certificates (CAA)"
	case "TXT", "SPF":
		c := strings.ToLower(content)
		if strings.HasPrefix(n, "_dmarc") || strings.Contains(n, "_domainkey") || strings.Contains(c, "v=spf1") ||
			strings.Contains(c, "v=dmarc1") || strings.Contains(c, "v=dkim1") || typ == "SPF" {
			return "who may send mail as the domain (SPF, DKIM or DMARC)"
		}
	case "A", "AAAA", "CNAME", "ALIAS", "ANAME":
		if ApexName(n) {
			return "where the domain itself points (its apex " + typ + " record)"
		}
	}
	return ""
}

// ApexName reports a record name that is a zone's apex: @, empty, or a
// registrable domain (acme.com, acme.co.uk).
func ApexName(n string) bool {
	n = strings.ToLower(strings.TrimSuffix(n, "."))
	if n == "" || n == "@" {
		return true
	}
	labels := strings.Count(n, ".") + 1
	if labels == 2 {
		return true
	}
	if labels == 3 {
		parts := strings.Split(n, ".")
		return len(parts[2]) == 2 && secondLevels[parts[1]]
	}
	return false
}

// secondLevels are the second-level labels under which country domains
// register names (acme.co.uk, acme.com.au).
var secondLevels = map[string]bool{"co": true, "com": true, "org": true, "net": true, "gov": true, "ac": true,
	"edu": true, "ne": true, "or": true, "gv": true}

// dnsAPIHosts are the DNS providers' API hosts whose record paths
// dnsChange reads.
var dnsAPIHosts = []string{"api.cloudflare.com", "api.digitalocean.com", "dns.hetzner.com", "api.godaddy.com",
	"api.vercel.com", "api.linode.com", "api.vultr.com", "api.netlify.com", "api.gandi.net", "api.dnsimple.com",
	"api.porkbun.com", "api.namecheap.com"}

// dnsChange judges a request that creates or changes a DNS record at a
// provider's API: high when the record is one SensitiveRecord names.
func dnsChange(r Request, t target, m, via string) (risk.Finding, bool) {
	if !t.known || t.local || m == "DELETE" {
		return risk.Finding{}, false
	}
	host := strings.ToLower(t.authority)
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	api := false
	for _, d := range dnsAPIHosts {
		if endsLike(host, d) && UnderDomain(host, d, "") {
			api = true
			break
		}
	}
	p := strings.ToLower(t.path)
	if !api || !strings.Contains(p, "dns_records") && !strings.Contains(p, "/records") && !strings.Contains(p, "/dns") {
		return risk.Finding{}, false
	}
	// the record's type and name: from the body, or from the path
	// (GoDaddy's /v1/domains/acme.com/records/MX/@)
	var what string
	for _, b := range r.Body {
		what = bodyRecords(b)
		if what != "" {
			break
		}
	}
	if what == "" {
		segs := strings.Split(strings.Trim(t.path, "/"), "/")
		for i, s := range segs {
			if strings.EqualFold(s, "records") && i+1 < len(segs) {
				name := "@"
				if i+2 < len(segs) {
					name = segs[i+2]
				}
				what = SensitiveRecord(name, segs[i+1], "")
				break
			}
		}
	}
	if what == "" {
		return risk.Finding{}, false
	}
	return risk.Finding{Rule: RuleDNSChange, Level: risk.High, Resource: "url:" + t.shown,
		Reason: via + " sends " + m + " to " + t.shown + ", changing " + what + ": mail or traffic for the domain goes where the new record says, for everyone"}, true
}

// bodyRecords reads a JSON body holding one record or a list of them
// ({"type":"MX","name":"@","content":…}) and returns what the first
// sensitive one decides.
func bodyRecords(b string) string {
	b = strings.TrimSpace(b)
	if b == "" || b[0] != '{' && b[0] != '[' || len(b) > 1<<16 {
		return ""
	}
	var one map[string]any
	var many []map[string]any
	if b[0] == '{' {
		if json.Unmarshal([]byte(b), &one) != nil {
			return ""
		}
		many = append(many, one)
		for _, k := range []string{"records", "rrsets", "result"} {
			if l, ok := one[k].([]any); ok {
				for _, x := range l {
					if o, ok := x.(map[string]any); ok {
						many = append(many, o)
					}
				}
			}
		}
	} else if json.Unmarshal([]byte(b), &many) != nil {
		return ""
	}
	for _, o := range many {
		typ := firstString(o, "type", "Type", "record_type", "rrtype")
		if typ == "" {
			continue
		}
		name := firstString(o, "name", "Name", "record_name", "host", "subname")
		content := firstString(o, "content", "data", "value", "Value", "target")
		if w := SensitiveRecord(name, typ, content); w != "" {
			return w
		}
	}
	return ""
}

// firstString returns the first of keys that o holds as a string.
func firstString(o map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := o[k].(string); ok {
			return s
		}
	}
	return ""
}
