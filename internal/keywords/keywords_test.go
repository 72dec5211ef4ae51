package keywords

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/ascii"
)

func TestEach(t *testing.T) {
	idx := New([]string{"he", "she", "hers", "akia"})
	var got []string
	idx.Each([]byte("USHERS key=AKIAxyz"), func(id, end int) bool {
		got = append(got, fmt.Sprintf("%d@%d", id, end))
		return true
	})
	if want := "1@4 0@4 2@6 3@15"; strings.Join(got, " ") != want {
		t.Errorf("Each: %v, want %s", got, want)
	}
	n := 0
	idx.Each([]byte("he he he"), func(int, int) bool { n++; return false })
	if n != 1 {
		t.Errorf("Each did not stop: %d calls", n)
	}
}

func BenchmarkEach(b *testing.B) {
	idx := New([]string{"akia", "asia", "ghp_", "gho_", "glpat-", "xoxb-", "sk_live", "aiza", "eyj", "private key", "password", "secret", "token", "api_key", "apikey", "postgres", "mongodb", "mysql", "redis", "amqp"})
	text := []byte(strings.Repeat("func main() { x := foo(bar, 42); if err != nil { return err } }\n", 2000))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		idx.Each(text, func(int, int) bool { return true })
	}
}

// TestAgainstNaive compares Set with a search of every keyword, over
// keywords and texts drawn from a small alphabet (so that they overlap
// and share prefixes), with upper case and bytes past ASCII.
func TestAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcAB \xc3\xa9-"
	word := func(n int) string {
		b := make([]byte, 1+rng.IntN(n))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	lower := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			b[i] = ascii.Lower(c)
		}
		return string(b)
	}
	for range 300 {
		words := make([]string, 1+rng.IntN(70))
		for i := range words {
			words[i] = word(6)
		}
		k := New(words)
		for range 20 {
			text := word(60)
			found := make([]uint64, k.Words())
			k.Find(text, found, nil)
			for i, w := range words {
				want := strings.Contains(lower(text), lower(w))
				if got := found[i>>6]&(1<<(i&63)) != 0; got != want {
					t.Fatalf("keywords %q, text %q: keyword %q found %v, want %v", words, text, w, got, want)
				}
			}
		}
	}
}
