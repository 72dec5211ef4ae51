package shell

import (
	"index/suffixarray"
	"strings"
	"unsafe"

	"github.com/agentwarden/warden/tool"
)

// text answers whether a string stands in a script as written, at a cost
// that does not grow with the script for every question: the script's
// words (split on blanks and the characters that end a shell word
// unquoted) are put in a set the first time a question is asked, and
// what is not among them is looked up in a suffix array built once, in
// time and memory linear in the script. A short script is searched
// instead.
type text struct {
	script string
	words  map[string]bool
	sa     *suffixarray.Index
	failed bool // the budget ran out building the index
}

// shortText is the longest script searched at every question.
const shortText = 4 << 10

// textOf returns the text of script.
func textOf(script string) *text { return &text{script: script} }

// contains reports whether s stands in the script, as strings.Contains
// would, charging work for the index it builds and for each lookup. When
// the budget has run out it reports false (s is then taken as new, and
// the caller's next charge stops it).
func (t *text) contains(s string, work *tool.Budget) bool {
	if len(t.script) <= shortText {
		return work.Charge(len(t.script)/16, "shell lines") && (within(s, t.script) || strings.Contains(t.script, s))
	}
	if t.words == nil {
		t.words = map[string]bool{}
		if !work.Charge(8*len(t.script), "shell lines") {
			t.failed = true
			return false
		}
		for f := range strings.FieldsFuncSeq(t.script, func(r rune) bool { return strings.ContainsRune(" \t\n;&|()<>", r) }) {
			t.words[f] = true
		}
	}
	if t.failed {
		return false
	}
	if s == "" || t.words[s] {
		return true
	}
	if t.sa == nil {
		if !work.Charge(32*len(t.script), "shell lines") {
			t.failed = true
			return false
		}
		t.sa = suffixarray.New([]byte(t.script))
	}
	if !work.Charge(64+len(s), "shell lines") {
		return false
	}
	return len(t.sa.Lookup([]byte(s), 1)) > 0
}

// within reports whether the bytes of s lie in those of in: s is then a
// substring of in without a search. Most words the resolver returns are
// slices of the script it read (a literal word is its text), which the
// preparer asks about (see novel).
func within(s, in string) bool {
	if len(s) == 0 || len(s) > len(in) {
		return false
	}
	p, from := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(in)))
	return p >= from && p-from <= uintptr(len(in)-len(s))
}
