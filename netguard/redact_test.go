package netguard

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Nothing netguard shows of a URL holds its password: not a verdict's URL
// or reason, not a finding's reason or resource (also when the URL does
// not parse, or its password holds an @), not a client's error.
func TestNoURLPasswordShown(t *testing.T) {
	const pw = "Zq@8pLm2"
	urls := []string{
		"http://admin:" + pw + "@169.254.169.254/latest/",
		"http://admin:" + pw + "@[::1",
		"http://admin:" + pw + "@10.0.0.1:99999/",
		"http://docs.example.com:" + pw + "@10.0.0.1/",
		"gopher://u:" + pw + "@127.0.0.1/",
	}
	for _, u := range urls {
		v := Default().Check(context.Background(), u)
		out, _ := json.Marshal(v)
		c := dest(u, "curl")
		fs, _ := Analyzer{}.Analyze(context.Background(), &c)
		found, _ := json.Marshal(fs)
		for what, s := range map[string]string{"verdict": string(out), "findings": string(found)} {
			if strings.Contains(s, "8pLm2") || strings.Contains(s, ":Zq") {
				t.Errorf("%s: the %s shows the password: %s", u, what, s)
			}
		}
		if len(fs) == 0 || v.Allowed {
			t.Errorf("%s: not blocked: %s %s", u, out, found)
		}
	}
	_, err := Default().Client(ClientOptions{}).Get("http://admin:" + pw + "@127.0.0.1:1/")
	var be *BlockedError
	if !errors.As(err, &be) || strings.Contains(be.Error(), "8pLm2") {
		t.Errorf("client error: %v", err)
	}
	if r := resource("http://admin:" + pw + "@[::1"); strings.Contains(r, "8pLm2") || strings.Contains(r, "Zq") {
		t.Errorf("resource %q", r)
	}
}
