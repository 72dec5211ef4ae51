package shell

import (
	"sort"
	"testing"
)

// ownFromCase builds, from data, the commands own of a script (indexes
// into at) and an offset, for ownFrom and sort.Search to bisect alike:
// offsets need not be sorted (the two must then still agree, step by
// step).
func ownFromCase(data []byte) (own []int, at []place, off uint) {
	if len(data) == 0 {
		return nil, nil, 0
	}
	off = uint(data[0])
	for i, b := range data[1:] {
		at = append(at, place{offset: uint(b)})
		if b&1 == 0 || i%3 == 0 {
			own = append(own, i)
		}
	}
	return own, at, off
}

func checkOwnFrom(t *testing.T, data []byte) {
	own, at, off := ownFromCase(data)
	want := sort.Search(len(own), func(k int) bool { return at[own[k]].offset >= off })
	if got := ownFrom(own, at, off); got != want {
		t.Fatalf("ownFrom(%v, %v, %d) = %d, sort.Search %d", own, at, off, got, want)
	}
}

// TestOwnFrom holds ownFrom to sort.Search, which link used.
func TestOwnFrom(t *testing.T) {
	for _, d := range [][]byte{nil, {0}, {5, 1, 2, 4, 6, 8}, {4, 2, 4, 4, 4, 9}, {200, 1, 2, 3}, {0, 9, 8, 7}, {7, 2, 10, 4, 8, 6, 12, 14}} {
		checkOwnFrom(t, d)
	}
	for n := 0; n < 40; n++ {
		d := make([]byte, n+1)
		for i := range d {
			d[i] = byte((i*37 + n*11) % 23)
		}
		checkOwnFrom(t, d)
	}
}

func FuzzOwnFrom(f *testing.F) {
	f.Add([]byte{5, 1, 2, 4, 6, 8})
	f.Add([]byte{3, 9, 1, 4, 4, 2})
	f.Fuzz(checkOwnFrom)
}
