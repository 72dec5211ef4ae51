package keywords

import (
	"fmt"
	"math/rand/v2"
	"slices"
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

// walk is Find's reference: the automaton stepped one byte at a time, as
// the scan loop (next) must step it, whatever the text's length and
// wherever the hits fall among the bytes it reads four at a time.
func walk[T state](k *Index, table []T, text string) []Hit {
	hit := top[T]()
	var out []Hit
	s := T(0)
	for i := 0; i < len(text); i++ {
		s = table[int(s&^hit)+int(k.class[text[i]])]
		if s&hit != 0 {
			for _, id := range k.out[int(s&^hit)/k.stride] {
				out = append(out, Hit{int(id), i + 1})
			}
		}
	}
	return out
}

// TestScanLoop checks Find's and Each's hits against the byte-at-a-time
// walk, and each hit against the text, on texts of every length up to 40
// over the keywords' bytes, for 2- and 4-byte states.
func TestScanLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	small := []string{"ab", "b", "abc", "ca", "Bca", "aaaa", "c\xc3"}
	// enough keywords for a trie of more than 1<<15 states: 4-byte states
	var big []string
	for range 8000 {
		b := make([]byte, 12)
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		big = append(big, string(b))
	}
	for _, words := range [][]string{small, big} {
		k := New(words)
		if want := len(words) > 100; (k.t32 != nil) != want {
			t.Fatalf("%d keywords: 4-byte states %v, want %v", len(words), k.t32 != nil, want)
		}
		const alpha = "abcABC\xc3 "
		for n := range 41 {
			for range 50 {
				b := make([]byte, n)
				for i := range b {
					b[i] = alpha[rng.IntN(len(alpha))]
				}
				text := string(b)
				var want []Hit
				if k.t16 != nil {
					want = walk(k, k.t16, text)
				} else {
					want = walk(k, k.t32, text)
				}
				found := make([]uint64, k.Words())
				got := k.Find(text, found, nil)
				var each []Hit
				k.Each(b, func(id, end int) bool { each = append(each, Hit{id, end}); return true })
				if !slices.Equal(got, want) || !slices.Equal(each, want) {
					t.Fatalf("%q: Find %v, Each %v, want %v", text, got, each, want)
				}
				for _, h := range got {
					w := words[h.ID]
					if h.End < len(w) || !strings.EqualFold(text[h.End-len(w):h.End], w) {
						t.Fatalf("%q: hit %v is not %q", text, h, w)
					}
					if found[h.ID>>6]&(1<<(h.ID&63)) == 0 {
						t.Fatalf("%q: hit %v not in found", text, h)
					}
				}
			}
		}
	}
}

// FuzzScanLoop checks Find's and Each's hits against the byte-at-a-time
// walk, on keywords (one a line of words) and a text of the fuzzer's
// choosing: the scan loop reads the text and the table unchecked, so
// every length and every hit position must agree.
func FuzzScanLoop(f *testing.F) {
	f.Add("he\nshe\nhers\nakia", "USHERS key=AKIAxyz")
	f.Add("ab\nb\nabc\nca", "abcabcab")
	f.Add("c\xc3\n\xc3", "c\xc3\xc3 ab")
	f.Add("x", "")
	f.Fuzz(func(t *testing.T, words, text string) {
		if len(words) > 2000 || len(text) > 4000 {
			return
		}
		k := New(strings.Split(words, "\n"))
		if err := k.valid(); err != nil {
			t.Fatal(err)
		}
		var want []Hit
		if k.t16 != nil {
			want = walk(k, k.t16, text)
		} else {
			want = walk(k, k.t32, text)
		}
		got := k.Find(text, make([]uint64, k.Words()), nil)
		var each []Hit
		k.Each([]byte(text), func(id, end int) bool { each = append(each, Hit{id, end}); return true })
		if !slices.Equal(got, want) || !slices.Equal(each, want) {
			t.Fatalf("%q: Find %v, Each %v, want %v", text, got, each, want)
		}
	})
}
