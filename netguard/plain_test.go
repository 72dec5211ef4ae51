package netguard

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// samePlain fails when parseURL, which reads a plain URL without
// url.Parse (plainParts, hostTarget), reads raw otherwise than the
// general path does.
func samePlain(t *testing.T, raw string) {
	t.Helper()
	if len(raw) > maxURL {
		return
	}
	got, gerr := parseURL(raw)
	want, werr := parseURLGeneral(strings.TrimSpace(raw))
	if got != want || fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("parseURL(%q) = %+v, %v; through url.Parse: %+v, %v", raw, got, gerr, want, werr)
	}
	if n, err := strconv.Atoi(got.port); got.port != "" && (err != nil || strconv.Itoa(n) != got.port) {
		t.Fatalf("parseURL(%q): port %q is not canonical", raw, got.port)
	}
}

// TestParseURLPlain holds parseURL's fast path for plain URLs to the
// general path, on URLs of every shape near the plain ones.
func TestParseURLPlain(t *testing.T) {
	schemes := []string{"http", "https", "ftp", "gopher", "git+ssh", "a.b-c", "HTTP", "h2", "1x", ""}
	hosts := []string{"example.com", "EXAMPLE.com", "127.0.0.1", "0x7f.1", "2130706433", "10.0.0.1.nip.io", "a..b", "-a.b", "a.b.",
		"localhost", "169.254.169.254", "metadata.google.internal", "x", "a_b", "a~b", "", "1.2.3", "256.1.1.1", "0177.0.0.1",
		strings.Repeat("a", 64) + ".com", strings.Repeat("a.", 130) + "b", "[::1]", "bücher.example", "a%2eb", "u@h", "u:p@h"}
	ports := []string{"", ":", ":80", ":080", ":0", ":00", ":65535", ":65536", ":99999999999999999999", ":8a", ":+80", ":-1"}
	paths := []string{"", "/", "/a/b.c", "/a b", "/%41", "/?q=1", "/#f", "?q", "#f", "/a~_-.", "/a:b", "/a@b", "\\x"}
	pads := []string{"", " ", "\t", "\n "}
	n := 0
	for _, s := range schemes {
		for _, h := range hosts {
			for _, p := range ports {
				for _, pa := range paths {
					for _, pad := range pads {
						samePlain(t, pad+s+"://"+h+p+pa+pad)
						n++
					}
				}
			}
		}
	}
	for _, c := range readCases(t) {
		samePlain(t, c.URL)
		n++
	}
	if n < 10000 {
		t.Fatalf("only %d URLs", n)
	}
}
