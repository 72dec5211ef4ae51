package shell

import (
	"strings"
	"testing"
)

// expandingBytes are the bytes expands looks for, as a set for
// strings.ContainsAny.
const expandingBytes = "~{}*?[]\\"

// TestExpands holds expands, which reads four bytes at a time, to
// strings.ContainsAny: at every length up to 12 and every position of
// each byte it looks for.
func TestExpands(t *testing.T) {
	for n := range 13 {
		plain := strings.Repeat("a", n)
		if expands(plain) {
			t.Errorf("%q: expands", plain)
		}
		for i := range n {
			for _, c := range []byte(expandingBytes + "-/.=") {
				s := plain[:i] + string(c) + plain[i+1:]
				if got, want := expands(s), strings.ContainsAny(s, expandingBytes); got != want {
					t.Errorf("%q: expands %v, want %v", s, got, want)
				}
			}
		}
	}
}

// FuzzExpands holds expands to strings.ContainsAny.
func FuzzExpands(f *testing.F) {
	for _, s := range []string{"", "a", "~/x", "abcd", "abcde*", "{a,b}", "x\\y", "rm -rf build"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := expands(s), strings.ContainsAny(s, expandingBytes); got != want {
			t.Fatalf("%q: expands %v, want %v", s, got, want)
		}
	})
}
