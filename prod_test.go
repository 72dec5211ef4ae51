package warden

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestNamesProduction checks namesProduction against the three words it
// looks for, on scripts that hold each, parts of them and none.
func TestNamesProduction(t *testing.T) {
	parts := []string{"", "prod", "Prod", "PROD", "pROD", "rod", "ROD", "pro", "Pro", "PRO", "d", "D", "kubectl --context ", " x", "p", "P"}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				s := a + b + c
				want := strings.Contains(s, "prod") || strings.Contains(s, "Prod") || strings.Contains(s, "PROD")
				if got := namesProduction(&tool.Call{Shell: []string{"ls", s}}); got != want {
					t.Errorf("namesProduction(%q) = %v, want %v", s, got, want)
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatal("too few scripts")
	}
}

// TestCompound holds compound to what it replaced, strings.ContainsAny of
// the four bytes that join commands, on scripts that hold each, none and
// several, at every place.
func TestCompound(t *testing.T) {
	parts := []string{"", ";", "&", "|", "\n", "&&", "||", "ls", " x ", "\r", "\t", "é", strings.Repeat("a", 40)}
	n, yes := 0, 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				s := a + b + c
				want := strings.ContainsAny(s, ";&|\n")
				if got := compound(&tool.Call{Shell: []string{"ls", s}}); got != want {
					t.Errorf("compound(%q) = %v, want %v", s, got, want)
				}
				if want {
					yes++
				}
				n++
			}
		}
	}
	if yes == 0 || yes == n {
		t.Fatalf("%d of %d scripts compound: the test compares nothing", yes, n)
	}
}

// FuzzCompound holds compound to strings.ContainsAny on any script.
func FuzzCompound(f *testing.F) {
	for _, s := range []string{"", "ls", "a;b", "a && b", "a | b", "a\nb", "echo ';'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := compound(&tool.Call{Shell: []string{s}}), strings.ContainsAny(s, ";&|\n"); got != want {
			t.Errorf("compound(%q) = %v, want %v", s, got, want)
		}
	})
}
