package secrets

import "bytes"

// privateKeyPattern is the pattern of the built-in private_key rule (in
// rules.yaml). A rule with exactly this pattern finds its matches with
// findKeyBlocks, not with the regexp, which spends hundreds of
// instructions on every byte of a key's body.
const privateKeyPattern = `-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\\r|\\n|\r|\n|\s)+(?P<s>(?:[A-Za-z0-9+/=:,\-]|\\r|\\n|\r|\n|[ \t])+?)(?:\\r|\\n|\r|\n|\s)*-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`

// findKeyBlocks returns what regexp.MustCompile(privateKeyPattern)
// .FindAllSubmatchIndex(text, n) returns: the leftmost-first matches,
// at most n of them (n < 0: all), each as [start, end, start of s, end
// of s]. Its cost is linear in len(text), whatever the text holds.
//
// How the pattern matches, given that its pieces tokenise the text the
// same way from a given position (a separator or body token is `\r` or
// `\n` written as two bytes, or one byte):
//   - a match starts at a BEGIN marker, whose end h is unique: its name
//     holds no '-';
//   - the separators after it run greedily to their end a; the body then
//     starts at a and ends, lazily, at the first body token boundary e
//     after a whose separators (always taken to their end, as an END
//     marker starts with '-') are followed by an END marker;
//   - failing that, fewer separators: the body is the last separator
//     token after the first that is also a body token (not \f), and the
//     END marker must start at a.
func findKeyBlocks(text []byte, n int) [][]int {
	var ms [][]int
	// a body run [failFrom, failTo) read to its end without finding a
	// block end: a later BEGIN marker inside it lies on its tokens, so a
	// body after that marker that starts inside the run reads the same
	// tokens to the same end, and fails too (this keeps a text of many
	// BEGIN lines linear)
	failFrom, failTo := -1, -1
	for pos := 0; n < 0 || len(ms) < n; {
		i := bytes.Index(text[pos:], beginMarker)
		if i < 0 {
			read(len(text) - pos)
			break
		}
		read(i + len(beginMarker))
		p := pos + i
		h := markerEnd(text, p, beginMarker)
		if h < 0 {
			pos = p + 1
			continue
		}
		// the separators: the last token after the first that may be
		// the body, and their end a
		lastStart, lastEnd, a := -1, -1, h
		for w := sepLen(text, a); w > 0; w = sepLen(text, a) {
			read(w)
			if a > h && text[a] != '\f' {
				lastStart, lastEnd = a, a+w
			}
			a += w
		}
		if a == h {
			pos = p + 1
			continue
		}
		var m []int
		if !(failFrom <= p && a < failTo) {
			var e int
			if m, e = bodyFrom(text, p, a); m == nil {
				failFrom, failTo = a, e
			}
		}
		if m == nil && lastStart >= 0 {
			if end := markerEnd(text, a, endMarker); end >= 0 {
				m = []int{p, end, lastStart, lastEnd}
			}
		}
		if m == nil {
			pos = p + 1
			continue
		}
		ms = append(ms, m)
		pos = m[1]
	}
	return ms
}

// reads, when a test sets it, counts the bytes findKeyBlocks reads, so
// that the test of its linear cost counts work instead of timing it.
// Tests that set it do not run in parallel with other callers.
var reads *int

// read adds n to *reads, if set.
func read(n int) {
	if reads != nil {
		*reads += n
	}
}

var (
	beginMarker = []byte("-----BEGIN ")
	endMarker   = []byte("-----END ")
	dashes      = []byte("-----")
)

// bodyFrom returns the match whose BEGIN marker starts at p and whose
// body starts at b, or nil and where the body tokens from b end.
func bodyFrom(text []byte, p, b int) (m []int, e int) {
	// the end of the separators from the last boundary read, and of the
	// END marker there (-1: none); a boundary up to sepEnd lies on the
	// same separators, so shares them
	sepEnd, end := -1, -1
	e = b
	for w := bodyLen(text, e); w > 0; w = bodyLen(text, e) {
		read(w)
		e += w
		if e > sepEnd {
			for sepEnd = e; ; {
				w := sepLen(text, sepEnd)
				if w == 0 {
					break
				}
				read(w)
				sepEnd += w
			}
			end = -1
			if sepEnd < len(text) && text[sepEnd] == '-' { // most boundaries: not a marker's start
				end = markerEnd(text, sepEnd, endMarker)
			}
		}
		if end >= 0 {
			return []int{p, end, b, e}, e
		}
	}
	return nil, e
}

// markerEnd returns the end of the marker `-----BEGIN name-----` (or
// END, as kind says) at text[i:], or -1 if there is none: name is
// (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?.
func markerEnd(text []byte, i int, kind []byte) int {
	if !bytes.HasPrefix(text[i:], kind) {
		return -1
	}
	j := i + len(kind)
	k := j
	for k < len(text) && ('A' <= text[k] && text[k] <= 'Z' || '0' <= text[k] && text[k] <= '9' || text[k] == ' ') {
		k++
	}
	read(k - i)
	if !bytes.HasPrefix(text[k:], dashes) {
		return -1
	}
	if name := text[j:k]; !wordsThen(name, "PRIVATE KEY") && !wordsThen(name, "PRIVATE KEY BLOCK") {
		return -1
	}
	return k + len(dashes)
}

// wordsThen reports whether name, of [A-Z0-9 ], is (?:[A-Z0-9]+ )*
// followed by last.
func wordsThen(name []byte, last string) bool {
	if !bytes.HasSuffix(name, []byte(last)) {
		return false
	}
	w := name[:len(name)-len(last)]
	return len(w) == 0 || w[0] != ' ' && w[len(w)-1] == ' ' && !bytes.Contains(w, []byte("  "))
}

// sepLen returns the length of the separator token at text[i:]
// (\\r|\\n|\r|\n|\s), or 0.
func sepLen(text []byte, i int) int {
	if i >= len(text) {
		return 0
	}
	switch text[i] {
	case ' ', '\t', '\n', '\f', '\r':
		return 1
	}
	return escLen(text, i)
}

// bodyLen returns the length of the body token at text[i:]
// ([A-Za-z0-9+/=:,\-]|\\r|\\n|\r|\n|[ \t]), or 0.
func bodyLen(text []byte, i int) int {
	if i >= len(text) {
		return 0
	}
	if bodyByte[text[i]] {
		return 1
	}
	return escLen(text, i)
}

// bodyByte marks the one-byte body tokens: [A-Za-z0-9+/=:,\-\r\n \t].
var bodyByte = func() (t [256]bool) {
	for c := range t {
		t[c] = isAlnum(byte(c))
	}
	for _, c := range []byte("+/=:,-\r\n \t") {
		t[c] = true
	}
	return
}()

// escLen returns 2 at a `\r` or `\n` written as two bytes, else 0.
func escLen(text []byte, i int) int {
	if text[i] == '\\' && i+1 < len(text) && (text[i+1] == 'r' || text[i+1] == 'n') {
		return 2
	}
	return 0
}
