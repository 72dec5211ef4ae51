package warden_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/eval"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// trail is an audit trail in memory, with the keys it signs with.
type trail struct {
	mem  *audit.Memory
	log  *audit.Log
	keys *audit.Keys
}

func newTrail(t testing.TB) *trail {
	t.Helper()
	keys, err := audit.KeysFromSeed(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	mem := audit.NewMemory()
	return &trail{mem: mem, log: audit.NewLog(mem, keys), keys: keys}
}

// clock is a deterministic clock: each reading is a second after the
// last.
func clock() warden.Option {
	var mu sync.Mutex
	t := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	return warden.WithClock(func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	})
}

// records returns every record of the trail, in order.
func (tr *trail) records(t testing.TB) []audit.Record {
	t.Helper()
	var out []audit.Record
	err := tr.mem.Scan(context.Background(), audit.Filter{}, func(r *audit.Record) error {
		out = append(out, audit.Record{Seq: r.Seq, Hash: bytes.Clone(r.Hash), Data: bytes.Clone(r.Data), Time: r.Time,
			Kind: r.Kind, Session: r.Session, Agent: r.Agent, Tool: r.Tool, Verdict: r.Verdict, Level: r.Level})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// events returns the events of the trail, having checked the chain: the
// sequence numbers count from 1, each event names the hash of the one
// before, each record's hash is its data's, its columns agree with it;
// and audit.Verify, with the public key, agrees.
func (tr *trail) events(t testing.TB) []*audit.Event {
	t.Helper()
	var out []*audit.Event
	var prev []byte
	for i, r := range tr.records(t) {
		ev, err := audit.Decode(&r)
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq != int64(i+1) || ev.Prev != hex.EncodeToString(prev) || !bytes.Equal(r.Hash, audit.RecordHash(r.Data)) {
			t.Fatalf("the chain breaks at event %d (seq %d)", i+1, r.Seq)
		}
		prev = r.Hash
		out = append(out, ev)
	}
	verify(t, tr.mem, tr.keys, int64(len(out)))
	return out
}

// verify checks the chain of b, n events long, and its signatures.
func verify(t testing.TB, b audit.Backend, keys *audit.Keys, n int64) {
	t.Helper()
	rep, err := audit.Verify(context.Background(), b, keys.Public())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.Events != n || !rep.KeyChecked || (n > 0 && rep.SignedThrough != n) {
		t.Fatalf("the trail does not verify: %+v", rep)
	}
}

// answer is what the engine answered one check.
type answer struct {
	action risk.Action
	as     risk.Assessment
	d      risk.Decision
	err    error
}

// Every decision made through the Engine produces exactly one event, in
// order, holding the decision the caller got: the labeled actions alone,
// then the sequences, each a conversation of the default session store.
func TestAuditEveryDecision(t *testing.T) {
	ctx := context.Background()
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log), clock())
	var answers []answer
	check := func(a risk.Action) {
		as, d, err := eng.Check(ctx, a)
		answers = append(answers, answer{a, as, d, err})
	}
	for _, file := range []string{"testdata/actions.jsonl", "testdata/sequences.jsonl", "testdata/session_chains.jsonl"} {
		for _, it := range loadItems(t, file) {
			if it.Action != nil {
				check(decodeAction(t, it.Action))
			}
			for _, raw := range it.Steps {
				a := decodeAction(t, raw)
				a.SessionID = it.ID
				check(a)
			}
		}
	}
	evs := tr.events(t)
	if len(evs) != len(answers) || len(answers) < 400 {
		t.Fatalf("%d checks made %d events", len(answers), len(evs))
	}
	var last time.Time
	for i, ev := range evs {
		a := answers[i]
		if ev.Kind != audit.KindCheck || ev.Session != a.action.SessionID || ev.Tool != a.action.Tool {
			t.Fatalf("event %d: %s %q %q, want a check of %s in %q", i+1, ev.Kind, ev.Tool, ev.Session, a.action.Tool, a.action.SessionID)
		}
		if ev.Decision == nil || !reflect.DeepEqual(*ev.Decision, a.d) {
			t.Errorf("event %d (%s): decision %+v, the caller got %+v", i+1, a.action.Tool, ev.Decision, a.d)
		}
		// the engine masks its assessments already: the trail's masking
		// changes nothing in them
		if ev.Assessment == nil || !reflect.DeepEqual(*ev.Assessment, a.as) {
			t.Errorf("event %d: assessment %+v, the caller got %+v", i+1, ev.Assessment, a.as)
		}
		if ev.ActionHash != tr.keys.ActionHash(&a.action) || ev.Action == nil {
			t.Errorf("event %d: action hash %q", i+1, ev.ActionHash)
		}
		if ev.Mode != "default" || len(ev.PolicyHash) != 64 || (ev.Error != "") != (a.err != nil) {
			t.Errorf("event %d: mode %q, policy %q, error %q (%v)", i+1, ev.Mode, ev.PolicyHash, ev.Error, a.err)
		}
		if !ev.Time.After(last) {
			t.Errorf("event %d: time %v is not after %v: not the engine's clock", i+1, ev.Time, last)
		}
		last = ev.Time
	}
}

func loadItems(t *testing.T, file string) []eval.Item {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	items, _, err := eval.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func decodeAction(t *testing.T, raw []byte) risk.Action {
	t.Helper()
	var a risk.Action
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return a
}

// Each entry point records its own event: rejections, approvals (who,
// why, scope, rule), refused approvals (with why), refusals, observations
// (what the output held, never the output) and reported results.
func TestAuditEveryEntryPoint(t *testing.T) {
	ctx := context.Background()
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log), clock())
	push := bashAction("git push --force origin main", "s1")
	eng.Reject(ctx, errors.New("not JSON"))
	if _, _, err := eng.Check(ctx, push); err != nil {
		t.Fatal(err)
	}
	if err := eng.Decline(ctx, push, warden.By("ana"), warden.Because("not on a Friday")); err != nil {
		t.Fatal(err)
	}
	rule, err := eng.Approve(ctx, push, policy.ScopeSession, warden.By("ana"), warden.Because("release"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Approve(ctx, bashAction("rm -rf ~", "s1"), policy.ScopeProject, warden.By("bob")); err == nil {
		t.Fatal("a locked action was approved for the project")
	}
	const output = "API_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\n"
	fs, err := eng.Observe(ctx, bashAction("cat .env", "s1"), output)
	if err != nil || len(fs) == 0 {
		t.Fatalf("observe: %v %v", fs, err)
	}
	code := 1
	if err := eng.Report(ctx, push, audit.Outcome{ExitCode: &code, Error: "remote rejected", Duration: time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := eng.Decline(ctx, risk.Action{}); !risk.IsInputError(err) {
		t.Fatalf("declining no action: %v", err)
	}

	evs := tr.events(t)
	var kinds []audit.Kind
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	want := []audit.Kind{audit.KindReject, audit.KindCheck, audit.KindDecline, audit.KindApprove, audit.KindApprove,
		audit.KindObserve, audit.KindReport, audit.KindDecline}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	rej, chk, dec, app, refused, obs, rep, bad := evs[0], evs[1], evs[2], evs[3], evs[4], evs[5], evs[6], evs[7]
	if rej.Action != nil || rej.ActionHash != "" || rej.Error != "not JSON" || rej.Decision == nil {
		t.Errorf("reject: %+v", rej)
	}
	if dec.Approval == nil || *dec.Approval != (audit.Approval{By: "ana", Reason: "not on a Friday"}) || dec.ActionHash != chk.ActionHash || dec.Decision != nil {
		t.Errorf("decline: %+v %+v", dec, dec.Approval)
	}
	if app.Approval == nil || *app.Approval != (audit.Approval{By: "ana", Reason: "release", Scope: "session", Rule: rule}) || app.ActionHash != chk.ActionHash || app.Error != "" {
		t.Errorf("approve: %+v %+v", app, app.Approval)
	}
	if refused.Approval == nil || refused.Approval.By != "bob" || refused.Approval.Scope != "project" || !strings.Contains(refused.Error, "locked") {
		t.Errorf("refused approval: %+v %+v", refused, refused.Approval)
	}
	data, _ := json.Marshal(obs)
	if obs.Assessment == nil || len(obs.Assessment.Findings) != len(fs) || bytes.Contains(data, []byte("4eC39HqLyjWDarjtT1zdp7dc")) {
		t.Errorf("observe: %s", data)
	}
	if rep.Outcome == nil || *rep.Outcome.ExitCode != 1 || rep.Outcome.Error != "remote rejected" || rep.Outcome.Duration != time.Second {
		t.Errorf("report: %+v", rep.Outcome)
	}
	if bad.Error == "" || bad.Action != nil || bad.ActionHash == "" {
		t.Errorf("decline of an invalid action: %+v", bad)
	}
	for _, ev := range evs {
		if ev.PolicyHash == "" || ev.Mode != "default" {
			t.Errorf("%s: no policy recorded", ev.Kind)
		}
	}
}

// failing is a backend whose appends fail.
type failing struct{ *audit.Memory }

func (failing) Append(context.Context, func(audit.Head) ([]audit.Record, *audit.Checkpoint, error)) error {
	return errors.New("disk full")
}

// When the trail cannot be written, every entry point fails closed: checks
// are denied by the record stage, approvals are not made, refusals and
// results report the error; and nothing is in the trail.
func TestAuditFailingBackendDenies(t *testing.T) {
	ctx := context.Background()
	mem := audit.NewMemory()
	keys, _ := audit.KeysFromSeed(make([]byte, 32))
	eng := corpusEngine(t, warden.WithAudit(audit.NewLog(failing{mem}, keys)))
	for _, a := range []risk.Action{bashAction("ls", ""), bashAction("ls", "s1"), bashAction("ls && echo hi", "")} {
		if _, d, err := eng.Check(ctx, a); err != nil || d.Verdict != risk.Deny || d.Stage != risk.StageRecord {
			t.Errorf("%v: %v (%v), want deny by the record stage", a.Arguments, d, err)
		}
	}
	if _, d := eng.Reject(ctx, errors.New("bad")); d.Verdict != risk.Deny || d.Stage != risk.StageRecord {
		t.Errorf("reject: %v", d)
	}
	push := bashAction("git push --force origin main", "s2")
	if _, err := eng.Approve(ctx, push, policy.ScopeSession); err == nil {
		t.Error("an unrecorded approval was made")
	}
	if err := eng.Decline(ctx, push); err == nil {
		t.Error("an unrecorded refusal reported no error")
	}
	if err := eng.Report(ctx, push, audit.Outcome{}); err == nil {
		t.Error("an unrecorded result reported no error")
	}
	if _, err := eng.Observe(ctx, bashAction("cat .env", "s2"), "x"); err == nil {
		t.Error("an unrecorded observation reported no error")
	}
	if h, _ := mem.Head(ctx); h.Seq != 0 {
		t.Errorf("the trail holds %d events", h.Seq)
	}
}

// detailedJudge is a judge that says how it judged.
type detailedJudge struct{ answer string }

func (j detailedJudge) Judge(ctx context.Context, s *warden.Step) ([]risk.Finding, error) {
	fs, _, err := j.JudgeDetailed(ctx, s)
	return fs, err
}

func (j detailedJudge) JudgeDetailed(_ context.Context, s *warden.Step) ([]risk.Finding, *audit.Judgement, error) {
	return []risk.Finding{{Analyzer: "judge", Rule: "judge.llm", Level: risk.Medium, Reason: "the model says " + j.answer}},
		&audit.Judgement{Model: "m1", Verdict: "medium", Answer: j.answer, PromptHash: strings.Repeat("a", 64),
			Latency: 120 * time.Millisecond, InputTokens: 300, OutputTokens: 20}, nil
}

// A judge's details reach the step and the event, its raw answer masked;
// a judge without details leaves none.
func TestAuditJudgement(t *testing.T) {
	ctx := context.Background()
	const key = "ghp_" + "R8sWq2LmZx9KpT4vN7bY3cJ6hD1fG5aE0uIo"
	tr := newTrail(t)
	var seen *audit.Judgement
	eng := corpusEngine(t, warden.WithAudit(tr.log),
		warden.WithJudge(func(warden.Judge) warden.Judge { return detailedJudge{answer: "MEDIUM: it pushes with " + key} }),
		warden.WithRecorder(func(next warden.Recorder) warden.Recorder {
			return warden.RecorderFunc(func(ctx context.Context, s *warden.Step) error {
				seen = s.Judgement
				return next.Record(ctx, s)
			})
		}))
	a := bashAction("git push https://x:"+key+"@github.com/o/r main", "")
	as, _, err := eng.Check(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(as); !hasPrefix(as, "judge.llm") || strings.Contains(string(out), key) {
		t.Errorf("the assessment shows the judge's answer unmasked: %s", out)
	}
	if seen == nil || seen.Model != "m1" {
		t.Fatalf("the step's judgement: %+v", seen)
	}
	ev := tr.events(t)[0]
	j := ev.Judge
	if j == nil || j.Model != "m1" || j.Verdict != "medium" || j.Latency != 120*time.Millisecond || j.InputTokens != 300 || j.OutputTokens != 20 || len(j.PromptHash) != 64 {
		t.Fatalf("judgement %+v", j)
	}
	if strings.Contains(j.Answer, key) || !strings.HasPrefix(j.Answer, "MEDIUM: it pushes with ghp_") {
		t.Errorf("the answer is %q", j.Answer)
	}
	tr2 := newTrail(t)
	eng = corpusEngine(t, warden.WithAudit(tr2.log), warden.WithJudge(func(warden.Judge) warden.Judge {
		return warden.JudgeFunc(func(context.Context, *warden.Step) ([]risk.Finding, error) { return nil, nil })
	}))
	eng.Check(ctx, a)
	if ev := tr2.events(t)[0]; ev.Judge != nil {
		t.Errorf("a judge without details left %+v", ev.Judge)
	}
}

// The event a step becomes, alone: a deep copy of the action with every
// secret masked (known to the call, in URLs, found by the detector), the
// keyed hash of the action as given, the decision, the policy's mode and
// hash, bypass for a guard finding; the step is not changed.
func TestStepEvent(t *testing.T) {
	tr := newTrail(t)
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	const known = "Hx82kLmQ" // a password only the call's preparers found
	const token = "xoxb-" + "2846519730-9931775410283-Qz8vXk2LmP4wRt6yNb1cJd7h"
	args := map[string]any{
		"command": "mysql -uroot -p" + known + " shop",
		"nested":  map[string]any{"list": []any{"a", "postgres://app:pw0rd@db/x", map[string]any{"t": token}}, "n": 3.0, "ok": true},
		"strings": []string{"plain", token},
	}
	a := risk.Action{Tool: "Bash", Arguments: args, SessionID: "s", Agent: "claude", Cwd: "/w",
		Thought: "use " + token, Summary: "token " + token}
	s := &warden.Step{Kind: warden.KindCheck, Action: a, Call: &tool.Call{Secrets: []string{known}},
		Assessment: risk.Assessment{Level: risk.Critical, Locked: true,
			Findings: []risk.Finding{{Analyzer: "guard", Rule: "guard.hook_settings", Level: risk.Critical, Reason: "writes hooks"}}},
		Decision: risk.Decision{Verdict: risk.Ask, Rule: "confirm_risky", Stage: risk.StagePolicy, Reasons: []string{"critical"}},
		Err:      errors.New("mind " + token)}
	before, _ := json.Marshal(s.Action)
	p := policy.Default()
	ev := warden.StepEvent(s, tr.keys, now, p)
	if after, _ := json.Marshal(s.Action); !bytes.Equal(before, after) {
		t.Fatalf("the step's action changed:\n%s\n%s", before, after)
	}
	data, err := audit.Canonical(ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{known, "pw0rd", token[12:]} {
		if bytes.Contains(data, []byte(raw)) {
			t.Errorf("the event shows %q: %s", raw, data)
		}
	}
	args2 := ev.Action.Arguments
	if args2["command"] != "mysql -uroot -p…[redacted] shop" || args2["nested"].(map[string]any)["n"] != 3.0 || args2["strings"].([]any)[0] != "plain" {
		t.Errorf("masked arguments %v", args2)
	}
	if !ev.Time.Equal(now) || ev.Kind != audit.KindCheck || ev.Session != "s" || ev.Agent != "claude" || ev.Tool != "Bash" || ev.Action.Cwd != "/w" {
		t.Errorf("event %+v", ev)
	}
	if ev.ActionHash != tr.keys.ActionHash(&a) || ev.Mode != "default" || ev.PolicyHash != p.Hash() {
		t.Errorf("hash %q, mode %q, policy %q", ev.ActionHash, ev.Mode, ev.PolicyHash)
	}
	if !ev.Bypass || ev.Decision.Rule != "confirm_risky" || ev.Decision.Stage != risk.StagePolicy || !strings.HasPrefix(ev.Error, "mind xoxb") {
		t.Errorf("bypass %v, decision %+v, error %q", ev.Bypass, ev.Decision, ev.Error)
	}
	// an action differing only in its secret hashes differently, though
	// it masks alike
	b := a
	b.Arguments = map[string]any{"command": "mysql -uroot -pHx82kLmR shop"}
	a.Arguments = map[string]any{"command": "mysql -uroot -p" + known + " shop"}
	sa, sb := &warden.Step{Kind: warden.KindCheck, Action: a, Call: &tool.Call{Secrets: []string{known}}},
		&warden.Step{Kind: warden.KindCheck, Action: b, Call: &tool.Call{Secrets: []string{"Hx82kLmR"}}}
	ea, eb := warden.StepEvent(sa, tr.keys, now, nil), warden.StepEvent(sb, tr.keys, now, nil)
	if ea.ActionHash == eb.ActionHash || !reflect.DeepEqual(ea.Action.Arguments, eb.Action.Arguments) {
		t.Errorf("hashes %s %s of %v %v", ea.ActionHash, eb.ActionHash, ea.Action.Arguments, eb.Action.Arguments)
	}
	if ea.Bypass || ea.Decision != nil || ea.Assessment != nil || ea.PolicyHash != "" {
		t.Errorf("a step without assessment or decision: %+v", ea)
	}
}

// A project approval whose file cannot be written was recorded before it
// was tried: a second event says it was not made.
func TestAuditProjectApprovalNotMade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/.warden", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/.warden/policy.yaml", []byte("mode: [not, a, mode]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log))
	a := bashAction("npm test", "")
	a.Cwd = dir
	if _, err := eng.Approve(ctx, a, policy.ScopeProject, warden.By("ana")); err == nil {
		t.Fatal("an invalid project policy file was changed")
	}
	evs := tr.events(t)
	if len(evs) != 2 || evs[0].Error != "" || evs[1].Error == "" || evs[1].Approval.By != "ana" || evs[1].Approval.Rule != evs[0].Approval.Rule {
		for _, ev := range evs {
			t.Logf("%+v %+v", ev, ev.Approval)
		}
		t.Fatalf("%d events, want the approval and its failure", len(evs))
	}
}

// A reviewer's words are masked in the trail like the agent's: a secret
// it quotes, which the call does not carry, is found by the detector.
func TestAuditReviewerMasked(t *testing.T) {
	const key = "ghp_" + "R8sWq2LmZx9KpT4vN7bY3cJ6hD1fG5aE0uIo"
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log), warden.WithReviewer(func(warden.Reviewer) warden.Reviewer {
		return warden.ReviewerFunc(func(context.Context, *warden.Step) (risk.Decision, error) {
			return risk.Decision{Verdict: risk.Deny, Rule: "guardian", Reasons: []string{"it would push with GITHUB_TOKEN=" + key}}, nil
		})
	}))
	_, d, _ := eng.Check(context.Background(), bashAction("git push --force origin main", ""))
	if d.Stage != risk.StageReview {
		t.Fatalf("decision %v", d)
	}
	ev := tr.events(t)[0]
	if ev.Decision.Rule != "guardian" || ev.Decision.Stage != risk.StageReview || strings.Contains(ev.Decision.Reasons[0], key) {
		t.Errorf("decision %+v", ev.Decision)
	}
}

// The policy hash is that of the policy that decided: a project approval
// extends the engine's policy, and the checks after it carry the new
// policy's hash.
func TestAuditPolicyHashFollowsApprovals(t *testing.T) {
	ctx := context.Background()
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log))
	a := bashAction("npm publish", "")
	a.Cwd = t.TempDir()
	eng.Check(ctx, a)
	if _, err := eng.Approve(ctx, a, policy.ScopeProject, warden.By("ana")); err != nil {
		t.Fatal(err)
	}
	_, d, _ := eng.Check(ctx, a)
	evs := tr.events(t)
	if len(evs) != 3 || d.Verdict != risk.Allow {
		t.Fatalf("%d events, then %v", len(evs), d)
	}
	before, approval, after := evs[0].PolicyHash, evs[1].PolicyHash, evs[2].PolicyHash
	if before != approval || after == before || after == "" {
		t.Errorf("policy hashes %q, %q (approval), %q (after)", before, approval, after)
	}
}
