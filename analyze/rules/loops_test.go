package rules

import (
	"strings"
	"testing"
)

// TestIndexHead holds indexHead to strings.IndexAny on the corpora's
// texts, from every position of the short ones.
func TestIndexHead(t *testing.T) {
	for _, s := range append(corpusTexts(t), "", "w", "xxu", "while true; do x & done", "ſ\u212aw") {
		for i := 0; i <= len(s); i += max(1, len(s)/64) {
			want := strings.IndexAny(s[i:], "wuf")
			if want >= 0 {
				want += i
			}
			if got := indexHead(s, i); got != want {
				t.Fatalf("indexHead(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
}
