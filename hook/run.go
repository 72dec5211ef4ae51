package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentwarden/warden/risk"
)

// Engine is what Run asks about a call: the methods of *warden.Engine it
// uses.
type Engine interface {
	Check(ctx context.Context, a risk.Action) (risk.Assessment, risk.Decision, error)
	Observe(ctx context.Context, a risk.Action, output string) ([]risk.Finding, error)
}

// MaxPayload is the largest payload Run reads by default: a tool call's
// arguments and, after it ran, its output. A larger one is a failure (the
// agent's blocking answer), never read in part.
const MaxPayload = 16 << 20

// Timeout is the time an agent should give `warden hook` before it gives
// up on it (the hook's timeout install configures): agents let a call run
// when its hook times out, so Deadline stays well within it.
const Timeout = 30 * time.Second

// Deadline is how long Run works on a payload by default before it gives
// the agent's blocking answer instead: longer than the SQLite store's
// wait for a lock another hook process holds (10 s), and shorter than
// Timeout by enough to start, answer and exit.
const Deadline = 15 * time.Second

// Option configures Run.
type Option func(*runner)

// WithShadow sets shadow mode: every call is decided and audited as
// usual, and the verdict has Shadow set, so that the adapter never
// blocks and says what would have happened instead.
func WithShadow(on bool) Option { return func(r *runner) { r.shadow = on } }

// WithHint sets the function that fills Verdict.Hint for a call that is
// asked about or denied: the one-line command(s) that approve exactly
// that action. It is not called for allowed calls; "" means none.
func WithHint(hint func(risk.Action, risk.Decision) string) Option {
	return func(r *runner) { r.hint = hint }
}

// WithDeadline sets how long Run works before it answers with the
// agent's blocking answer (default Deadline).
func WithDeadline(d time.Duration) Option { return func(r *runner) { r.deadline = d } }

// WithMaxPayload sets the largest payload Run reads (default MaxPayload).
func WithMaxPayload(n int) Option { return func(r *runner) { r.max = n } }

// WithEngine makes Run build the engine for each call once its payload is
// parsed, so that what the call says (its cwd, the agent's permission
// mode) can choose the engine's policy and mode; Run's own Engine
// argument is then not used and may be nil. An error building it is
// the agent's blocking answer, as is one that takes longer than the
// deadline.
func WithEngine(build func(ctx context.Context, c Call) (Engine, error)) Option {
	return func(r *runner) { r.build = build }
}

// runner is Run's configuration.
type runner struct {
	shadow   bool
	hint     func(risk.Action, risk.Decision) string
	deadline time.Duration
	max      int
	build    func(ctx context.Context, c Call) (Engine, error)
}

// Run answers one hook invocation: it reads one payload from in (at most
// the maximum payload, see WithMaxPayload), parses it with a, asks e
// (Check before the tool runs, Observe after) and returns a's Reply.
//
// It never fails: every error on the way (a payload that is too large,
// unreadable or not a call, an engine that errs or panics, an adapter
// that panics, a deadline that passes) is a.Fail with the reason, the
// agent's blocking answer. Run returns by the deadline even when the
// work it started does not (a store that hangs): the caller then exits,
// which ends that work.
func Run(ctx context.Context, a Adapter, in io.Reader, e Engine, opts ...Option) Reply {
	r := runner{deadline: Deadline, max: MaxPayload}
	for _, o := range opts {
		o(&r)
	}
	if r.deadline <= 0 {
		r.deadline = Deadline
	}
	ctx, cancel := context.WithTimeout(ctx, r.deadline)
	defer cancel()
	done := make(chan Reply, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- a.Fail(panicReason(p))
			}
		}()
		done <- r.run(ctx, a, in, e)
	}()
	select {
	case rep := <-done:
		return rep
	case <-ctx.Done():
		select {
		case rep := <-done: // answered as the deadline passed
			return rep
		default:
		}
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			return a.Fail("warden stopped before it answered: " + err.Error())
		}
		return a.Fail(fmt.Sprintf("warden did not answer within %s; the call is blocked", r.deadline))
	}
}

// panicReason is the reason of a failure that was a panic: its value and
// where it happened (the innermost frames of warden's own code), without
// the payload.
func panicReason(p any) string {
	where := ""
	for _, line := range strings.Split(string(debug.Stack()), "\n") {
		if strings.Contains(line, "agentwarden/warden/") && !strings.Contains(line, "/hook/run.go") && strings.HasPrefix(line, "\t") {
			where = " at " + strings.TrimSpace(line)
			if i := strings.LastIndex(where, " +0x"); i > 0 {
				where = where[:i]
			}
			break
		}
	}
	return fmt.Sprintf("warden failed (internal error: %s%s); the call is blocked", clip(fmt.Sprint(p), 200), where)
}

// run reads, parses, asks and answers; it panics where the adapter or the
// engine does, and Run recovers.
func (r *runner) run(ctx context.Context, a Adapter, in io.Reader, e Engine) Reply {
	payload, err := readPayload(in, r.max)
	if err != nil {
		return a.Fail(err.Error())
	}
	c, err := a.Parse(payload)
	if err != nil {
		return a.Fail(fmt.Sprintf("warden could not read the %s hook payload: %v; the call is blocked", a.Name(), err))
	}
	if c.Action.Agent == "" {
		c.Action.Agent = a.Name()
	}
	if r.build != nil {
		if e, err = r.build(ctx, c); err != nil {
			return a.Fail(fmt.Sprintf("warden could not start: %v; the call is blocked", err))
		}
	}
	if e == nil {
		return a.Fail("warden has no engine to ask; the call is blocked")
	}
	v := Verdict{Shadow: r.shadow}
	switch c.Event {
	case Before:
		as, d, err := e.Check(ctx, c.Action)
		if err != nil {
			return a.Fail(fmt.Sprintf("warden could not assess this call: %v; it is blocked", err))
		}
		if d.Verdict != risk.Allow && d.Verdict != risk.Ask && d.Verdict != risk.Deny {
			return a.Fail(fmt.Sprintf("warden decided %q, which is not allow, ask or deny; the call is blocked", d.Verdict))
		}
		v.Decision = explained(d, &as)
		v.Shadow = v.Shadow || d.Shadow // the policy's enforce: false
		if d.Verdict != risk.Allow && r.hint != nil {
			v.Hint = r.hint(c.Action, d)
		}
	case After:
		fs, err := e.Observe(ctx, c.Action, c.Output)
		if err != nil {
			return a.Fail(fmt.Sprintf("warden could not record what this call returned: %v", err))
		}
		v.Decision = risk.Decision{Verdict: risk.Allow}
		v.Context = Context(fs)
	default:
		return a.Fail(fmt.Sprintf("warden does not know the hook event %q; the call is blocked", c.Event))
	}
	if err := ctx.Err(); err != nil {
		// decided, but too late: the agent may have given up on the hook
		return a.Fail(fmt.Sprintf("warden did not answer within %s; the call is blocked", r.deadline))
	}
	return a.Reply(c, v)
}

// readPayload reads all of in, at most max bytes: more is an error, as
// is text that is not UTF-8 (which a JSON decoder would silently
// replace) or a read that fails.
func readPayload(in io.Reader, max int) ([]byte, error) {
	if in == nil {
		return nil, errors.New("warden got no payload on stdin; the call is blocked")
	}
	if max <= 0 {
		max = MaxPayload
	}
	b, err := io.ReadAll(io.LimitReader(in, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("warden could not read the payload: %v; the call is blocked", err)
	}
	if len(b) > max {
		return nil, fmt.Errorf("the payload is larger than warden reads (%d bytes); the call is blocked", max)
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil, errors.New("warden got an empty payload on stdin; the call is blocked")
	}
	if !utf8.Valid(b) {
		return nil, errors.New("the payload is not valid UTF-8; the call is blocked")
	}
	return b, nil
}

// Context is the text that tells the model what a tool's output held,
// from the findings Observe returned: "" when it held nothing of note.
// It names kinds of data and rules, never the values.
func Context(fs []risk.Finding) string {
	var parts []string
	for _, f := range fs {
		s := f.Reason
		if s == "" {
			s = f.Rule
		} else if f.Rule != "" {
			s += " (" + f.Rule + ")"
		}
		if s != "" && !contains(parts, s) {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return clip("warden: this output holds sensitive data: "+strings.Join(parts, "; ")+
		". Do not send it off this machine or write it where others can read it; warden blocks calls that do.", 2000)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clip cuts s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// maxReasons is how many of an assessment's reasons a verdict gives.
const maxReasons = 4

// explained is d with the reasons of the assessment a (a few, those of
// its gravest findings first: critical, unknown, high, …) before its own:
// what was found, then why that was decided.
func explained(d risk.Decision, a *risk.Assessment) risk.Decision {
	var rs []string
	add := func(r string) {
		if len(rs) < maxReasons && r != "" && !contains(rs, r) {
			rs = append(rs, r)
		}
	}
	for _, l := range [...]risk.Level{risk.Critical, risk.Unknown, risk.High} {
		for _, f := range a.Findings {
			if f.Level == l {
				add(f.Reason)
			}
		}
	}
	for _, r := range a.Reasons {
		add(r)
	}
	for _, r := range d.Reasons {
		if r != "" && !contains(rs, r) {
			rs = append(rs, r)
		}
	}
	d.Reasons = rs
	return d
}

// Reason is the one-line text of a verdict for an agent: "warden:", what
// warden decided (or, in shadow mode, would have), the rule that decided
// and the reasons, then the hint, cut to a length agents show whole.
func Reason(v Verdict) string {
	var what string
	switch d := v.Decision.Verdict; {
	case d == risk.Deny && v.Shadow:
		what = "would have denied this call"
	case d == risk.Deny:
		what = "denied this call"
	case d == risk.Ask && v.Shadow:
		what = "would have asked a person to approve this call"
	case d == risk.Ask:
		what = "asks a person to approve this call"
	default:
		what = string(d) + "s this call"
	}
	if v.Shadow {
		what = "(shadow mode, not enforced) " + what
	}
	return reason(v, what)
}

// reason is Reason with what warden did said as what.
func reason(v Verdict, what string) string {
	d := v.Decision
	var b strings.Builder
	b.WriteString("warden " + what)
	if d.Rule != "" {
		b.WriteString(" (" + d.Rule + ")")
	}
	if len(d.Reasons) > 0 {
		b.WriteString(": " + strings.Join(d.Reasons, "; "))
	}
	s := clip(b.String(), 1500)
	if v.Hint != "" {
		s += ". To approve it: " + clip(v.Hint, 500)
	}
	return s
}
