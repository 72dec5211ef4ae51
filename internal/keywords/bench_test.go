package keywords

import (
	"os"
	"strings"
	"testing"
)

// packWords reads a keyword set of a built-in pack, one keyword a line
// (testdata/rules.txt: the rule pack's, secrets.txt: the secrets
// detector's), as those packs had them when the files were written.
func packWords(tb testing.TB, name string) []string {
	tb.Helper()
	data, err := os.ReadFile("testdata/" + name + ".txt")
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// BenchmarkNew measures building the automaton of each built-in pack's
// keywords (time and allocations) and reports the size of what stays in
// memory (table-B).
func BenchmarkNew(b *testing.B) {
	for _, name := range []string{"rules", "secrets"} {
		b.Run(name, func(b *testing.B) {
			words := packWords(b, name)
			b.ReportAllocs()
			var k *Index
			for b.Loop() {
				k = New(words)
			}
			b.ReportMetric(float64(k.size()), "table-B")
		})
	}
}

// BenchmarkFind measures scan throughput with the rule pack's keywords over
// shell-like text.
func BenchmarkFind(b *testing.B) {
	k := New(packWords(b, "rules"))
	text := strings.Repeat("cd /home/user/project && go test ./... 2>&1 | tail -20; git status --short; ls -la build/\n", 1000)
	found := make([]uint64, k.Words())
	var hits []Hit
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		hits = k.Find(text, found, hits[:0])
	}
}
