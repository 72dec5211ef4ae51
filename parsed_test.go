package warden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/parsed"
	"github.com/agentwarden/warden/risk"
)

// TestCheckParsed: an action checked under a slot that names it (see
// package parsed), which the engine does not validate again, is answered
// as the same action checked without one; a slot that names another
// action's arguments changes nothing, and an invalid action is rejected
// whatever the slot names.
func TestCheckParsed(t *testing.T) {
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "actions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var slot parsed.Slot
	ctx := parsed.With(context.Background(), &slot)
	answer := func(ctx context.Context, a risk.Action) string {
		as, d, err := eng.Check(ctx, a)
		b, _ := json.Marshal(struct {
			A risk.Assessment
			D risk.Decision
			E string
		}{as, d, errString(err)})
		return string(b)
	}
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		a, _, err := risk.ParseLine(line, eng.Limits(), "output", "tool_response")
		if err != nil {
			continue
		}
		want := answer(context.Background(), a)
		slot.Set(a.Arguments)
		got := answer(ctx, a)
		slot.Set(nil)
		if got != want {
			t.Fatalf("%s: checked as parsed\n %s\nwant\n %s", line, got, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no action parsed")
	}
	bad := risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls\x00"}}
	other := map[string]any{"command": "ls"}
	for _, args := range []map[string]any{nil, other} {
		slot.Set(args)
		if _, _, err := eng.Check(ctx, bad); !risk.IsInputError(err) {
			t.Errorf("slot naming %v: an invalid action was not rejected: %v", args, err)
		}
	}
	slot.Set(nil)
	if parsed.Valid(ctx, other) || parsed.Valid(context.Background(), other) || parsed.Valid(ctx, nil) {
		t.Error("Valid without a slot naming the arguments")
	}
	slot.Set(other)
	if !parsed.Valid(ctx, other) || parsed.Valid(ctx, map[string]any{"command": "ls"}) {
		t.Error("Valid is not the identity of the arguments")
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
