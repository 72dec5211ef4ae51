package webapi

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestMassSend: a campaign or bulk message sent to an audience through a
// messaging provider's API is high; a test send, a draft created, a
// schedule removed, one transactional message and reads are not.
func TestMassSend(t *testing.T) {
	req := func(m, u string, body ...string) Request { return Request{Method: m, URL: u, Body: body} }
	for _, r := range []Request{
		req("PUT", "https://api.sendgrid.com/v3/marketing/singlesends/7c1e/schedule", `{"send_at":"now"}`),
		req("POST", "https://api.sendgrid.com/v3/campaigns/12/schedules/now"),
		req("POST", "https://us21.api.mailchimp.com/3.0/campaigns/abc/actions/send"),
		req("POST", "https://us21.api.mailchimp.com/3.0/campaigns/abc/actions/schedule", `{"schedule_time":"2026-12-01T10:00:00Z"}`),
		req("POST", "https://api.brevo.com/v3/emailCampaigns/12/sendNow"),
		req("POST", "https://api.mailjet.com/v3/REST/campaigndraft/5/send"),
		req("POST", "https://api.createsend.com/api/v3.3/campaigns/c1/send.json"),
		req("POST", "https://a.klaviyo.com/api/campaign-send-jobs", `{"data":{"type":"campaign-send-job","id":"x"}}`),
		req("POST", "https://rest.iad-01.braze.com/campaigns/trigger/send", `{"campaign_id":"x","broadcast":true}`),
		req("POST", "https://rest.iad-01.braze.com/canvas/trigger/send", `{"canvas_id":"x"}`),
		req("POST", "https://api.customer.io/v1/campaigns/5/triggers", `{}`),
		req("POST", "https://notify.twilio.com/v1/Services/IS1/Notifications", "Body=hi&Segment=all"),
		req("POST", "https://onesignal.com/api/v1/notifications", `{"included_segments":["Subscribed Users"]}`),
	} {
		if f, ok := Judge(r); !ok || f.Rule != RuleMassSend || f.Level != risk.High {
			t.Errorf("%s %s: %s %s, want %s high", r.Method, r.URL, f.Rule, f.Level, RuleMassSend)
		}
	}
	for _, r := range []Request{
		req("POST", "https://us21.api.mailchimp.com/3.0/campaigns/abc/actions/test", `{"test_emails":["me@acme.com"]}`),
		req("POST", "https://api.brevo.com/v3/emailCampaigns/12/sendTest"),
		req("POST", "https://api.sendgrid.com/v3/marketing/test/send_email", `{"template_id":"x","emails":["me@acme.com"]}`),
		req("POST", "https://api.sendgrid.com/v3/mail/send", `{"personalizations":[{"to":[{"email":"a@b.c"}]}]}`),
		req("POST", "https://api.sendgrid.com/v3/marketing/singlesends", `{"name":"draft"}`),
		req("POST", "https://us21.api.mailchimp.com/3.0/campaigns/abc/actions/unschedule"),
		req("GET", "https://us21.api.mailchimp.com/3.0/campaigns/abc"),
		req("POST", "https://onesignal.com/api/v1/notifications", `{"include_player_ids":["x"]}`),
		req("POST", "https://api.example.com/campaigns/1/send"),
	} {
		if f, ok := Judge(r); ok && (f.Rule == RuleMassSend || f.Level >= risk.High) {
			t.Errorf("%s %s: %s %s, want below high and not %s", r.Method, r.URL, f.Rule, f.Level, RuleMassSend)
		}
	}
}
