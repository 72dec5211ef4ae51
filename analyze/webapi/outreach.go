package webapi

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Mass messaging. A campaign sent, or scheduled to send, to an audience
// (SendGrid's singlesends/{id}/schedule, Mailchimp's campaigns/{id}/
// actions/send, Brevo's emailCampaigns/{id}/sendNow, Mailjet's
// campaigndraft/{id}/send, Campaign Monitor's campaigns/{id}/send.json,
// Klaviyo's campaign-send-jobs, Braze's campaigns/trigger/send and
// canvas/trigger/send, Customer.io's campaigns/{id}/triggers, Twilio
// Notify's Notifications, OneSignal's notifications to segments) reaches
// people outside at once and cannot be called back: high
// (comm.mass_send). A test send (actions/test, sendTest, /test) or one
// transactional message is not judged here.

// RuleMassSend is the finding on a message sent to an audience.
const RuleMassSend = "comm.mass_send"

// outreachHosts are the API hosts of the mass-messaging providers.
var outreachHosts = []string{"api.sendgrid.com", "api.mailchimp.com", "api.brevo.com", "api.sendinblue.com",
	"api.mailjet.com", "api.createsend.com", "a.klaviyo.com", "braze.com", "api.customer.io", "track.customer.io",
	"notify.twilio.com", "onesignal.com", "api.mailerlite.com", "connect.mailerlite.com", "api.convertkit.com",
	"api.kit.com", "api.iterable.com", "api.getresponse.com", "api.activecampaign.com", "api-us1.com",
	"api.moosend.com", "emailoctopus.com", "api.mailgun.net", "api.eu.mailgun.net"}

// campaignWords name, as a path segment, what goes to an audience.
var campaignWords = map[string]bool{"campaign": true, "campaigns": true, "singlesend": true, "singlesends": true,
	"broadcast": true, "broadcasts": true, "canvas": true, "emailcampaigns": true, "smscampaigns": true,
	"campaigndraft": true, "newsletter": true, "newsletters": true, "blast": true, "blasts": true}

// sendWords name, as the last path segment, the act of sending.
var sendWords = map[string]bool{"send": true, "sendnow": true, "send_now": true, "send.json": true,
	"schedule": true, "schedules": true, "now": true, "triggers": true, "trigger": true, "launch": true,
	"campaign-send-jobs": true, "notifications": true}

// massSend judges a request that sends a campaign or a bulk message to
// an audience.
func massSend(r Request, t target, m, via string) (risk.Finding, bool) {
	if !t.known || t.local || r.Sandbox {
		return risk.Finding{}, false
	}
	host := strings.ToLower(t.authority)
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	known := false
	for _, d := range outreachHosts {
		if endsLike(host, d) && UnderDomain(host, d, "") {
			known = true
			break
		}
	}
	if !known {
		return risk.Finding{}, false
	}
	var segs [16]string
	n := 0
	for seg := range segments(strings.ToLower(t.path)) {
		if n == len(segs) {
			break
		}
		segs[n] = seg
		n++
	}
	if n == 0 {
		return risk.Finding{}, false
	}
	campaign := false
	for _, s := range segs[:n] {
		if strings.Contains(s, "test") || s == "preview" || s == "unschedule" || s == "cancel" || s == "cancel-send" {
			return risk.Finding{}, false // a test send, or one called back
		}
		campaign = campaign || campaignWords[s]
	}
	last := segs[n-1]
	hit := false
	switch {
	case last == "campaign-send-jobs": // Klaviyo
		hit = true
	case last == "notifications":
		// Twilio Notify's bulk notifications; OneSignal's, to segments
		hit = strings.HasSuffix(host, "notify.twilio.com") ||
			strings.HasSuffix(host, "onesignal.com") && bodyHas(r.Body, "included_segments", "segments", "filters")
	case sendWords[last]:
		hit = campaign || n >= 2 && campaignWords[segs[n-2]]
	}
	if !hit {
		return risk.Finding{}, false
	}
	return risk.Finding{Rule: RuleMassSend, Level: risk.High, Resource: "url:" + t.shown,
		Reason: via + " sends " + m + " to " + t.shown + ", sending a campaign or bulk message to an audience: it reaches people outside at once and cannot be called back"}, true
}

// bodyHas reports a body that holds one of the keys.
func bodyHas(body []string, keys ...string) bool {
	for _, b := range body {
		for _, k := range keys {
			if strings.Contains(b, k) {
				return true
			}
		}
	}
	return false
}
