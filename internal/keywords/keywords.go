// Package keywords finds many keywords in a text in one pass, ignoring
// ASCII case: an Aho-Corasick automaton compiled to a dense transition
// table. The rule pack and the secrets detector use it as the prefilter
// that decides which regular expressions run at all.
package keywords

// Index finds, in one pass over a text, which of a set of keywords it
// contains, ignoring ASCII case.
type Index struct {
	first [256]bool    // bytes that start a keyword (either case)
	n     int          // number of keywords
	next  [][256]int32 // state × byte → state
	out   [][]int32    // state → keywords ending here (fail links merged)
	words int          // bitset length in uint64 words
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// New builds the automaton; keyword i is reported as bit i (Set) or as
// i (Each).
func New(keywords []string) *Index {
	k := &Index{n: len(keywords), words: (len(keywords) + 63) / 64}
	k.next = append(k.next, [256]int32{})
	k.out = append(k.out, nil)
	// goto function; -1 marks a missing edge while building
	for i := range k.next[0] {
		k.next[0][i] = -1
	}
	for id, w := range keywords {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := lowerASCII(w[i])
			if k.next[s][c] < 0 {
				var row [256]int32
				for j := range row {
					row[j] = -1
				}
				k.next = append(k.next, row)
				k.out = append(k.out, nil)
				k.next[s][c] = int32(len(k.next) - 1)
			}
			s = k.next[s][c]
		}
		k.out[s] = append(k.out[s], int32(id))
	}
	// breadth-first: fail links, merged outputs, dense transitions
	fail := make([]int32, len(k.next))
	var queue []int32
	for c := 0; c < 256; c++ {
		if t := k.next[0][c]; t >= 0 {
			fail[t] = 0
			queue = append(queue, t)
		} else {
			k.next[0][c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		k.out[s] = append(k.out[s], k.out[fail[s]]...)
		for c := 0; c < 256; c++ {
			if t := k.next[s][c]; t >= 0 {
				fail[t] = k.next[fail[s]][c]
				queue = append(queue, t)
			} else {
				k.next[s][c] = k.next[fail[s]][c]
			}
		}
	}
	// fold upper-case bytes onto lower-case ones
	for s := range k.next {
		for c := 'A'; c <= 'Z'; c++ {
			k.next[s][c] = k.next[s][c+'a'-'A']
		}
	}
	for c := range 256 {
		k.first[c] = k.next[0][c] != 0
	}
	return k
}

// Words returns the length, in uint64 words, of the bitset Set fills.
func (k *Index) Words() int { return k.words }

// Set sets in found the bit of every keyword text contains.
func (k *Index) Set(text string, found []uint64) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = k.next[s][text[i]]
		for _, id := range k.out[s] {
			found[id>>6] |= 1 << (id & 63)
		}
	}
}

// Each calls fn for every occurrence of a keyword in text, with the
// keyword's number and the offset just past its end, in text order. fn
// returns false to stop.
func (k *Index) Each(text []byte, fn func(id, end int) bool) {
	s := int32(0)
	next, out, first := k.next, k.out, &k.first
	n := len(text)
	for i := 0; i < n; i++ {
		if s == 0 {
			// outside any keyword: skip what cannot start one
			for i < n && !first[text[i]] {
				i++
			}
			if i == n {
				return
			}
		}
		s = next[s][text[i]]
		if o := out[s]; len(o) > 0 {
			for _, id := range o {
				if !fn(int(id), i+1) {
					return
				}
			}
		}
	}
}
