package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
)

// enforce: false is shadow mode, from the user's, the organization's or
// an explicit file, never from a project's; the organization's enforce:
// true holds against every other layer and --shadow; Show writes it back.
func TestEnforce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	off, on := write("off.yaml", "enforce: false\n"), write("on.yaml", "enforce: true\n")
	project := write("repo/.warden/policy.yaml", "enforce: false\n")

	p, err := policy.Load(policy.Sources{User: off})
	if err != nil || !p.Shadow || p.Origins["enforce"] != off+":1:10" {
		t.Fatalf("the user's enforce: false: %v, shadow %v, origin %q", err, p != nil && p.Shadow, p.Origins["enforce"])
	}
	var b strings.Builder
	if err := p.Show(&b); err != nil || !strings.Contains(b.String(), "enforce: false # "+off+":1:10 (shadow mode") {
		t.Errorf("Show: %v\n%s", err, b.String())
	}
	if again, err := policy.Parse("shown.yaml", []byte(b.String())); err != nil || !again.Shadow || again.Hash() != p.Hash() {
		t.Errorf("what Show wrote loads back as %v, %v", again, err)
	}
	if p, err := policy.Load(policy.Sources{User: off, Explicit: on}); err != nil || p.Shadow {
		t.Errorf("a later enforce: true: %v, shadow %v", err, p.Shadow)
	}
	if _, err := policy.Load(policy.Sources{Project: project}); err == nil || !strings.Contains(err.Error(), project+":1:10: enforce: false is not read from a project's policy file") {
		t.Errorf("a project's enforce: false: %v", err)
	}
	if _, err := policy.Load(policy.Sources{Org: on, User: off}); err == nil || !strings.Contains(err.Error(), "the organization's policy ("+on+":1:10) enforces") {
		t.Errorf("the user's enforce: false under the organization's true: %v", err)
	}
	p, err = policy.Load(policy.Sources{Org: on})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.SetShadow("--shadow"); err == nil || p.Shadow {
		t.Errorf("--shadow under the organization's enforce: true: %v", err)
	}
	p = policy.Default()
	if err := p.SetShadow("--shadow"); err != nil || !p.Shadow || p.Hash() == policy.Default().Hash() {
		t.Errorf("--shadow: %v", err)
	}
	if _, err := policy.Parse("x.yaml", []byte("enforce: maybe\n")); err == nil {
		t.Error("enforce: maybe was read")
	}
}
