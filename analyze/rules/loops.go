package rules

import (
	"strconv"
	"strings"

	"github.com/agentwarden/warden/tool"
)

// bgLoop reports a loop without an end whose body starts a background
// job on every turn (while true; do cmd & done): it spawns processes
// until the machine has none left, a fork bomb by another name. A loop
// that is itself put in the background (… done &) starts one job.
func bgLoop(c *tool.Call) bool {
	for _, s := range c.Shell {
		if len(s) > maxLoopScan {
			s = s[:maxLoopScan]
		}
		if strings.Contains(s, "do") && strings.Contains(s, "&") && endlessLoopSpawns(s) {
			return true
		}
	}
	return false
}

// maxLoopScan bounds the script text bgLoop reads.
const maxLoopScan = 256 << 10

// endlessLoopSpawns scans s for "while true|:|[ 1 ]|((1))", "until
// false" or "for ((;;))" followed by do … done, and for loops of many
// rounds (see manyRounds), and reports whether the body (nested loops
// included) holds a lone & that ends a command.
func endlessLoopSpawns(s string) bool {
	for i := 0; i < len(s); {
		j := nextEndless(s, i)
		if j < 0 {
			break
		}
		body, ok := loopBody(s, j)
		if ok && backgrounds(body) {
			return true
		}
		i = j
	}
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "for")
		if k < 0 {
			return false
		}
		k += i
		i = k + 3
		if !isWordAt(s, k, "for") {
			continue
		}
		d := k + 3
		for d < len(s) && !isWordAt(s, d, "do") {
			d++
		}
		if d >= len(s) || !manyRounds(s[k+3:d]) {
			continue
		}
		if body, ok := loopBody(s, d); ok && backgrounds(body) {
			return true
		}
	}
	return false
}

// manyRounds is the number of rounds from which a loop that starts a
// background job on each is judged as one without end: the jobs pile up
// faster than any of them ends.
const manyRoundsN = 1000

// manyRounds reports whether the head of a for loop (the text between
// for and do) counts to manyRounds or more: in $(seq [A [S]] N), in
// {A..N[..S]}, or ((i = A; i < N; …)).
func manyRounds(head string) bool {
	count := func(from, to string) bool {
		a, errA := strconv.Atoi(strings.TrimSpace(from))
		b, errB := strconv.Atoi(strings.TrimSpace(to))
		return errA == nil && errB == nil && b-a+1 >= manyRoundsN
	}
	if i := strings.Index(head, "$(seq "); i >= 0 {
		end := strings.IndexByte(head[i:], ')')
		if end < 0 {
			return false
		}
		f := strings.Fields(head[i+len("$(seq ") : i+end])
		switch len(f) {
		case 1:
			return count("1", f[0])
		case 2, 3:
			return count(f[0], f[len(f)-1])
		}
		return false
	}
	if i := strings.IndexByte(head, '{'); i >= 0 {
		end := strings.IndexByte(head[i:], '}')
		if end < 0 {
			return false
		}
		parts := strings.Split(head[i+1:i+end], "..")
		return len(parts) >= 2 && count(parts[0], parts[1])
	}
	if i := strings.Index(head, "(("); i >= 0 {
		f := strings.Split(head[i+2:], ";")
		if len(f) < 3 {
			return false
		}
		_, from, ok := strings.Cut(f[0], "=")
		if !ok {
			from = "0"
		}
		cond := f[1]
		if j := strings.IndexAny(cond, "<"); j >= 0 {
			to := strings.TrimPrefix(cond[j+1:], "=")
			return count(from, to)
		}
	}
	return false
}

// endlessHeads are the loop heads that never end by themselves.
var endlessHeads = []string{"while true", "while :", "while [ 1 ]", "while ((1))", "while (( 1 ))", "until false", "for ((;;))", "for (( ; ; ))"}

// nextEndless returns the index just after the next endless loop head at
// or after i that starts a word, or -1.
func nextEndless(s string, i int) int {
	best := -1
	for _, h := range endlessHeads {
		from := i
		for {
			k := strings.Index(s[from:], h)
			if k < 0 {
				break
			}
			k += from
			end := k + len(h)
			startsWord := k == 0 || strings.IndexByte(" \t\n;&|({", s[k-1]) >= 0
			endsWord := end == len(s) || strings.IndexByte(" \t\n;", s[end]) >= 0
			if startsWord && endsWord {
				if best < 0 || end < best {
					best = end
				}
				break
			}
			from = k + 1
		}
	}
	return best
}

// loopBody returns the text between the do that follows s[:j] and its
// matching done, counting the do … done pairs nested in it.
func loopBody(s string, j int) (string, bool) {
	d := wordAt(s, j, "do")
	if d < 0 {
		return "", false
	}
	depth, start := 1, d+2
	for k := start; k < len(s); k++ {
		switch {
		case isWordAt(s, k, "do"):
			depth++
		case isWordAt(s, k, "done"):
			depth--
			if depth == 0 {
				return s[start:k], true
			}
		}
	}
	return s[start:], true // no done: the loop runs what follows
}

// wordAt returns the index of the first word w at or after j, or -1;
// only blanks, ; and newlines may come before it.
func wordAt(s string, j int, w string) int {
	for k := j; k < len(s); k++ {
		switch s[k] {
		case ' ', '\t', '\n', ';':
			continue
		}
		if isWordAt(s, k, w) {
			return k
		}
		return -1
	}
	return -1
}

// isWordAt reports whether the word w stands at s[k:] as a shell word.
func isWordAt(s string, k int, w string) bool {
	if !strings.HasPrefix(s[k:], w) {
		return false
	}
	before := k == 0 || strings.IndexByte(" \t\n;&|(", s[k-1]) >= 0
	end := k + len(w)
	after := end == len(s) || strings.IndexByte(" \t\n;&|)", s[end]) >= 0
	return before && after
}

// backgrounds reports whether body puts a command in the background: a
// single & that is not part of &&, >&, &>, |& or a descriptor copy.
func backgrounds(body string) bool {
	for k := 0; k < len(body); k++ {
		if body[k] != '&' {
			continue
		}
		prev, next := byte(' '), byte(' ')
		if k > 0 {
			prev = body[k-1]
		}
		if k+1 < len(body) {
			next = body[k+1]
		}
		if next == '&' {
			k++ // &&
			continue
		}
		if prev == '>' || prev == '<' || prev == '|' || next == '>' || (next >= '0' && next <= '9') || next == '-' {
			continue
		}
		return true
	}
	return false
}
