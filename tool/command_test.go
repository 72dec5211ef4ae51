package tool

import (
	"fmt"
	"sync"
	"testing"
)

func TestCallScript(t *testing.T) {
	for _, n := range []int{3, 40} {
		c := &Call{}
		for i := range n {
			c.AddScript(Script{Text: fmt.Sprint("echo ", i)})
			for j := 0; j <= i; j++ { // looked up while the list grows
				if s, ok := c.Script(fmt.Sprint("echo ", j)); !ok || s != &c.Scripts[j] {
					t.Fatalf("n=%d: script %d after %d added: %v %v", n, j, i+1, s, ok)
				}
			}
		}
		if _, ok := c.Script("echo x"); ok {
			t.Errorf("n=%d: found a script never recorded", n)
		}
		c.Scripts = append(c.Scripts, Script{Text: "direct"}) // not through AddScript
		if s, ok := c.Script("direct"); !ok || s.Text != "direct" {
			t.Errorf("n=%d: a script appended directly: %v %v", n, s, ok)
		}
		c.Scripts = []Script{{Text: "b"}, {Text: "a"}} // replaced: the index is stale
		c.Scripts = append(c.Scripts, make([]Script, 30)...)
		if s, ok := c.Script("a"); !ok || s != &c.Scripts[1] {
			t.Errorf("n=%d: stale index: %v %v", n, s, ok)
		}
	}
}

// TestCallScriptOnlyReads: readers may look scripts up at once.
func TestCallScriptOnlyReads(t *testing.T) {
	c := &Call{}
	for i := range 40 {
		c.AddScript(Script{Text: fmt.Sprint("echo ", i)})
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 40 {
				if _, ok := c.Script(fmt.Sprint("echo ", (i+g)%40)); !ok {
					t.Errorf("script %d not found", i)
				}
			}
			c.Script("missing")
		})
	}
	wg.Wait()
}

// TestCallSQLText: the SQL facts are found by their text, recorded once
// per text, through the list or past indexMin through the index.
func TestCallSQLText(t *testing.T) {
	for _, n := range []int{3, 40} {
		c := &Call{}
		for i := range n {
			c.AddSQLText(SQLText{Text: fmt.Sprint("SELECT ", i)})
			c.AddSQLText(SQLText{Text: fmt.Sprint("SELECT ", i), PersonalData: "again"}) // the first fact stays
			for j := 0; j <= i; j++ {
				if f, ok := c.SQLText(fmt.Sprint("SELECT ", j)); !ok || f != &c.SQLTexts[j] || f.PersonalData != "" {
					t.Fatalf("n=%d: text %d after %d added: %v %v", n, j, i+1, f, ok)
				}
			}
		}
		if len(c.SQLTexts) != n {
			t.Errorf("n=%d: %d facts recorded", n, len(c.SQLTexts))
		}
		if _, ok := c.SQLText("SELECT x"); ok {
			t.Errorf("n=%d: found a text never recorded", n)
		}
	}
}
