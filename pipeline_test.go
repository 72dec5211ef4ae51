package warden_test

import (
	"context"
	"errors"
	"github.com/agentwarden/warden/session"
	"slices"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// log is a recorder that keeps the steps it sees, and fails when fail is
// set.
type log struct {
	mu    sync.Mutex
	steps []warden.Step
	fail  error
}

func (l *log) wrap(next warden.Recorder) warden.Recorder {
	return warden.RecorderFunc(func(ctx context.Context, s *warden.Step) error {
		l.mu.Lock()
		l.steps = append(l.steps, *s)
		fail := l.fail
		l.mu.Unlock()
		if fail != nil {
			return fail
		}
		return next.Record(ctx, s)
	})
}

func (l *log) kinds() []warden.Kind {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []warden.Kind
	for _, s := range l.steps {
		out = append(out, s.Kind)
	}
	return out
}

func bashAction(cmd, session string) risk.Action {
	return risk.Action{Tool: "Bash", Arguments: map[string]any{"command": cmd}, SessionID: session}
}

// Every entry point ends in the record stage, and the recorders see the
// answer the caller gets.
func TestPipelineEveryEntryRecords(t *testing.T) {
	ctx := context.Background()
	l := &log{}
	eng := corpusEngine(t, warden.WithRecorder(l.wrap))

	as, d, err := eng.Check(ctx, bashAction("ls", "s1"))
	if err != nil || d.Verdict != risk.Allow || d.Stage != risk.StagePolicy {
		t.Fatalf("ls: %v %v %v", as.Level, d, err)
	}
	if _, _, err := eng.Check(ctx, risk.Action{Tool: ""}); err == nil {
		t.Fatal("an action without a tool was accepted")
	}
	eng.Reject(ctx, errors.New("not json"))
	if _, err := eng.Observe(ctx, bashAction("cat .env", "s1"), "API_KEY=x"); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Approve(ctx, bashAction("npm test", "s1"), policy.ScopeSession); err != nil {
		t.Fatal(err)
	}
	want := []warden.Kind{warden.KindCheck, warden.KindCheck, warden.KindReject, warden.KindObserve, warden.KindApprove}
	if got := l.kinds(); !slices.Equal(got, want) {
		t.Fatalf("recorded %v, want %v", got, want)
	}
	first := l.steps[0]
	if first.Decision.Verdict != d.Verdict || first.Assessment.Level != as.Level || first.Call == nil {
		t.Errorf("the recorder saw %v %v, the caller got %v %v", first.Decision, first.Assessment.Level, d, as.Level)
	}
	if l.steps[1].Err == nil || l.steps[2].Err == nil {
		t.Error("the recorder was not told why the input was rejected")
	}
	if l.steps[4].Approved == "" {
		t.Error("the recorder was not told what was approved")
	}
}

// A step that cannot be recorded is denied, by the record stage, on every
// entry point; an approval that cannot be recorded is not made.
func TestPipelineUnrecordedDenies(t *testing.T) {
	ctx := context.Background()
	l := &log{fail: errors.New("disk full")}
	eng := corpusEngine(t, warden.WithRecorder(l.wrap))
	for _, a := range []risk.Action{bashAction("ls", ""), bashAction("ls", "s1"), bashAction("ls && echo hi", "")} {
		_, d, err := eng.Check(ctx, a)
		if err != nil || d.Verdict != risk.Deny || d.Stage != risk.StageRecord {
			t.Errorf("%v: %v (%v), want deny by the record stage", a.Arguments, d, err)
		}
	}
	if _, d := eng.Reject(ctx, errors.New("bad")); d.Verdict != risk.Deny || d.Stage != risk.StageRecord {
		t.Errorf("reject: %v, want deny by the record stage", d)
	}
	push := bashAction("git push --force origin main", "s2")
	if _, err := eng.Approve(ctx, push, policy.ScopeSession); err == nil {
		t.Error("an approval that could not be recorded was made")
	}
	l.mu.Lock()
	l.fail = nil
	l.mu.Unlock()
	if _, d, _ := eng.Check(ctx, push); d.Verdict != risk.Ask {
		t.Errorf("the unrecorded approval took effect: %v", d)
	}
	if _, err := eng.Approve(ctx, push, policy.ScopeSession); err != nil {
		t.Fatal(err)
	}
	if _, d, _ := eng.Check(ctx, push); d.Verdict != risk.Allow {
		t.Errorf("the recorded approval did not take effect: %v", d)
	}
	// a panicking recorder is a failing one
	eng = corpusEngine(t, warden.WithRecorder(func(warden.Recorder) warden.Recorder {
		return warden.RecorderFunc(func(context.Context, *warden.Step) error { panic("boom") })
	}))
	if _, d, _ := eng.Check(ctx, bashAction("ls", "")); d.Verdict != risk.Deny || d.Stage != risk.StageRecord {
		t.Errorf("panicking recorder: %v, want deny", d)
	}
}

// Recorders wrap in the order they are added: the last added runs first
// and decides whether the earlier ones run.
func TestPipelineRecorderOrder(t *testing.T) {
	var order []string
	named := func(name string) func(warden.Recorder) warden.Recorder {
		return func(next warden.Recorder) warden.Recorder {
			return warden.RecorderFunc(func(ctx context.Context, s *warden.Step) error {
				order = append(order, name)
				return next.Record(ctx, s)
			})
		}
	}
	eng := corpusEngine(t, warden.WithRecorder(named("inner")), warden.WithRecorder(named("outer")))
	eng.Check(context.Background(), bashAction("ls", ""))
	if !slices.Equal(order, []string{"outer", "inner"}) {
		t.Errorf("order %v", order)
	}
}

// The judge's findings join the assessment before the policy decides; its
// failure is Unknown, never safe.
func TestPipelineJudge(t *testing.T) {
	ctx := context.Background()
	high := warden.WithJudge(func(next warden.Judge) warden.Judge {
		return warden.JudgeFunc(func(ctx context.Context, s *warden.Step) ([]risk.Finding, error) {
			if s.Assessment.Level != risk.Safe && s.Assessment.Level != risk.Low {
				return next.Judge(ctx, s) // a cascade: conclusive already
			}
			return []risk.Finding{{Analyzer: "judge", Rule: "judge.llm", Level: risk.High, Reason: "the judge thinks so"}}, nil
		})
	})
	eng := corpusEngine(t, high)
	as, d, _ := eng.Check(ctx, bashAction("ls", ""))
	if as.Level != risk.High || d.Verdict != risk.Ask || d.Stage != risk.StagePolicy {
		t.Errorf("judged ls: %v %v, want high and ask", as.Level, d)
	}
	for name, j := range map[string]warden.JudgeFunc{
		"error": func(context.Context, *warden.Step) ([]risk.Finding, error) { return nil, errors.New("timeout") },
		"panic": func(context.Context, *warden.Step) ([]risk.Finding, error) { panic("boom") },
	} {
		eng := corpusEngine(t, warden.WithJudge(func(warden.Judge) warden.Judge { return j }))
		as, d, _ := eng.Check(ctx, bashAction("ls", ""))
		if !as.Unknown || d.Verdict == risk.Allow {
			t.Errorf("judge %s: %v unknown=%v %v, want unknown and not allowed", name, as.Level, as.Unknown, d)
		}
	}
	if _, err := warden.New(warden.WithJudge(func(warden.Judge) warden.Judge { return nil })); err == nil {
		t.Error("a nil judge was accepted")
	}
}

// The reviewer sees only what the policy would ask about; it may allow or
// deny it, never open a locked or critical action, and its failure denies.
func TestPipelineReviewer(t *testing.T) {
	ctx := context.Background()
	var seen []string
	reviewer := func(v risk.Verdict, err error) warden.Option {
		return warden.WithReviewer(func(warden.Reviewer) warden.Reviewer {
			return warden.ReviewerFunc(func(_ context.Context, s *warden.Step) (risk.Decision, error) {
				seen = append(seen, s.Action.Arguments["command"].(string))
				if err != nil {
					return risk.Decision{}, err
				}
				return risk.Decision{Verdict: v, Rule: "guardian"}, nil
			})
		})
	}
	eng := corpusEngine(t, reviewer(risk.Allow, nil))
	if _, d, _ := eng.Check(ctx, bashAction("ls", "")); d.Verdict != risk.Allow || d.Stage != risk.StagePolicy {
		t.Errorf("ls: %v: the reviewer was asked about an allowed action", d)
	}
	if _, d, _ := eng.Check(ctx, bashAction("git push --force origin main", "")); d.Verdict != risk.Allow || d.Stage != risk.StageReview || d.Rule != "guardian" {
		t.Errorf("force push reviewed as allow: %v", d)
	}
	if _, d, _ := eng.Check(ctx, bashAction("rm -rf ~", "")); d.Verdict == risk.Allow {
		t.Errorf("rm -rf ~: the reviewer opened a critical action: %v", d)
	}
	if !slices.Equal(seen, []string{"git push --force origin main", "rm -rf ~"}) {
		t.Errorf("the reviewer saw %q", seen)
	}
	for name, opt := range map[string]warden.Option{
		"error":   reviewer("", errors.New("provider down")),
		"verdict": reviewer("maybe", nil),
		"panic": warden.WithReviewer(func(warden.Reviewer) warden.Reviewer {
			return warden.ReviewerFunc(func(context.Context, *warden.Step) (risk.Decision, error) { panic("boom") })
		}),
	} {
		eng := corpusEngine(t, opt)
		if _, d, _ := eng.Check(ctx, bashAction("git push --force origin main", "")); d.Verdict != risk.Deny || d.Stage != risk.StageReview {
			t.Errorf("reviewer %s: %v, want deny by the review stage", name, d)
		}
	}
}

// failingStore is a session store that cannot load (before) or cannot
// save (after running fn).
type failingStore struct {
	session.Store
	before bool
}

func (f failingStore) Update(ctx context.Context, id string, fn func(context.Context, *session.State) error) error {
	if f.before {
		return errors.New("database is down")
	}
	if err := f.Store.Update(ctx, id, fn); err != nil {
		return err
	}
	return errors.New("disk full")
}

// A conversation the store cannot load or save is denied by the record
// stage, with the assessment still made.
func TestPipelineStoreFailureDenies(t *testing.T) {
	ctx := context.Background()
	for _, before := range []bool{true, false} {
		l := &log{}
		eng := corpusEngine(t, warden.WithStore(failingStore{session.NewMemoryStore(session.DefaultConfig()), before}), warden.WithRecorder(l.wrap))
		as, d, err := eng.Check(ctx, bashAction("rm -rf ~", "s1"))
		if k := l.kinds(); len(k) != 1 || k[0] != warden.KindCheck {
			t.Errorf("store failing (before %v): the recorders saw %v, want the check once", before, k)
		}
		if err != nil || d.Verdict != risk.Deny || d.Stage != risk.StageRecord || d.Rule != "record.error" {
			t.Errorf("store failing (before %v): %v %v", before, d, err)
		}
		if as.Level != risk.Critical {
			t.Errorf("store failing (before %v): assessed %v, want the assessment made alone (critical)", before, as.Level)
		}
		if _, err := eng.Approve(ctx, bashAction("git push --force", "s1"), policy.ScopeSession); err == nil {
			t.Errorf("store failing (before %v): an approval that could not be saved was reported made", before)
		}
		if _, err := eng.Observe(ctx, bashAction("cat .env", "s1"), "x"); err == nil {
			t.Errorf("store failing (before %v): an observation that could not be saved was reported kept", before)
		}
	}
}
