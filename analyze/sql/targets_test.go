package sql

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// lookedUp is targets as first written: each of targetKeys looked up.
func lookedUp(c *tool.Call) []string {
	var out []string
	if c.Server != "" {
		out = append(out, c.Server)
	}
	for _, k := range targetKeys {
		if s, ok := c.Action.Arguments[k].(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// TestTargets holds targets, which reads each argument once, to the
// lookup of each key, on argument maps of every mix of keys and values.
func TestTargets(t *testing.T) {
	keys := append(targetKeys[:], "query", "sql", "Host", "DB", "")
	vals := []any{"", "a", "prod-db", 3, nil, []any{"x"}, "b"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		args := map[string]any{}
		for n := rng.IntN(6); n > 0; n-- {
			args[keys[rng.IntN(len(keys))]] = vals[rng.IntN(len(vals))]
		}
		c := &tool.Call{Action: &risk.Action{Tool: "query", Arguments: args}}
		if rng.IntN(3) == 0 {
			c.Server = "srv"
		}
		if got, want := targets(c), lookedUp(c); !slices.Equal(got, want) {
			t.Fatalf("targets(%v) = %q, looked up: %q", args, got, want)
		}
	}
}
