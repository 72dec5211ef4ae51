package policy

import (
	"reflect"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/agentwarden/warden/risk"
)

// Every setting that decides changes the hash; where a setting came from
// does not; a clone hashes alike.
func TestHashChangesWithEverythingThatDecides(t *testing.T) {
	rule := func(text string) *Rule {
		r, err := ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cond, err := CompileCondition(`session.env == "prod"`)
	if err != nil {
		t.Fatal(err)
	}
	base := func() *Policy {
		p := Default()
		p.Deny = []Entry{{Rule: rule("Bash(rm -rf:*)"), Origin: "a:1:1"}}
		p.Allow = []Entry{{Rule: rule("Read(/src/**)"), Origin: "a:2:1"}}
		p.Compile()
		return p
	}
	p0 := base()
	h0 := p0.Hash()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(h0) {
		t.Fatalf("hash %q is not hex SHA-256", h0)
	}
	if base().Hash() != h0 || p0.Clone().Hash() != h0 {
		t.Fatal("the same policy hashes differently")
	}
	confirm, err := NewConfirmRisky(risk.Medium, true)
	if err != nil {
		t.Fatal(err)
	}
	changes := map[string]func(p *Policy){
		"Mode":          func(p *Policy) { p.Mode = ModePlan },
		"DisableBypass": func(p *Policy) { p.DisableBypass = true },
		"bypassLocked":  func(p *Policy) { p.bypassLocked = true },
		"Shadow":        func(p *Policy) { p.Shadow = true },
		"enforceLocked": func(p *Policy) { p.enforceLocked = true },
		"Environment":   func(p *Policy) { p.Environment = "prod" },
		"Confirm":       func(p *Policy) { p.Confirm = confirm },
		"Confirm type":  func(p *Policy) { p.Confirm = AlwaysConfirm{} },
		"Deny":          func(p *Policy) { p.Deny = append(p.Deny, Entry{Rule: rule("Bash(curl:*)")}) },
		"Ask":           func(p *Policy) { p.Ask = []Entry{{Rule: rule("Bash(git push:*)")}} },
		"Allow":         func(p *Policy) { p.Allow[0].Rule = rule("Read(/src/*)") },
		"Allow base":    func(p *Policy) { p.Allow[0].Rule = p.Allow[0].Rule.WithBase("/repo") },
		"condition":     func(p *Policy) { p.Deny[0].If = cond },
		"reason":        func(p *Policy) { p.Deny[0].Reason = "never" },
		"org":           func(p *Policy) { p.Deny[0].Org = true },
		"exact":         func(p *Policy) { p.Allow = append(p.Allow, Entry{Exact: "Bash\x00ls"}) },
		"order":         func(p *Policy) { p.Deny, p.Allow = p.Allow, p.Deny },
		"Netguard":      func(p *Policy) { p.Netguard.AllowedHosts = []string{"example.com"} },
		"Netguard dns":  func(p *Policy) { p.Netguard.ResolveDNS = true },
		"Netguard time": func(p *Policy) { p.Netguard.ResolveTimeout = time.Second },
		"Analyzers":     func(p *Policy) { p.Analyzers.DisabledRules = []string{"net.fetch"} },
		"Secrets":       func(p *Policy) { p.Secrets.AllowMarker = "nosecret" },
		"MCP":           func(p *Policy) { p.MCP.TrustAnnotations = []string{"github"} },
	}
	seen := map[string]string{h0: "base"}
	for name, change := range changes {
		p := base()
		change(p)
		h := p.Hash()
		if other, ok := seen[h]; ok {
			t.Errorf("%s: hashes as %s", name, other)
		}
		seen[h] = name
	}
	for name, change := range map[string]func(p *Policy){
		"Origins": func(p *Policy) { p.Origins = map[string]string{"mode": "/x/policy.yaml:1:7"} },
		"Layers":  func(p *Policy) { p.Layers = []Layer{{Name: "user", Path: "/x/policy.yaml"}} },
		"Origin":  func(p *Policy) { p.Deny[0].Origin = "b:9:9" },
		"Compile": func(p *Policy) { p.idx = nil },
	} {
		p := base()
		change(p)
		if p.Hash() != h0 {
			t.Errorf("%s changes the hash; it decides nothing", name)
		}
	}
}

// The test above names every field of Policy: a field added later must be
// put in the hash (and there) or said to decide nothing.
func TestHashKnowsEveryField(t *testing.T) {
	known := []string{"Mode", "Confirm", "DisableBypass", "Environment", "Deny", "Ask", "Allow", "Netguard",
		"Analyzers", "Secrets", "MCP", "bypassLocked", "Shadow", "enforceLocked",
		"Origins", "Layers", "idx"} // these three decide nothing
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Policy]()) {
		if !slices.Contains(known, f.Name) {
			t.Errorf("Policy.%s: does it decide? Put it in canonical (hash.go) and in the tests", f.Name)
		}
	}
	entry := []string{"Rule", "If", "Reason", "Origin", "Org", "Exact", "Ref"} // Ref only names an exact approval
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Entry]()) {
		if !slices.Contains(entry, f.Name) {
			t.Errorf("Entry.%s: does it decide? Put it in hashedEntries (hash.go) and in the tests", f.Name)
		}
	}
}
