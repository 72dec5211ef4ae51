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
		// & first: one byte, the cheaper search, and the rarer
		if strings.IndexByte(s, '&') >= 0 && strings.Contains(s, "do") && endlessLoopSpawns(s) {
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
// included) holds a lone & that ends a command, within eachLoop's bounds
// (maxSpawnBody bytes of a body).
func endlessLoopSpawns(s string) bool {
	return eachLoop(s, true, maxSpawnBody, backgrounds)
}

// eachLoop calls f with the bodies of the loops without an end of the
// script s (endlessHeads; and the for loops of many rounds too when
// manyFors is set) until f reports true, and reports whether it did. It
// reads at most maxHeads loops, at most limit bytes of each body, and at
// most maxHeads words for, each up to maxForHead bytes: a script of
// thousands of loops costs what its first ones cost (reading every loop,
// or every for, to its end was quadratic: 45 s, then 7 s, for 240 KB).
func eachLoop(s string, manyFors bool, limit int, f func(body string) bool) bool {
	heads, fors := 0, 0
	for i := 0; i < len(s) && heads < maxHeads; {
		k := indexHead(s, i)
		if k < 0 {
			return false
		}
		i = k + 1
		j := endlessHeadAt(s, k)
		if j < 0 && manyFors && fors < maxHeads && isWordAt(s, k, "for") {
			// for … do: a loop of many rounds, its head read up to do
			fors++
			d := k + 3
			for lim := min(len(s), k+maxForHead); d < lim && !isWordAt(s, d, "do"); d++ {
			}
			if d < len(s) && isWordAt(s, d, "do") && manyRounds(s[k+3:d]) {
				j = d
			}
		}
		if j < 0 {
			continue
		}
		heads++
		if body, ok := loopBody(s[:min(len(s), j+limit)], j); ok && f(body) {
			return true
		}
	}
	return false
}

// indexHead returns the first position at or after i of a byte a loop
// head starts with (w, u or f: strings.IndexAny(s[i:], "wuf") + i), or
// -1: a loop, as IndexAny builds its set of bytes at every call.
func indexHead(s string, i int) int {
	for ; i < len(s); i++ {
		if b := s[i]; b == 'w' || b == 'u' || b == 'f' {
			return i
		}
	}
	return -1
}

// maxSpawnBody bounds the bytes of a loop's body endlessLoopSpawns reads,
// maxForHead those of a for loop's head.
const (
	maxSpawnBody = 64 << 10
	maxForHead   = 512
)

// manyRoundsN is the number of rounds from which a loop that starts a
// background job on each is judged as one without end: the jobs pile up
// faster than any of them ends.
const manyRoundsN = 1000

// manyRounds reports whether the head of a for loop (the text between
// for and do) counts to manyRoundsN or more: in $(seq [A [S]] N), in
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
		if j := strings.IndexByte(cond, '<'); j >= 0 {
			to := strings.TrimPrefix(cond[j+1:], "=")
			return count(from, to)
		}
	}
	return false
}

// endlessHeads are the loop heads that never end by themselves.
var endlessHeads = []string{"while true", "while :", "while [ 1 ]", "while ((1))", "while (( 1 ))", "until false", "for ((;;))", "for (( ; ; ))"}

// endlessHeadAt returns the index just after the endless loop head
// (endlessHeads) that starts a word at s[k:], or -1.
func endlessHeadAt(s string, k int) int {
	if k > 0 && strings.IndexByte(" \t\n;&|({", s[k-1]) < 0 {
		return -1
	}
	for _, h := range endlessHeads {
		if end := k + len(h); strings.HasPrefix(s[k:], h) && (end == len(s) || strings.IndexByte(" \t\n;", s[end]) >= 0) {
			return end
		}
	}
	return -1
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
		if s[k] != 'd' {
			n := strings.IndexByte(s[k:], 'd') // do and done start with d
			if n < 0 {
				break
			}
			k += n
		}
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

// growthLoop reports a loop without an end (and without a pause, a
// break or an exit in it) whose body grows something on every turn: a
// shell loop that appends to a file (>>), makes directories or copies
// and allocates files; a Python or JavaScript loop that appends to a
// list, concatenates, or writes. It runs until the memory or the disk is
// full.
func growthLoop(c *tool.Call) bool {
	shellGrows := func(body string) bool { return !stops(body, shellStops) && grows(body, shellGrowth) }
	for _, s := range c.Shell {
		if len(s) > maxLoopScan {
			s = s[:maxLoopScan]
		}
		if !mayLoopForever(s) {
			continue
		}
		if strings.Contains(s, "do") && grows(s, shellGrowth) && eachLoop(s, false, maxBody, shellGrows) {
			return true
		}
		// programs inline in the script (python3 -c, node -e) are read
		// where they stand: their loop heads are no shell's
		if grows(s, pyGrowth) && pyGrowthLoop(s) || grows(s, jsGrowth) && jsGrowthLoop(s) {
			return true
		}
	}
	for _, code := range c.Code {
		s := code.Text
		if len(s) > maxLoopScan {
			s = s[:maxLoopScan]
		}
		if !mayLoopForever(s) {
			continue
		}
		switch code.Lang {
		case "python":
			if pyGrowthLoop(s) {
				return true
			}
		case "javascript", "js", "node", "typescript":
			if jsGrowthLoop(s) {
				return true
			}
		}
	}
	return false
}

// mayLoopForever reports whether s holds a word every loop head without
// an end holds (while, until, or the empty condition of a C-style for):
// most texts hold none, and are not searched for each head.
func mayLoopForever(s string) bool {
	return strings.Contains(s, "while") || strings.Contains(s, "until") || strings.Contains(s, ";;") || strings.Contains(s, "; ;")
}

// pyGrowthLoop reports a Python loop without end that grows (see
// growthLoop) in s.
func pyGrowthLoop(s string) bool { return loopsGrow(s, pyHeads, pyBody, pyStops, pyGrowth) }

// jsGrowthLoop reports a JavaScript loop without end that grows (see
// growthLoop) in s.
func jsGrowthLoop(s string) bool {
	return loopsGrow(s, jsHeads, func(s string, _, j int) string { return jsBody(s, j) }, jsStops, jsGrowth)
}

// loopsGrow reports whether one of the first maxHeads loops of s that
// start with one of heads has a body (body(s, start, end of head)) that
// holds one of growth and none of stopWords.
func loopsGrow(s string, heads []string, body func(s string, k, j int) string, stopWords, growth []string) bool {
	n := 0
	for _, h := range heads {
		for i := 0; ; {
			k := strings.Index(s[i:], h)
			if k < 0 {
				break
			}
			k += i
			i = k + len(h)
			if n++; n > maxHeads {
				return false
			}
			if b := body(s, k, i); !stops(b, stopWords) && grows(b, growth) {
				return true
			}
		}
	}
	return false
}

// The heads of Python's and JavaScript's loops without an end. Each
// holds one of res.growth_loop's keywords (while, until, ;;), which gate
// growthLoop: TestGrowthLoopGate.
var (
	pyHeads = []string{"while True:", "while 1:", "while(True):"}
	jsHeads = []string{"while(true)", "while (true)", "for(;;)", "for (;;)", "while(1)", "while (1)"}
)

// What ends or slows a loop, and what grows, in each language (plain
// substrings of the body).
var (
	shellStops  = []string{"sleep", "break", "exit", "return", "read ", "wait", "timeout"}
	shellGrowth = []string{">>", "mkdir", "fallocate", "dd ", "cp ", "touch "}
	pyStops     = []string{"break", "return", "sleep", "exit", "raise", "input("}
	pyGrowth    = []string{".append(", ".extend(", "+=", ".write(", "makedirs(", "mkdir(", ".insert("}
	jsStops     = []string{"break", "return", "setTimeout", "await", "throw", "exit"}
	jsGrowth    = []string{".push(", "+=", ".concat(", "appendFile", "writeFile", "mkdirSync", ".unshift("}
)

func stops(body string, words []string) bool {
	for _, w := range words {
		if strings.Contains(body, w) {
			return true
		}
	}
	return false
}

func grows(body string, ops []string) bool { return stops(body, ops) }

// maxHeads bounds the loop heads of one text whose bodies are read, and
// maxBody the bytes of a body: a text of thousands of loops costs what
// its first ones cost.
const (
	maxHeads = 64
	maxBody  = 4 << 10
)

// pyBody returns the body of the Python loop whose head starts at k and
// ends at j: the rest of its line, or the lines after it indented deeper
// than the head's line.
func pyBody(s string, k, j int) string {
	if len(s) > j+maxBody {
		s = s[:j+maxBody]
	}
	if e := strings.IndexByte(s[j:], '\n'); e < 0 || strings.TrimSpace(s[j:j+e]) != "" {
		if e < 0 {
			return s[j:]
		}
		return s[j : j+e] // while True: x.append(1)
	}
	lineStart := strings.LastIndexByte(s[:k], '\n') + 1
	indent := k - lineStart
	start := j + strings.IndexByte(s[j:], '\n') + 1
	end := start
	for end < len(s) {
		e := strings.IndexByte(s[end:], '\n')
		line := s[end:]
		if e >= 0 {
			line = s[end : end+e]
		}
		if t := strings.TrimLeft(line, " \t"); t != "" && len(line)-len(t) <= indent {
			break
		}
		if e < 0 {
			end = len(s)
			break
		}
		end += e + 1
	}
	return s[start:end]
}

// jsBody returns the body of the JavaScript loop whose head ends at j: a
// block in braces (counted), or one statement up to ; or the end.
func jsBody(s string, j int) string {
	if len(s) > j+maxBody {
		s = s[:j+maxBody]
	}
	t := strings.TrimLeft(s[j:], " \t\n")
	j = len(s) - len(t)
	if t == "" {
		return ""
	}
	if t[0] != '{' {
		if e := strings.IndexAny(t, ";\n"); e >= 0 {
			return t[:e]
		}
		return t
	}
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return t[1:i]
			}
		}
	}
	return t[1:]
}
