package keywords

// Tables is an Index as plain data, so a fixed keyword set's automaton can
// be written as Go literals at build time (laid out by the linker: no work
// at start) and used with FromTables.
type Tables struct {
	Class  [256]uint8
	Stride int
	N      int
	Words  int
	T16    []uint16
	T32    []uint32
	Out    [][]int32
}

// Tables returns k's automaton as data. The slices are k's own: do not
// change them.
func (k *Index) Tables() Tables {
	return Tables{Class: k.class, Stride: k.stride, N: k.n, Words: k.words, T16: k.t16, T32: k.t32, Out: k.out}
}

// FromTables returns the Index whose data is t (see Tables), without
// building anything. t must come from Tables; its slices are shared. The
// scan reads the table without bounds checks: FromTables panics on tables
// whose shape does not hold (a class past the stride, a table that is not
// one row of stride entries per state); that every entry is a state is
// for Tables to give (TestTablesValid): the offset of a row, a multiple of
// the stride (tables of an older format, entries state numbers, are not;
// the generated files' tests hold them equal to New's).
func FromTables(t *Tables) *Index {
	states := len(t.T16) + len(t.T32)
	if t.Stride < 1 || (t.T16 == nil) == (t.T32 == nil) || states != len(t.Out)*t.Stride || states == 0 || states >= 1<<31 {
		panic("keywords: tables do not hold one row per state")
	}
	for _, c := range t.Class {
		if int(c) >= t.Stride {
			panic("keywords: a byte's class is past the stride")
		}
	}
	return &Index{class: t.Class, stride: t.Stride, n: t.N, words: t.Words, t16: t.T16, t32: t.T32, out: t.Out, recip: reciprocal(t.Stride)}
}
