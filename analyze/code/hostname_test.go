package code

import (
	"testing"

	"github.com/agentwarden/warden/netguard"
)

// plainHostname is the host netguard.PlainAuthority reads, as hostOf
// takes it.
func plainHostname(a string) (string, bool) {
	h, _, ok := netguard.PlainAuthority(a)
	return h, ok
}

// TestPlainHostname holds netguard.PlainAuthority, with which hostOf
// reads a plain authority instead of url.Parse, to parsedHostname on
// authorities of every shape near the plain ones.
func TestPlainHostname(t *testing.T) {
	hosts := []string{"example.com", "EXAMPLE.com", "127.0.0.1", "0x7f.1", "a..b", "-a", "a.", "localhost", "a_b", "a~b", "",
		"[::1]", "[::1", "bücher.example", "a%2eb", "a b", "a\x00b", "a/b", "a%", "%41"}
	ports := []string{"", ":", ":80", ":080", ":65536", ":8a", ":+80", "::80", ":80:90"}
	n := 0
	for _, h := range hosts {
		for _, p := range ports {
			a := h + p
			want := parsedHostname(a)
			if got, ok := plainHostname(a); ok && got != want {
				t.Errorf("plainHostname(%q) = %q, url.Parse reads %q", a, got, want)
			} else if ok {
				n++
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d plain authorities", n)
	}
}

// FuzzPlainHostname is TestPlainHostname on any authority.
func FuzzPlainHostname(f *testing.F) {
	for _, s := range []string{"example.com:80", "[::1]:80", "a..b", ":80", "a:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, a string) {
		if got, ok := plainHostname(a); ok && got != parsedHostname(a) {
			t.Fatalf("plainHostname(%q) = %q, url.Parse reads %q", a, got, parsedHostname(a))
		}
	})
}

// TestNameByte holds the table of name bytes to the comparisons it stands
// for, on every byte.
func TestNameByte(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		if want := b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'; isNameByte(b) != want {
			t.Fatalf("isNameByte(%q) = %v", b, !want)
		}
	}
}
