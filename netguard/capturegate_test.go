package netguard

import "testing"

// TestMayCapture: mayCapture is false only for URLs whose parsed host is
// no capture service's.
func TestMayCapture(t *testing.T) {
	for _, u := range []string{
		"https://webhook.site/abc", "HTTPS://WebHook.Site./x?y=1", "http://user@x.oast.fun:8080/", "http://a.b.requestbin.net#f",
		" https://webhook.site ", "https://example.com/webhook.site", "https://webhook.site@example.com/", "https://example.com@webhook.site/",
		"https://ｗｅｂｈｏｏｋ.site/", "https://webhook%2esite/", "http://[::1]/", "https://webhook.site:/", "https://x.postb.in?x",
		"https://api.github.com/repos", "http://169.254.169.254/latest", "ftp://dnslog.cn", "https://a.webhook.site.evil.com/",
	} {
		tg, err := parseURL(u)
		hit := err == nil && tg.host != "" && captureService(tg.host) != ""
		if hit && !mayCapture(u) {
			t.Errorf("mayCapture(%q) = false; its host %q is a capture service's", u, tg.host)
		}
	}
	if mayCapture("https://api.github.com/x?webhook.site") {
		t.Error("mayCapture of a GitHub URL")
	}
}

// FuzzMayCapture checks the gate against parseURL.
func FuzzMayCapture(f *testing.F) {
	f.Add("https://webhook.site/abc")
	f.Add("http://u:p@X.OAST.FUN.:80/?q")
	f.Fuzz(func(t *testing.T, u string) {
		tg, err := parseURL(u)
		if err == nil && tg.host != "" && captureService(tg.host) != "" && !mayCapture(u) {
			t.Errorf("mayCapture(%q) = false; its host %q is a capture service's", u, tg.host)
		}
	})
}
