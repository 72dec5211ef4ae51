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
