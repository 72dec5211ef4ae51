package shell

import (
	"reflect"
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

// snapshot copies cmds, with their lists.
func snapshot(cmds []Command) []Command {
	var out []Command
	for _, c := range cmds {
		c.Args, c.Dynamic, c.Via = slices.Clone(c.Args), slices.Clone(c.Dynamic), slices.Clone(c.Via)
		c.Redirs, c.Inputs, c.Findings = slices.Clone(c.Redirs), slices.Clone(c.Inputs), slices.Clone(c.Findings)
		out = append(out, c)
	}
	return out
}

// TestArenaKeepsCommands checks the arenas of words and flags (see argsOf):
// and of commands (see take): the commands of every script resolved, one
// after another with pooled resolvers, still hold what they held when
// returned once all are done; a script's list of commands ends at its
// capacity; allStatic stays all false.
func TestArenaKeepsCommands(t *testing.T) {
	type kept struct {
		script string
		cmds   []Command
		was    []Command
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
		if cap(cmds) != len(cmds) {
			t.Errorf("%q: %d commands of capacity %d", s, len(cmds), cap(cmds))
		}
		all = append(all, kept{s, cmds, snapshot(cmds)})
	}
	for _, k := range all {
		if !reflect.DeepEqual(k.cmds, k.was) {
			t.Fatalf("%q: commands were %+v, are now %+v", k.script, k.was, k.cmds)
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
		if _, ok := plainWords(s); !ok {
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

// TestPooledVariables checks that a pooled resolver, whose map of
// variables release may keep (see newResolver), resolves a script as a
// new one does: after scripts that set, unset or leave alone HOME, PWD
// and others, in the same environment or another, with a prior shell's
// variables or none.
func TestPooledVariables(t *testing.T) {
	drain := func() {
		for resolvers.Get() != nil {
		}
	}
	envs := []Env{testEnv, {Home: "/home/other", Cwd: "/work"}, {}, {Cwd: testEnv.Cwd}, {Home: testEnv.Home}}
	priors := []*tool.Prior{nil, {}, {Vars: map[string]string{"X": "prior", "HOME": "/prior"}}}
	setters := []string{"", "echo", "ls ~", "HOME=/x", "unset HOME", "PWD=/y", "X=1", "HOME=$(id)", "unset PWD; X=/home/user",
		"cd /tmp", "export HOME=" + testEnv.Home, "declare -x PWD=" + testEnv.Cwd, "read HOME"}
	readers := []string{"echo $HOME $PWD $X ~", "rm -rf ~/a \"$X\" $PWD/b", "git status"}
	type result struct {
		cmds    []Command
		changes []tool.Effect
		err     error
	}
	resolve := func(s string, o Options) result {
		cmds, changes, err := ResolveWith(s, o)
		return result{snapshot(cmds), slices.Clone(changes), err}
	}
	for _, e1 := range envs {
		for _, p1 := range priors {
			for _, set := range setters {
				for _, e2 := range envs {
					for _, p2 := range priors {
						for _, read := range readers {
							o := Options{Env: e2, Prior: p2}
							drain()
							want := resolve(read, o)
							drain()
							resolve(set, Options{Env: e1, Prior: p1})
							if got := resolve(read, o); !reflect.DeepEqual(got, want) {
								t.Fatalf("%q in %+v after %q in %+v: %+v, want %+v", read, e2, set, e1, got, want)
							}
						}
					}
				}
			}
		}
	}
}
