package keywords

import (
	"fmt"
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

// valid reports what makes the scan loop's unchecked reads safe: every
// class below the stride, one row of stride entries per state, and every
// entry, its top bit cleared, a row's offset: a multiple of the stride,
// below the table's length. And that state finds the number of every row.
func valid[T state](k *Index, table []T) error {
	for b, c := range k.class {
		if int(c) >= k.stride {
			return fmt.Errorf("byte %#x: class %d, stride %d", b, c, k.stride)
		}
	}
	if len(table) == 0 || len(table) != len(k.out)*k.stride {
		return fmt.Errorf("%d entries for %d states of %d classes", len(table), len(k.out), k.stride)
	}
	for i, t := range table {
		if r := int(t &^ top[T]()); r%k.stride != 0 || r >= len(table) {
			return fmt.Errorf("entry %d: row offset %d, stride %d, %d entries", i, r, k.stride, len(table))
		}
	}
	for q := range len(k.out) {
		if s := k.state(uint64(q * k.stride)); s != q {
			return fmt.Errorf("row %d: state %d", q, s)
		}
	}
	return nil
}

func (k *Index) valid() error {
	if k.t16 != nil {
		return valid(k, k.t16)
	}
	return valid(k, k.t32)
}

// TestTablesValid checks the automata New builds, for the built-in packs'
// keywords (whose generated tables the rules and secrets packages hold
// equal to New's) and for random ones with 2- and 4-byte states.
func TestTablesValid(t *testing.T) {
	sets := [][]string{packWords(t, "rules"), packWords(t, "secrets"), {"x"}, {"", "ÿ"}}
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{3, 40, 9000} {
		var words []string
		for range n {
			b := make([]byte, 1+r.IntN(12))
			for i := range b {
				b[i] = "abcAB-\xc3"[r.IntN(7)]
			}
			words = append(words, string(b))
		}
		sets = append(sets, words)
	}
	for _, words := range sets {
		k := New(words)
		if err := k.valid(); err != nil {
			t.Fatalf("%d keywords: %v", len(words), err)
		}
		tb := k.Tables()
		if err := FromTables(&tb).valid(); err != nil {
			t.Fatalf("%d keywords, from tables: %v", len(words), err)
		}
	}
}

// TestFromTablesShape checks that FromTables refuses tables whose shape
// the scan loop cannot read safely.
func TestFromTablesShape(t *testing.T) {
	good := New([]string{"ab", "bc"}).Tables()
	bad := map[string]func(*Tables){
		"class past the stride": func(tb *Tables) { tb.Class['z'] = uint8(tb.Stride) },
		"short table":           func(tb *Tables) { tb.T16 = tb.T16[:len(tb.T16)-1] },
		"no table":              func(tb *Tables) { tb.T16 = nil },
		"two tables":            func(tb *Tables) { tb.T32 = make([]uint32, len(tb.T16)) },
		"zero stride":           func(tb *Tables) { tb.Stride = 0 },
	}
	for name, spoil := range bad {
		tb := good
		tb.T16 = slices.Clone(good.T16)
		spoil(&tb)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: FromTables did not panic", name)
				}
			}()
			FromTables(&tb)
		}()
	}
	FromTables(&good) // does not panic
}

// TestReciprocal checks state, the division by the stride as a multiply
// and a shift, for every stride a class table allows, on rows from the
// first to the last a 31-bit offset holds.
func TestReciprocal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for stride := 1; stride <= 256; stride++ {
		k := &Index{stride: stride, recip: reciprocal(stride)}
		last := (1<<31 - 1) / stride
		for _, q := range []int{0, 1, 2, 3, last - 1, last, r.IntN(last), r.IntN(last), r.IntN(1 << 16)} {
			if s := k.state(uint64(q * stride)); s != q {
				t.Fatalf("stride %d: row %d read as %d", stride, q, s)
			}
		}
	}
}
