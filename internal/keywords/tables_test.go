package keywords

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestTablesRoundTrip checks that an Index made from another's tables
// finds exactly what the built one finds, on random text over the
// keywords' bytes.
func TestTablesRoundTrip(t *testing.T) {
	words := []string{"curl", "wget", "rm -rf", "Base64", "eval", "ssh", "sh", "", "ÿx"}
	k := New(words)
	tb := k.Tables()
	g := FromTables(&tb)
	if !reflect.DeepEqual(g.Tables(), tb) {
		t.Fatal("tables differ after a round trip")
	}
	r := rand.New(rand.NewPCG(1, 2))
	alpha := []byte("curlwgetRM -rfbase64EVALsshÿx\n")
	for range 2000 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		s := string(b)
		f1, f2 := make([]uint64, k.Words()), make([]uint64, g.Words())
		h1 := k.Find(s, f1, nil)
		h2 := g.Find(s, f2, nil)
		if !slices.Equal(f1, f2) || !slices.Equal(h1, h2) {
			t.Fatalf("%q: %v %v / %v %v", s, f1, h1, f2, h2)
		}
	}
}
