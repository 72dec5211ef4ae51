package hook

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// A decision the engine made in shadow mode (the policy's enforce:
// false: risk.Decision.Shadow) blocks in no agent, without WithShadow,
// and its reply says what would have happened; the same decision
// enforced blocks.
func TestShadowDecision(t *testing.T) {
	for name, a := range Adapters() {
		for _, p := range parsed(t, a) {
			if c, _ := a.Parse([]byte(p)); c.Event != Before {
				continue
			}
			for _, v := range []risk.Verdict{risk.Deny, risk.Ask} {
				d := risk.Decision{Verdict: v, Rule: "confirm_risky", Reasons: []string{"a reason"}, Shadow: true}
				r := Run(context.Background(), a, strings.NewReader(p), &fakeEngine{d: d})
				if agentRules[name].blocks(r) {
					t.Errorf("%s: %s in shadow mode blocks: %s", name, v, show(r))
				}
				if !strings.Contains(string(r.Stdout)+string(r.Stderr), "shadow") {
					t.Errorf("%s: %s in shadow mode: the reply does not say so: %s", name, v, show(r))
				}
				if v == risk.Deny {
					d.Shadow = false
					checkBlocks(t, name, Run(context.Background(), a, strings.NewReader(p), &fakeEngine{d: d}), "an enforced deny")
				}
			}
		}
	}
}
