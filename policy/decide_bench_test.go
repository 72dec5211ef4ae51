package policy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// BenchmarkDecide500 measures Policy.Decide over the calls the engine
// decides (normalized and prepared), with 500 rules split over the three
// lists and a few conditions ("rules500"), against the built-in policy
// without rules ("norules"): the difference is what the rules add.
func BenchmarkDecide500(b *testing.B) {
	rules := permRules500(b)
	var doc strings.Builder
	doc.WriteString("deny:\n")
	for i, r := range rules {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&doc, "  - %q\n", r.Text)
		}
	}
	doc.WriteString("  - {rule: Bash, if: 'session.env == \"prod\" && action.commands.exists(c, c.contains(\"migrate\"))'}\nask:\n")
	for i, r := range rules {
		if i%5 == 1 {
			fmt.Fprintf(&doc, "  - %q\n", r.Text)
		}
	}
	doc.WriteString("  - {if: 'action.class == \"database\" && assessment.rank >= rank(\"medium\")'}\nallow:\n")
	for i, r := range rules {
		if i%5 >= 2 {
			fmt.Fprintf(&doc, "  - %q\n", r.Text)
		}
	}
	doc.WriteString("  - {rule: 'Bash(go test:*)', if: 'session.env != \"prod\"'}\n")
	big, err := policy.Parse("p.yaml", []byte(doc.String()))
	if err != nil {
		b.Fatal(err)
	}
	if n := len(big.Deny) + len(big.Ask) + len(big.Allow); n != 503 {
		b.Fatalf("%d entries", n)
	}
	calls := map[string]string{
		"bash-simple":   `{"tool":"Bash","arguments":{"command":"npm test -- --ci"}}`,
		"bash-compound": `{"tool":"Bash","arguments":{"command":"cd web && npm run build && git push origin main 2>&1 | tee build.log"}}`,
		"read":          `{"tool":"Read","arguments":{"file_path":"/home/user/project/src/go/main.go"}}`,
		"fetch":         `{"tool":"WebFetch","arguments":{"url":"https://docs.go.example.com/ref","prompt":"p"}}`,
		"mcp":           `{"tool":"mcp__github__create_issue","arguments":{"title":"x"}}`,
	}
	as := risk.Assessment{Level: risk.Medium, Reversible: true}
	for name, js := range calls {
		c := normalize(js)
		for _, p := range []struct {
			name string
			p    *policy.Policy
		}{{"norules", policy.Default()}, {"rules500", big}} {
			b.Run(name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p.p.Decide(&as, c)
				}
			})
		}
	}
}
