package tool

import (
	"fmt"
	"testing"
)

func TestCallScript(t *testing.T) {
	for _, n := range []int{3, 40} {
		c := &Call{}
		for i := range n {
			c.Scripts = append(c.Scripts, Script{Text: fmt.Sprint("echo ", i)})
			for j := 0; j <= i; j++ { // looked up while the list grows
				if s, ok := c.Script(fmt.Sprint("echo ", j)); !ok || s != &c.Scripts[j] {
					t.Fatalf("n=%d: script %d after %d added: %v %v", n, j, i+1, s, ok)
				}
			}
		}
		if _, ok := c.Script("echo x"); ok {
			t.Errorf("n=%d: found a script never recorded", n)
		}
		c.Scripts = []Script{{Text: "b"}, {Text: "a"}} // replaced: the index is stale
		c.Scripts = append(c.Scripts, make([]Script, 30)...)
		if s, ok := c.Script("a"); !ok || s != &c.Scripts[1] {
			t.Errorf("n=%d: stale index: %v %v", n, s, ok)
		}
	}
}
