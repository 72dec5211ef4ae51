package keywords

import (
	"fmt"
	"strings"
	"testing"
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
