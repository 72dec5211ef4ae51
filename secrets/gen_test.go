package secrets

import (
	"flag"
	"os"
	"reflect"
	"slices"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/internal/golit"
	"github.com/agentwarden/warden/internal/keywords"
)

var update = flag.Bool("update", false, "rewrite generated files")

// yamlRules are the rules of rules.yaml, samples included: the source of
// rules_gen.go, and of the samples the tests check.
func yamlRules(t testing.TB) []*Rule {
	t.Helper()
	data, err := os.ReadFile("rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := ParseRules(data)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// yamlCLI is the grammar of cli.yaml, samples included.
func yamlCLI(t testing.TB) *cliGrammar {
	t.Helper()
	data, err := os.ReadFile("cli.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, err := parseCLI(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// samples are the fields the generated data leaves out: the tests read
// them from the YAML (and a binary should not carry sample secrets).
var samples = golit.Printer{Pkg: "secrets", Skip: map[string]bool{"Match": true, "NoMatch": true}}

// TestRulesGenerated fails when rules_gen.go is not what rules.yaml
// generates; -update rewrites it (go generate ./secrets).
func TestRulesGenerated(t *testing.T) {
	var doc struct {
		Rules []*Rule `yaml:"rules"`
	}
	data, err := os.ReadFile("rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	src, err := golit.Source("rules.yaml", "secrets",
		"// rulesData returns the rules of rules.yaml, as written, without their samples.\n"+
			"func rulesData() []*Rule {\n\treturn "+samples.Literal(doc.Rules)+"\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	golit.Check(t, "rules_gen.go", src, *update)
}

// TestCLIGenerated fails when cli_gen.go is not what cli.yaml generates;
// -update rewrites it (go generate ./secrets).
func TestCLIGenerated(t *testing.T) {
	var g cliGrammar
	data, err := os.ReadFile("cli.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	src, err := golit.Source("cli.yaml", "secrets",
		"// cliData returns the grammar of cli.yaml, as written, without its samples.\n"+
			"func cliData() *cliGrammar {\n\treturn "+samples.Literal(&g)+"\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	golit.Check(t, "cli_gen.go", src, *update)
}

// TestBuiltinRules: the built-in rules are rules.yaml's without their
// samples, and each pattern compiles as the YAML's does.
func TestBuiltinRules(t *testing.T) {
	want := yamlRules(t)
	got, err := DefaultRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d rules, rules.yaml has %d", len(got), len(want))
	}
	for i, r := range got {
		w := want[i]
		if r.ID != w.ID || r.Pattern != w.Pattern || len(r.Keywords) != len(w.Keywords) || len(r.Match) > 0 || r.priority != w.priority {
			t.Errorf("rule %d: %s, rules.yaml has %s", i, r.ID, w.ID)
			continue
		}
		if r.scan != nil {
			continue
		}
		p, wp := r.compiled(), w.compiled()
		if p.re.String() != wp.re.String() || (p.anchored == nil) != (wp.anchored == nil) || p.s != wp.s || p.name != wp.name || p.q != wp.q {
			t.Errorf("%s: compiled differently from rules.yaml's", r.ID)
		}
	}
	g := builtinCLI()
	if wg := yamlCLI(t); len(g.byName) != len(wg.byName) || len(g.env) != len(wg.env) || len(g.generic) != len(wg.generic) {
		t.Errorf("the built-in cli grammar is not cli.yaml's")
	}
}

// TestConcurrentFirstUse: the patterns of a fresh detector compile on
// first use, once, whichever goroutines get there together (go test -race).
func TestConcurrentFirstUse(t *testing.T) {
	d, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	text := "token: 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\nexport AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY\nmysql -uroot -pHx82kLm shop\n"
	want := len(d.ScanString("", text))
	d, _ = New(nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := len(d.ScanString("", text)); got != want || got == 0 {
				t.Errorf("%d findings, want %d", got, want)
			}
		}()
	}
	wg.Wait()
}

// freshDefault is index of the built-in rules with the cli rule's
// keywords worked out afresh from the grammar (not cliKeywords): what
// kwindex_gen.go must hold.
func freshDefault(t testing.TB) (d *Detector, cliWords []string) {
	t.Helper()
	cliWords = cliData().keywords()
	rules := rulesData()
	for i, r := range rules {
		if r.Scanner == "cli" {
			r.Keywords = append(r.Keywords, cliWords...)
		}
		r.priority = i
	}
	return index(rules), cliWords
}

// defaultWords returns the keywords New numbers for the built-in rules,
// in their order.
func defaultWords(t testing.TB) []string {
	d, _ := freshDefault(t)
	return d.words
}

// byWordIndices returns, keyword by keyword, the positions in d.rules of
// the rules it gates.
func byWordIndices(d *Detector) [][]uint16 {
	out := make([][]uint16, len(d.byWord))
	for id, rs := range d.byWord {
		out[id] = []uint16{}
		for _, r := range rs {
			out[id] = append(out[id], uint16(slices.Index(d.rules, r)))
		}
	}
	return out
}

// TestKeywordsGenerated fails when kwindex_gen.go is not the built-in
// rules' keywords, the rules each gates, the cli grammar's keywords and
// the keywords' automaton's tables; -update rewrites it (go generate
// ./secrets).
func TestKeywordsGenerated(t *testing.T) {
	d, cliWords := freshDefault(t)
	words := d.words
	src, err := golit.Source("rules.yaml and cli.yaml", "secrets",
		"import \"github.com/agentwarden/warden/internal/keywords\"\n\n"+
			"// defaultKeywords are the keywords New numbers for the built-in rules,\n// in their order.\n"+
			"var defaultKeywords = "+samples.Literal(words)+"\n\n"+
			"// defaultByWord are, keyword by keyword of defaultKeywords, the\n// positions of the built-in rules it gates (indexDefault).\n"+
			"var defaultByWord = "+samples.Literal(byWordIndices(d))+"\n\n"+
			"// cliKeywords are the built-in cli grammar's keywords (cliGrammar.keywords\n// of cliData), which the cli rule adds to its own.\n"+
			"var cliKeywords = "+samples.Literal(cliWords)+"\n\n"+
			"// defaultTables is keywords.New(defaultKeywords) as data: static, so a\n// process builds no automaton for the built-in rules.\n"+
			"var defaultTables = "+golit.KeywordTables(keywords.New(words).Tables())+"\n")
	if err != nil {
		t.Fatal(err)
	}
	golit.Check(t, "kwindex_gen.go", src, *update)
	if !*update && !reflect.DeepEqual(keywords.FromTables(&defaultTables).Tables(), keywords.New(words).Tables()) {
		t.Fatal("defaultTables differ from a freshly built index")
	}
}

// TestIndexDefault: New(nil) (indexDefault, from the generated numbering)
// makes the detector index makes of the built-in rules, and the cli rule
// holds the grammar's keywords as the built-in grammar works them out.
func TestIndexDefault(t *testing.T) {
	got, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := DefaultRules()
	if err != nil {
		t.Fatal(err)
	}
	want := index(rules)
	if !slices.Equal(got.words, want.words) {
		t.Fatalf("New(nil) numbers the keywords %q, index %q", got.words, want.words)
	}
	if g, w := byWordIndices(got), byWordIndices(want); !reflect.DeepEqual(g, w) {
		t.Fatalf("New(nil) gates rules by keyword %v, index %v", g, w)
	}
	for id, rs := range got.byWord {
		for i, r := range rs {
			if r.ID != want.byWord[id][i].ID {
				t.Errorf("keyword %q gates %s, index says %s", got.words[id], r.ID, want.byWord[id][i].ID)
			}
		}
	}
	if !reflect.DeepEqual(got.idx.Tables(), want.idx.Tables()) {
		t.Error("New(nil) made another automaton than index")
	}
	if fresh := builtinCLI().keywords(); !slices.Equal(cliKeywords, fresh) {
		t.Errorf("cliKeywords = %q, the built-in grammar's are %q", cliKeywords, fresh)
	}
	found := false
	for _, r := range rules {
		if r.Scanner == "cli" {
			found = true
			if r.scan == nil || !slices.Equal(r.Keywords[len(r.Keywords)-len(cliKeywords):], cliKeywords) {
				t.Errorf("rule %s: no scan, or not keyed on the grammar's keywords: %q", r.ID, r.Keywords)
			}
		}
	}
	if !found {
		t.Error("no built-in rule scans with the cli grammar")
	}
}
