package policy

import (
	"slices"
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

// TestDecideReasonsShared: Decide's reasons, which the built-in policies
// share between decisions, have no room beyond their length, so that a
// caller that appends to a decision's reasons (as the policy's modes do)
// changes no other decision's.
func TestDecideReasonsShared(t *testing.T) {
	n := 0
	for _, p := range []ConfirmationPolicy{ConfirmRisky{}, AlwaysConfirm{}, NeverConfirm{}} {
		for l := risk.Unknown; l <= risk.Critical; l++ {
			for _, unknown := range []bool{false, true} {
				a := risk.Assessment{Level: l, Unknown: unknown}
				d := Decide(&a, p)
				if len(d.Reasons) == 0 || cap(d.Reasons) != len(d.Reasons) {
					t.Fatalf("%s %v unknown=%v: reasons %q, cap %d", p.Name(), l, unknown, d.Reasons, cap(d.Reasons))
				}
				want := slices.Clone(d.Reasons)
				_ = append(d.Reasons, "more")
				if again := Decide(&a, p); !slices.Equal(again.Reasons, want) {
					t.Fatalf("%s %v: after an append to a decision's reasons, the next decision's are %q, want %q", p.Name(), l, again.Reasons, want)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("nothing decided")
	}
}
