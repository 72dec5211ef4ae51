package warden

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/analyze/code"
	"github.com/agentwarden/warden/analyze/guard"
	"github.com/agentwarden/warden/analyze/rules"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/analyze/sql"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/internal/parsed"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/tool"
)

// Analyzer finds risks in a normalized tool call. An error means the
// analyzer could not assess the call; the engine records it as an Unknown
// finding for that analyzer. Analyzers must be safe for concurrent use.
type Analyzer interface {
	Name() string
	Analyze(ctx context.Context, c *tool.Call) ([]risk.Finding, error)
}

// Preparer reads a call before the analyzers run and may add to it what
// it derives (the shell parser adds the command lines bash will really
// run), returning findings of its own. Preparers run in order, one at a
// time; an error or panic becomes an Unknown finding, as for analyzers.
type Preparer interface {
	Name() string
	Prepare(ctx context.Context, c *tool.Call) ([]risk.Finding, error)
}

// Engine assesses actions and decides on them. It is safe for concurrent use.
type Engine struct {
	preparers []Preparer
	analyzers []Analyzer
	// policy is the policy in force: set by the options, then replaced
	// (never changed) as project approvals extend it, under mu
	policy    atomic.Pointer[policy.Policy]
	cwd, home string
	limits    risk.Limits
	sessions  session.Store // nil: every action stands alone
	scanners  []session.Scanner

	// guarded are files the guard analyzer protects beside those it
	// knows itself: a session store's files (see WithStore).
	guarded []string

	// the seams of the pipeline (see pipeline.go)
	judge    Judge
	reviewer Reviewer
	recorder Recorder
	// dropped are the finding rules the policy turns off; off are the
	// analyzers it turns off, whose findings are dropped wherever they
	// were made (the shell knowledge judges psql -c with the SQL
	// analysis, whose findings are the sql analyzer's).
	dropped map[string]bool
	off     map[string]bool

	// keys are the audit trail's (WithAudit), which identify an action
	// exactly (Keys.ActionHash) for the approvals given by its reference;
	// trail is the trail's backend, where they are looked up. Both nil
	// without a trail.
	keys  *audit.Keys
	trail audit.Backend

	// mu serializes the project approvals, which extend the policy's
	// allow list.
	mu sync.Mutex
	// rules caches the rules of session approvals, parsed; rulesMu
	// guards it.
	rulesMu sync.Mutex
	rules   map[string]*policy.Rule

	// assessAlone is e.alone, made once: the session reads what a chain
	// runs with it (a method value passed on is an allocation each time)
	assessAlone session.AssessFunc

	// defaultAnalyzers and defaultPreparers prepend the defaults to
	// analyzers and preparers (until WithAnalyzers or WithPreparers
	// replaces them).
	defaultAnalyzers, defaultPreparers bool

	work int64 // the work budget of a call; 0: tool.DefaultWork

	now func() time.Time // the clock of the audit trail (WithClock)
}

// Option configures an Engine.
type Option func(*Engine) error

// WithAnalyzers replaces the analyzers: the default ones (see New) and
// any added before. It never touches the preparers: the default ones
// (the Python code reader and the shell resolver, which add to the call
// what its code and scripts really run) still run before as, unless
// WithPreparers replaces them too.
func WithAnalyzers(as ...Analyzer) Option {
	return func(e *Engine) error {
		if slices.Contains(as, nil) {
			return fmt.Errorf("warden: nil analyzer")
		}
		e.analyzers, e.defaultAnalyzers = slices.Clone(as), false
		return nil
	}
}

// WithAnalyzer adds an analyzer to those already configured (after the
// default ones, unless WithAnalyzers replaced them).
func WithAnalyzer(a Analyzer) Option {
	return func(e *Engine) error {
		if a == nil {
			return fmt.Errorf("warden: nil analyzer")
		}
		e.analyzers = append(e.analyzers, a)
		return nil
	}
}

// WithPreparers replaces the preparers: the default ones (see New) and
// any set before; none at all with no argument. Preparers run in the
// order given. Without the default ones, obfuscated scripts (a command
// name glued from quoted pieces) and the commands and SQL that Python
// code runs reach the analyzers only as written: replace them knowingly.
func WithPreparers(ps ...Preparer) Option {
	return func(e *Engine) error {
		if slices.Contains(ps, nil) {
			return fmt.Errorf("warden: nil preparer")
		}
		e.preparers, e.defaultPreparers = slices.Clone(ps), false
		return nil
	}
}

// WithConfirmationPolicy sets the confirmation policy (default: ConfirmRisky
// with threshold High, confirming Unknown).
func WithConfirmationPolicy(p policy.ConfirmationPolicy) Option {
	return func(e *Engine) error {
		if p == nil {
			return fmt.Errorf("warden: nil confirmation policy")
		}
		e.policy.Load().Confirm = p
		return nil
	}
}

// WithPolicy sets the whole policy: mode, confirmation policy, rule
// lists and the analyzer, netguard and MCP settings (see package policy;
// policy.Load builds one from the layered files).
func WithPolicy(p *policy.Policy) Option {
	return func(e *Engine) error {
		if p == nil {
			return fmt.Errorf("warden: nil policy")
		}
		e.policy.Store(p.Clone()) // the caller's later changes do not reach the engine
		return nil
	}
}

// WithMode sets the permission mode.
func WithMode(m policy.Mode) Option {
	return func(e *Engine) error {
		if _, err := policy.ParseMode(string(m)); err != nil {
			return err
		}
		e.policy.Load().Mode = m
		return nil
	}
}

// WithCwd sets the working directory assumed for actions that name none.
func WithCwd(dir string) Option { return func(e *Engine) error { e.cwd = dir; return nil } }

// WithHome sets the user's home directory (default $HOME).
func WithHome(dir string) Option { return func(e *Engine) error { e.home = dir; return nil } }

// WithSessions keeps the conversations in memory, within the bounds cfg
// (see package session). Sessions are on by default, in memory, with
// session.DefaultConfig.
func WithSessions(cfg session.Config) Option {
	return func(e *Engine) error { e.sessions = session.NewMemoryStore(cfg); return nil }
}

// WithStore keeps the conversations, and the approvals given in them, in
// s: a SQLite file or a PostgreSQL database (package store) lets the
// conversation continue in another process, as agent hooks need. The
// engine does not close s. A conversation the store cannot load or save
// is denied: nothing runs unrecorded.
func WithStore(s session.Store) Option {
	return func(e *Engine) error {
		if s == nil {
			return fmt.Errorf("warden: nil session store")
		}
		e.sessions = s
		if f, ok := s.(interface{ Files() []string }); ok {
			// the store's files are warden's own: no agent may touch them
			e.guarded = append(e.guarded, f.Files()...)
		}
		return nil
	}
}

// WithoutSessions makes the engine judge every action alone, ignoring
// session_id.
func WithoutSessions() Option { return func(e *Engine) error { e.sessions = nil; return nil } }

// WithOutputScanners sets the scanners Observe runs on tool outputs
// (default: session.PersonalScanner and the secrets detector).
func WithOutputScanners(s ...session.Scanner) Option {
	return func(e *Engine) error { e.scanners = slices.Clone(s); return nil }
}

// WithLimits sets the input limits (default risk.DefaultLimits).
func WithLimits(l risk.Limits) Option { return func(e *Engine) error { e.limits = l; return nil } }

// New returns an Engine with the default preparers (the Python code
// reader, then the shell resolver), the default analyzers (the rule
// pack, SQL, secrets, netguard and the hints the action carries) and
// ConfirmRisky. WithAnalyzers and WithPreparers replace either list
// alone; the default rule pack is only loaded when the default analyzers
// are used. The policy's analyzers.disabled turns analyzers and
// preparers off by name, and drops their findings wherever they are made.
func New(opts ...Option) (*Engine, error) {
	home, _ := os.UserHomeDir()
	e := &Engine{
		home:     home,
		limits:   risk.DefaultLimits,
		sessions: session.NewMemoryStore(session.DefaultConfig()),
		scanners: []session.Scanner{session.PersonalScanner, secretsScanner},
		judge:    nop{},
		reviewer: nop{},
		recorder: nop{},
		now:      time.Now,
	}
	e.assessAlone = e.alone
	e.policy.Store(policy.Default())
	e.defaultAnalyzers, e.defaultPreparers = true, true
	for _, o := range opts {
		if err := o(e); err != nil {
			return nil, err
		}
	}
	if e.defaultAnalyzers {
		as, err := defaultAnalyzers(e.policy.Load(), e.guarded)
		if err != nil {
			return nil, err
		}
		e.analyzers = append(as, e.analyzers...)
	}
	if e.defaultPreparers {
		e.preparers = append(defaultPreparers(), e.preparers...)
	}
	if err := e.disable(e.policy.Load().Analyzers); err != nil {
		return nil, err
	}
	return e, nil
}

// defaultPreparers are the preparers New installs, in the order they run:
// the code reader adds the commands Python runs to the call's shell
// scripts, which the shell resolver then reads; the SQL reader records
// the personal data queries return, for the session; the secrets
// reader, last, the secrets in all the text the others added.
func defaultPreparers() []Preparer {
	return []Preparer{code.Preparer{}, shell.Preparer{}, sql.Preparer{}, secrets.Preparer{}}
}

// defaultAnalyzers are the analyzers New installs, configured by policy p,
// in the order they run; the guard also protects the files guarded. Add a
// built-in analyzer here.
func defaultAnalyzers(p *policy.Policy, guarded []string) ([]Analyzer, error) {
	ra, err := rules.New()
	if err != nil {
		return nil, fmt.Errorf("warden: default rules: %w", err)
	}
	ng, err := netguard.New(p.Netguard)
	if err != nil {
		return nil, fmt.Errorf("warden: policy: %w", err)
	}
	g := guard.FromEnvironment() // warden's own files: the binary's path is read here, once
	g.Files = append(g.Files, guarded...)
	return []Analyzer{
		ra,
		sql.Analyzer{},
		secrets.Analyzer{},
		netguard.Analyzer{Guard: ng},
		g,
		fileTools{},
		hints{},
	}, nil
}

// nestedAnalyses are analyses that run inside a step (a preparer), whose
// findings carry their own name: disabling one drops its findings while
// its step still runs. Each maps to the step it runs in.
var nestedAnalyses = map[string]string{
	"inline": "shell", // the scanner of inline programs (perl -e, node -e, awk …)
}

// disable drops the analyzers and preparers the policy turns off, and
// remembers them and the finding rules it drops: the findings of a
// disabled analyzer are dropped wherever they are made (see drops).
func (e *Engine) disable(s policy.AnalyzerSettings) error {
	for _, name := range s.Disabled {
		if name == (guard.Analyzer{}).Name() {
			return fmt.Errorf("warden: policy: analyzers.disabled: %q cannot be disabled: it keeps the agent from loosening its own guard", name)
		}
		if e.off == nil {
			e.off = make(map[string]bool, len(s.Disabled))
		}
		e.off[name] = true
		found := false
		e.analyzers = slices.DeleteFunc(e.analyzers, func(a Analyzer) bool { found = found || a.Name() == name; return a.Name() == name })
		e.preparers = slices.DeleteFunc(e.preparers, func(p Preparer) bool { found = found || p.Name() == name; return p.Name() == name })
		if step, ok := nestedAnalyses[name]; ok {
			found = found || slices.ContainsFunc(e.preparers, func(p Preparer) bool { return p.Name() == step })
		}
		if !found {
			var have []string
			for n, step := range nestedAnalyses {
				if slices.ContainsFunc(e.preparers, func(p Preparer) bool { return p.Name() == step }) {
					have = append(have, n)
				}
			}
			for _, a := range e.analyzers {
				have = append(have, a.Name())
			}
			for _, p := range e.preparers {
				have = append(have, p.Name())
			}
			return fmt.Errorf("warden: policy: analyzers.disabled: no analyzer %q (have %s)", name, strings.Join(have, ", "))
		}
	}
	if len(s.DisabledRules) > 0 {
		e.dropped = make(map[string]bool, len(s.DisabledRules))
		for _, r := range s.DisabledRules {
			e.dropped[r] = true
		}
	}
	return nil
}

// Check assesses one action and decides on it.
//
// An action that cannot be assessed at all (no tool, bad arguments, too
// large, invalid text) yields an Unknown assessment, the decision the policy
// makes of Unknown, and an error wrapping a *risk.InputError. Any other
// analyzer failure or panic becomes an Unknown finding for that analyzer and
// no error. The decision is always a usable value; when it could not be
// recorded (a recorder or the session store failed) it is deny.
//
// Actions with the same SessionID are one conversation (see package
// session): each is judged with what the earlier ones did, and the calls
// of one session are checked one at a time, in the order Check is called.
func (e *Engine) Check(ctx context.Context, a risk.Action) (risk.Assessment, risk.Decision, error) {
	s := steps.Get().(*Step) // zero
	s.Kind, s.Action = KindCheck, a
	e.check(ctx, s)
	as, d, err := s.Assessment, s.Decision, s.Err
	*s = Step{} // zero for the next check: the pool keeps nothing it pointed to alive
	steps.Put(s)
	return as, d, err
}

// steps are the Steps of the checks done, zero, for the next ones: a Step
// and its call are a kilobyte and more, a fifth of what a check
// allocates. A Step lives as long as the call of Check that made it (see
// Step).
var steps = sync.Pool{New: func() any { return new(Step) }}

// check takes a KindCheck step through the pipeline.
func (e *Engine) check(ctx context.Context, s *Step) {
	c := e.normalizeNew(s) // Check's steps are zero
	e.hash(s)
	// an action warden's own command decoded, valid, is not walked again
	if err := e.validate(ctx, &s.Action); err != nil {
		s.Err = err
		s.Assessment = risk.UnknownAssessment("engine", "engine.invalid_input", err.Error())
		e.decide(s, c, nil)
		e.recordStage(ctx, s, nil)
		return
	}
	if id := s.Action.SessionID; id != "" && e.sessions != nil {
		given := s.Action.Cwd != "" || c.Cwd != e.cwd
		ran := false
		err := e.sessions.Update(ctx, id, func(ctx context.Context, st *session.State) error {
			ran = true
			st.Enter(c, given)
			s.Session = st
			defer func() { s.Session = nil }() // the state is the store's once fn returns
			e.stages(ctx, s, st)
			e.recordStage(ctx, s, st)
			e.consume(s, st)
			return nil
		})
		if err != nil {
			if !ran { // the conversation could not be read: judged alone
				e.stages(ctx, s, nil)
			}
			denyUnrecorded(s, fmt.Errorf("session store: %w", err))
			if !ran { // and the recorders, which have not seen it, see the denial
				e.recordStage(ctx, s, nil)
			}
		}
		return
	}
	var st *session.State
	if compound(c) {
		// a lone script is a conversation of one step: what it writes
		// and then runs or sends (echo … > x.sh; bash x.sh) is a chain
		// within it. The state is emptied with the call, for another.
		st = loneStates.Get().(*session.State)
		defer func() {
			st.Reset(session.Config{})
			loneStates.Put(st)
		}()
		st.Enter(c, true)
	}
	e.stages(ctx, s, st)
	e.recordStage(ctx, s, nil)
}

// validate is a.Validate(e.limits), but for an action that ctx says
// risk.ParseLine returned valid under the engine's limits (see package
// parsed, which only the module's own commands use), unchanged since.
func (e *Engine) validate(ctx context.Context, a *risk.Action) error {
	if parsed.Valid(ctx, a.Arguments) {
		return nil
	}
	return a.Validate(e.limits)
}

// loneStates are the empty states of lone scripts' conversations of one
// step (see check): nothing keeps such a state once its call is checked.
var loneStates = sync.Pool{New: func() any { return session.NewState(session.Config{}) }}

// stages assesses a step's call (prepare, analyze, with what the
// conversation st knows when st is not nil), asks the judge, decides and
// asks the reviewer.
func (e *Engine) stages(ctx context.Context, s *Step, st *session.State) {
	c := s.Call
	findings := e.analyze(ctx, c, st)
	if st == nil && namesProduction(c) {
		// what a conversation's session checks (st.Analyze), for the
		// production context a lone command names for itself
		findings = append(findings, runStep("session", c, func() ([]risk.Finding, error) {
			return session.Production(ctx, c, e.assessAlone), nil
		})...)
	}
	s.Assessment = e.combine(c, findings)
	if e.judge != Judge(nop{}) {
		if more := e.judgeStage(ctx, s); len(more) > 0 {
			s.Assessment = e.combine(c, append(findings, more...))
		}
	}
	e.decide(s, c, st)
	e.reviewStage(ctx, s)
	e.approvable(s)
	s.Decision.Shadow = s.policy.Shadow // whatever the reviewer decided
}

// compound reports a call whose shell script runs more than one command
// in sequence or in a pipeline, the only kind in which one command can
// run or send what another wrote.
func compound(c *tool.Call) bool {
	for _, s := range c.Shell {
		// a vector search for each byte (strings.IndexByte) rather than
		// strings.ContainsAny's byte-at-a-time loop over the script
		if strings.IndexByte(s, '|') >= 0 || strings.IndexByte(s, '&') >= 0 || strings.IndexByte(s, ';') >= 0 || strings.IndexByte(s, '\n') >= 0 {
			return true
		}
	}
	return false
}

// namesProduction reports a call whose shell script holds the word prod
// (Prod, PROD, production …) anywhere: the only kind in which a lone
// command can name a production context for itself (kubectl --context
// prod …, AWS_PROFILE=prod aws …), which stages checks then.
func namesProduction(c *tool.Call) bool {
	for _, s := range c.Shell {
		// prod and Prod hold rod: most scripts, which hold none of the
		// three, are read twice, not three times
		if strings.Contains(s, "rod") && (strings.Contains(s, "prod") || strings.Contains(s, "Prod")) || strings.Contains(s, "PROD") {
			return true
		}
	}
	return false
}

// decide applies the policy to the assessment of step s, of call c, with
// what the conversation st (nil for a lone action) knows and the
// approvals remembered for it: it sets the step's decision and the
// policy that made it.
func (e *Engine) decide(s *Step, c *tool.Call, st *session.State) {
	f := &policy.Facts{Assessment: &s.Assessment, Call: c, Session: policy.SessionFacts{ID: c.Action.SessionID}}
	if st != nil {
		f.Session.Steps, f.Session.Tainted = st.Steps(), st.Tainted()
	}
	var approved []policy.Entry
	if st != nil {
		approved = e.approved(st, s, c)
	}
	p := e.policy.Load()
	s.Decision = p.DecideFacts(f, approved...)
	s.Decision.Stage = risk.StagePolicy
	s.Decision.Origin, s.Decision.Layer = p.Source(&s.Decision)
	if s.Decision.Layer == "" && s.Decision.Origin != "" && slices.ContainsFunc(approved, func(a policy.Entry) bool { return a.Origin == s.Decision.Origin }) {
		s.Decision.Layer = policy.LayerApproval
	}
	s.Decision.Shadow = p.Shadow
	s.policy = p
}

// Observe tells the engine what a tool call returned, after it ran (a
// PostToolUse hook, an MCP proxy's tool result). When the call read
// sensitive data (a credential file, the environment, rows of personal
// data) or the output holds sensitive values the output scanners find,
// the conversation now holds that data: a later call of the same session
// that sends data over the network is flagged, and critical when it
// carries one of the values seen. The values themselves are never kept,
// only keyed hashes of them.
//
// It returns a finding for each kind of sensitive data the output holds.
// An action that is not valid yields its *risk.InputError and changes
// nothing; so does an observation that could not be recorded.
func (e *Engine) Observe(ctx context.Context, a risk.Action, output string) ([]risk.Finding, error) {
	s := &Step{Kind: KindObserve, Action: a}
	c := e.normalize(s)
	if err := s.Action.Validate(e.limits); err != nil {
		s.Err = err
		e.recordStage(ctx, s, nil)
		return nil, err
	}
	// the state keeps what the output brought into the conversation even
	// when the observation cannot be recorded: knowing more was read only
	// ever makes later checks stricter
	var unrecorded error
	observe := func(ctx context.Context, st *session.State) error {
		s.Assessment = risk.Combine(st.Observe(c, output, e.scanners...))
		s.Session = st
		defer func() { s.Session = nil }()
		if err := e.record(ctx, s); err != nil {
			unrecorded = fmt.Errorf("warden: the observation could not be recorded: %w", err)
		}
		return nil
	}
	if s.Action.SessionID == "" || e.sessions == nil {
		// nothing to remember it in: what the output holds, for the caller
		observe(ctx, session.NewState(session.DefaultConfig()))
	} else {
		given := s.Action.Cwd != "" || c.Cwd != e.cwd
		err := e.sessions.Update(ctx, s.Action.SessionID, func(ctx context.Context, st *session.State) error {
			st.Enter(c, given)
			e.prepare(ctx, c, nil)
			return observe(ctx, st)
		})
		if err != nil {
			return nil, fmt.Errorf("warden: session store: %w", err)
		}
	}
	if unrecorded != nil {
		return nil, unrecorded
	}
	return s.Assessment.Findings, nil
}

// Session returns a copy of the state of the conversation id, or nil when
// the engine follows none by that id.
func (e *Engine) Session(ctx context.Context, id string) (*session.State, error) {
	if e.sessions == nil {
		return nil, nil
	}
	return e.sessions.Get(ctx, id)
}

// EndSession forgets the conversation id.
func (e *Engine) EndSession(ctx context.Context, id string) error {
	if e.sessions == nil {
		return nil
	}
	return e.sessions.Delete(ctx, id)
}

// Reject answers an input that could not even be decoded as an action:
// Unknown with the reason, and the decision the policy makes of Unknown
// (deny when it cannot be recorded).
func (e *Engine) Reject(ctx context.Context, err error) (risk.Assessment, risk.Decision) {
	s := &Step{Kind: KindReject, Err: err}
	s.Assessment = risk.UnknownAssessment("engine", "engine.invalid_input", err.Error())
	e.decide(s, &tool.Call{Action: &s.Action, Class: tool.Other}, nil)
	e.recordStage(ctx, s, nil)
	return s.Assessment, s.Decision
}

// Limits returns the input limits the engine enforces.
func (e *Engine) Limits() risk.Limits { return e.limits }

// analyze runs every preparer and analyzer on a normalized call, then,
// when the call belongs to a conversation st, the chains it completes,
// and returns their findings.
func (e *Engine) analyze(ctx context.Context, c *tool.Call, st *session.State) []risk.Finding {
	return e.analyzeAt(ctx, c, st, false)
}

// analyzeAt is analyze; nested is set for the programs a written
// configuration holds (see configFindings), whose own writes are not
// followed again.
func (e *Engine) analyzeAt(ctx context.Context, c *tool.Call, st *session.State, nested bool) []risk.Finding {
	// each step's findings as it returns them, copied into one slice at
	// the end (most steps find nothing)
	var buf [16][]risk.Finding
	parts := e.prepare(ctx, c, buf[:0]) // sets c.Work
	parts = runSteps(parts, len(e.analyzers), func(i int) string { return e.analyzers[i].Name() },
		func(i int) ([]risk.Finding, error) { return e.analyzers[i].Analyze(ctx, c) })
	var ws []configWrite
	if !nested {
		if ws = configWrites(c, parts); len(ws) > 0 {
			parts = append(parts, runStep("configcode", c, func() ([]risk.Finding, error) { return e.configFindings(ctx, c, ws), nil }))
		}
		if len(c.Content) > 0 || len(c.Paths) > 0 || len(c.Shell) > 0 {
			parts = append(parts, weakenFindings(c, ws))
		}
	}
	if st != nil {
		// the text a chain runs is assessed alone, without the session;
		// the chain reads its level and findings, not the resources the
		// rule pack would look for in the text again (rules.Resources)
		parts = append(parts, runStep("session", c, func() ([]risk.Finding, error) {
			return st.Analyze(ctx, c, e.assessAlone), nil
		}))
	}
	if c.Work.Spent() {
		// what was not assessed is unknown, never safe, and no allow rule
		// opens it: it may hide what none would
		parts = append(parts, []risk.Finding{{Analyzer: "engine", Rule: "engine.work_budget", Level: risk.Unknown, Locked: true, Reason: c.Work.Reason()}})
	}
	out := concatFindings(parts)
	if len(ws) > 0 {
		calmStartupWrites(c, out, ws)
	}
	return out
}

// concatFindings is slices.Concat(parts...), which appends every part,
// where most of a call's parts (a dozen preparers' and analyzers') are
// empty: only those up to the last that is not are appended.
func concatFindings(parts [][]risk.Finding) []risk.Finding {
	n, last := 0, -1
	for i, p := range parts {
		if len(p) > 0 {
			n, last = n+len(p), i
		}
	}
	if n == 0 {
		return nil
	}
	out := slices.Grow([]risk.Finding(nil), n)
	for _, p := range parts[:last+1] {
		if len(p) > 0 {
			out = append(out, p...)
		}
	}
	return out
}

// alone assesses c without a conversation: the text a chain runs. The
// chain reads its level and findings, not the resources the rule pack
// would look for in the text again (rules.Resources).
func (e *Engine) alone(ctx context.Context, c *tool.Call) risk.Assessment {
	return e.combineWith(c, e.analyze(ctx, c, nil), nil)
}

// combine makes the assessment of call c from its findings, without those
// the policy turns off and with every secret the call carries masked.
func (e *Engine) combine(c *tool.Call, findings []risk.Finding) risk.Assessment {
	return e.combineWith(c, findings, rules.Resources(c))
}

// combineWith is combine with extra, instead of the resources the rule
// pack finds in c, as the affected resources beside the findings'.
func (e *Engine) combineWith(c *tool.Call, findings []risk.Finding, extra []string) risk.Assessment {
	if e.dropped != nil || e.off != nil {
		findings = slices.DeleteFunc(slices.Clone(findings), e.drops)
	}
	as := risk.Combine(findings, extra...)
	if c.Work.Spent() {
		as.Incomplete()
	}
	secrets.Collect(c) // whatever the analyzers, nothing shows a raw secret
	maskAssessment(&as, c.Secrets)
	return as
}

// drops reports a finding the policy turns off: its rule is disabled, or
// the analyzer that made it is, on whatever route it was made. A locked
// finding is never dropped: turning its rule off would be an allow rule
// by another name.
func (e *Engine) drops(f risk.Finding) bool {
	return !f.Locked && (e.dropped[f.Rule] || e.off[f.Analyzer])
}

// secretsScanner finds secrets in tool outputs for the session.
func secretsScanner(text string) []session.Sensitive {
	descs, values := secrets.Default().Values(text)
	out := make([]session.Sensitive, len(values))
	for i := range values {
		out[i] = session.Sensitive{What: "a secret (" + descs[i] + ")", Value: values[i]}
	}
	return out
}

// maskAssessment replaces, in every text of as, the secrets the call
// carries by their masks, and the password of every URL's user
// information whatever it is (structurally: a resource may show a URL
// re-encoded, where the raw value no longer appears): an assessment never
// shows a raw secret. as is one risk.Combine made (and Incomplete may have
// finished again): its reasons are its findings' and its other texts
// risk's own, but for the affected resources beside the findings'.
func maskAssessment(as *risk.Assessment, raw []string) {
	if len(raw) == 0 && !holdsAt(as) {
		// nothing to mask: no secret is known, and a URL's password is
		// only ever before an @ (what MaskURLPasswords looks for first);
		// most assessments, at the cost of a look at each text
		return
	}
	maskAll(as, raw)
}

// maskAll is maskAssessment without its shortcut.
func maskAll(as *risk.Assessment, raw []string) {
	mask := func(s string) string { return secrets.MaskURLPasswords(secrets.MaskKnown(s, raw)) }
	for i := range as.Findings {
		as.Findings[i].Reason = mask(as.Findings[i].Reason)
		as.Findings[i].Resource = mask(as.Findings[i].Resource)
	}
	for _, list := range [][]string{as.Reasons, as.AffectedResources, as.Recommendations} {
		for i := range list {
			list[i] = mask(list[i])
		}
	}
	as.EstimatedImpact = mask(as.EstimatedImpact)
}

// holdsAt reports whether a text of as that maskAssessment masks holds an
// @, for an assessment risk.Combine made: only its findings' texts and
// its affected resources are looked at, since its reasons are among its
// findings' and its recommendations and estimated impact are risk's own
// texts, which hold none (TestRiskTextsHoldNoAt).
func holdsAt(as *risk.Assessment) bool {
	for i := range as.Findings {
		if strings.IndexByte(as.Findings[i].Reason, '@') >= 0 || strings.IndexByte(as.Findings[i].Resource, '@') >= 0 {
			return true
		}
	}
	for _, s := range as.AffectedResources {
		if strings.IndexByte(s, '@') >= 0 {
			return true
		}
	}
	return false
}

// normalize sets s.Call to s's action normalized, with the work budget
// for everything the engine does with it (Check, Approve and Observe
// prepare it too); the call and the budget live in s.
func (e *Engine) normalize(s *Step) *tool.Call {
	tool.NormalizeInto(&s.call, &s.Action, e.cwd, e.home)
	return e.budgeted(s)
}

// normalizeNew is normalize for a step whose call is the zero Call (a
// step Check took from steps), which it does not clear again.
func (e *Engine) normalizeNew(s *Step) *tool.Call {
	tool.NormalizeZeroed(&s.call, &s.Action, e.cwd, e.home)
	return e.budgeted(s)
}

// budgeted gives s's call, normalized, the work budget of one call, and
// returns it.
func (e *Engine) budgeted(s *Step) *tool.Call {
	s.work = *e.budget()
	s.call.Work = &s.work
	s.Call = &s.call
	return s.Call
}

// budget returns a fresh work budget for one call.
func (e *Engine) budget() *tool.Budget { return tool.NewBudget(cmp.Or(e.work, tool.DefaultWork)) }

// prepare runs every preparer on c and appends their findings to parts,
// after the finding that c's arguments do not fit its tool, if they do
// not.
func (e *Engine) prepare(ctx context.Context, c *tool.Call, parts [][]risk.Finding) [][]risk.Finding {
	if c.Work == nil { // a call the engine did not normalize
		c.Work = e.budget()
	}
	parts = append(parts, malformed(c))
	parts = runSteps(parts, len(e.preparers), func(i int) string { return e.preparers[i].Name() },
		func(i int) ([]risk.Finding, error) { return e.preparers[i].Prepare(ctx, c) })
	shell.Facts(c) // what each script runs, for the policy, whatever preparers ran
	return parts
}

// runStep runs one preparer or analyzer named name, turning its error or
// panic into an Unknown finding for it.
func runStep(name string, c *tool.Call, fn func() ([]risk.Finding, error)) (out []risk.Finding) {
	defer func() {
		if r := recover(); r != nil {
			out = panicked(name, r)
		}
	}()
	f, err := fn()
	if err != nil {
		return failed(name, f, err)
	}
	return f
}

// runSteps runs steps 0 to n-1 in turn, as runStep would each, named
// name(i), and appends their findings to parts: one deferred recover for
// them all instead of one each (a check runs a dozen steps), and after a
// panic, the steps after it as before.
func runSteps(parts [][]risk.Finding, n int, name func(int) string, step func(int) ([]risk.Finding, error)) [][]risk.Finding {
	for i := 0; i < n; {
		parts, i = runStepsFrom(parts, i, n, name, step)
	}
	return parts
}

// runStepsFrom runs steps from i on until one panics; next is the step
// after the last one run.
func runStepsFrom(parts [][]risk.Finding, i, n int, name func(int) string, step func(int) ([]risk.Finding, error)) (out [][]risk.Finding, next int) {
	out = parts
	defer func() {
		if r := recover(); r != nil {
			out, next = append(out, panicked(name(i), r)), i+1
		}
	}()
	for ; i < n; i++ {
		f, err := step(i)
		if err != nil {
			f = failed(name(i), f, err)
		}
		out = append(out, f)
	}
	return out, n
}

// panicked is the finding of step name that panicked with r.
func panicked(name string, r any) []risk.Finding {
	if os.Getenv("WARDEN_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "%s\n", debug.Stack())
	}
	return []risk.Finding{{Analyzer: name, Rule: name + ".panic", Level: risk.Unknown,
		Reason: fmt.Sprintf("analyzer %s failed: %v", name, r)}}
}

// failed is the findings f of step name with its error err.
func failed(name string, f []risk.Finding, err error) []risk.Finding {
	return append(f, risk.Finding{Analyzer: name, Rule: name + ".error", Level: risk.Unknown,
		Reason: fmt.Sprintf("analyzer %s could not assess the action: %v", name, err)})
}
