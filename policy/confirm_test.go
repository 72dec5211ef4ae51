package policy_test

import (
	"errors"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// The seed's two outcomes.
const (
	allow   = false // ✅ Allow
	confirm = true  // 🔒 Require confirmation
)

// TestConfirmRiskySeedTables is seed 000's three "Confirmation Rules by
// Policy" tables, transcribed row by row: for each threshold, the outcome
// per risk level with confirm_unknown=True and with confirm_unknown=False.
func TestConfirmRiskySeedTables(t *testing.T) {
	type row struct {
		level                            risk.Level
		confirmUnknownT, confirmUnknownF bool
	}
	tables := []struct {
		name      string
		threshold risk.Level
		rows      []row
	}{
		{
			name:      "ConfirmRisky with threshold=HIGH (Default)",
			threshold: risk.High,
			rows: []row{
				{risk.Low, allow, allow},
				{risk.Medium, allow, allow},
				{risk.High, confirm, confirm},
				{risk.Unknown, confirm, allow},
			},
		},
		{
			name:      "ConfirmRisky with threshold=MEDIUM",
			threshold: risk.Medium,
			rows: []row{
				{risk.Low, allow, allow},
				{risk.Medium, confirm, confirm},
				{risk.High, confirm, confirm},
				{risk.Unknown, confirm, allow},
			},
		},
		{
			name:      "ConfirmRisky with threshold=LOW",
			threshold: risk.Low,
			rows: []row{
				{risk.Low, confirm, confirm},
				{risk.Medium, confirm, confirm},
				{risk.High, confirm, confirm},
				{risk.Unknown, confirm, allow},
			},
		},
	}
	for _, tab := range tables {
		t.Run(tab.name, func(t *testing.T) {
			for _, r := range tab.rows {
				for _, cu := range []bool{true, false} {
					p, err := policy.NewConfirmRisky(tab.threshold, cu)
					if err != nil {
						t.Fatalf("NewConfirmRisky(%v, %v): %v", tab.threshold, cu, err)
					}
					want := r.confirmUnknownF
					if cu {
						want = r.confirmUnknownT
					}
					if got := p.ShouldConfirm(r.level); got != want {
						t.Errorf("threshold %v, confirm_unknown %v, level %v: ShouldConfirm = %v, want %v",
							tab.threshold, cu, r.level, got, want)
					}
				}
			}
		})
	}
}

// TestConfirmRiskyBeyondSeed covers the levels seed 000 does not have:
// safe is below every threshold, critical at or above every one.
func TestConfirmRiskyBeyondSeed(t *testing.T) {
	for _, th := range []risk.Level{risk.Low, risk.Medium, risk.High, risk.Critical} {
		for _, cu := range []bool{true, false} {
			p, err := policy.NewConfirmRisky(th, cu)
			if err != nil {
				t.Fatal(err)
			}
			if p.ShouldConfirm(risk.Safe) {
				t.Errorf("threshold %v: safe asks", th)
			}
			if !p.ShouldConfirm(risk.Critical) {
				t.Errorf("threshold %v: critical does not ask", th)
			}
			// Reflexive: the threshold itself asks.
			if !p.ShouldConfirm(th) {
				t.Errorf("threshold %v: the threshold level does not ask", th)
			}
		}
	}
	p, _ := policy.NewConfirmRisky(risk.Safe, false)
	for _, l := range []risk.Level{risk.Safe, risk.Low, risk.Medium, risk.High, risk.Critical} {
		if !p.ShouldConfirm(l) {
			t.Errorf("threshold safe: %v does not ask", l)
		}
	}
}

func TestNewConfirmRisky(t *testing.T) {
	for _, cu := range []bool{true, false} {
		p, err := policy.NewConfirmRisky(risk.Unknown, cu)
		if !errors.Is(err, policy.ErrUnknownThreshold) {
			t.Errorf("NewConfirmRisky(unknown, %v) = %+v, %v; want ErrUnknownThreshold", cu, p, err)
		}
	}
	if _, err := policy.NewConfirmRisky(risk.Level(9), true); err == nil {
		t.Error("NewConfirmRisky accepted an invalid level")
	}
	p, err := policy.NewConfirmRisky(risk.Medium, false)
	if err != nil || p.Threshold() != risk.Medium || p.ConfirmUnknown() {
		t.Errorf("NewConfirmRisky(medium, false) = threshold %v, confirm_unknown %v, %v", p.Threshold(), p.ConfirmUnknown(), err)
	}
	if p.Name() != "confirm_risky" {
		t.Errorf("Name = %q", p.Name())
	}
}

func TestDefaultConfirmRisky(t *testing.T) {
	d := policy.DefaultConfirmRisky()
	if d.Threshold() != risk.High || !d.ConfirmUnknown() {
		t.Errorf("default: threshold %v, confirm_unknown %v; want high, true", d.Threshold(), d.ConfirmUnknown())
	}
	n, _ := policy.NewConfirmRisky(risk.High, true)
	if d != n {
		t.Errorf("DefaultConfirmRisky() = %+v, NewConfirmRisky(high, true) = %+v", d, n)
	}
}

// TestConfirmRiskyZeroValueFailsClosed: the zero value has no valid
// threshold, so it must ask about everything.
func TestConfirmRiskyZeroValueFailsClosed(t *testing.T) {
	var p policy.ConfirmRisky
	for _, l := range []risk.Level{risk.Unknown, risk.Safe, risk.Low, risk.Medium, risk.High, risk.Critical} {
		if !p.ShouldConfirm(l) {
			t.Errorf("zero ConfirmRisky allows %v", l)
		}
	}
}

func TestAlwaysNeverConfirm(t *testing.T) {
	for _, l := range []risk.Level{risk.Unknown, risk.Safe, risk.Low, risk.Medium, risk.High, risk.Critical} {
		if !(policy.AlwaysConfirm{}).ShouldConfirm(l) {
			t.Errorf("AlwaysConfirm allows %v", l)
		}
		if (policy.NeverConfirm{}).ShouldConfirm(l) {
			t.Errorf("NeverConfirm asks about %v", l)
		}
	}
	if (policy.AlwaysConfirm{}).Name() != "always_confirm" || (policy.NeverConfirm{}).Name() != "never_confirm" {
		t.Error("wrong names")
	}
}

// assessed builds the assessment Decide sees: a level, and whether some
// analyzer could not assess.
func assessed(l risk.Level, unknown bool) *risk.Assessment {
	f := []risk.Finding{{Analyzer: "t", Rule: "t.x", Level: l, Reason: "r", Reversible: true}}
	if unknown && l != risk.Unknown {
		f = append(f, risk.Finding{Analyzer: "u", Rule: "u.error", Level: risk.Unknown, Reason: "u failed"})
	}
	a := risk.Combine(f)
	return &a
}

func TestDecide(t *testing.T) {
	lenient, _ := policy.NewConfirmRisky(risk.High, false)
	tests := []struct {
		name    string
		p       policy.ConfirmationPolicy
		level   risk.Level
		unknown bool
		want    risk.Verdict
	}{
		{"default: safe", policy.DefaultConfirmRisky(), risk.Safe, false, risk.Allow},
		{"default: medium", policy.DefaultConfirmRisky(), risk.Medium, false, risk.Allow},
		{"default: high", policy.DefaultConfirmRisky(), risk.High, false, risk.Ask},
		{"default: critical", policy.DefaultConfirmRisky(), risk.Critical, false, risk.Ask},
		{"default: unknown", policy.DefaultConfirmRisky(), risk.Unknown, true, risk.Ask},
		{"default: medium with an unknown part", policy.DefaultConfirmRisky(), risk.Medium, true, risk.Ask},
		{"default: safe with an unknown part", policy.DefaultConfirmRisky(), risk.Safe, true, risk.Ask},
		{"confirm_unknown false: unknown", lenient, risk.Unknown, true, risk.Allow},
		{"confirm_unknown false: medium with an unknown part", lenient, risk.Medium, true, risk.Allow},
		{"confirm_unknown false: high with an unknown part", lenient, risk.High, true, risk.Ask},
		{"always: safe", policy.AlwaysConfirm{}, risk.Safe, false, risk.Ask},
		{"never: critical", policy.NeverConfirm{}, risk.Critical, false, risk.Allow},
		{"never: unknown", policy.NeverConfirm{}, risk.Unknown, true, risk.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := assessed(tt.level, tt.unknown)
			if a.Level != tt.level || a.Unknown != tt.unknown {
				t.Fatalf("builder made level %v unknown %v", a.Level, a.Unknown)
			}
			d := policy.Decide(a, tt.p)
			if d.Verdict != tt.want {
				t.Errorf("Decide = %v, want %v", d, tt.want)
			}
			if d.Rule != tt.p.Name() {
				t.Errorf("Rule = %q, want %q", d.Rule, tt.p.Name())
			}
			if d.Verdict == risk.Ask && len(d.Reasons) == 0 {
				t.Error("ask without a reason")
			}
		})
	}
}
