package shell

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/tool"
)

// fieldsShells are the shells simpleFields is checked in: a fresh one,
// one whose variables hold blanks, empty values, other letters and a
// value computed at run time (D), and one whose IFS is not the default.
func fieldsShells() []*tool.Prior {
	vars := map[string]string{"X": "a b", "E": "", "S": "  lead \t trail ", "N": "x\ny\tz", "M": "ü ß\xff", "HOME": "/home/o w"}
	ifs := map[string]string{"X": "a:b c", "IFS": ":"}
	return []*tool.Prior{nil, {Vars: vars}, {Vars: ifs}}
}

// checkFields checks simpleFields against expandFields on every word of
// file, in each shell of priors, and returns how many words it took.
func checkFields(t *testing.T, file *syntax.File, priors []*tool.Prior) int {
	t.Helper()
	taken := 0
	for _, prior := range priors {
		r := newResolver(Options{Env: testEnv, Prior: prior})
		if prior != nil {
			if _, ok := prior.Vars["D"]; !ok {
				r.vars["D\x00dynamic"] = ""
			}
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			w, ok := n.(*syntax.Word)
			if !ok {
				return true
			}
			pre := []string{"pre"}
			got, ok, handled := r.simpleFields(pre, w)
			if !handled {
				return true
			}
			taken++
			want, wantOK := r.expandFields(w)
			if ok != wantOK || ok && !slices.Equal(got[1:], want) || !ok && !slices.Equal(got, pre) || got[0] != "pre" {
				t.Fatalf("word %q in %v: simpleFields gives %q (%v), expand.Fields %q (%v)", source(w), prior, got, ok, want, wantOK)
			}
			// appended to nothing: nil when there is no field, as expand.Fields gives
			if got, _, _ := r.simpleFields(nil, w); ok && (got == nil) != (want == nil) {
				t.Fatalf("word %q: simpleFields gives %#v, expand.Fields %#v", source(w), got, want)
			}
			return true
		})
		release(r)
	}
	return taken
}

// TestSimpleFields holds simpleFields to expand.Fields over the words of
// the corpora and over words generated from the pieces simpleFields
// knows and those it leaves to expand.Fields.
func TestSimpleFields(t *testing.T) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash))
	scripts := gateScripts(t)
	scripts = append(scripts, corpus.Strings(t, "../../testdata")...)
	taken := 0
	for _, s := range scripts {
		file, err := parser.Parse(strings.NewReader(s), "")
		if err != nil {
			continue
		}
		taken += checkFields(t, file, fieldsShells())
	}
	if taken < 1000 {
		t.Fatalf("simpleFields took only %d words of the corpora", taken)
	}
	pieces := []string{"a", "b/c", "-x=", "~", "~/", "~/d", "~u", "~u/", ":", "*", "?", "[a]", "a*b", "'a b'", "''", `""`, `"a $X b"`,
		`"$X"`, `"${E}"`, `"$S"`, `"x${N}y"`, "$X", "${X}", "$E", "$S", "$N", "$M", "$U", "$D", "${D}", "$TMPDIR", "$TMP", "$PWD",
		"$HOME", "$IFS", "$LINENO", "$1", "$@", `"$@"`, "$#", `\ `, `\a`, "{a,b}", "$'x'", `$"y"`, "${X:-z}", "${#X}", "$((1+1))",
		`"a\"b"`, "'\x00'", "=", "$OPTIND", "$LANG", `\\`, `\$X`, `"\$X"`, `"a\\b"`, `"\x"`, "\"\\`\"", `\ü`, "\\\xff", `\*`,
		`~/a\ b`, `\~`, `~\/`, `"\"`, `\'`, `\"`, `"\\\$"`}
	rnd := rand.New(rand.NewPCG(1, 2))
	gen := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString("echo ")
		for range 1 + rnd.IntN(4) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		file, err := parser.Parse(strings.NewReader(b.String()), "")
		if err != nil {
			continue
		}
		gen += checkFields(t, file, fieldsShells())
	}
	if gen < 20000 {
		t.Fatalf("simpleFields took only %d generated words", gen)
	}
}
