package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// knowledgeCorpus returns the scripts of testdata/actions.jsonl resolved
// in testEnv, each as the commands the knowledge reads, and a call for
// each, which holds the SQL texts its commands give (see sqlFact).
func knowledgeCorpus(b *testing.B) ([][]Command, []*tool.Call) {
	var scripts [][]Command
	var calls []*tool.Call
	for _, c := range corpusCalls(b) {
		for _, s := range c.Shell {
			if cmds, err := Resolve(s, testEnv); err == nil {
				scripts, calls = append(scripts, cmds), append(calls, &tool.Call{})
			}
		}
	}
	return scripts, calls
}

// BenchmarkAnalyzeCorpus measures the knowledge's analysis alone (what
// the shell preparer runs after resolving a script) over the scripts of
// testdata/actions.jsonl; one iteration is one pass over them.
func BenchmarkAnalyzeCorpus(b *testing.B) {
	k := DefaultKnowledge()
	scripts, calls := knowledgeCorpus(b)
	var out []risk.Finding
	b.ReportAllocs()
	for b.Loop() {
		for i, cmds := range scripts {
			out = k.analyze(out[:0], cmds, testEnv, calls[i])
		}
	}
}

// BenchmarkEffectsCorpus measures what the preparer records of each
// script for the session (Knowledge.effects) over the same scripts.
func BenchmarkEffectsCorpus(b *testing.B) {
	k := DefaultKnowledge()
	scripts, calls := knowledgeCorpus(b)
	b.ReportAllocs()
	for b.Loop() {
		for i, cmds := range scripts {
			k.effects(cmds, testEnv, calls[i])
		}
	}
}
