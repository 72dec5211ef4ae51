package risk

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/jsonenc"
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

// TestPlainText: the texts plainText knows are exactly those Combine
// writes as impacts and recommendations, and each one's JSON string is
// itself quoted.
func TestPlainText(t *testing.T) {
	texts := map[string]bool{partlyUnknown: true}
	for l := Unknown; l <= Critical; l++ {
		texts[Impact(l)] = true
		for _, rev := range []bool{false, true} {
			for _, r := range appendRecommendations(nil, l, rev) {
				texts[r] = true
			}
		}
	}
	texts[Impact(Level(99))] = true
	if len(texts) != 12 {
		t.Errorf("%d texts, plainText knows 12: update it", len(texts))
	}
	for s := range texts {
		if !plainText(s) {
			t.Errorf("plainText(%q) = false", s)
		}
		if got, want := string(jsonenc.String(nil, s)), `"`+s+`"`; got != want {
			t.Errorf("%q is written %s, not %s", s, got, want)
		}
	}
	for _, s := range []string{"", "Review carefully before approving ", `Review "carefully"`, "review carefully before approving"} {
		if plainText(s) {
			t.Errorf("plainText(%q) = true", s)
		}
	}
}
