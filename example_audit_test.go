package warden_test

import (
	"context"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// An engine with an audit trail records each answer: the check that
// asked, the person's approval (who and why), and the check it then
// allowed. The trail verifies with the key's public half.
func ExampleWithAudit() {
	ctx := context.Background()
	keys, _ := audit.GenerateKeys() // or audit.OpenKeys(path), audit.KeysFromEnv()
	trail := audit.NewMemory()      // or a store's backend
	eng, _ := warden.New(warden.WithAnalyzers(deleteAnalyzer{}), warden.WithAudit(audit.NewLog(trail, keys)))

	clean := risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm -rf build"}, SessionID: "s1"}
	eng.Check(ctx, clean)
	eng.Approve(ctx, clean, policy.ScopeSession, warden.By("ana"), warden.Because("the build directory"))
	eng.Check(ctx, clean)

	trail.Scan(ctx, audit.Filter{}, func(r *audit.Record) error {
		ev, _ := audit.Decode(r)
		switch ev.Kind {
		case audit.KindCheck:
			fmt.Println(ev.Seq, ev.Kind, ev.Decision.Verdict)
		case audit.KindApprove:
			fmt.Println(ev.Seq, ev.Kind, "by", ev.Approval.By+":", ev.Approval.Reason)
		}
		return nil
	})
	rep, _ := audit.Verify(ctx, trail, keys.Public())
	fmt.Println("verified:", rep.OK)
	// Output:
	// 1 check ask
	// 2 approve by ana: the build directory
	// 3 check allow
	// verified: true
}
