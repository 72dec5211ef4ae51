package risk

import (
	"errors"
	"fmt"
	"strings"
)

// Level is how much harm an action can do. Safe < Low < Medium < High <
// Critical are ordered; Unknown is not ordered and comparing it is an error:
// policies decide what Unknown means.
type Level int8

// The levels. The zero value is Unknown.
const (
	Unknown Level = iota
	Safe
	Low
	Medium
	High
	Critical
)

// ErrUnknownLevel is returned when Unknown is compared with another level.
var ErrUnknownLevel = errors.New("risk: unknown level cannot be compared")

var levelNames = [...]string{Unknown: "unknown", Safe: "safe", Low: "low", Medium: "medium", High: "high", Critical: "critical"}

// String returns the lower-case name of l.
func (l Level) String() string {
	if l < Unknown || l > Critical {
		return fmt.Sprintf("level(%d)", int8(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level name in any case ("high", "HIGH", "High").
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if strings.EqualFold(s, n) {
			return Level(i), nil
		}
	}
	return Unknown, fmt.Errorf("risk: invalid level %q (want safe, low, medium, high, critical or unknown)", s)
}

// Valid reports whether l is one of the defined levels, Unknown included.
func (l Level) Valid() bool { return l >= Unknown && l <= Critical }

// IsRiskier reports whether l is riskier than other; with reflexive set, a
// level is riskier than itself (High.IsRiskier(High, true) is true), which is
// how thresholds are compared. Comparing Unknown, on either side, returns
// ErrUnknownLevel.
func (l Level) IsRiskier(other Level, reflexive bool) (bool, error) {
	if l == Unknown || other == Unknown || !l.Valid() || !other.Valid() {
		return false, ErrUnknownLevel
	}
	if reflexive {
		return l >= other, nil
	}
	return l > other, nil
}

// AtLeast reports whether l is a concrete level at or above min. Unknown is
// never at least anything; callers that must treat Unknown specially check
// for it first.
func (l Level) AtLeast(min Level) bool {
	return l != Unknown && min != Unknown && l.Valid() && min.Valid() && l >= min
}

// MarshalText writes the lower-case name.
func (l Level) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("risk: invalid level %d", int8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText accepts a level name in any case.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// SecurityRisk is the four-level view used by OpenHands: LOW, MEDIUM, HIGH
// and UNKNOWN.
type SecurityRisk string

// The OpenHands levels.
const (
	SecurityRiskUnknown SecurityRisk = "UNKNOWN"
	SecurityRiskLow     SecurityRisk = "LOW"
	SecurityRiskMedium  SecurityRisk = "MEDIUM"
	SecurityRiskHigh    SecurityRisk = "HIGH"
)

// SecurityRisk maps l to the OpenHands view: safe and low are LOW, medium is
// MEDIUM, high and critical are HIGH.
func (l Level) SecurityRisk() SecurityRisk {
	switch l {
	case Safe, Low:
		return SecurityRiskLow
	case Medium:
		return SecurityRiskMedium
	case High, Critical:
		return SecurityRiskHigh
	}
	return SecurityRiskUnknown
}

// ParseSecurityRisk reads an OpenHands level (any case) as a Level: LOW is
// Low, MEDIUM is Medium, HIGH is High, anything else is Unknown.
func ParseSecurityRisk(s string) Level {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "LOW":
		return Low
	case "MEDIUM":
		return Medium
	case "HIGH":
		return High
	}
	return Unknown
}

// Score is a risk score from 0 to 100. Bands: safe 0–9, low 10–39,
// medium 40–79, high 80–94, critical 95–100.
type Score int

// Level returns the band s falls in; scores outside 0–100 are clamped.
func (s Score) Level() Level {
	switch {
	case s >= 95:
		return Critical
	case s >= 80:
		return High
	case s >= 40:
		return Medium
	case s >= 10:
		return Low
	}
	return Safe
}

// Score returns the score a finding of level l contributes: a fixed value
// inside l's band (safe 0, low 20, medium 50, high 85, critical 97), so
// that Score().Level() == l and "score ≥ 80" means "level ≥ high".
func (l Level) Score() Score {
	switch l {
	case Safe:
		return 0
	case Low:
		return 20
	case Medium:
		return 50
	case High:
		return 85
	case Critical:
		return 97
	}
	return 0
}
