package shell

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/golit"
)

// yamlKnowledge is commands.yaml as written, samples included: the source
// of knowledge_gen.go, and of the samples the tests check.
func yamlKnowledge(t testing.TB) *Knowledge {
	t.Helper()
	data, err := os.ReadFile("commands.yaml")
	if err != nil {
		t.Fatal(err)
	}
	k, err := LoadKnowledge(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// generateKnowledge renders commands.yaml, without its samples, as the Go
// data the package indexes on first use.
func generateKnowledge(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("commands.yaml")
	if err != nil {
		t.Fatal(err)
	}
	k, err := decodeKnowledge(data)
	if err != nil {
		t.Fatal(err)
	}
	p := golit.Printer{Pkg: "shell", Skip: map[string]bool{"Match": true, "NoMatch": true}}
	src, err := golit.Source("commands.yaml", "shell",
		"// commandsData returns the knowledge of commands.yaml, as written, without its samples.\n"+
			"func commandsData() *Knowledge {\n\treturn "+p.Literal(k)+"\n}\n\n"+argNeedsSource(p, k))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestKnowledgeGenerated fails when knowledge_gen.go is not what
// commands.yaml generates; -update rewrites it (go generate ./analyze/shell).
func TestKnowledgeGenerated(t *testing.T) {
	golit.Check(t, "knowledge_gen.go", generateKnowledge(t), *update)
}

// argNeedsSource renders argNeeds: requiredOf of every arg_match and no_arg pattern of
// k, so that no process parses a built-in row's pattern to find it.
func argNeedsSource(p golit.Printer, k *Knowledge) string {
	var pats []string
	for _, r := range append([]Row{k.Redirect, k.RedirectIn}, k.Rows...) {
		for _, pat := range []string{r.ArgMatch, r.NoArg} {
			if pat != "" && !slices.Contains(pats, pat) {
				pats = append(pats, pat)
			}
		}
	}
	slices.Sort(pats)
	var b strings.Builder
	b.WriteString("// argNeeds returns requiredOf(pattern) for the arg_match and no_arg patterns of\n" +
		"// commands.yaml (ok is false for any other pattern).\n" +
		"func argNeeds(pattern string) (needs []string, ok bool) {\n\tswitch pattern {\n")
	for _, pat := range pats {
		b.WriteString("\tcase " + p.Literal(pat) + ":\n\t\treturn " + p.Literal(requiredOf(pat)) + ", true\n")
	}
	b.WriteString("\t}\n\treturn nil, false\n}\n")
	return b.String()
}
