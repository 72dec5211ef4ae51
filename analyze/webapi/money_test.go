package webapi

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestMoney: money moved through a payment provider's live API (a refund,
// payout, transfer, charge or capture, a dispute accepted, a subscription
// cancelled); not a read of the same, a sandbox, a test key, another
// resource or another host.
func TestMoney(t *testing.T) {
	none := risk.Safe
	post := func(u string, body ...string) Request { return Request{Method: "POST", URL: u, Body: body} }
	for _, tc := range []struct {
		r    Request
		want risk.Level
		rule string
	}{
		// money movement
		{post("https://connect.squareup.com/v2/refunds", `{"payment_id":"p","amount_money":{"amount":250000}}`), risk.High, RuleMoney},
		{post("https://api-m.paypal.com/v2/payments/captures/2GG2/refund", "{}"), risk.High, RuleMoney},
		{post("https://api-m.paypal.com/v1/payments/payouts", `{"items":[]}`), risk.High, RuleMoney},
		{post("https://api.paypal.com/v2/checkout/orders/O1/capture"), risk.High, RuleMoney},
		{post("https://api-m.paypal.com/v1/billing/subscriptions/I-1/cancel"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/refunds", "charge=ch_1"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/transfers", "amount=1&destination=acct_1"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/payment_intents/pi_1/capture"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/disputes/dp_1/close"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/invoices/in_1/pay"), risk.High, RuleMoney},
		{post(`"https://connect.squareup.com/v2/subscriptions/$SUB/cancel"`), risk.High, RuleMoney},
		{post("https://connect.squareup.com/v2/disputes/D1/accept"), risk.High, RuleMoney},
		{post("https://api.razorpay.com/v1/payments/pay_1/refund"), risk.High, RuleMoney},
		{post("https://abc-checkout-live.adyenpayments.com/checkout/v71/payments/P/refunds"), risk.High, RuleMoney},
		{post("https://api.gocardless.com/refunds"), risk.High, RuleMoney},
		{post("https://api.stripe.com/v1/transfers/tr_1/reversals"), risk.High, RuleMoney},
		// not money: reads, sandboxes, test keys, other resources, other hosts
		{Request{URL: "https://api.stripe.com/v1/refunds?limit=3"}, none, ""},
		{Request{Method: "GET", URL: "https://connect.squareup.com/v2/refunds"}, none, ""},
		{post("https://connect.squareupsandbox.com/v2/refunds", "{}"), none, ""},
		{post("https://api-m.sandbox.paypal.com/v2/payments/captures/X/refund"), none, ""},
		{post("https://checkout-test.adyen.com/v71/payments/P/refunds"), none, ""},
		{post("https://api-sandbox.gocardless.com/refunds"), none, ""},
		{Request{Method: "POST", URL: "https://api.stripe.com/v1/refunds", Sandbox: true}, none, ""},
		{post("https://api.stripe.com/v1/customers", "email=a@b.c"), none, ""},
		{post("https://api.stripe.com/v1/charges/search"), none, ""},
		{post("https://api.stripe.com/v1/invoices/create_preview"), none, ""},
		{post("https://api.github.com/repos/o/r/transfer"), none, ""},
		{post("https://api.stripe.com/v1/transfers/tr_1", "metadata[k]=v"), none, ""},
		{post("https://api.stripe.com/v1/charges/ch_1", "description=x"), none, ""},
		{Request{Method: "PUT", URL: "https://api.wise.com/v1/transfers/1/cancel"}, risk.Medium, RuleAction},
		{post("http://localhost:3000/api/refunds", "{}"), none, ""},
		{post("https://api-m.sandbox.paypal.com/v1/billing/subscriptions/I-1/cancel"), risk.Medium, RuleAction},
	} {
		if tc.r.Dynamic == false && strings.Contains(tc.r.URL, "$") {
			tc.r.Dynamic = true
		}
		f, ok := Judge(tc.r)
		got := none
		if ok {
			got = f.Level
		}
		if got != tc.want || ok && f.Rule != tc.rule {
			t.Errorf("Judge(%s %s %q) = %v %s (%s), want %v %s", tc.r.Method, tc.r.URL, tc.r.Body, got, f.Rule, f.Reason, tc.want, tc.rule)
		}
	}
}

func TestUnderDomain(t *testing.T) {
	for _, c := range []struct {
		host, d, seps string
		want          bool
	}{
		{"stripe.com", "stripe.com", "", true}, {"api.stripe.com", "stripe.com", "", true},
		{"notstripe.com", "stripe.com", "", false}, {"checkout-adyen.com", "adyen.com", "-", true},
		{"checkout-adyen.com", "adyen.com", "", false}, {"adyen.com.evil.net", "adyen.com", "-", false},
		{"om", "stripe.com", "", false}, {"", "stripe.com", "-", false},
	} {
		if got := UnderDomain(c.host, c.d, c.seps); got != c.want {
			t.Errorf("UnderDomain(%q, %q, %q) = %v", c.host, c.d, c.seps, got)
		}
	}
}
