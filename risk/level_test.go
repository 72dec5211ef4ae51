package risk_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// ordered lists the concrete levels from least to most risky.
var ordered = []risk.Level{risk.Safe, risk.Low, risk.Medium, risk.High, risk.Critical}

func TestLevelOrdering(t *testing.T) {
	for i, a := range ordered {
		for j, b := range ordered {
			strict, err := a.IsRiskier(b, false)
			if err != nil {
				t.Fatalf("%v.IsRiskier(%v, false): unexpected error %v", a, b, err)
			}
			if want := i > j; strict != want {
				t.Errorf("%v.IsRiskier(%v, false) = %v, want %v", a, b, strict, want)
			}
			refl, err := a.IsRiskier(b, true)
			if err != nil {
				t.Fatalf("%v.IsRiskier(%v, true): unexpected error %v", a, b, err)
			}
			if want := i >= j; refl != want {
				t.Errorf("%v.IsRiskier(%v, true) = %v, want %v", a, b, refl, want)
			}
			if got, want := a.AtLeast(b), i >= j; got != want {
				t.Errorf("%v.AtLeast(%v) = %v, want %v", a, b, got, want)
			}
		}
	}
}

func TestIsRiskierReflexive(t *testing.T) {
	for _, l := range ordered {
		if ok, err := l.IsRiskier(l, true); err != nil || !ok {
			t.Errorf("%v.IsRiskier(%v, true) = %v, %v; want true, nil", l, l, ok, err)
		}
		if ok, err := l.IsRiskier(l, false); err != nil || ok {
			t.Errorf("%v.IsRiskier(%v, false) = %v, %v; want false, nil", l, l, ok, err)
		}
	}
}

func TestIsRiskierUnknown(t *testing.T) {
	bad := []risk.Level{risk.Unknown, risk.Level(42), risk.Level(-3)}
	for _, u := range bad {
		for _, l := range append(ordered, risk.Unknown) {
			for _, refl := range []bool{true, false} {
				if ok, err := u.IsRiskier(l, refl); !errors.Is(err, risk.ErrUnknownLevel) || ok {
					t.Errorf("%v.IsRiskier(%v, %v) = %v, %v; want false, ErrUnknownLevel", u, l, refl, ok, err)
				}
				if ok, err := l.IsRiskier(u, refl); !errors.Is(err, risk.ErrUnknownLevel) || ok {
					t.Errorf("%v.IsRiskier(%v, %v) = %v, %v; want false, ErrUnknownLevel", l, u, refl, ok, err)
				}
			}
		}
		for _, l := range ordered {
			if u.AtLeast(l) || l.AtLeast(u) {
				t.Errorf("AtLeast between %v and %v must be false both ways", u, l)
			}
		}
	}
}

func TestLevelZeroValueIsUnknown(t *testing.T) {
	var l risk.Level
	if l != risk.Unknown {
		t.Fatalf("zero Level = %v, want unknown", l)
	}
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    risk.Level
		wantErr bool
	}{
		{in: "safe", want: risk.Safe},
		{in: "low", want: risk.Low},
		{in: "LOW", want: risk.Low},
		{in: "Low", want: risk.Low},
		{in: "medium", want: risk.Medium},
		{in: "MEDIUM", want: risk.Medium},
		{in: "high", want: risk.High},
		{in: "High", want: risk.High},
		{in: "HIGH", want: risk.High},
		{in: "cRiTiCaL", want: risk.Critical},
		{in: "unknown", want: risk.Unknown},
		{in: "UNKNOWN", want: risk.Unknown},
		{in: "", wantErr: true},
		{in: "severe", wantErr: true},
		{in: "hi", wantErr: true},
		{in: "highest", wantErr: true},
		{in: "3", wantErr: true},
	}
	for _, tt := range tests {
		got, err := risk.ParseLevel(tt.in)
		if tt.wantErr {
			if err == nil {
				t.Errorf("ParseLevel(%q) = %v, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestLevelStringRoundTrip(t *testing.T) {
	for _, l := range append([]risk.Level{risk.Unknown}, ordered...) {
		got, err := risk.ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	if s := risk.Level(42).String(); s != "level(42)" {
		t.Errorf("Level(42).String() = %q", s)
	}
	if risk.Level(42).Valid() || risk.Level(-1).Valid() {
		t.Error("out-of-range levels report Valid")
	}
}

func TestLevelJSON(t *testing.T) {
	for _, l := range append([]risk.Level{risk.Unknown}, ordered...) {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("Marshal(%v): %v", l, err)
		}
		if want := `"` + l.String() + `"`; string(b) != want {
			t.Errorf("Marshal(%v) = %s, want %s", l, b, want)
		}
		var back risk.Level = -1
		if err := json.Unmarshal(b, &back); err != nil || back != l {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", b, back, err, l)
		}
	}
	inputs := map[string]risk.Level{`"HIGH"`: risk.High, `"High"`: risk.High, `"cRITICAL"`: risk.Critical, `"Safe"`: risk.Safe, `"UNKNOWN"`: risk.Unknown}
	for in, want := range inputs {
		var got risk.Level
		if err := json.Unmarshal([]byte(in), &got); err != nil || got != want {
			t.Errorf("Unmarshal(%s) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{`"bogus"`, `3`, `true`, `""`} {
		var got risk.Level
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want an error", in, got)
		}
	}
	if b, err := json.Marshal(risk.Level(42)); err == nil {
		t.Errorf("Marshal(Level(42)) = %s, want an error", b)
	}
}

func TestScoreBands(t *testing.T) {
	tests := []struct {
		score risk.Score
		want  risk.Level
	}{
		{-5, risk.Safe}, // clamped
		{0, risk.Safe},
		{9, risk.Safe},
		{10, risk.Low},
		{39, risk.Low},
		{40, risk.Medium},
		{79, risk.Medium},
		{80, risk.High},
		{94, risk.High},
		{95, risk.Critical},
		{100, risk.Critical},
		{150, risk.Critical}, // clamped
	}
	for _, tt := range tests {
		if got := tt.score.Level(); got != tt.want {
			t.Errorf("Score(%d).Level() = %v, want %v", tt.score, got, tt.want)
		}
	}
}

// TestLevelScoreInBand checks that the score a level contributes lies in
// its own band, so that "score ≥ 80" and "level ≥ high" agree.
func TestLevelScoreInBand(t *testing.T) {
	for _, l := range ordered {
		s := l.Score()
		if s < 0 || s > 100 {
			t.Errorf("%v.Score() = %d, outside 0–100", l, s)
		}
		if got := s.Level(); got != l {
			t.Errorf("%v.Score() = %d, which is in the %v band", l, s, got)
		}
		if (s >= 80) != l.AtLeast(risk.High) {
			t.Errorf("%v.Score() = %d disagrees with level ≥ high", l, s)
		}
	}
}

func TestSecurityRisk(t *testing.T) {
	tests := []struct {
		level risk.Level
		want  risk.SecurityRisk
	}{
		{risk.Safe, risk.SecurityRiskLow},
		{risk.Low, risk.SecurityRiskLow},
		{risk.Medium, risk.SecurityRiskMedium},
		{risk.High, risk.SecurityRiskHigh},
		{risk.Critical, risk.SecurityRiskHigh},
		{risk.Unknown, risk.SecurityRiskUnknown},
	}
	for _, tt := range tests {
		if got := tt.level.SecurityRisk(); got != tt.want {
			t.Errorf("%v.SecurityRisk() = %q, want %q", tt.level, got, tt.want)
		}
	}
	for _, sr := range []risk.SecurityRisk{risk.SecurityRiskLow, risk.SecurityRiskMedium, risk.SecurityRiskHigh, risk.SecurityRiskUnknown} {
		if b, _ := json.Marshal(sr); string(b) != `"`+string(sr)+`"` {
			t.Errorf("Marshal(%q) = %s", sr, b)
		}
	}
}

func TestParseSecurityRisk(t *testing.T) {
	tests := map[string]risk.Level{
		"LOW": risk.Low, "low": risk.Low, "Medium": risk.Medium, "MEDIUM": risk.Medium,
		"HIGH": risk.High, " high ": risk.High,
		"UNKNOWN": risk.Unknown, "": risk.Unknown, "catastrophic": risk.Unknown,
	}
	for in, want := range tests {
		if got := risk.ParseSecurityRisk(in); got != want {
			t.Errorf("ParseSecurityRisk(%q) = %v, want %v", in, got, want)
		}
	}
}
