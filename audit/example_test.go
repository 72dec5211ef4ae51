package audit_test

import (
	"context"
	"fmt"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

// A log appends events to a backend, signing the chain's head; Verify
// checks the chain with the public key.
func Example() {
	ctx := context.Background()
	// A program keeps its key outside the database: audit.OpenKeys of
	// audit.DefaultKeyPath(), or audit.KeysFromEnv on a server.
	keys, err := audit.KeysFromSeed(make([]byte, 32))
	if err != nil {
		panic(err)
	}
	log := audit.NewLog(audit.NewMemory(), keys)
	action := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "rm -rf /"}}
	seq, err := log.Append(ctx, &audit.Event{Kind: audit.KindCheck, Tool: "Bash", Action: action,
		ActionHash: keys.ActionHash(action), Decision: &risk.Decision{Verdict: risk.Deny}})
	if err != nil {
		panic(err)
	}
	rep, err := audit.Verify(ctx, log.Backend(), keys.Public())
	if err != nil {
		panic(err)
	}
	fmt.Println(seq, rep.OK, rep.SignedThrough)
	// Output: 1 true 1
}
