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

// walkSlowly is validator.walk without its shortcut for string members.
func (w *validator) walkSlowly(v any, depth int) error {
	if w.maxDepth > 0 && depth > w.maxDepth {
		return inputErrorf("arguments nest deeper than %d levels", w.maxDepth)
	}
	switch x := v.(type) {
	case string:
		w.total += len(x)
		return checkString(x)
	case map[string]any:
		for k, e := range x {
			w.total += len(k)
			if err := checkString(k); err != nil {
				return err
			}
			if err := w.walkSlowly(e, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range x {
			if err := w.walkSlowly(e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestValidateWalk checks Validate's walk against walkSlowly on arguments
// nested 1 to 5 levels, with valid and invalid strings as keys and values,
// under every depth limit around them.
func TestValidateWalk(t *testing.T) {
	strs := []string{"", "ls -la", "naïve", "a\x00b", "\xff", "abcdefghijkl"}
	var args []any
	for _, s := range strs {
		args = append(args, s, []any{s, 1.0}, map[string]any{"k": s}, map[string]any{s: "v"},
			map[string]any{"a": map[string]any{"b": []any{s}}}, map[string]any{"x": map[string]any{"y": map[string]any{"z": s}}})
	}
	n := 0
	for _, v := range args {
		top := map[string]any{"command": v}
		for depth := range 7 {
			fast := validator{maxDepth: depth}
			slow := validator{maxDepth: depth}
			got, want := fast.walk(top, 1), slow.walkSlowly(top, 1)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() || got == nil && fast.total != slow.total {
				t.Errorf("%#v, max depth %d: walk = %v (%d bytes), want %v (%d)", top, depth, got, fast.total, want, slow.total)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatal("too few cases")
	}
}
