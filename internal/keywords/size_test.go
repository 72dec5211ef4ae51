package keywords

import "unsafe"

// size is the memory the automaton keeps, in bytes.
func (k *Index) size() int {
	n := int(unsafe.Sizeof(*k)) + len(k.t16)*2 + len(k.t32)*4
	for _, o := range k.out {
		n += int(unsafe.Sizeof(o)) + len(o)*4
	}
	return n
}
