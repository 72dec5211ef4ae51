package policy_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
)

// The README's annotated policy file is a valid policy that sets every
// key of the file format.
func TestREADMEExample(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "\n## Policy\n")
	if i < 0 {
		t.Fatal("no Policy section")
	}
	s = s[i:]
	start := strings.Index(s, "```yaml\n")
	end := strings.Index(s[start+8:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no yaml block in the Policy section")
	}
	src := s[start+8 : start+8+end]
	p, err := policy.Parse("README.md", []byte(src))
	if err != nil {
		t.Fatalf("the README's policy does not load: %v", err)
	}
	if len(p.Deny) < 5 || len(p.Ask) < 2 || len(p.Allow) < 6 || p.Environment != "prod" {
		t.Errorf("the README's policy lost entries: %+v", p)
	}
	for _, key := range []string{"mode:", "disable_bypass:", "enforce:", "environment:", "confirmation:", "deny:", "ask:", "allow:",
		"analyzers:", "netguard:", "secrets:", "mcp:"} {
		if !strings.Contains(src, "\n"+key) && !strings.HasPrefix(src, key) {
			t.Errorf("the README's example does not show %s", key)
		}
	}
}
