package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/hook"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

const hookLong = `hook answers one hook invocation of a coding agent: the agent runs it before
(and after) each tool call with the call on stdin, and reads warden's answer
from stdout, stderr and the exit code, in the agent's own protocol. AGENT is
one of: %s.

Every decision is recorded in the store's audit trail (--store, by default
` + defaultStoreHelp + `,
created with its directory, mode 0700, on first use), signed with the audit
key (--audit-key, else as warden assess finds it, created on first use), and
calls of one session_id are one conversation across hook processes. The
policy is read as warden assess reads it, for the call's working directory:
the organization's, the user's, the project's (.warden/policy.yaml) and
--policy. The agent's permission mode (Claude Code's and Codex's
permission_mode) is warden's mode unless --mode or a policy file sets one.

Anything warden cannot do (a flag or payload it cannot read, an unknown
agent, a store, key or policy that fails, a deadline of %s) is the
agent's blocking answer with the reason, never an exit code the agent lets
through.`

func newHookCmd() *cobra.Command {
	var f hookFlags
	cmd := &cobra.Command{
		Use:   "hook AGENT [--store DSN] [--policy FILE] [--mode MODE] [--authoritative] [--shadow]",
		Short: "Answer an agent's hook: one tool call on stdin, the agent's answer on stdout, stderr and the exit code",
		Long:  fmt.Sprintf(hookLong, strings.Join(hook.Names(), ", "), hook.Deadline),
		// the flags are parsed by runHook, so that a bad one is the
		// agent's blocking answer, not a usage error
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := f.parse(cmd, args)
			if code := runHook(cmd.Context(), &f, a, err, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
				return exitError{code}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.store, "store", "", "the store: a SQLite file path, or a postgres:// URL (default "+defaultStoreHelp+")")
	fs.StringVar(&f.keyFile, "audit-key", "", keyHelp)
	fs.StringVar(&f.policyFile, "policy", "", "a policy file (YAML), read after the organization's, the user's and the project's")
	fs.StringVar(&f.home, "home", "", "the user's home directory (absolute; default $HOME)")
	fs.StringVar(&f.mode, "mode", "", "warden's permission mode, whatever the agent's: default, plan, acceptEdits, dontAsk, bypassPermissions")
	fs.BoolVar(&f.authoritative, "authoritative", false, "claude-code: warden's allow skips Claude Code's own permission prompt")
	fs.BoolVar(&f.shadow, "shadow", false, "decide and record every call, never block: say what would have happened")
	return cmd
}

// hookFlags are the flags of warden hook.
type hookFlags struct {
	store, keyFile, policyFile, mode, home string
	authoritative, shadow                  bool
}

// parse reads args, the flags and one agent's name, into f and returns
// the agent's adapter. The adapter is also returned with an error when
// its name is among args, so that the error is that agent's answer.
func (f *hookFlags) parse(cmd *cobra.Command, args []string) (hook.Adapter, error) {
	err := cmd.Flags().Parse(args) // cmd.ParseFlags does nothing with DisableFlagParsing
	var a hook.Adapter
	for _, arg := range args { // the agent, even when the flags are wrong
		if x, ok := hook.Lookup(arg); ok {
			a = x
			break
		}
	}
	if slices.Contains(args, "-h") || slices.Contains(args, "--help") {
		return a, errors.New("warden hook answers payloads; `warden help hook` shows its help")
	}
	if err != nil {
		return a, fmt.Errorf("warden hook: %v", err)
	}
	switch rest := cmd.Flags().Args(); {
	case len(rest) == 0:
		return a, fmt.Errorf("warden hook: name the agent (%s)", strings.Join(hook.Names(), ", "))
	case len(rest) > 1:
		return a, fmt.Errorf("warden hook: one agent, not %d arguments", len(rest))
	case a == nil:
		return nil, fmt.Errorf("warden hook: unknown agent %q (known: %s)", clipArg(rest[0]), strings.Join(hook.Names(), ", "))
	}
	if f.mode != "" {
		if _, err := policy.ParseMode(f.mode); err != nil {
			return a, fmt.Errorf("--mode: %w", err)
		}
	}
	if f.authoritative {
		aa, ok := a.(interface{ WithAuthoritative(bool) hook.Adapter })
		if !ok {
			return a, fmt.Errorf("--authoritative: %s has no authoritative allow", a.Name())
		}
		a = aa.WithAuthoritative(true)
	}
	return a, nil
}

// clipArg shortens an argument quoted in an error.
func clipArg(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// runHook is warden hook: it answers one payload from stdin with the
// agent's adapter a, the flags f, and returns the exit code. Every
// failure is the agent's blocking answer: err, the flags' error, too;
// before the agent is known, exit 2 with the reason on stderr, which
// blocks in every agent warden speaks to.
func runHook(ctx context.Context, f *hookFlags, a hook.Adapter, err error, stdin io.Reader, stdout, stderr io.Writer) int {
	if err != nil {
		reply := hook.Reply{Stderr: []byte(err.Error() + "; the call is blocked\n"), Exit: 2}
		if a != nil {
			reply = a.Fail(err.Error() + "; the call is blocked")
		}
		return writeReply(reply, stdout, stderr)
	}
	res := &hookResources{}
	defer res.close()
	// the store opens (and the audit key loads) while the payload is read
	// and parsed: neither depends on it
	res.openStore(ctx, f.store, f.keyFile)
	hintStore := ""
	if f.store != "" {
		hintStore = shownDSN(f.store)
	}
	reply := hook.Run(ctx, a, stdin, nil,
		hook.WithShadow(f.shadow),
		hook.WithHint(func(_ risk.Action, d risk.Decision) string { return warden.ApproveHint(d, hintStore) }),
		hook.WithEngine(func(ctx context.Context, c hook.Call) (hook.Engine, error) {
			return f.engine(ctx, c, res)
		}))
	return writeReply(reply, stdout, stderr)
}

// writeReply writes r and returns its exit code.
func writeReply(r hook.Reply, stdout, stderr io.Writer) int {
	stdout.Write(r.Stdout)
	stderr.Write(r.Stderr)
	return r.Exit
}

// engine builds the engine for the call c: the policy for its working
// directory, its mode, the store res opened.
func (f *hookFlags) engine(ctx context.Context, c hook.Call, res *hookResources) (hook.Engine, error) {
	cwd := c.Action.Cwd
	if !filepath.IsAbs(cwd) {
		if cwd, _ = os.Getwd(); !filepath.IsAbs(cwd) {
			return nil, errors.New("the call names no absolute working directory, and warden's own is unknown")
		}
	}
	ef := engineFlags{policyFile: f.policyFile, cwd: cwd, home: f.home, mode: f.mode}
	p, err := ef.load()
	if err != nil {
		return nil, err
	}
	if f.shadow { // recorded as not enforced, unless the organization enforces
		if err := p.SetShadow("--shadow"); err != nil {
			return nil, err
		}
	}
	if p.Origins["mode"] == "" { // no policy file and no --mode set one
		if m, ok := hook.PolicyMode(c.Mode); ok {
			p.Mode = m
		}
	}
	st, rec, err := res.wait(ctx)
	if err != nil {
		return nil, err
	}
	return warden.New(append([]warden.Option{warden.WithPolicy(p), warden.WithCwd(cwd), warden.WithHome(ef.homeDir()), warden.WithStore(st)}, rec.opts...)...)
}

// hookResources is the store a hook opens, on a goroutine of its own,
// and closes when the hook has answered.
type hookResources struct {
	done chan struct{} // closed when the store is open, or failed to
	st   session.Store
	rec  *recording
	err  error

	mu     sync.Mutex
	closed bool
}

// openStore starts opening the store dsn names (the default store when
// it is ""), with the audit key keyFile.
func (r *hookResources) openStore(ctx context.Context, dsn, keyFile string) {
	r.done = make(chan struct{})
	if dsn == "" { // read here, where the environment is the command's
		if dsn, r.err = store.DefaultPath(); r.err != nil {
			close(r.done)
			return
		}
	}
	go func() {
		defer close(r.done)
		st, rec, err := openRecording(ctx, dsn, keyFile)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err == nil && r.closed { // the hook has answered already
			rec.Close()
			st.Close()
			err = errors.New("closed")
		}
		r.st, r.rec, r.err = st, rec, err
	}()
}

// wait returns the store once it is open.
func (r *hookResources) wait(ctx context.Context) (session.Store, *recording, error) {
	select {
	case <-r.done:
		return r.st, r.rec, r.err
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("the store did not open: %w", context.Cause(ctx))
	}
}

// close closes the store once it has opened (or failed to), waiting for
// it at most until the hook's deadline: a hook that answered before its
// store opened (a payload it could not read) leaves nothing behind.
func (r *hookResources) close() {
	if r.done != nil {
		t := time.NewTimer(hook.Deadline)
		select {
		case <-r.done:
		case <-t.C:
		}
		t.Stop()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.rec != nil {
		r.rec.Close()
		r.st.Close()
		r.rec, r.st = nil, nil
	}
}
