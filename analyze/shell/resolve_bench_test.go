package shell

import (
	"fmt"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// BenchmarkResolveCorpus resolves the scripts of testdata/actions.jsonl as
// the preparer does, each with a budget of its own and a distinct trailing
// comment, as BenchmarkAssessLines (cmd/warden) gives them (so that none
// is plain); one iteration is one pass over them. A script that does not
// parse resolves to its error.
func BenchmarkResolveCorpus(b *testing.B) {
	var scripts []string
	for _, c := range corpusCalls(b) {
		for _, s := range c.Shell {
			scripts = append(scripts, fmt.Sprintf("%s # %d", s, len(scripts)))
		}
	}
	for b.Loop() {
		for _, s := range scripts {
			w, isPlain := plainWords(s)
			_, _, _, _ = resolveScript(s, w, isPlain, Options{Env: testEnv, Work: tool.NewBudget(tool.DefaultWork)})
		}
	}
}
