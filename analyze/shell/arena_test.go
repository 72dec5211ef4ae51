package shell

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/hostile"
	"github.com/agentwarden/warden/tool"
)

// arenaScripts are the scripts of the corpus, the hostile inputs and a few
// that make commands of many words, of dynamic words and of none.
func arenaScripts(tb testing.TB) []string {
	var out []string
	for _, c := range corpusCalls(tb) {
		out = append(out, c.Shell...)
	}
	for _, in := range hostile.Inputs() {
		out = append(out, in.Script)
	}
	return append(out, "", "  \t ", "echo $x $(id) a b", "e=; $e", "ls "+strings.Repeat("a ", 40), "ls "+strings.Repeat("$x ", 300),
		"sudo env X=1 xargs -I{} rm {}", "find . -name x -exec rm {} +", "parallel rm {} ::: a b c", "git status", "a {1..70}")
}

// snapshot copies the words and flags of cmds.
func snapshot(cmds []Command) (args [][]string, dyn [][]bool) {
	for _, c := range cmds {
		args, dyn = append(args, slices.Clone(c.Args)), append(dyn, slices.Clone(c.Dynamic))
	}
	return args, dyn
}

// TestArenaKeepsCommands checks the arenas of words and flags (see argsOf):
// the commands of every script resolved, one after another with pooled
// resolvers, still hold what they held when returned once all are done,
// and allStatic stays all false.
func TestArenaKeepsCommands(t *testing.T) {
	type kept struct {
		script string
		cmds   []Command
		args   [][]string
		dyn    [][]bool
	}
	var all []kept
	for _, s := range arenaScripts(t) {
		cmds, _, _, err := commandsIn(s, Options{Env: testEnv, Work: tool.NewBudget(tool.DefaultWork)})
		if err != nil {
			continue
		}
		for _, c := range cmds {
			if len(c.Args) != len(c.Dynamic) {
				t.Fatalf("%q: args %d, dynamic %d", s, len(c.Args), len(c.Dynamic))
			}
		}
		args, dyn := snapshot(cmds)
		all = append(all, kept{s, cmds, args, dyn})
	}
	for _, k := range all {
		args, dyn := snapshot(k.cmds)
		for i := range args {
			if !slices.Equal(args[i], k.args[i]) || !slices.Equal(dyn[i], k.dyn[i]) {
				t.Fatalf("%q: command %d was %q %v, is now %q %v", k.script, i, k.args[i], k.dyn[i], args[i], dyn[i])
			}
		}
	}
	if slices.Contains(allStatic[:], true) {
		t.Fatal("allStatic was written")
	}
}

// TestArgsOf checks that argsOf and dynamicOf copy what they are given,
// each copy ending at its capacity, chunk after chunk.
func TestArgsOf(t *testing.T) {
	r := newResolver(Options{Env: testEnv})
	defer release(r)
	var got [][]string
	var want [][]string
	for n := range 3 * arenaChunk {
		w := make([]string, n%(arenaChunk/2))
		d := make([]bool, len(w))
		for i := range w {
			w[i] = strings.Repeat("x", n+i)
			d[i] = (n+i)%3 == 0
		}
		a := r.argsOf(w)
		f := r.dynamicOf(d, slices.Contains(d, true))
		if cap(a) != len(a) || cap(f) != len(f) || !slices.Equal(a, w) || !slices.Equal(f, d) || a == nil || f == nil {
			t.Fatalf("argsOf(%q) = %q (cap %d), dynamicOf(%v) = %v (cap %d)", w, a, cap(a), d, f, cap(f))
		}
		got, want = append(got, a), append(want, w)
	}
	for i := range got {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("words %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// FuzzFieldsOf checks fieldsOf against strings.Fields on plain scripts.
func FuzzFieldsOf(f *testing.F) {
	for _, s := range []string{"", " ", "git status", "\t ls  -la\t", "make CC=gcc -j4 ", strings.Repeat("a ", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !plain(s) {
			return
		}
		r := newResolver(Options{Env: testEnv})
		defer release(r)
		got, want := r.fieldsOf(s), strings.Fields(s)
		if !slices.Equal(got, want) || got == nil || cap(got) != len(got) {
			t.Fatalf("fieldsOf(%q) = %q (cap %d), strings.Fields: %q", s, got, cap(got), want)
		}
	})
}
