package risk

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkStringSlowly is checkString without its ASCII pass.
func checkStringSlowly(s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return inputErrorf("a string contains a NUL byte")
	}
	if !utf8.ValidString(s) {
		return inputErrorf("a string is not valid UTF-8")
	}
	return nil
}

func sameCheck(t *testing.T, s string) {
	t.Helper()
	got, want := checkString(s), checkStringSlowly(s)
	if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
		t.Errorf("checkString(%q) = %v, want %v", s, got, want)
	}
	if asciiWithoutNUL(s) && want != nil {
		t.Errorf("asciiWithoutNUL(%q) = true for an invalid string", s)
	}
}

func TestCheckString(t *testing.T) {
	base := []string{"", "a", "git status", "rm -rf ./build && make -j8 all # rebuild",
		"é", "naïve café résumé", "\x80", "ab\xffcd", "\x00", "abcdefgh\x00", "\x00\x01\x02\x03\x04\x05\x06\x07\x08",
		"\x01\x7f\x7f\x7f\x7f\x7f\x7f\x7f", "\x7f\x80", "\xed\xa0\x80", "\x00\xff", "日本語のテキスト"}
	for _, s := range base {
		// every position in an eight-byte word and the tail
		for pad := range 17 {
			p := strings.Repeat("x", pad)
			sameCheck(t, p+s)
			sameCheck(t, s+p)
			sameCheck(t, p+s+p)
		}
	}
}

func FuzzCheckString(f *testing.F) {
	for _, s := range []string{"", "git status", "abcdefgh\x00", "naïve\xff", "\x01\x01\x01\x01\x01\x01\x01\x00"} {
		f.Add(s)
	}
	f.Fuzz(sameCheck)
}
