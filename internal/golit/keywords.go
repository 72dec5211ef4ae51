package golit

import (
	"fmt"
	"strings"

	"github.com/agentwarden/warden/internal/keywords"
)

// KeywordTables returns t, a keyword automaton's tables, as a
// keywords.Tables literal: what a generated file holds so that a process
// builds no automaton for a fixed keyword set (keywords.FromTables). The
// transition tables go 24 numbers a line.
func KeywordTables(t keywords.Tables) string {
	var b strings.Builder
	fmt.Fprintf(&b, "keywords.Tables{\nClass: %#v,\nStride: %d,\nN: %d,\nWords: %d,\n", t.Class, t.Stride, t.N, t.Words)
	if t.T16 != nil {
		writeInts(&b, "T16", "uint16", t.T16)
	}
	if t.T32 != nil {
		writeInts(&b, "T32", "uint32", t.T32)
	}
	b.WriteString("Out: [][]int32{\n")
	for _, o := range t.Out {
		if o == nil {
			b.WriteString("nil,\n")
		} else {
			fmt.Fprintf(&b, "%#v,\n", o)
		}
	}
	b.WriteString("},\n}")
	return b.String()
}

// writeInts writes field: a slice literal of xs, 24 numbers a line.
func writeInts[T uint16 | uint32](b *strings.Builder, field, typ string, xs []T) {
	fmt.Fprintf(b, "%s: []%s{", field, typ)
	for i, x := range xs {
		if i%24 == 0 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%d,", x)
	}
	b.WriteString("\n},\n")
}
