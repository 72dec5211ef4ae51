package tool

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestCheckFastPath checks check's one-pass common case against its
// general case (checkAll) on arguments of every catalog tool, well and
// badly formed: the two must leave the same call.
func TestCheckFastPath(t *testing.T) {
	values := []any{nil, "x", "", "  ", "ls -la", 3.0, true, []any{}, []any{"bash", "-c", "ls"},
		[]any{1.0}, []any{map[string]any{"old_string": "a", "new_string": "b"}}, []any{"a", 2.0}, map[string]any{"k": "v"}}
	specs := []*spec{}
	cat := known()
	for _, name := range slices.Sorted(maps.Keys(cat.agents)) {
		specs = append(specs, cat.agents[name])
	}
	for _, srv := range slices.Sorted(maps.Keys(cat.servers)) {
		for _, name := range slices.Sorted(maps.Keys(cat.servers[srv])) {
			specs = append(specs, cat.servers[srv][name])
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	fast, slow := 0, 0
	for _, sp := range specs {
		keys := slices.Sorted(maps.Keys(sp.argKinds()))
		keys = append(keys, "unknown_text", "unknown")
		for range 60 {
			args := map[string]any{}
			for _, k := range keys {
				switch r.IntN(3) {
				case 0: // left out
				case 1: // of a fitting kind, most often
					args[k] = values[1+r.IntN(3)*3%4]
				default:
					args[k] = values[r.IntN(len(values))]
				}
			}
			var got, want Call
			got.read(sp, args)
			want.read(sp, args)
			got.check(sp, args)
			want.checkAll(sp, args, sp.argKinds())
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v: check left\n%+v\ncheckAll\n%+v", args, got, want)
			}
			if len(want.Malformed) == 0 {
				fast++
			} else {
				slow++
			}
		}
		// the arguments it needs, each of a fitting kind: the fast path
		args := map[string]any{}
		for _, k := range keys[:len(keys)-2] {
			if in := sp.argKinds()[k]; in.need != 0 {
				args[k] = sampleValue(in.kind)
			}
		}
		checkSame(t, sp, args)
		// the arguments it needs (all of them, or the first alternative of
		// each) and one more, of every kind
		firsts := map[string]any{}
		for _, n := range sp.need {
			k, _, _ := strings.Cut(n, "|")
			firsts[k] = sampleValue(sp.argKinds()[k].kind)
		}
		checkSame(t, sp, firsts)
		for _, base := range []map[string]any{args, firsts} {
			for _, k := range keys {
				if _, ok := base[k]; ok {
					continue
				}
				for _, v := range append(values, sampleValue(sp.argKinds()[k].kind)) {
					other := maps.Clone(base)
					other[k] = v
					checkSame(t, sp, other)
				}
			}
		}
		// the arguments it needs but one, of every kind, left out, or
		// another argument in its place (as many arguments as it needs)
		for _, k := range slices.Sorted(maps.Keys(args)) {
			for _, v := range values {
				other := maps.Clone(args)
				other[k] = v
				checkSame(t, sp, other)
			}
			for _, o := range append(keys[len(keys)-2:], keys[r.IntN(len(keys))]) {
				other := maps.Clone(args)
				delete(other, k)
				other[o] = values[r.IntN(len(values))]
				checkSame(t, sp, other)
			}
		}
	}
	if fast == 0 || slow == 0 {
		t.Fatalf("the inputs took one path only: %d well formed, %d malformed", fast, slow)
	}
}

// checkSame fails t when check and checkAll leave different calls of
// sp's arguments args.
func checkSame(t *testing.T, sp *spec, args map[string]any) {
	t.Helper()
	var got, want Call
	got.check(sp, args)
	want.checkAll(sp, args, sp.argKinds())
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%v: check left\n%+v\ncheckAll\n%+v", args, got, want)
	}
}

// FuzzCheckFastPath holds check (its ways without a pass over the
// arguments, and in one pass) equal to checkAll on any arguments of any
// catalog tool.
func FuzzCheckFastPath(f *testing.F) {
	var specs []*spec
	cat := known()
	for _, name := range slices.Sorted(maps.Keys(cat.agents)) {
		specs = append(specs, cat.agents[name])
	}
	f.Add(uint8(0), `{"command":"ls"}`)
	f.Add(uint8(1), `{"code":"print(1)"}`)
	f.Add(uint8(2), `{"file_path":"/x","content":""}`)
	f.Add(uint8(3), `{"url":null,"prompt":"p"}`)
	f.Add(uint8(4), `{"command":["bash"],"x":1}`)
	f.Add(uint8(5), `{"command":"ls","description":"list"}`)
	f.Add(uint8(6), `{"command":["ls"],"workdir":"/tmp"}`)
	f.Fuzz(func(t *testing.T, i uint8, js string) {
		var args map[string]any
		if json.Unmarshal([]byte(js), &args) != nil || args == nil {
			return
		}
		checkSame(t, specs[int(i)%len(specs)], args)
	})
}

// TestSpellings checks that a tool found by its name as spelled (the
// agents' tools by their names and by the agents' spellings) is the one
// found by its name lower-cased, as lookup finds it.
func TestSpellings(t *testing.T) {
	cat := known()
	for n, sp := range cat.spelled {
		if want, ok := lookup(cat.agents, n); !ok || want != sp {
			t.Errorf("%s: found as spelled, not as lookup finds it", n)
		}
	}
	for _, n := range spellings {
		if _, ok := cat.spelled[n]; !ok {
			t.Errorf("%s: no agent tool of that name", n)
		}
	}
	for n := range cat.agents {
		if _, ok := cat.spelled[n]; !ok {
			t.Errorf("%s: not found by its own name", n)
		}
	}
	for _, n := range []string{"Bash", "bash", "BASH", "bAsh", "execute_bash", "Execute_Bash", "WebFetch", "webfetch", "nope", "Nope"} {
		var got Call
		NormalizeZeroed(&got, &risk.Action{Tool: n, Arguments: map[string]any{"command": "ls"}}, "/w", "/h")
		sp, ok := lookup(cat.agents, n)
		if got.Known != ok || ok && got.Class != sp.class {
			t.Errorf("%s: known %v class %v, lookup says %v", n, got.Known, got.Class, ok)
		}
	}
}
