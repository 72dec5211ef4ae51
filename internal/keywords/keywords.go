// Package keywords finds many keywords in a text in one pass, ignoring
// ASCII case: an Aho-Corasick automaton compiled to a dense transition
// table over byte classes (the bytes keywords use, and one class for all
// others), small enough to stay in the processor's cache. The rule pack and the secrets detector use it as the prefilter
// that decides which regular expressions run at all.
package keywords

// Index finds, in one pass over a text, which of a set of keywords it
// contains, ignoring ASCII case.
type Index struct {
	class  [256]uint8 // byte → class
	stride int        // number of classes
	n      int        // number of keywords
	// table[state*stride+class] is the next state; states with outputs
	// have the high bit set (hit) and are numbered apart from it.
	table []uint32
	out   [][]int32 // state → keywords ending here (fail links merged)
	words int       // bitset length in uint64 words

	next [][256]int32 // the automaton as built, before compaction
}

// hit marks a state where keywords end.
const hit = 1 << 31

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
	k.compact()
	return k
}

// compact builds the class table from the dense automaton.
func (k *Index) compact() {
	// bytes that no keyword uses behave alike: class 0
	used := [256]bool{}
	for s := range k.next {
		for c := range 256 {
			if k.next[s][c] != 0 {
				used[c] = true
			}
		}
	}
	k.stride = 1
	for c := range 256 {
		if used[c] {
			if 'A' <= c && c <= 'Z' {
				continue // folded below
			}
			k.class[c] = uint8(k.stride)
			k.stride++
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		k.class[c] = k.class[c+'a'-'A']
	}
	k.table = make([]uint32, len(k.next)*k.stride)
	for s := range k.next {
		for c := range 256 {
			t := uint32(k.next[s][c])
			if len(k.out[t]) > 0 {
				t |= hit
			}
			k.table[s*k.stride+int(k.class[c])] = t
		}
	}
	k.next = nil
}

// Words returns the length, in uint64 words, of the bitset Set fills.
func (k *Index) Words() int { return k.words }

// Set sets in found the bit of every keyword text contains.
func (k *Index) Set(text string, found []uint64) {
	s, stride, table, class := uint32(0), uint32(k.stride), k.table, &k.class
	for i := 0; i < len(text); i++ {
		s = table[(s&^hit)*stride+uint32(class[text[i]])]
		if s&hit != 0 {
			for _, id := range k.out[s&^hit] {
				found[id>>6] |= 1 << (id & 63)
			}
		}
	}
}

// Each calls fn for every occurrence of a keyword in text, with the
// keyword's number and the offset just past its end, in text order. fn
// returns false to stop.
func (k *Index) Each(text []byte, fn func(id, end int) bool) {
	s, stride, table, class := uint32(0), uint32(k.stride), k.table, &k.class
	n := len(text)
	for i := 0; i < n; i++ {
		s = table[(s&^hit)*stride+uint32(class[text[i]])]
		if s&hit != 0 {
			for _, id := range k.out[s&^hit] {
				if !fn(int(id), i+1) {
					return
				}
			}
		}
	}
}
