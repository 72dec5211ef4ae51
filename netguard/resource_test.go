package netguard

import (
	"net/url"
	"strings"
	"testing"
)

// resourceParsed is resource without plainURL's shortcut.
func resourceParsed(dest string) string {
	u, err := url.Parse(dest)
	if err != nil {
		return ""
	}
	return "url:" + redactURL(u)
}

// checkPlainURL holds plainURL to what url.Parse and redactURL give.
func checkPlainURL(t *testing.T, s string) {
	t.Helper()
	if plainURL(s) {
		if want := resourceParsed(s); resource(s) != want {
			t.Fatalf("resource(%q) = %q, parsed %q", s, resource(s), want)
		}
	}
}

// The shortcut of resource gives what parsing gives: URLs built from
// every byte in every part try to break it.
func TestPlainURL(t *testing.T) {
	if !plainURL("https://example.com/a/b-c_d.sh") || !plainURL("http://127.0.0.1:8080") || !plainURL("git+ssh://h.example/x~y/") {
		t.Error("plain URLs are not plain")
	}
	for _, s := range []string{"HTTP://h/", "http://u@h/", "http://h/?q", "http://h/#f", "http://h/%41", "http://h:/", "http://[::1]/", "://h/", "http:///x", "1http://h/"} {
		if plainURL(s) {
			t.Errorf("plainURL(%q) = true", s)
		}
	}
	for b := 0; b < 256; b++ {
		c := string(rune(b))
		if b >= 0x80 {
			c = string([]byte{byte(b)})
		}
		for _, s := range []string{"h" + c + "s://host/p", "http://ho" + c + "st/p", "http://host:8" + c + "0/p", "http://host/p" + c + "q",
			"http://host/" + c, "http://" + c + "/", c + "://h/", "http://host/a/" + c + c + "/b"} {
			checkPlainURL(t, s)
		}
	}
	for _, s := range []string{"http://h//x", "http://h/./../x", "http://h/~u/", "http://h:0/", "http://h:99999/", "http://-/", "http://./", "a+b.c-d://h.-./x"} {
		checkPlainURL(t, s)
	}
}

// FuzzPlainURL: for any text plainURL takes, resource gives what parsing
// gives.
func FuzzPlainURL(f *testing.F) {
	for _, s := range []string{"https://example.com/a/b", "http://h:80", "x+y://a.b/~c//d", "http://h/" + strings.Repeat("a/", 4)} {
		f.Add(s)
	}
	f.Fuzz(checkPlainURL)
}
