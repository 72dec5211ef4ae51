package webapi

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// RuleMoney is the finding on a request that moves money through a payment
// provider's API: a refund, payout, transfer, charge or capture, a
// dispute accepted, a subscription cancelled. It is the verb grammar's ID
// for the same act through a provider's CLI (stripe refunds create).
const RuleMoney = "cloud.money_movement"

// paymentHosts are the live API hosts of payment providers, by the
// domain the host ends with. Their sandboxes (connect.squareupsandbox.com,
// api-m.sandbox.paypal.com, checkout-test.adyen.com) move no money: see
// sandboxHost.
var paymentHosts = []string{
	"api.stripe.com", "connect.squareup.com", "paypal.com", "braintreegateway.com", "braintree-api.com",
	"adyen.com", "adyenpayments.com", "api.razorpay.com", "api.checkout.com", "api.mollie.com",
	"api.gocardless.com", "api.transferwise.com", "api.wise.com", "api.paystack.co", "api.flutterwave.com",
	"api.dwolla.com", "production.plaid.com", "b2b.revolut.com", "api.paddle.com", "api.lemonsqueezy.com",
	"api.authorize.net", "api.moov.io", "api.coinbase.com", "api.mercury.com", "api.increase.com",
}

// moneyWords are the path words that name money moving: a refund, a
// payout or transfer, a charge or a capture of an authorized payment.
var moneyWords = map[string]bool{
	"refund": true, "refunds": true, "payout": true, "payouts": true, "transfer": true, "transfers": true,
	"charge": true, "charges": true, "capture": true, "captures": true, "topup": true, "topups": true,
	"reversal": true, "reversals": true, "disbursement": true, "disbursements": true, "withdrawal": true,
	"withdrawals": true, "withdraw": true, "pay": true, "sends": true,
}

// moneyReads are last path segments that only read or price what they
// name (POST /v1/charges/search, /invoices/create_preview).
var moneyReads = map[string]bool{"search": true, "list": true, "query": true, "preview": true, "quote": true,
	"quotes": true, "estimate": true, "calculate": true, "validate": true, "lookup": true}

// paymentHost reports a host of paymentHosts that is no sandbox.
func paymentHost(host string) bool {
	for _, d := range paymentHosts {
		if endsLike(host, d) && UnderDomain(host, d, "-") {
			return !sandboxHost(host) // asked of the few hosts listed
		}
	}
	return false
}

// endsLike is a cheap test before UnderDomain(host, d, …), which holds
// only when host ends with d: the byte where d would start is d's first.
func endsLike(host, d string) bool {
	return len(host) >= len(d) && len(d) > 0 && host[len(host)-len(d)] == d[0]
}

// UnderDomain reports whether host is the domain d or a name below it
// (api.d), or, when seps holds '-', one joined to it by a hyphen
// (checkout-d): without building "."+d for each domain compared.
func UnderDomain(host, d, seps string) bool {
	if host == d {
		return true
	}
	n := len(host) - len(d) - 1
	if n < 0 || host[n+1:] != d {
		return false
	}
	return host[n] == '.' || strings.IndexByte(seps, host[n]) >= 0
}

// sandboxHost reports a provider's test host: api-m.sandbox.paypal.com,
// connect.squareupsandbox.com, checkout-test.adyen.com,
// api-sandbox.gocardless.com.
func sandboxHost(host string) bool {
	return strings.Contains(host, "sandbox") || strings.Contains(host, "-test.") || strings.HasPrefix(host, "test.") ||
		strings.Contains(host, ".test.") || strings.Contains(host, "-test-")
}

// moneyAction returns what the last segment of the path of a request to a
// payment provider's live API (host, lower-case, no port) names that
// moves money, or "": a refund, payout, transfer, charge or capture (not a
// search of them), a dispute accepted or closed (the money goes to the
// customer), a subscription cancelled.
func moneyAction(host, path string) string {
	if !paymentHost(host) {
		return ""
	}
	var segs [16]string
	n := 0
	for seg := range segments(strings.ToLower(path)) {
		if n == len(segs) {
			break
		}
		segs[n] = seg
		n++
	}
	if n == 0 || moneyReads[segs[n-1]] {
		return ""
	}
	dispute, subscription := false, false
	for _, seg := range segs[:n-1] {
		words(seg, func(w string) {
			dispute = dispute || w == "dispute" || w == "disputes"
			subscription = subscription || w == "subscription" || w == "subscriptions"
		})
	}
	// the last segment names the act: /v1/refunds creates one,
	// /captures/ID/refund refunds a capture; /v1/transfers/tr_1 only
	// updates a transfer, and /payouts/po_1/cancel stops one
	last, found := segs[n-1], ""
	words(last, func(w string) {
		switch {
		case found != "":
		case moneyWords[w]:
			found = last
		case dispute && (w == "accept" || w == "close"):
			found = "dispute " + last
		case subscription && w == "cancel":
			found = "subscription " + last
		}
	})
	return found
}

// money returns the finding on a request that moves money (see
// moneyAction), or false.
func money(r Request, t target, m, via string) (risk.Finding, bool) {
	if r.Sandbox || !t.known || t.local {
		return risk.Finding{}, false
	}
	host := strings.ToLower(t.authority)
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	what := moneyAction(host, t.path)
	if what == "" {
		return risk.Finding{}, false
	}
	return risk.Finding{
		Rule: RuleMoney, Level: risk.High, Resource: "url:" + t.shown,
		Reason: via + " sends " + m + " to " + t.shown + " (" + what + "), moving money through a payment provider's live API, which cannot be taken back",
	}, true
}
