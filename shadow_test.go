package warden_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// In shadow mode the engine decides as it would enforcing, and marks
// the decision, and its event, as not enforced; a decision that could
// not be recorded is enforced (nothing runs unrecorded).
func TestShadowMode(t *testing.T) {
	ctx := context.Background()
	p, err := policy.Parse("p.yaml", []byte("enforce: false\ndeny: ['Bash(terraform destroy:*)']\n"))
	if err != nil || !p.Shadow {
		t.Fatalf("enforce: false: %v", err)
	}
	enforced := corpusEngine(t)
	tr := newTrail(t)
	shadow := corpusEngine(t, warden.WithPolicy(p), warden.WithAudit(tr.log))
	for _, cmd := range []string{"rm -rf ~", "terraform destroy", "ls -la", "curl http://169.254.169.254/latest/meta-data/"} {
		a := bashAction(cmd, "s1")
		_, want, _ := enforced.Check(ctx, a)
		_, got, _ := shadow.Check(ctx, a)
		if !got.Shadow || got.Verdict != want.Verdict && cmd != "terraform destroy" {
			t.Errorf("%s: shadow %+v, enforced %+v", cmd, got, want)
		}
	}
	evs := tr.events(t)
	for _, ev := range evs {
		if !ev.Shadow() || ev.Decision == nil || !ev.Decision.Shadow {
			t.Errorf("event %d is not marked as not enforced: %+v", ev.Seq, ev.Decision)
		}
	}
	if evs[1].Verdict() != risk.Deny || evs[1].Decision.Rule != "deny: Bash(terraform destroy:*)" {
		t.Errorf("a deny rule in shadow mode: %+v", evs[1].Decision)
	}
	if _, d := shadow.Reject(ctx, errors.New("not JSON")); !d.Shadow {
		t.Errorf("a rejected input in shadow mode: %+v", d)
	}

	failing := corpusEngine(t, warden.WithPolicy(p), warden.WithRecorder(func(warden.Recorder) warden.Recorder {
		return warden.RecorderFunc(func(context.Context, *warden.Step) error { return errors.New("disk full") })
	}))
	if _, d, _ := failing.Check(ctx, bashAction("ls -la", "")); d.Verdict != risk.Deny || d.Shadow || d.Stage != risk.StageRecord {
		t.Errorf("unrecorded in shadow mode: %+v, want an enforced deny", d)
	}
	var ev audit.Event
	if ev.Shadow() {
		t.Error("an event without a decision is in shadow mode")
	}
}
