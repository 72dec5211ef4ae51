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
// a lock).
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
	prog    *syntax.Prog
	class   [256]uint8  // byte → its class; 0 for the bytes ≥ 0x80, which give up
	rep     []byte      // class → a byte of it
	masks   [][2]uint64 // pc → the ASCII bytes a rune instruction matches
	asserts bool        // the program has empty-width assertions: states note the byte before
	start   *dstate     // at the text's start
	matched *dstate     // reached once a match ends: the answer is true

	mu     sync.Mutex         // guards states and the scratch below
	states map[string]*dstate // by key (see key)
	seen   []uint32           // pc → the closure it was last reached in
	gen    uint32
	stack  []uint32
	set    []uint32
}

// maxDFAStates bounds the states an automaton makes, about 0.5 KB each.
const maxDFAStates = 1024

// dstate is a state of a dfa.
type dstate struct {
	pcs  []uint32 // the instructions that wait for the next byte, sorted
	prev uint8    // the kind of the byte before (kindOf), when the program asserts
	next []atomic.Pointer[dstate]
	end  atomic.Int32 // at the text's end: 0 not known yet, 1 no match, 2 a match
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

// newDFA returns the automaton of prog, a pattern's program.
func newDFA(prog *syntax.Prog) *dfa {
	d := &dfa{prog: prog, masks: make([][2]uint64, len(prog.Inst)), states: map[string]*dstate{},
		seen: make([]uint32, len(prog.Inst))}
	// the classes: the ASCII bytes split by kind, then by every rune
	// instruction's bytes
	classes := [][2]uint64{maskOf(func(b byte) bool { return kindOf(b) == kindNewline }),
		maskOf(func(b byte) bool { return kindOf(b) == kindWord }),
		maskOf(func(b byte) bool { return kindOf(b) == kindOther })}
	for pc := range prog.Inst {
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			m := asciiMask(in)
			d.masks[pc] = m
			for i, c := range classes {
				in, out := [2]uint64{c[0] & m[0], c[1] & m[1]}, [2]uint64{c[0] &^ m[0], c[1] &^ m[1]}
				if in != [2]uint64{} && out != [2]uint64{} {
					classes[i] = in
					classes = append(classes, out)
				}
			}
		case syntax.InstEmptyWidth:
			d.asserts = true
		}
	}
	d.rep = make([]byte, len(classes)+1)
	for i, c := range classes {
		first := true
		for b := range 128 {
			if c[b>>6]&(1<<(b&63)) != 0 {
				d.class[b] = uint8(i + 1)
				if first {
					d.rep[i+1], first = byte(b), false
				}
			}
		}
	}
	d.matched = &dstate{}
	d.start = d.state(nil, kindStart)
	return d
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
	st := d.start
	for i := 0; i < len(s); i++ {
		c := d.class[s[i]]
		nx := st.next[c].Load()
		if nx == nil {
			if nx = d.step(st, c); nx == nil {
				return false, false
			}
		}
		if nx == d.matched {
			return true, true
		}
		st = nx
	}
	switch st.end.Load() {
	case 1:
		return false, true
	case 2:
		return true, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	ok := d.closure(st, syntax.EmptyOpContext(kindRune[st.prev], -1))
	if ok {
		st.end.Store(2)
	} else {
		st.end.Store(1)
	}
	return ok, true
}

// step makes the transition of st on class c, or returns nil when the
// automaton gives up.
func (d *dfa) step(st *dstate, c uint8) *dstate {
	if c == 0 {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if nx := st.next[c].Load(); nx != nil {
		return nx // made by another goroutine meanwhile
	}
	b := d.rep[c]
	var nx *dstate
	if d.closure(st, syntax.EmptyOpContext(kindRune[st.prev], rune(b))) {
		nx = d.matched
	} else {
		next := d.stack[:0]
		for _, pc := range d.set {
			if d.masks[pc][b>>6]&(1<<(b&63)) != 0 {
				next = append(next, d.prog.Inst[pc].Out)
			}
		}
		slices.Sort(next)
		next = slices.Compact(next)
		d.stack = next[:0]
		if nx = d.state(next, kindOf(b)); nx == nil {
			return nil
		}
	}
	st.next[c].Store(nx)
	return nx
}

// closure sets d.set to the rune instructions reached from st's and the
// program's start without reading a byte, where the assertions flags hold,
// and reports whether the match instruction is reached. The caller holds
// d.mu.
func (d *dfa) closure(st *dstate, flags syntax.EmptyOp) bool {
	d.gen++
	if d.gen == 0 { // wrapped: forget every mark
		clear(d.seen)
		d.gen = 1
	}
	d.set = d.set[:0]
	stack := append(d.stack[:0], st.pcs...)
	stack = append(stack, uint32(d.prog.Start))
	matched := false
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.seen[pc] == d.gen {
			continue
		}
		d.seen[pc] = d.gen
		in := &d.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Arg, in.Out)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^flags == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			d.set = append(d.set, pc)
		}
	}
	d.stack = stack[:0]
	return matched
}

// state returns the state of pcs (sorted, unique) after a byte of kind
// prev, made when new, or nil when the automaton has too many. The caller
// holds d.mu, or is newDFA.
func (d *dfa) state(pcs []uint32, prev uint8) *dstate {
	if !d.asserts {
		prev = kindStart // no assertion reads it
	}
	key := make([]byte, 0, 1+4*len(pcs))
	key = append(key, prev)
	for _, pc := range pcs {
		key = append(key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if st, ok := d.states[string(key)]; ok {
		return st
	}
	if len(d.states) >= maxDFAStates {
		return nil
	}
	st := &dstate{pcs: slices.Clone(pcs), prev: prev, next: make([]atomic.Pointer[dstate], len(d.rep))}
	d.states[string(key)] = st
	return st
}
