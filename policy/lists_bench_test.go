package policy

import (
	"fmt"
	"testing"
)

// BenchmarkListsUnchanged is what a decision pays to see that a compiled
// policy's 500 rules were not changed since Compile.
func BenchmarkListsUnchanged(b *testing.B) {
	p := Default()
	for i := range 500 {
		r, err := ParseRule(fmt.Sprintf("Bash(tool%d:*)", i))
		if err != nil {
			b.Fatal(err)
		}
		e := Entry{Rule: r, Origin: fmt.Sprintf("p.yaml:%d:3", i+1)}
		switch i % 3 {
		case 0:
			p.Deny = append(p.Deny, e)
		case 1:
			p.Ask = append(p.Ask, e)
		default:
			p.Allow = append(p.Allow, e)
		}
	}
	p.Compile()
	b.ReportAllocs()
	for b.Loop() {
		if p.lists() != p.idx {
			b.Fatal("the index was prepared anew")
		}
	}
}
