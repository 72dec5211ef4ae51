package shell

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/internal/corpus"

	"github.com/agentwarden/warden/tool"
)

// corpusCalls returns the actions of testdata/actions.jsonl, normalized
// as calls in testEnv.
func corpusCalls(tb testing.TB) []*tool.Call {
	var calls []*tool.Call
	for _, a := range corpus.Actions(tb, "../../testdata/actions.jsonl") {
		calls = append(calls, tool.Normalize(&a, testEnv.Cwd, testEnv.Home))
	}
	return calls
}

// BenchmarkPrepareCorpus measures the shell preparer, then Facts, as the
// engine runs them, over the calls of testdata/actions.jsonl that carry
// shell scripts or, for a tool the catalog does not know, text; one
// iteration is one pass over them. The calls are normalized once: each
// iteration prepares a copy of each, with a budget of its own.
func BenchmarkPrepareCorpus(b *testing.B) { benchmarkPrepare(b, nil) }

// BenchmarkPrepareCorpusSession is BenchmarkPrepareCorpus in a session's
// persistent shell, empty: the preparer also records what each script
// does (Knowledge.effects), as it does for a call the engine follows.
func BenchmarkPrepareCorpusSession(b *testing.B) { benchmarkPrepare(b, &tool.Prior{}) }

// benchmarkPrepare prepares the corpus's calls that carry scripts or text
// in the persistent shell prior (nil: none).
func benchmarkPrepare(b *testing.B, prior *tool.Prior) {
	var calls []*tool.Call
	for _, c := range corpusCalls(b) {
		if len(c.Shell) > 0 || !c.Known && len(c.Text) > 0 {
			calls = append(calls, c)
		}
	}
	ctx := context.Background()
	for b.Loop() {
		for _, base := range calls {
			c := *base
			c.Work, c.Prior = tool.NewBudget(tool.DefaultWork), prior
			if _, err := (Preparer{}).Prepare(ctx, &c); err != nil {
				b.Fatal(err)
			}
			Facts(&c)
		}
	}
}
