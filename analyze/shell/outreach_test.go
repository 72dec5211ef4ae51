package shell

import (
	"testing"

	"github.com/agentwarden/warden/analyze/webapi"
)

// TestMassSendCLI: bulk sends through the CLIs are high; one message is
// not judged as one.
func TestMassSendCLI(t *testing.T) {
	for _, cmd := range []string{
		"aws sesv2 send-bulk-email --from-email-address news@acme.com --bulk-email-entries file://e.json --default-content file://c.json",
		"aws ses send-bulk-templated-email --source a@acme.com --template T --destinations file://d.json",
		"aws pinpoint send-messages --application-id x --message-request file://r.json",
		"twilio api:notify:v1:services:notifications:create --service-sid IS1 --segment all --body hi",
		`curl -X PUT https://api.sendgrid.com/v3/marketing/singlesends/7c1e/schedule -H "Authorization: Bearer $K" -d '{"send_at":"now"}'`,
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), webapi.RuleMassSend); !ok || l.String() != "high" {
			t.Errorf("%q: %s %s (fired %v), want high", cmd, webapi.RuleMassSend, l, ok)
		}
	}
	for _, cmd := range []string{
		"aws ses send-email --from a@acme.com --destination ToAddresses=x@y.z --message file://m.json",
		"aws sesv2 send-email --from-email-address a@acme.com --destination ToAddresses=x@y.z --content file://c.json",
		"twilio api:core:messages:create --to +15550001 --from +15550002 --body hi",
		"aws sesv2 send-bulk-email help",
		`curl -X POST https://us21.api.mailchimp.com/3.0/campaigns/abc/actions/test -u x:$K -d '{"test_emails":["me@acme.com"]}'`,
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), webapi.RuleMassSend); ok {
			t.Errorf("%q: %s %s, want none", cmd, webapi.RuleMassSend, l)
		}
	}
}
