package rules

import (
	"regexp/syntax"
	"slices"
	"sync"
	"sync/atomic"
)

// A dfa answers whether an ASCII text holds a match of a pattern in one
// pass over it, a table look-up per byte, where regexp runs a backtracking
// or NFA machine at each candidate start: a deterministic automaton built
// lazily from the pattern's program, state by state as texts need them,
// and shared by every goroutine (a transition, once made, is read without
// a lock). Its transitions are one table of state numbers, row by state,
// so a byte costs a look-up in memory that stays close.
//
// A state is the set of the program's instructions that wait for the next
// byte (threads of a search that starts anywhere: the program's start is
// added at every position, as regexp's unanchored search does) and the
// kind of the byte before it (none, a newline, a word byte, another), which
// with the next byte decides the empty-width assertions between them
// (syntax.EmptyOpContext: \b, \B, ^, $, \A, \z, each read as regexp reads
// them). A transition follows the assertions that hold there and the
// instructions that match the byte; reaching the program's match
// instruction answers true at once. Bytes are grouped in classes that no
// instruction and no assertion tells apart, so a state's table is short.
//
// The automaton reads ASCII only: a byte of a multi-byte character (which
// (?i) may fold onto ASCII letters, K onto k) makes it give up, and so does
// a pattern whose automaton grows past maxDFAStates; the caller then runs
// regexp, which answers the same.
type dfa struct {
	*dfaShape
	// skip are the ASCII bytes no match starts with (nil: not known); in
	// an idle state (no instruction waits: idle, by the kind of the byte
	// before, rows up to lastIdle) the automaton passes them with no
	// look-up in table, staying idle
	skip     *[256]bool
	idle     [kindOther + 1]int32
	lastIdle int32

	// table[id*stride+c] is the state after a byte of class c in state
	// id, as the start of its row (id*stride, so that the next look-up
	// adds the class only): noState while not made (always for class 0),
	// matchedState*stride once a match ends there; column endCol is what
	// the state answers at the text's end (noState while not known,
	// matchedState, or endNone). A grown table is a copy published whole:
	// a reader's copy lacks only the transitions made since, which step
	// gives it. Read and written atomically.
	table atomic.Pointer[[]int32]

	mu     sync.Mutex // guards states, slots, pcs, table's growth and the scratch below
	states []dstate   // by number
	// slots are the states' numbers by hash (see state), 0 for none: open
	// addressing, at most half full, a power of two long
	slots  []int32
	pcs    []uint32 // where the states' pcs are kept, one after another
	seen   []uint32 // pc → the walk it was last reached in
	gen    uint32
	stack  []uint32
	set    []uint32
	starts []reached // the closures of the program's start, by flags (startClosure)
}

// reached is the closure of the program's start where the assertions
// flags hold: its rune instructions, and whether it reaches the match.
type reached struct {
	flags   syntax.EmptyOp
	set     []uint32
	matched bool
}

// A dfaShape is what an automaton reads from a pattern's program before
// any text: the program as it walks it and the classes of bytes. It is
// never written once made (a built-in pattern's is generated data, see
// shape_gen.go), so automata share it.
type dfaShape struct {
	prog   []dinst     // the program's instructions
	start  uint32      // the program's start
	masks  [][2]uint64 // the ASCII bytes rune instructions match (dinst.arg), each once
	class  [256]uint8  // byte → its class; 0 for the bytes ≥ 0x80, which give up
	rep    []byte      // class → a byte of it
	stride int         // a row of table: a column per class, then endCol
	// asserts: the program has empty-width assertions, so states note
	// the byte before
	asserts bool
}

// A dinst is an instruction of a pattern's program as the automaton reads
// it: the kinds it tells apart, and a rune instruction's bytes.
type dinst struct {
	op  uint8  // dAlt, dNop…
	out uint32 // the next instruction
	// dAlt: the other next instruction; dEmpty: the assertions
	// (syntax.EmptyOp); dRune: the index of its bytes in dfaShape.masks
	arg uint32
}

// The kinds of dinst.
const (
	dFail  = iota // no match this way
	dAlt          // InstAlt, InstAltMatch: out and arg
	dNop          // InstCapture, InstNop: out
	dEmpty        // InstEmptyWidth: out where the assertions arg hold
	dMatch        // InstMatch
	dRune         // InstRune, InstRune1, InstRuneAny, InstRuneAnyNotNL: out after a byte of masks[arg]
)

// The numbers that are no state of a dfa, and the first one that is.
const (
	noState      = 0 // a transition not made yet
	matchedState = 1 // a match ends: the answer is true
	endNone      = 2 // in column endCol: no match at the text's end
	startState   = 2 // at the text's start
)

// endCol is the column of table that holds a state's answer at the end of
// the text, after its classes'.
func (d *dfa) endCol() int { return d.stride - 1 }

// maxDFAStates bounds the states an automaton makes.
const maxDFAStates = 1024

// dstate is a state of a dfa.
type dstate struct {
	pcs  []uint32 // the instructions that wait for the next byte, sorted
	prev uint8    // the kind of the byte before (kindOf), when the program asserts
	hash uint64   // of pcs and prev (hashState)
}

// The kinds of the byte before a position, as the assertions read them.
const (
	kindStart   = iota // no byte: the text's start
	kindNewline        // \n
	kindWord           // [0-9A-Za-z_]
	kindOther
)

func kindOf(b byte) uint8 {
	switch {
	case b == '\n':
		return kindNewline
	case isWordByte(b):
		return kindWord
	}
	return kindOther
}

// kindRune is a rune of each kind, for syntax.EmptyOpContext, which reads
// of the rune before only whether it is none, a newline or a word
// character.
var kindRune = [...]rune{kindStart: -1, kindNewline: '\n', kindWord: 'a', kindOther: ' '}

// newDFA returns an automaton of shape sh, where st (nil: not known)
// says which bytes may start a match. Its slices start with room for
// the first 64 states (most automata a process uses make fewer), so that
// making them grows nothing: the growth of small slices, one state at a
// time, cost as much as the states themselves.
func newDFA(sh *dfaShape, st *starts) *dfa {
	d := &dfa{dfaShape: sh, slots: make([]int32, 128),
		states: make([]dstate, startState, 64), pcs: make([]uint32, 0, 512), seen: make([]uint32, len(sh.prog)),
		stack: make([]uint32, 0, 64), set: make([]uint32, 0, 64)}
	table := make([]int32, 64*d.stride)
	d.table.Store(&table)
	for k := range d.idle { // the start state first: startState
		d.idle[k] = d.state(nil, uint8(k)) * int32(d.stride)
		d.lastIdle = max(d.lastIdle, d.idle[k])
	}
	if st != nil {
		d.skip = new([256]bool)
		for b := range 128 {
			d.skip[b] = st.first[b] == 0
		}
	}
	return d
}

// shapeDFA reads the shape of the automata of prog, a pattern's program.
func shapeDFA(prog *syntax.Prog) *dfaShape {
	sh := &dfaShape{prog: make([]dinst, len(prog.Inst)), start: uint32(prog.Start)}
	// the classes: the ASCII bytes split by kind, then by every rune
	// instruction's bytes
	classes := [][2]uint64{maskOf(func(b byte) bool { return kindOf(b) == kindNewline }),
		maskOf(func(b byte) bool { return kindOf(b) == kindWord }),
		maskOf(func(b byte) bool { return kindOf(b) == kindOther })}
	for pc := range prog.Inst {
		in := &prog.Inst[pc]
		d := &sh.prog[pc]
		d.out = in.Out
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			d.op, d.arg = dAlt, in.Arg
		case syntax.InstCapture, syntax.InstNop:
			d.op = dNop
		case syntax.InstEmptyWidth:
			d.op, d.arg = dEmpty, in.Arg
			sh.asserts = true
		case syntax.InstMatch:
			d.op = dMatch
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			m := asciiMask(in)
			k := slices.Index(sh.masks, m)
			if k < 0 {
				k = len(sh.masks)
				sh.masks = append(sh.masks, m)
				for i, c := range classes {
					in, out := [2]uint64{c[0] & m[0], c[1] & m[1]}, [2]uint64{c[0] &^ m[0], c[1] &^ m[1]}
					if in != [2]uint64{} && out != [2]uint64{} {
						classes[i] = in
						classes = append(classes, out)
					}
				}
			}
			d.op, d.arg = dRune, uint32(k)
		default:
			d.op = dFail
		}
	}
	sh.rep = make([]byte, len(classes)+1)
	for i, c := range classes {
		first := true
		for b := range 128 {
			if c[b>>6]&(1<<(b&63)) != 0 {
				sh.class[b] = uint8(i + 1)
				if first {
					sh.rep[i+1], first = byte(b), false
				}
			}
		}
	}
	sh.stride = len(sh.rep) + 1
	return sh
}

// maskOf returns the ASCII bytes for which in holds.
func maskOf(in func(b byte) bool) (m [2]uint64) {
	for b := range 128 {
		if in(byte(b)) {
			m[b>>6] |= 1 << (b & 63)
		}
	}
	return m
}

// match reports whether s holds a match; sure is false when the automaton
// gave up (a non-ASCII byte, too many states) or d is nil (the program
// did not compile), and then match is false.
func (d *dfa) match(s string) (match, sure bool) {
	if d == nil {
		return false, false
	}
	table, matched := *d.table.Load(), int32(matchedState*d.stride)
	row := int32(startState * d.stride) // the row of the state
	skip, lastIdle, class := d.skip, d.lastIdle, &d.class
	if skip == nil {
		lastIdle = -1
	}
	for i := 0; i < len(s); i++ {
		if row <= lastIdle && skip[s[i]] {
			// no match starts here: idle after the last byte passed
			j := i + 1
			for j < len(s) && skip[s[j]] {
				j++
			}
			if row, i = d.idle[kindOf(s[j-1])], j; i == len(s) {
				break
			}
		}
		c := class[s[i]]
		nx := int32(noState)
		if k := uint(row) + uint(c); k < uint(len(table)) {
			nx = atomic.LoadInt32(&table[k])
		}
		if nx <= matched {
			if nx == noState {
				if nx, table = d.step(row, c); nx == noState {
					return false, false
				}
			}
			if nx == matched {
				return true, true
			}
		}
		row = nx
	}
	if k := int(row) + d.endCol(); k < len(table) {
		switch atomic.LoadInt32(&table[k]) {
		case matchedState:
			return true, true
		case endNone:
			return false, true
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st := &d.states[int(row)/d.stride]
	_, ok := d.closure(st, syntax.EmptyOpContext(kindRune[st.prev], -1))
	answer := int32(endNone)
	if ok {
		answer = matchedState
	}
	atomic.StoreInt32(&(*d.table.Load())[int(row)+d.endCol()], answer)
	return ok, true
}

// step makes the transition on class c of the state whose row starts at
// row and returns it (noState when the automaton gives up) and the table
// as it is now.
func (d *dfa) step(row int32, c uint8) (int32, []int32) {
	if c == 0 {
		return noState, *d.table.Load()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	k := int(row) + int(c)
	if nx := atomic.LoadInt32(&(*d.table.Load())[k]); nx != noState {
		return nx, *d.table.Load() // made by another goroutine meanwhile
	}
	b := d.rep[c]
	from := &d.states[int(row)/d.stride]
	nx := int32(matchedState * d.stride)
	// the state's closure, its part and the start's, their
	// instructions that match b: an out both give is once in the state
	// (Compact)
	if sc, matched := d.closure(from, syntax.EmptyOpContext(kindRune[from.prev], rune(b))); !matched {
		next := d.stack[:0]
		bit, w := uint64(1)<<(b&63), b>>6
		for _, pc := range sc.set {
			if in := &d.prog[pc]; d.masks[in.arg][w]&bit != 0 {
				next = append(next, in.out)
			}
		}
		for _, pc := range d.set {
			if in := &d.prog[pc]; d.masks[in.arg][w]&bit != 0 {
				next = append(next, in.out)
			}
		}
		slices.Sort(next)
		next = slices.Compact(next)
		d.stack = next[:0]
		id := d.state(next, kindOf(b))
		if id == noState {
			return noState, *d.table.Load()
		}
		nx = id * int32(d.stride)
	}
	table := *d.table.Load() // grown by state, maybe
	atomic.StoreInt32(&table[k], nx)
	return nx, table
}

// closure sets d.set to the rune instructions reached from st's without
// reading a byte, where the assertions flags hold, and returns the
// closure of the program's start there (startClosure), which the search
// adds at every position, and whether either reaches the match
// instruction. The state's closure is both sets: an instruction both
// reach may be in both. The caller holds d.mu.
func (d *dfa) closure(st *dstate, flags syntax.EmptyOp) (*reached, bool) {
	sc := d.startClosure(flags)
	d.next()
	d.set = d.set[:0]
	matched := d.walk(st.pcs, flags) || sc.matched
	return sc, matched
}

// startClosure returns the closure of the program's start where the
// assertions flags hold, walked on the first call for flags.
func (d *dfa) startClosure(flags syntax.EmptyOp) *reached {
	for i := range d.starts {
		if d.starts[i].flags == flags {
			return &d.starts[i]
		}
	}
	d.next()
	d.set = d.set[:0]
	matched := d.walk([]uint32{d.start}, flags)
	d.starts = append(d.starts, reached{flags: flags, set: slices.Clone(d.set), matched: matched})
	return &d.starts[len(d.starts)-1]
}

// next starts a walk: marks of the walks before it are forgotten.
func (d *dfa) next() {
	d.gen++
	if d.gen == 0 { // wrapped: forget every mark
		clear(d.seen)
		d.gen = 1
	}
}

// walk appends to d.set the rune instructions reached from pcs, where the
// assertions flags hold, passing the instructions marked in this walk
// (next) once, and reports whether the match instruction is reached.
func (d *dfa) walk(pcs []uint32, flags syntax.EmptyOp) bool {
	stack := append(d.stack[:0], pcs...)
	matched := false
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.seen[pc] == d.gen {
			continue
		}
		d.seen[pc] = d.gen
		in := &d.prog[pc]
		switch in.op {
		case dAlt:
			stack = append(stack, in.arg, in.out)
		case dNop:
			stack = append(stack, in.out)
		case dEmpty:
			if syntax.EmptyOp(in.arg)&^flags == 0 {
				stack = append(stack, in.out)
			}
		case dMatch:
			matched = true
		case dRune:
			d.set = append(d.set, pc)
		}
	}
	d.stack = stack[:0]
	return matched
}

// hashState returns the hash of a state's pcs and prev, FNV-1a's over
// their words.
func hashState(pcs []uint32, prev uint8) uint64 {
	const prime = 1099511628211
	h := (14695981039346656037 ^ uint64(prev)) * prime
	for _, pc := range pcs {
		h = (h ^ uint64(pc)) * prime
	}
	return h ^ h>>29
}

// state returns the number of the state of pcs (sorted, unique) after a
// byte of kind prev, made when new (its row of the table too), or noState
// when the automaton has too many. The caller holds d.mu, or is newDFA.
func (d *dfa) state(pcs []uint32, prev uint8) int32 {
	if !d.asserts {
		prev = kindStart // no assertion reads it
	}
	h := hashState(pcs, prev)
	mask := uint64(len(d.slots) - 1)
	i := h & mask
	for ; d.slots[i] != 0; i = (i + 1) & mask {
		if st := &d.states[d.slots[i]]; st.hash == h && st.prev == prev && slices.Equal(st.pcs, pcs) {
			return d.slots[i]
		}
	}
	if len(d.states)-startState >= maxDFAStates {
		return noState
	}
	id := int32(len(d.states))
	from := len(d.pcs)
	d.pcs = append(d.pcs, pcs...)
	d.states = append(d.states, dstate{pcs: d.pcs[from:len(d.pcs):len(d.pcs)], prev: prev, hash: h})
	d.slots[i] = id
	if 2*(len(d.states)-startState) > len(d.slots) {
		d.slots = make([]int32, 2*len(d.slots))
		mask = uint64(len(d.slots) - 1)
		for id := startState; id < len(d.states); id++ {
			i := d.states[id].hash & mask
			for d.slots[i] != 0 {
				i = (i + 1) & mask
			}
			d.slots[i] = int32(id)
		}
	}
	if table := *d.table.Load(); len(table) < len(d.states)*d.stride {
		grown := make([]int32, 2*len(table))
		copy(grown, table) // only a goroutine that holds d.mu writes table
		d.table.Store(&grown)
	}
	return id
}
