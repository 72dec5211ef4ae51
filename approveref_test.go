package warden_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// refEngine is an engine recording in a trail of its own, its actions
// working in dir, with policy p (nil: the default).
func refEngine(t *testing.T, dir string, p *policy.Policy) (*warden.Engine, *trail) {
	t.Helper()
	tr := newTrail(t)
	opts := []warden.Option{warden.WithAudit(tr.log), clock(), warden.WithCwd(dir), warden.WithHome("/home/user")}
	if p != nil {
		opts = append(opts, warden.WithPolicy(p))
	}
	eng, err := warden.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return eng, tr
}

// checked checks a and returns its assessment and decision.
func checked(t *testing.T, eng *warden.Engine, a risk.Action) (risk.Assessment, risk.Decision) {
	t.Helper()
	as, d, err := eng.Check(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	return as, d
}

// TestApproveRefOnce: an action asked about is approved once by its
// reference: the next identical call of its conversation runs, one time;
// the call after is asked about again. The approval and the check it
// allowed are each one event; the approval names the check it answers.
func TestApproveRefOnce(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	eng, tr := refEngine(t, dir, nil)
	push := bashAction("git push --force origin main", "s1")
	_, d := checked(t, eng, push)
	if d.Verdict != risk.Ask || len(d.Ref) < audit.RefLen || audit.ShortRef(d.Ref) != d.Ref || !slices.Equal(d.Approvable, []string{"once", "session", "project"}) {
		t.Fatalf("before: %+v", d)
	}
	hint := warden.ApproveHint(d, "")
	if want := "warden approve " + d.Ref + " --once|--session|--project"; !strings.Contains(hint, want) {
		t.Errorf("hint %q, want it to name %q", hint, want)
	}
	found, ap, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeOnce, warden.By("ana"), warden.Because("the release"))
	if err != nil || ap.Rule != "exact action "+d.Ref || ap.Scope != "once" || ap.Of != 1 || found.Check.Seq != 1 {
		t.Fatalf("ApproveRef = %+v, %+v, %v", found, ap, err)
	}
	if _, d2 := checked(t, eng, push); d2.Verdict != risk.Allow || d2.Rule != "allow: exact action "+d.Ref || d2.Layer != policy.LayerApproval {
		t.Errorf("the approved call: %+v", d2)
	}
	if _, d3 := checked(t, eng, push); d3.Verdict != risk.Ask {
		t.Errorf("the approval was used twice: %+v", d3)
	}
	evs := tr.events(t)
	if len(evs) != 4 {
		t.Fatalf("%d events, want check, approve, check, check", len(evs))
	}
	app := evs[1]
	want := audit.Approval{By: "ana", Reason: "the release", Scope: "once", Rule: "exact action " + d.Ref, Of: 1}
	if app.Kind != audit.KindApprove || app.Approval == nil || *app.Approval != want || app.ActionHash != evs[0].ActionHash || app.Session != "s1" {
		t.Errorf("approval event %+v %+v", app, app.Approval)
	}
	if evs[2].Verdict() != risk.Allow || evs[2].ActionHash != evs[0].ActionHash || evs[2].Decision.Ref != d.Ref {
		t.Errorf("the allowed check's event: %+v", evs[2].Decision)
	}
}

// TestApproveRefBindsExactly: an approval by reference applies to the
// exact action recorded and to nothing else: not with one argument
// different, not with another secret (which the trail masks alike), not
// in another conversation; and the one-time approval waits for its own
// action.
func TestApproveRefBindsExactly(t *testing.T) {
	ctx := context.Background()
	eng, tr := refEngine(t, t.TempDir(), nil)
	const tokA, tokB = "glpat-4rWLhnPUrBxjhHRIdIih", "glpat-PJJrPvgRTT2PQCPXvySs"
	send := func(tok, session string) risk.Action {
		return bashAction(`curl --header "PRIVATE-TOKEN: `+tok+`" https://gitlab.example.com/api/v4/projects`, session)
	}
	_, d := checked(t, eng, send(tokA, "s1"))
	if d.Verdict == risk.Allow || d.Ref == "" {
		t.Fatalf("sending a token: %+v", d)
	}
	if _, _, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeOnce, warden.By("ana")); err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]risk.Action{
		"another secret":       send(tokB, "s1"),
		"another argument":     bashAction(`curl --header "PRIVATE-TOKEN: `+tokA+`" https://gitlab.example.com/api/v4/project`, "s1"),
		"another conversation": send(tokA, "s2"),
		"another cwd":          func() risk.Action { a := send(tokA, "s1"); a.Cwd = "/tmp"; return a }(),
	} {
		if _, d := checked(t, eng, a); d.Verdict == risk.Allow {
			t.Errorf("%s: allowed by the approval of another action: %+v", name, d)
		}
	}
	if _, d := checked(t, eng, send(tokA, "s1")); d.Verdict != risk.Allow {
		t.Errorf("the approved action, after the others: %+v", d)
	}
	// the trail shows both secrets alike, masked, under different hashes
	var a, b *audit.Event
	for _, ev := range tr.events(t) {
		if ev.Kind != audit.KindCheck || ev.Session != "s1" {
			continue
		}
		if ev.ActionHash == tr.keys.ActionHash(ptr(send(tokA, "s1"))) {
			a = ev
		}
		if ev.ActionHash == tr.keys.ActionHash(ptr(send(tokB, "s1"))) {
			b = ev
		}
	}
	if a == nil || b == nil || !reflect.DeepEqual(a.Action, b.Action) || strings.Contains(a.Action.Arguments["command"].(string), tokA) {
		t.Errorf("the trail's two actions: %+v, %+v", a, b)
	}
}

func ptr[T any](v T) *T { return &v }

// TestApproveRefSession: approved for the session by reference, the
// exact action runs for the rest of its conversation, as often as asked,
// and nowhere else; a locked action too, exactly.
func TestApproveRefSession(t *testing.T) {
	ctx := context.Background()
	eng, tr := refEngine(t, t.TempDir(), nil)
	for _, cmd := range []string{"kubectl delete deployment web-1 -n staging", "rm -rf /home/user"} {
		a := bashAction(cmd, "s1")
		as, d := checked(t, eng, a)
		if d.Verdict != risk.Ask {
			t.Fatalf("%s: %+v", cmd, d)
		}
		if as.Locked {
			if h := warden.ApproveHint(d, ""); slices.Contains(d.Approvable, "project") || !strings.HasSuffix(h, "--once|--session (--once: this call, one time; --session: the rest of this conversation)") {
				t.Errorf("%s: a locked action offered for the project: %+v %q", cmd, d.Approvable, h)
			}
		}
		if _, ap, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeSession); err != nil || ap.Rule != "exact action "+d.Ref {
			t.Fatalf("%s: %+v %v", cmd, ap, err)
		}
		for range 3 {
			if _, d := checked(t, eng, a); d.Verdict != risk.Allow {
				t.Errorf("%s: approved for the session, asked again: %+v", cmd, d)
			}
		}
		if _, d := checked(t, eng, bashAction(cmd, "s2")); d.Verdict == risk.Allow {
			t.Errorf("%s: the session approval leaks into s2", cmd)
		}
	}
	n := 0
	for _, ev := range tr.events(t) {
		if ev.Kind == audit.KindApprove && ev.Approval.Scope == "session" && ev.Approval.Of > 0 {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d session approvals recorded, want 2", n)
	}
}

// TestApproveRefProject: approved for the project by reference, the
// action's narrowest rule is written to the project's policy file; a
// locked action, and one the trail holds masked, are refused, recorded
// as refused, and write nothing.
func TestApproveRefProject(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	eng, tr := refEngine(t, dir, nil)
	file := filepath.Join(dir, ".warden", "policy.yaml")

	locked := bashAction("rm -rf /home/user", "s1")
	_, d := checked(t, eng, locked)
	if _, _, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeProject, warden.By("ana")); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("a locked action approved for the project: %v", err)
	}
	secret := risk.Action{Tool: "Write", SessionID: "s1", Arguments: map[string]any{"file_path": filepath.Join(dir, "deploy.env"), "content": "GITLAB_TOKEN=glpat-PJJrPvgRTT2PQCPXvySs\n"}}
	_, ds := checked(t, eng, secret)
	if slices.Contains(ds.Approvable, "project") {
		t.Errorf("an action recorded masked is offered for the project: %+v", ds)
	}
	if ds.Verdict == risk.Allow {
		// the policy allowed it: nothing to approve, but the refusal is
		// the same
		t.Logf("writing a token: %+v", ds)
	}
	if _, _, err := eng.ApproveRef(ctx, ds.Ref, policy.ScopeProject, warden.By("ana")); err == nil || !strings.Contains(err.Error(), "masked") {
		t.Errorf("an action recorded masked approved for the project: %v", err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused project approval wrote the project's file")
	}

	a := bashAction("kubectl delete deployment web-1 -n staging", "s1")
	_, d = checked(t, eng, a)
	_, ap, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeProject, warden.By("ana"))
	if err != nil || ap.Rule != "Bash(kubectl delete deployment web-1 -n staging)" || ap.File != file {
		t.Fatalf("ApproveRef(project) = %+v, %v", ap, err)
	}
	rule := ap.Rule
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), rule) {
		t.Fatalf("project file %q, %v", data, err)
	}
	if _, d := checked(t, eng, bashAction("kubectl delete deployment web-1 -n staging", "s9")); d.Verdict != risk.Allow || d.Origin != file+" (approved)" || d.Layer != policy.LayerApproval {
		t.Errorf("approved for the project, another conversation: %+v", d)
	}
	var refused, made int
	for _, ev := range tr.events(t) {
		if ev.Kind != audit.KindApprove {
			continue
		}
		if ev.Error != "" {
			refused++
		} else if ev.Approval.Scope == "project" && ev.Approval.Rule == rule && ev.Approval.File == file {
			made++
		}
	}
	if refused != 2 || made != 1 {
		t.Errorf("%d refusals and %d project approvals recorded, want 2 and 1", refused, made)
	}
}

// An unknown reference, or one that is not a reference, is an error
// recorded nowhere; a lone action (no conversation) can be approved for
// the project only.
func TestApproveRefErrors(t *testing.T) {
	ctx := context.Background()
	eng, tr := refEngine(t, t.TempDir(), nil)
	_, d := checked(t, eng, bashAction("git push --force origin main", ""))
	for _, ref := range []string{"0123456789ab", "12345", "123456789012", "zzzzzzzzzzzz"} {
		if _, _, err := eng.ApproveRef(ctx, ref, policy.ScopeOnce); err == nil {
			t.Errorf("ApproveRef(%q) approved something", ref)
		} else if ref == "0123456789ab" && !errors.Is(err, audit.ErrUnknownRef) {
			t.Errorf("ApproveRef(%q): %v, want ErrUnknownRef", ref, err)
		}
	}
	if !slices.Equal(d.Approvable, []string{"project"}) {
		t.Errorf("a lone action: approvable %v", d.Approvable)
	}
	if _, _, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeOnce); err == nil || !strings.Contains(err.Error(), "no session_id") {
		t.Errorf("a lone action approved once: %v", err)
	}
	if n := len(tr.events(t)); n != 2 {
		t.Errorf("%d events, want the check and the refused approval", n)
	}
	noTrail := corpusEngine(t)
	if _, _, err := noTrail.ApproveRef(ctx, d.Ref, policy.ScopeOnce); err == nil {
		t.Error("an engine without a trail approved by reference")
	}
}

// A deny rule is not offered for approval (no approval passes it); an
// ask rule is: a person's exact approval is the answer it asks for.
func TestApproveRefRules(t *testing.T) {
	ctx := context.Background()
	p, err := policy.Parse("p.yaml", []byte("deny: ['Bash(terraform destroy:*)']\nask: ['Bash(git push:*)']\n"))
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := refEngine(t, t.TempDir(), p)
	_, d := checked(t, eng, bashAction("terraform destroy -auto-approve", "s1"))
	if d.Verdict != risk.Deny || len(d.Approvable) != 0 || warden.ApproveHint(d, "") != "" || d.Layer != "explicit" || d.Origin != "p.yaml:2:8" && !strings.HasPrefix(d.Origin, "p.yaml:") {
		t.Errorf("a deny rule: %+v, hint %q", d, warden.ApproveHint(d, ""))
	}
	push := bashAction("git push origin main", "s1")
	_, d = checked(t, eng, push)
	if d.Verdict != risk.Ask || !strings.HasPrefix(d.Rule, "ask: ") || len(d.Approvable) == 0 {
		t.Fatalf("an ask rule: %+v", d)
	}
	if _, _, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeOnce); err != nil {
		t.Fatal(err)
	}
	if _, d := checked(t, eng, push); d.Verdict != risk.Allow {
		t.Errorf("approved once past an ask rule: %+v", d)
	}
}

// Two checks of the approved action at once: the one-time approval
// allows one of them.
func TestApproveRefOnceConcurrent(t *testing.T) {
	ctx := context.Background()
	eng, _ := refEngine(t, t.TempDir(), nil)
	a := bashAction("git push --force origin main", "s1")
	for round := range 20 {
		_, d := checked(t, eng, a)
		if d.Verdict != risk.Ask {
			t.Fatalf("round %d: %+v", round, d)
		}
		if _, _, err := eng.ApproveRef(ctx, d.Ref, policy.ScopeOnce); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		verdicts := make([]risk.Verdict, 4)
		for i := range verdicts {
			wg.Go(func() { _, d, _ := eng.Check(ctx, a); verdicts[i] = d.Verdict })
		}
		wg.Wait()
		if n := len(slices.DeleteFunc(slices.Clone(verdicts), func(v risk.Verdict) bool { return v != risk.Allow })); n != 1 {
			t.Fatalf("round %d: %d of 4 concurrent checks allowed: %v", round, n, verdicts)
		}
	}
}

// Engine.Approve takes the once scope too, for an action given whole.
func TestApproveOnce(t *testing.T) {
	ctx := context.Background()
	for _, withTrail := range []bool{false, true} {
		eng := corpusEngine(t)
		if withTrail {
			eng, _ = refEngine(t, "/home/user/project", nil)
		}
		a := bashAction("git push --force origin main", "s1")
		rule, err := eng.Approve(ctx, a, policy.ScopeOnce)
		if err != nil || !strings.HasPrefix(rule, "exact action ") {
			t.Fatalf("trail %v: Approve(once) = %q, %v", withTrail, rule, err)
		}
		if _, d := checked(t, eng, a); d.Verdict != risk.Allow {
			t.Errorf("trail %v: approved once: %+v", withTrail, d)
		}
		if _, d := checked(t, eng, a); d.Verdict != risk.Ask {
			t.Errorf("trail %v: approved once, allowed twice: %+v", withTrail, d)
		}
	}
}

// ApproveHint names the one command, with the scopes the decision
// allows and the store quoted for a shell; nothing for a decision no
// approval changes.
func TestApproveHint(t *testing.T) {
	ask := risk.Decision{Verdict: risk.Ask, Ref: "3f9a1c0d2b7e", Approvable: []string{"once", "session", "project"}}
	for _, c := range []struct {
		d     risk.Decision
		store string
		want  string
	}{
		{ask, "", "warden approve 3f9a1c0d2b7e --once|--session|--project (--once: this call, one time; --session: the rest of this conversation; --project: an allow rule in the project's policy)"},
		{ask, "/var/lib/w.db", "warden approve 3f9a1c0d2b7e --store /var/lib/w.db --once|"},
		{ask, "/tmp/my store/it's.db", `warden approve 3f9a1c0d2b7e --store '/tmp/my store/it'\''s.db' --once|`},
		{risk.Decision{Verdict: risk.Deny, Ref: "3f9a1c0d2b7e", Approvable: []string{"project"}}, "", "warden approve 3f9a1c0d2b7e --project (--project: an allow rule in the project's policy)"},
		{risk.Decision{Verdict: risk.Allow, Ref: "3f9a1c0d2b7e", Approvable: []string{"once"}}, "", ""},
		{risk.Decision{Verdict: risk.Deny, Ref: "3f9a1c0d2b7e"}, "", ""},
		{risk.Decision{Verdict: risk.Ask, Approvable: []string{"once"}}, "", ""},
	} {
		if got := warden.ApproveHint(c.d, c.store); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("ApproveHint(%+v, %q) = %q, want %q…", c.d, c.store, got, c.want)
		}
	}
}

// DeclineRef records a person's refusal of the action and withdraws its
// approvals in its conversation, once and lasting, in the same save.
func TestDeclineRef(t *testing.T) {
	ctx := context.Background()
	eng, tr := refEngine(t, t.TempDir(), nil)
	a := bashAction("git push --force origin main", "s1")
	_, d := checked(t, eng, a)
	for _, sc := range []policy.Scope{policy.ScopeOnce, policy.ScopeSession} {
		if _, _, err := eng.ApproveRef(ctx, d.Ref, sc); err != nil {
			t.Fatal(err)
		}
	}
	found, n, err := eng.DeclineRef(ctx, d.Ref, warden.By("ana"), warden.Because("not today"))
	if err != nil || n != 2 || found.Check.Seq != 1 {
		t.Fatalf("DeclineRef = %v, %d, %v", found, n, err)
	}
	if _, d := checked(t, eng, a); d.Verdict != risk.Ask {
		t.Errorf("declined, then: %+v", d)
	}
	evs := tr.events(t)
	dec := evs[3]
	want := audit.Approval{By: "ana", Reason: "not today", Of: 1}
	if dec.Kind != audit.KindDecline || *dec.Approval != want || dec.ActionHash != evs[0].ActionHash {
		t.Errorf("the refusal's event: %+v %+v", dec, dec.Approval)
	}
	if _, _, err := eng.DeclineRef(ctx, "0123456789ab"); !errors.Is(err, audit.ErrUnknownRef) {
		t.Errorf("an unknown reference: %v", err)
	}
	if n := len(tr.events(t)); n != 5 {
		t.Errorf("%d events, want 5", n)
	}
}
