package secrets

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

func BenchmarkCkRules(b *testing.B) {
	f, _ := os.Open("/tmp/ck/findin.txt")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	d := Default()
	byID := map[string]*Rule{}
	for _, r := range d.rules {
		byID[r.ID] = r
	}
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 3)
		r := byID[parts[1]]
		w, err := strconv.Unquote(parts[2])
		if err != nil {
			b.Fatal(err)
		}
		text := []byte(w)
		p := r.compiled()
		b.Run(parts[1], func(b *testing.B) {
			for b.Loop() {
				r.findIn(p, text, 0, len(text), nil)
			}
		})
	}
}
