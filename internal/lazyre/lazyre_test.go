package lazyre

import (
	"regexp"
	"sync"
	"testing"
)

func TestLazy(t *testing.T) {
	r := New(`^a+b$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("aab") || r.MatchString("ba") {
				t.Error("wrong match")
			}
		}()
	}
	wg.Wait()
	if r.String() != `^a+b$` || r.Get() != r.Get() {
		t.Error("compiled more than once, or source lost")
	}
	c := Compiled(regexp.MustCompile(`x`))
	if !c.Match([]byte("axb")) || c.String() != "x" {
		t.Error("Compiled")
	}
}

func TestInvalidPanicsOnUse(t *testing.T) {
	r := New(`(`) // no panic yet
	defer func() {
		if recover() == nil {
			t.Error("an invalid pattern did not panic on first use")
		}
	}()
	r.Get()
}
