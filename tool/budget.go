package tool

import (
	"fmt"
	"math"
)

// Budget counts the work spent assessing one call, in units of work
// rather than wall time (bytes expanded, words resolved, nodes walked,
// analyzer steps), so that no input, however shaped, costs more than a
// bounded amount. Every preparer and analyzer that does work in
// proportion to its input charges the call's budget; once it is spent,
// the charger stops and the engine reports the action as Unknown with
// the reason. A Budget is used by one goroutine at a time.
type Budget struct {
	left  int64
	total int64
	out   string // what ran out first
}

// DefaultWork is the work one call may cost. A unit is about a
// nanosecond of analysis (the chargers weigh bytes, nodes, commands and
// fields by what they cost), so this is some 16 ms on this project's
// reference machine: the hostile inputs that exhaust it (bench/hostile.sh)
// take 20 to 50 ms in the engine on a loaded 2-core machine, while no
// action of the eval corpora uses more than 40,000 units.
const DefaultWork = 16 << 20

// NewBudget returns a budget of n units.
func NewBudget(n int64) *Budget { return &Budget{left: n, total: n} }

// Charge spends n units on what (a short noun: "shell expansion") and
// reports whether the budget still holds. A nil Budget never runs out.
func (b *Budget) Charge(n int, what string) bool {
	if b == nil {
		return true
	}
	if b.left < 0 {
		return false
	}
	b.left -= int64(n)
	if b.left < 0 {
		b.out = what
		return false
	}
	return true
}

// Left returns the units the budget has left (none once it ran out); a
// nil Budget has all of them.
func (b *Budget) Left() int64 {
	switch {
	case b == nil:
		return math.MaxInt64
	case b.left < 0:
		return 0
	}
	return b.left
}

// Spent reports whether the budget ran out.
func (b *Budget) Spent() bool { return b != nil && b.left < 0 }

// Used returns the units charged so far.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	if b.left < 0 {
		return b.total
	}
	return b.total - b.left
}

// Reason says what ran out, for the Unknown finding ("" while it holds).
func (b *Budget) Reason() string {
	if !b.Spent() {
		return ""
	}
	return fmt.Sprintf("the work budget of %d units ran out in %s: the rest of the action was not assessed", b.total, b.out)
}
