package shell

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/internal/hostile"
)

// recorder records the nodes it visits and refuses to go below the
// visit numbered stop (-1: none).
type recorder struct {
	nodes []syntax.Node
	stop  int
}

func (r *recorder) visit(n syntax.Node) bool {
	r.nodes = append(r.nodes, n)
	return len(r.nodes)-1 != r.stop
}

// sameNode reports whether a and b are the same node, or for comments
// (which syntax.Walk visits as copies) equal ones.
func sameNode(a, b syntax.Node) bool {
	if ca, ok := a.(*syntax.Comment); ok {
		cb, ok := b.(*syntax.Comment)
		return ok && *ca == *cb
	}
	return a == b
}

// TestWalkTree checks that walkTree visits the nodes syntax.Walk visits,
// in the same order, and skips the same nodes when a visit refuses to go
// below a node, over the scripts of the corpus, the hostile inputs and
// scripts made of every kind of node.
func TestWalkTree(t *testing.T) {
	scripts := []string{
		"rm -rf ~; a=$(b \"$c\" `d`) e=${f:-$(g)} h <(i) > >(j) 2>&1 <<EOF\n$k ${l[1]} $((m+1))\nEOF",
		"if a; then b; elif c; then d; else e; fi; while f; do g; done; until h; do :; done",
		"for i in 1 2 3; do echo $i; done; for ((i=0; i<3; i++)); do :; done; select x in a b; do break; done",
		"case $x in a|b) y;; *) z;; esac; [[ -f a && $b == c* ]]; (( x = y ? 1 : 2 )); let x++ y=2",
		"f() { local a=1 b; declare -A m=([k]=v); export X; }; function g { (h | i) && { j || k; }; }",
		"time ls; coproc c { cat; }; ! true; echo ${#a} ${!b} ${c/d/e} ${f:1:2} ${g^^} ${h@Q}; arr=(1 [2]=b 'c')",
		"echo {a,b}{1..3} @(x|y) \"$@\" $'\\n' $\"t\" ~user/x *.go; a+=1; x[1]=2; echo $[1+2]",
		"cat <<-'E'\n\tbody\n\tE\ncat <<< \"$x\"; exec 3<>f 4>&- ; echo >| g",
	}
	for _, c := range corpusCalls(t) {
		scripts = append(scripts, c.Shell...)
	}
	for _, in := range hostile.Inputs() {
		if len(in.Script) <= 4<<10 {
			scripts = append(scripts, in.Script)
		}
	}
	for _, variant := range []syntax.LangVariant{syntax.LangBash, syntax.LangMirBSDKorn} {
		p := syntax.NewParser(syntax.Variant(variant), syntax.KeepComments(true))
		for _, s := range append(scripts, "a # one\nb # two\n# three\n(c # four\n)", "case x in\n# c\na) b;; # d\nesac") {
			file, err := p.Parse(strings.NewReader(s), "")
			if err != nil {
				continue
			}
			all := &recorder{stop: -1}
			walkTree(all, file)
			for stop := -1; stop < len(all.nodes); stop += 1 + stop/16 {
				want := &recorder{stop: stop}
				syntax.Walk(file, func(n syntax.Node) bool { return n == nil || want.visit(n) })
				got := &recorder{stop: stop}
				walkTree(got, file)
				if !slices.EqualFunc(got.nodes, want.nodes, sameNode) {
					t.Fatalf("%.80q, stopped at %d: walkTree visited %d nodes, syntax.Walk %d", s, stop, len(got.nodes), len(want.nodes))
				}
			}
		}
	}
}
