package netguard

import (
	"fmt"
	"net/netip"
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

// TestV4Masks holds classify's masks to the table's prefixes
// (Prefix.Contains) on the ends of every range and addresses around them.
func TestV4Masks(t *testing.T) {
	var addrs []netip.Addr
	for _, r := range v4Table {
		if r.prefix.Bits() == 0 {
			t.Fatalf("%v: a /0 row, which the masks cannot hold", r.prefix)
		}
		first := r.prefix.Masked().Addr()
		b := first.As4()
		host := uint32(1)<<(32-r.prefix.Bits()) - 1
		end := (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) | host
		last := netip.AddrFrom4([4]byte{byte(end >> 24), byte(end >> 16), byte(end >> 8), byte(end)})
		addrs = append(addrs, first, first.Prev(), first.Next(), last, last.Next(), last.Prev())
	}
	for i := range 1 << 16 {
		addrs = append(addrs, netip.AddrFrom4([4]byte{byte(i >> 8), byte(i), byte(i * 7), byte(i * 13)}))
	}
	for _, a := range addrs {
		if !a.IsValid() || !a.Is4() {
			continue
		}
		want := addrClass{}
		for _, r := range v4Table {
			if r.prefix.Contains(a) {
				want = addrClass{cat: r.cat, what: r.what}
				break
			}
		}
		if got := classify(a); got != want {
			t.Fatalf("classify(%v) = %+v, the table says %+v", a, got, want)
		}
	}
}

// TestPlainClass holds plainClass to the comparisons it stands for, on
// every byte.
func TestPlainClass(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		scheme := 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '+' || b == '.' || b == '-'
		host := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '.'
		path := host || b == '_' || b == '~' || b == '/'
		if got := [3]bool{plainClass[b]&plainScheme != 0, plainClass[b]&plainHost != 0, plainClass[b]&plainPath != 0}; got != [3]bool{scheme, host, path} {
			t.Fatalf("plainClass[%q] = %v, want %v", b, got, [3]bool{scheme, host, path})
		}
	}
}
