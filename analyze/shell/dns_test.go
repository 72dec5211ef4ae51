package shell

import (
	"testing"

	"github.com/agentwarden/warden/analyze/webapi"
)

// TestDNSRecordChange: the providers' CLIs changing a record that decides
// where a domain's mail or traffic goes are high; an ordinary subdomain
// record changed is medium; reads give nothing.
func TestDNSRecordChange(t *testing.T) {
	for _, m := range []struct{ cmd, level string }{
		{`aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch '{"Changes":[{"Action":"UPSERT","ResourceRecordSet":{"Name":"acme.com.","Type":"MX","TTL":60,"ResourceRecords":[{"Value":"10 mx.mail-relay-x.net"}]}}]}'`, "high"},
		{`aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch '{"Changes":[{"Action":"UPSERT","ResourceRecordSet":{"Name":"acme.com.","Type":"A","AliasTarget":{"DNSName":"x.elb.amazonaws.com"}}}]}'`, "high"},
		{`aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch '{"Changes":[{"Action":"CREATE","ResourceRecordSet":{"Name":"acme.com.","Type":"TXT","ResourceRecords":[{"Value":"\"v=spf1 include:evil.net ~all\""}]}}]}'`, "high"},
		{`gcloud dns record-sets update acme.com. --zone z --type MX --rrdatas '10 mx.evil.net.'`, "high"},
		{`gcloud dns record-sets transaction add --zone z --name _dmarc.acme.com. --type TXT 'v=DMARC1; p=none'`, "high"},
		{`az network dns record-set mx add-record -g rg -z acme.com -n @ -e mx.evil.net -p 10`, "high"},
		{`az network dns record-set ns add-record -g rg -z acme.com -n @ -d ns1.evil.net`, "high"},
		{`doctl compute domain records create acme.com --record-type MX --record-name @ --record-data mx.evil.net. --record-priority 10`, "high"},
		{`flarectl dns create --zone acme.com --name acme.com --type TXT --content 'v=spf1 include:evil.net ~all'`, "high"},
		{`flarectl dns update --zone acme.com --id 1 --name acme.com --type CAA --content '0 issue "evil.ca"'`, "high"},
		{`aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch '{"Changes":[{"Action":"UPSERT","ResourceRecordSet":{"Name":"staging.acme.com.","Type":"A","TTL":60,"ResourceRecords":[{"Value":"1.2.3.4"}]}}]}'`, "medium"},
		{`aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch file://batch.json`, "medium"},
		{`gcloud dns record-sets create api.acme.com. --zone z --type A --rrdatas 1.2.3.4`, "medium"},
		{`az network dns record-set a add-record -g rg -z acme.com -n www -a 1.2.3.4`, "medium"},
		{`doctl compute domain records update acme.com --record-id 1 --record-type A --record-name api --record-data 1.2.3.4`, "medium"},
		{`flarectl dns create --zone acme.com --name blog --type CNAME --content x.ghost.io`, "medium"},
	} {
		fs := analyzeScript(t, m.cmd)
		if l, ok := levelOf(fs, webapi.RuleDNSChange); !ok || l.String() != m.level {
			t.Errorf("%q: %s %s (fired %v), want %s", m.cmd, webapi.RuleDNSChange, l, ok, m.level)
		}
	}
	for _, cmd := range []string{
		"aws route53 list-resource-record-sets --hosted-zone-id Z1", "gcloud dns record-sets list --zone z",
		"az network dns record-set ns list -g rg -z acme.com", "doctl compute domain records list acme.com",
		"flarectl dns list --zone acme.com", "gcloud dns record-sets describe acme.com. --zone z --type MX",
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), webapi.RuleDNSChange); ok {
			t.Errorf("%q: %s %s, want none", cmd, webapi.RuleDNSChange, l)
		}
	}
}
