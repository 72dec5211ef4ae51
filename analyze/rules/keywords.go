package rules

// keywordIndex finds, in one pass over a text, which of a set of keywords
// it contains, ignoring ASCII case. It is an Aho-Corasick automaton
// compiled to a dense transition table.
type keywordIndex struct {
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

// newKeywordIndex builds the automaton; keyword i is reported as bit i.
func newKeywordIndex(keywords []string) *keywordIndex {
	k := &keywordIndex{n: len(keywords), words: (len(keywords) + 63) / 64}
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
	return k
}

// scan sets in found the bit of every keyword text contains.
func (k *keywordIndex) scan(text string, found []uint64) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = k.next[s][text[i]]
		for _, id := range k.out[s] {
			found[id>>6] |= 1 << (id & 63)
		}
	}
}
