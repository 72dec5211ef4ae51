package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/internal/hostile"
)

// printSeeds are words printedWord writes, and words near them that it
// must leave to the printer.
var printSeeds = []string{
	"echo $u 10.0.0.$i \"$x\" ${y} \"${y}z\" 'a b' $'c\\n' $\"d\" -p\"$MYSQL_PWD\"",
	"sh -c \"$(curl -fsSL https://x/s.sh)\" $(pgrep -x falco) \"$(a | b && c || d |& e)\"",
	"echo $(a  b   c) $( a ) $(\ta\t) $(a;) $(a &) $(! a) $(a >f) $(a 2>&1) $(x=1 a) $(a; b) $(a\nb) $(a |\n b)",
	"echo `a` $((1+2)) ${#x} ${!x} ${x:-y} ${x[1]} ${x/a/b} <(a) >(b) $(( a )) $( (a) ) $(a $(b $(c)))",
	"echo a\\ b a\\\\ \"a\\\"b\" 'a\tb' \"a\tb\" a\\\nb \"a\nb\" $(a # c\n) ü 'ü' \"ü\" *.go {a,b} ~/x",
	"echo \"$(a)\"\"$(b)\" $(a)$(b) $a$b \"x$(a \"$b\" 'c')y\" $(if a; then b; fi) $(case x in y) z;; esac)",
	"echo $(a | b | c) $(a && b | c) $(a || (b)) $({ a; }) $(a\\\n b) $(a \\\n| b)",
}

// checkPrintedWord fails t when printedWord prints a word of script s
// otherwise than the printer; it returns how many it printed.
func checkPrintedWord(t *testing.T, s string) int {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		return 0
	}
	n := 0
	syntax.Walk(f, func(node syntax.Node) bool {
		w, ok := node.(*syntax.Word)
		if !ok || len(w.Parts) == 0 {
			return true
		}
		got, ok := printedWord(w)
		if !ok {
			return true
		}
		n++
		if want := source(w); got != want {
			t.Fatalf("%q: printedWord printed %q, the printer %q", s, got, want)
		}
		return true
	})
	return n
}

// TestPrintedWord holds printedWord to the printer over the seeds, the
// corpus and the hostile inputs.
func TestPrintedWord(t *testing.T) {
	scripts := append([]string{}, printSeeds...)
	scripts = append(scripts, simpleSeeds...)
	for _, c := range corpusCalls(t) {
		scripts = append(scripts, c.Shell...)
	}
	for _, in := range hostile.Inputs() {
		if len(in.Script) <= 4<<10 {
			scripts = append(scripts, in.Script)
		}
	}
	n := 0
	for _, s := range scripts {
		n += checkPrintedWord(t, s)
	}
	if n < 50 {
		t.Errorf("printedWord printed %d words of the scripts: too few to hold it to the printer", n)
	}
}

// FuzzPrintedWord holds printedWord to the printer (see
// checkPrintedWord).
func FuzzPrintedWord(f *testing.F) {
	for _, s := range append(append([]string{}, printSeeds...), simpleSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkPrintedWord(t, s) })
}
