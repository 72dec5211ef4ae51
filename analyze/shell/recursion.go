package shell

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/risk"
)

// A function that calls itself is expanded once: the resolver reads its
// body, then stops at the recursive call (following it would never end).
// What the recursion does is judged where the function is defined, so
// that stopping is never reading as safe: a function that starts copies
// of itself in the background or in a pipeline (:(){ :|:& };:) is a fork
// bomb, in whatever script it is defined (bash -c, eval, sh -c, a script
// written then run). No program defines one by accident.

// ruleForkBomb is the rule of a function that multiplies itself; the
// rule pack's res.fork_bomb finds the same on the text of a plain
// command line.
const ruleForkBomb = "res.fork_bomb"

// forkBomb judges function definition f, at depth in script id: when its
// body calls the function in a pipeline or in the background, each call
// starting more than one process that calls it again, a command without
// words holds the finding where the function is defined.
func (r *resolver) forkBomb(f *syntax.FuncDecl, depth, id int) {
	if f.Name == nil || f.Body == nil {
		return
	}
	name := f.Name.Value
	// one walk, counting the forking places (a statement put in the
	// background, a pipeline) the node at hand stands in: a call of
	// the function there is found in time linear in the body
	var forks []bool // per node entered: whether it forks
	inFork, found := 0, false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		if found {
			return false
		}
		if n == nil { // leaving a node
			if forks[len(forks)-1] {
				inFork--
			}
			forks = forks[:len(forks)-1]
			return true
		}
		fork := false
		switch x := n.(type) {
		case *syntax.Stmt:
			fork = x.Background
		case *syntax.BinaryCmd:
			fork = x.Op == syntax.Pipe || x.Op == syntax.PipeAll
		case *syntax.CallExpr:
			if inFork > 0 && len(x.Args) > 0 && x.Args[0].Lit() == name {
				found = true
			}
		}
		if fork {
			inFork++
		}
		forks = append(forks, fork)
		return !found
	})
	if !found {
		return
	}
	r.add(&Command{Depth: depth, Findings: []risk.Finding{{Analyzer: "shell", Rule: ruleForkBomb, Level: risk.Critical, Reversible: true,
		Reason: "The function " + cut(name, 40) + " starts copies of itself (in the background or a pipeline) on every call: a fork bomb exhausts the machine's processes"}}}, id, f.Pos().Offset())
}
