package ascii

import (
	"strings"
	"testing"
)

func TestLower(t *testing.T) {
	for b := 0; b < 256; b++ {
		want := byte(b)
		if b < 128 {
			want = strings.ToLower(string(rune(b)))[0]
		}
		if got := Lower(byte(b)); got != want {
			t.Errorf("Lower(%#x) = %#x, want %#x", b, got, want)
		}
	}
}

func TestHasPrefixFold(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{{"DROP table", "drop", true}, {"drop", "drop", true}, {"dro", "drop", false}, {"xdrop", "drop", false}, {"", "", true}, {"Élan", "élan", false}} {
		if got := HasPrefixFold(c.s, c.p); got != c.want {
			t.Errorf("HasPrefixFold(%q, %q) = %v", c.s, c.p, got)
		}
	}
}
