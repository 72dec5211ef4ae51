package shell

import (
	"os"
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
			"func commandsData() *Knowledge {\n\treturn "+p.Literal(k)+"\n}\n")
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
