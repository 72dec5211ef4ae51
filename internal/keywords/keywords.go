// Package keywords finds many keywords in a text in one pass, ignoring
// ASCII case: an Aho-Corasick automaton compiled to a dense transition
// table over byte classes (the bytes keywords use, and one class for all
// others), with 2-byte states when they fit, small enough to stay in the
// processor's cache. A state is stored as the offset of its row, its
// number times the number of classes, so a step adds the next byte's class
// to it and multiplies nothing. The rule pack and the secrets detector use it as the
// prefilter that decides which regular expressions run at all.
package keywords

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/agentwarden/warden/internal/ascii"
)

// Index finds, in one pass over a text, which of a set of keywords it
// contains, ignoring ASCII case.
type Index struct {
	class  [256]uint8 // byte → class: 0 for bytes no keyword uses
	stride int        // number of classes
	n      int        // number of keywords
	// table[row+class] is the next state's row, row being a state's
	// number times stride (the offset of its row); states with outputs
	// have the high bit set (see top) and are numbered apart from it.
	// t16 holds it when the rows' offsets fit 15 bits, t32 otherwise.
	t16   []uint16
	t32   []uint32
	out   [][]int32 // state number → keywords ending here (fail links merged)
	words int       // bitset length in uint64 words
	recip uint64    // ⌈2³²/stride⌉: a row's offset times recip, >> 32, is its state's number (state)
}

// state is a table entry: the offset of a state's row (its number times
// the stride), its top bit marking a state where keywords end.
type state interface{ ~uint16 | ~uint32 }

// top returns T's top bit.
func top[T state]() T { return ^(^T(0) >> 1) }

// New builds the automaton; keyword i is reported as bit i (Set) or as
// i (Each). It is built directly over byte classes, the bytes the keywords
// use (upper-case letters sharing their lower-case class) and one class
// for every other byte, so a state costs 2 (or 4) bytes per class, and the
// table is allocated once, at its final size.
func New(keywords []string) *Index {
	k := &Index{n: len(keywords), words: (len(keywords) + 63) / 64}
	k.stride = 1
	for _, w := range keywords {
		for i := 0; i < len(w); i++ {
			if c := ascii.Lower(w[i]); k.class[c] == 0 {
				k.class[c] = uint8(k.stride) // at most 230 bytes other than A-Z: fits
				k.stride++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		k.class[c] = k.class[c+'a'-'A']
	}
	k.recip = reciprocal(k.stride)
	nodes := trieNodes(keywords)
	if nodes*k.stride >= 1<<31 {
		panic("keywords: too many keywords") // rows' offsets past 31 bits; a table of 8 GB
	}
	if (nodes-1)*k.stride < 1<<15 {
		k.t16 = build[uint16](k, keywords, nodes)
	} else {
		k.t32 = build[uint32](k, keywords, nodes)
	}
	return k
}

// build makes the table of k's automaton over keywords, whose trie has
// nodes states, and k.out.
func build[T state](k *Index, keywords []string, nodes int) []T {
	stride := k.stride
	// goto function; 0 marks a missing edge while building (no edge leads
	// back to the root)
	table := make([]T, nodes*stride)
	k.out = make([][]int32, nodes)
	next := T(1)
	for id, w := range keywords {
		s := 0
		for i := 0; i < len(w); i++ {
			e := s*stride + int(k.class[w[i]])
			if table[e] == 0 {
				table[e] = next
				next++
			}
			s = int(table[e])
		}
		k.out[s] = append(k.out[s], int32(id))
	}
	// breadth-first: fail links, merged outputs, dense transitions
	fail := make([]T, nodes)
	queue := make([]T, 0, nodes)
	for c := range stride {
		if t := table[c]; t != 0 {
			queue = append(queue, t) // fail[t] = 0, the root
		}
	}
	for head := 0; head < len(queue); head++ {
		s := int(queue[head])
		f := int(fail[s])
		k.out[s] = append(k.out[s], k.out[f]...)
		row, frow := table[s*stride:(s+1)*stride], table[f*stride:(f+1)*stride]
		for c, t := range row {
			if t != 0 {
				fail[t] = frow[c]
				queue = append(queue, t)
			} else {
				row[c] = frow[c]
			}
		}
	}
	// entries: the offset of the next state's row, marked
	hit := top[T]()
	for i, t := range table {
		r := t * T(stride)
		if len(k.out[t]) > 0 {
			r |= hit
		}
		table[i] = r
	}
	return table
}

// reciprocal returns ⌈2³²/stride⌉, which state needs: for a row's offset
// r = q·stride < 2³², r·⌈2³²/stride⌉ = q·2³² + r·e with 0 ≤ e < 1, and
// r·e < 2³², so the product shifted right 32 is q.
func reciprocal(stride int) uint64 {
	return (1<<32 + uint64(stride) - 1) / uint64(stride)
}

// state returns the number of the state whose row starts at offset row
// (top bit cleared): row/stride, without a division.
func (k *Index) state(row uint64) int {
	return int(row * k.recip >> 32)
}

// trieNodes counts the states of the keywords' trie, the root included:
// in sorted order, each keyword adds the bytes past its common prefix
// with the one before it.
func trieNodes(keywords []string) int {
	lower := make([]string, len(keywords))
	for i, w := range keywords {
		b := []byte(w)
		for j, c := range b {
			b[j] = ascii.Lower(c) // ASCII case is all New folds
		}
		lower[i] = string(b)
	}
	slices.Sort(lower)
	n, prev := 1, ""
	for _, w := range lower {
		l := 0
		for l < len(w) && l < len(prev) && w[l] == prev[l] {
			l++
		}
		n += len(w) - l
		prev = w
	}
	return n
}

// Words returns the length, in uint64 words, of the bitset Set fills.
func (k *Index) Words() int { return k.words }

// Each calls fn for every occurrence of a keyword in text, with the
// keyword's number and the offset just past its end, in text order. fn
// returns false to stop.
func (k *Index) Each(text []byte, fn func(id, end int) bool) {
	if k.t16 != nil {
		each(k, k.t16, text, fn)
	} else {
		each(k, k.t32, text, fn)
	}
}

func each[T state](k *Index, table []T, text []byte, fn func(id, end int) bool) {
	hit, s := top[T](), T(0)
	p := unsafe.Pointer(unsafe.SliceData(text))
	for i := 0; ; i++ {
		if i, s = next(table, &k.class, p, i, len(text), s); i == len(text) {
			return
		}
		s &^= hit
		for _, id := range k.out[k.state(uint64(s))] {
			if !fn(int(id), i+1) {
				return
			}
		}
	}
}

// next runs the automaton from state s (the offset of its row; not one where keywords end) over
// the bytes text[i:n], and returns the position of the first byte that
// leads to a state where keywords end and that state, its top bit set; or
// n and the state after the last byte. A loop of its own, so that its few
// variables stay in registers: the state needs no masking in the loop,
// which it leaves at the first state with the top bit.
//
// A step is six instructions: load the byte, load its class, add the
// class to the row's offset, load the entry, test its top bit, branch. It
// reads text and table without bounds checks: text[i:n] is the caller's
// string or slice, and every entry of table, top bit cleared, is a row's
// offset, a multiple of stride at most len(table)-stride, and every class
// below stride, so row+class < len(table) (build makes them so;
// FromTables takes only what Tables gave, and TestTablesValid checks the
// generated ones).
func next[T state](table []T, class *[256]uint8, text unsafe.Pointer, i, n int, s T) (int, T) {
	hit, st := int(top[T]()), int(s)
	_ = class[0] // one nil check, before the loop
	tab := unsafe.Pointer(unsafe.SliceData(table))
	size := unsafe.Sizeof(T(0))
	for ; i+8 <= n; i += 8 { // eight bytes a round, written out: fewer loop tests
		b := unsafe.Add(text, i)
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(b)]))*size))); st&hit != 0 {
			return i, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 1))]))*size))); st&hit != 0 {
			return i + 1, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 2))]))*size))); st&hit != 0 {
			return i + 2, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 3))]))*size))); st&hit != 0 {
			return i + 3, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 4))]))*size))); st&hit != 0 {
			return i + 4, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 5))]))*size))); st&hit != 0 {
			return i + 5, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 6))]))*size))); st&hit != 0 {
			return i + 6, T(st)
		}
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(b, 7))]))*size))); st&hit != 0 {
			return i + 7, T(st)
		}
	}
	for ; i < n; i++ {
		if st = int(*(*T)(unsafe.Add(tab, uintptr(st+int(class[*(*byte)(unsafe.Add(text, i))]))*size))); st&hit != 0 {
			return i, T(st)
		}
	}
	return n, T(st)
}

// Hit is one occurrence of a keyword: its number and the offset just past
// its end.
type Hit struct {
	ID, End int
}

// Find sets in found the bit of every keyword text contains and appends
// to hits every occurrence, in text order.
func (k *Index) Find(text string, found []uint64, hits []Hit) []Hit {
	if k.t16 != nil {
		return find(k, k.t16, text, found, hits, false)
	}
	return find(k, k.t32, text, found, hits, false)
}

// FindLines is Find that appends, of the occurrences of each keyword on
// one line, the first and the last only (a line is where an occurrence
// ends): all that a reader of the lines around occurrences needs (see the
// rules' windows), in memory bounded by the lines and the keywords, not
// by the occurrences — a megabyte of ';' is one line.
func (k *Index) FindLines(text string, found []uint64, hits []Hit) []Hit {
	if k.t16 != nil {
		return find(k, k.t16, text, found, hits, true)
	}
	return find(k, k.t32, text, found, hits, true)
}

func find[T state](k *Index, table []T, text string, found []uint64, hits []Hit, lines bool) []Hit {
	hit, s := top[T](), T(0)
	p := unsafe.Pointer(unsafe.StringData(text))
	// with lines: the current line ends at eol, its occurrences start at
	// hits[line]; they are compacted when more than room
	eol, line, room := -1, len(hits), minLineRoom
	for i := 0; ; i++ {
		if i, s = next(table, &k.class, p, i, len(text), s); i == len(text) {
			return hits
		}
		s &^= hit
		if lines && i > eol {
			eol, line, room = i+strings.IndexByte(text[i:], '\n'), len(hits), minLineRoom
			if eol < i {
				eol = len(text)
			}
		}
		for _, id := range k.out[k.state(uint64(s))] {
			found[id>>6] |= 1 << (id & 63)
			hits = append(hits, Hit{int(id), i + 1})
		}
		if lines && len(hits)-line > room {
			hits = hits[:line+firstAndLast(hits[line:])]
			room = max(room, 2*(len(hits)-line))
		}
	}
}

// minLineRoom is how many occurrences a line holds before FindLines
// compacts them.
const minLineRoom = 256

// firstAndLast keeps, in order at the front of hits, the first and the
// last occurrence of each keyword, and returns how many it kept.
func firstAndLast(hits []Hit) int {
	last := make(map[int]int, 16) // keyword → the index of its last occurrence
	for j, h := range hits {
		last[h.ID] = j
	}
	seen := make(map[int]bool, len(last))
	n := 0
	for j, h := range hits {
		if !seen[h.ID] || last[h.ID] == j {
			seen[h.ID] = true
			hits[n] = h
			n++
		}
	}
	return n
}
