package policy

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestLevelReasons checks the reasons made once for the built-in
// confirmation policies against those levelReason writes for any other
// name, and that a name that is no built-in's gets the latter.
func TestLevelReasons(t *testing.T) {
	n := 0
	for _, name := range []string{"confirm_risky", "always_confirm", "never_confirm", "my_policy", "", "confirm_risk"} {
		if got := builtinReasons(name) != nil; got != (name == "confirm_risky" || name == "always_confirm" || name == "never_confirm") {
			t.Errorf("builtinReasons(%q) != nil is %v", name, got)
		}
		for l := risk.Unknown; l <= risk.Critical+1; l++ {
			for _, asks := range []bool{true, false} {
				want := name + " does not ask about " + l.String() + " actions"
				if asks {
					want = name + " asks about " + l.String() + " actions"
				}
				if got := levelReason(name, asks, l); got != want {
					t.Errorf("levelReason(%q, %v, %v) = %q, want %q", name, asks, l, got, want)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing compared")
	}
}
