package hook

import "testing"

// TestAdapters: every adapter is found by its name, under it, once.
func TestAdapters(t *testing.T) {
	all := Adapters()
	if len(all) != len(Names()) {
		t.Fatalf("Adapters has %d, Names %d", len(all), len(Names()))
	}
	for name, a := range all {
		if a.Name() != name {
			t.Errorf("Adapters()[%q].Name() = %q", name, a.Name())
		}
		if b, ok := Lookup(name); !ok || b.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, b, ok)
		}
	}
	if a, ok := Lookup("no-such-agent"); ok || a != nil {
		t.Errorf("Lookup(no-such-agent) = %v, %v", a, ok)
	}
}
