package warden

import (
	"errors"
	"go/build"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layers of the module's import graph, lowest first: a package may
// import its own layer and those below, never one above. A package no
// layer names makes the test fail, so that a new one is placed on purpose.
var layers = []struct {
	name     string
	packages []string // import paths relative to the module; "x/..." is x and below
}{
	{"vocabulary", []string{"risk", "paths", "effect", "tool", "internal/..."}},
	{"analyzers", []string{"analyze/...", "secrets", "netguard", "session/...", "audit/...", "judge/...", "experience/..."}},
	{"policy", []string{"policy/..."}},
	{"engine", []string{""}},
	{"integrations", []string{"cmd/...", "store/...", "eval/...", "bench/...", "hook/...", "mcpproxy/...", "server/..."}},
}

// forbidden are imports the layers allow that the design does not: the
// session and the policy read the facts the analyzers' preparers record,
// and never parse bash or SQL themselves. An import from outside the
// module is written "ext:" and its path.
var forbidden = []struct{ from, to string }{
	{"session/...", "analyze/..."},
	{"policy/...", "analyze/..."},
	{"session/...", "ext:mvdan.cc/sh/..."},
	{"policy/...", "ext:mvdan.cc/sh/..."},
}

const module = "github.com/agentwarden/warden"

// TestImportLayers checks the module's import graph against layers and
// forbidden, with go/build over every package directory (test files
// aside: a test may well build a call with a higher layer's help).
func TestImportLayers(t *testing.T) {
	graph := map[string][]string{}
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); dir != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(dir, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(dir)
		if rel == "." {
			rel = ""
		}
		for _, imp := range p.Imports {
			if imp == module {
				graph[rel] = append(graph[rel], "")
			} else if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				graph[rel] = append(graph[rel], r)
			} else {
				graph[rel] = append(graph[rel], "ext:"+imp)
			}
		}
		if _, ok := graph[rel]; !ok {
			graph[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(graph) < 10 || graph["policy"] == nil {
		t.Fatalf("read %d packages: the walk missed the module", len(graph))
	}
	for _, v := range layerViolations(graph) {
		t.Error(v)
	}
}

// TestLayerViolations checks that the check fails on the imports it
// exists to catch.
func TestLayerViolations(t *testing.T) {
	for _, tc := range []struct {
		graph map[string][]string
		bad   bool
	}{
		{map[string][]string{"policy": {"tool", "netguard"}, "": {"policy", "analyze/shell"}, "cmd/warden": {""}}, false},
		{map[string][]string{"policy": {"analyze/shell"}}, true},
		{map[string][]string{"session": {"analyze/sql"}}, true},
		{map[string][]string{"tool": {"paths", "analyze/shell"}}, true},
		{map[string][]string{"analyze/shell": {"policy"}}, true},
		{map[string][]string{"secrets": {""}}, true},
		{map[string][]string{"policy": {"store/sqlite"}}, true},
		{map[string][]string{"newthing": nil}, true},
		{map[string][]string{"policy": {"ext:mvdan.cc/sh/v3/syntax"}}, true},
		{map[string][]string{"analyze/shell": {"ext:mvdan.cc/sh/v3/syntax"}, "policy": {"ext:strings"}}, false},
	} {
		if got := layerViolations(tc.graph); (len(got) > 0) != tc.bad {
			t.Errorf("%v: violations %q, want some: %v", tc.graph, got, tc.bad)
		}
	}
}

// layerViolations returns what in graph (a package's imports within the
// module, paths relative to it; "ext:" and the path for one outside it)
// breaks layers or forbidden.
func layerViolations(graph map[string][]string) []string {
	var out []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		from := layerOf(p)
		if from < 0 {
			out = append(out, "package "+show(p)+" is in no layer: add it to layers in imports_test.go")
			continue
		}
		for _, imp := range graph[p] {
			if to := layerOf(imp); to > from && !strings.HasPrefix(imp, "ext:") {
				out = append(out, show(p)+" ("+layers[from].name+") imports "+show(imp)+" ("+layers[to].name+"), a higher layer")
			}
			for _, f := range forbidden {
				if under(p, f.from) && under(imp, f.to) {
					out = append(out, show(p)+" imports "+show(imp)+": "+f.from+" must not import "+f.to+" (it reads facts instead)")
				}
			}
		}
	}
	return out
}

// layerOf returns the index of p's layer, or -1.
func layerOf(p string) int {
	for i, l := range layers {
		for _, pat := range l.packages {
			if under(p, pat) {
				return i
			}
		}
	}
	return -1
}

// under reports whether package p matches pat: equal, or below x for x/...
func under(p, pat string) bool {
	if base, ok := strings.CutSuffix(pat, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pat
}

func show(p string) string {
	if p == "" {
		return module
	}
	return module + "/" + p
}

// heavyDeps are modules the warden binary must not link: their package
// initialisation (cel-go with protobuf, genproto and ANTLR: 1.2–1.4 ms)
// is paid by every hook process. Tests may use them (cel-go is the
// reference the CEL subset is compared with).
var heavyDeps = []string{"cel.dev/", "google.golang.org/protobuf", "google.golang.org/genproto", "github.com/antlr4-go/"}

// TestBinaryDeps checks the packages `go list -deps` finds for the warden
// command (test files aside) against heavyDeps.
func TestBinaryDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/warden").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, module+"/policy") || !slices.Contains(pkgs, module+"/internal/expr") {
		t.Fatalf("go list -deps ./cmd/warden lists %d packages, without the policy or its expressions", len(pkgs))
	}
	for _, p := range heavyDepsIn(pkgs) {
		t.Errorf("the warden binary links %s", p)
	}
}

func TestHeavyDepsIn(t *testing.T) {
	got := heavyDepsIn([]string{"fmt", module + "/policy", "cel.dev/cel-go/cel", "google.golang.org/protobuf/proto",
		"github.com/antlr4-go/antlr/v4", "google.golang.org/genproto/googleapis/api/expr/v1alpha1", "cel.devx/y"})
	if len(got) != 4 {
		t.Errorf("heavyDepsIn found %q", got)
	}
}

// heavyDepsIn returns the packages of pkgs from a module of heavyDeps.
func heavyDepsIn(pkgs []string) []string {
	var out []string
	for _, p := range pkgs {
		for _, h := range heavyDeps {
			if strings.HasPrefix(p, h) {
				out = append(out, p)
			}
		}
	}
	return out
}
