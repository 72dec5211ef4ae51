package shell

import (
	"fmt"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// corpusScripts returns the shell scripts of testdata/actions.jsonl's calls.
func corpusScripts(tb testing.TB) []string {
	var out []string
	for _, c := range corpusCalls(tb) {
		for _, s := range c.Shell {
			// a distinct trailing comment, as BenchmarkAssessLines (cmd/warden) gives each
			out = append(out, fmt.Sprintf("%s # %d", s, len(out)))
		}
	}
	return out
}

// BenchmarkResolveCorpus resolves the scripts of testdata/actions.jsonl,
// each with a distinct trailing comment, as the preparer does (plain ones split, others parsed), each with a
// budget of its own; one iteration is one pass over them.
func BenchmarkResolveCorpus(b *testing.B) {
	scripts := corpusScripts(b)
	for b.Loop() {
		for _, s := range scripts {
			if _, _, _, err := resolveScript(s, plain(s), Options{Env: testEnv, Work: tool.NewBudget(tool.DefaultWork)}); err != nil {
				_ = err
			}
		}
	}
}
