package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/hook/install"
)

func newDoctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor [AGENT...]",
		Short: "Show where warden's hook is installed, and test each installed hook with a harmless and a dangerous call",
		Long: `doctor reads, for each agent (` + strings.Join(install.Names(), ", ") + `) and scope (the user's
settings, and the project's in the current directory), whether warden's hook is installed,
where, and which command it runs; whether that binary exists and is this warden; whether
the agent's fail-closed option is set (Claude Code's onFailure, with the version claude
--version reports; Cursor's failClosed); and what keeps the hook from running (an event
without it, a timeout shorter than warden's deadline, disableAllHooks, Gemini CLI's
disabled hooks, Codex's hooks turned off or not yet trusted).

Then it runs each installed command as the agent would (/bin/sh -c, the agent's payload on
stdin) with a harmless call (ls) and a dangerous one (rm -rf ~/) of the agent's shell tool,
and reads the answer as the agent does: the harmless call must be allowed, the dangerous
one blocked or held for the user. The test calls run in a throwaway home, state and
working directory, under warden's default policy and a session of their own: they record
nothing in your audit trail, and test the hook's protocol, not your policy.

The exit status is 1 when anything is wrong, or warden is installed nowhere; 2 on an
error. AGENT names limit the check to those agents.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			agents := install.Agents
			if len(args) > 0 {
				agents = nil
				for _, name := range args {
					a, ok := install.Lookup(name)
					if !ok {
						return fmt.Errorf("unknown agent %q: one of %s", name, strings.Join(install.Names(), ", "))
					}
					agents = append(agents, a)
				}
			}
			env, err := installEnv()
			if err != nil {
				return err
			}
			d := &doctor{w: cmd.OutOrStdout(), env: env}
			defer d.cleanup()
			for _, a := range agents {
				for _, s := range []install.Scope{install.User, install.Project} {
					d.check(cmd.Context(), install.Inspect(a, s, env))
				}
			}
			d.summary(len(agents))
			if d.problems > 0 || d.installed == 0 {
				return exitError{1}
			}
			return nil
		},
	}
}

// doctor checks installed hooks and counts what it found.
type doctor struct {
	w                   io.Writer
	env                 install.Env
	installed, problems int
	ran                 bool
	sandbox             string   // the throwaway directory the test calls run in
	sandboxEnv          []string // their environment
	sandboxErr          error
	self                string
	claude              *string // claude --version, read once
}

func (d *doctor) problem(format string, args ...any) {
	d.problems++
	fmt.Fprintf(d.w, "  PROBLEM: "+format+"\n", args...)
}

// check reports on one agent's settings for one scope.
func (d *doctor) check(ctx context.Context, st install.Status) {
	a := st.Agent
	where := fmt.Sprintf("%s, %s scope", a.Name, st.Scope)
	if st.Err != nil {
		fmt.Fprintf(d.w, "%s: %s\n", where, st.Path)
		d.problem("%v", st.Err)
		return
	}
	if !st.Installed() {
		fmt.Fprintf(d.w, "%s: not installed (%s)\n", where, st.Path)
		return
	}
	d.installed++
	fmt.Fprintf(d.w, "%s: %s\n", where, st.Path)
	var events []string
	commands := map[string]bool{}
	for _, h := range st.Hooks {
		events = append(events, h.Event)
		commands[h.Command] = true
	}
	before := st.Hooks[0]
	for _, h := range st.Hooks {
		if h.Event == a.Before {
			before = h
			break
		}
	}
	fmt.Fprintf(d.w, "  installed: %s run %s\n", strings.Join(events, ", "), before.Command)
	if len(commands) > 1 {
		d.problem("the events run %d different commands", len(commands))
	}
	if len(before.Options) > 0 {
		fmt.Fprintf(d.w, "  options: %s\n", describeOptions(before.Options))
	}
	binOK := d.binary(before.Binary)
	d.failClosed(st)
	for _, p := range st.Problems {
		d.problem("%s", p)
	}
	for _, w := range st.Warnings {
		fmt.Fprintln(d.w, "  warning: "+w)
	}
	if binOK {
		d.probe(ctx, a, before.Command, slices.Contains(before.Options, "--shadow"))
	}
}

// describeOptions says what the options of a hook's command do.
func describeOptions(opts []string) string {
	out := make([]string, len(opts))
	for i, o := range opts {
		switch o {
		case "--shadow":
			o += " (shadow mode: every call decided and recorded, none blocked)"
		case "--authoritative":
			o += " (warden's allow skips Claude Code's permission prompt)"
		}
		out[i] = o
	}
	return strings.Join(out, ", ")
}

// binary reports whether the hook's binary exists, runs, and is this
// warden.
func (d *doctor) binary(bin string) bool {
	st, err := os.Stat(bin)
	switch {
	case err != nil:
		d.problem("the binary %s: %v: the hook cannot start, and most agents then let every call run", bin, err)
		return false
	case !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0:
		d.problem("the binary %s is not an executable file: the hook cannot start", bin)
		return false
	}
	if d.self == "" {
		d.self, _ = os.Executable()
	}
	if me, err := os.Stat(d.self); err == nil && os.SameFile(me, st) {
		fmt.Fprintf(d.w, "  binary: %s, this warden (%s)\n", bin, version)
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "version").Output()
	v := strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(v, "warden ") {
		fmt.Fprintf(d.w, "  binary: %s, not this warden; `%s version` answered %q (%v)\n", bin, filepath.Base(bin), v, err)
		return true
	}
	fmt.Fprintf(d.w, "  binary: %s, another warden than this one (%s): %s\n", bin, d.self, v)
	return true
}

// failClosed reports the agent's fail-closed option.
func (d *doctor) failClosed(st install.Status) {
	a := st.Agent
	set := true
	for _, h := range st.Hooks {
		set = set && h.FailClosed
	}
	switch a.Name {
	case "claude-code":
		if !set {
			return // a problem of the Status
		}
		if d.claude == nil {
			v, err := claudeVersion()
			if err != nil {
				v = "?" + err.Error()
			}
			d.claude = &v
		}
		switch v := *d.claude; {
		case strings.HasPrefix(v, "?"):
			fmt.Fprintf(d.w, "  fail-closed: onFailure \"block\"; Claude Code honours it from 2.1.295 on, and could not tell its version (%s)\n", v[1:])
		case install.OnFailureHonoured(v):
			fmt.Fprintf(d.w, "  fail-closed: onFailure \"block\", which Claude Code %s honours\n", v)
		default:
			fmt.Fprintf(d.w, "  fail-closed: onFailure \"block\"\n")
			fmt.Fprintf(d.w, "  warning: Claude Code %s ignores onFailure (2.1.295 and later honour it): a crash or timeout of warden lets the call run\n", v)
		}
	case "cursor":
		if set {
			fmt.Fprintln(d.w, "  fail-closed: failClosed true")
		}
	default:
		fmt.Fprintln(d.w, "  fail-closed: "+a.FailClosed())
	}
}

// probe runs the test calls through command, as agent a would, and
// reports the answers. In shadow mode the dangerous call must be
// allowed too: warden only says what it would have done.
func (d *doctor) probe(ctx context.Context, a *install.Agent, command string, shadow bool) {
	if !d.ran {
		d.ran = true
		d.sandbox, d.sandboxEnv, d.sandboxErr = sandbox()
	}
	if d.sandboxErr != nil {
		d.problem("cannot make a directory for the test calls: %v", d.sandboxErr)
		return
	}
	cwd := filepath.Join(d.sandbox, "project")
	for i, p := range install.Probes {
		session := fmt.Sprintf("warden-doctor-%d-%s-%d", os.Getpid(), a.Name, i)
		stdout, stderr, exit, err := install.Run(ctx, command, a.Payload(p.Command, session, cwd), cwd, d.sandboxEnv)
		if err != nil {
			d.problem("the %s call (%s): %v", p.Name, p.Command, err)
			continue
		}
		ans := a.Read(stdout, stderr, exit)
		if shadow && p.Block {
			if ans.Outcome == install.Allowed && exit == 0 {
				fmt.Fprintf(d.w, "  %s call (%s): %s, by %s: right for --shadow, which blocks nothing\n", p.Name, p.Command, ans.Outcome, ans.How)
			} else {
				d.problem("%s call (%s): %s, by %s; with --shadow %s needs it allowed%s", p.Name, p.Command, ans.Outcome, ans.How, a.Title, errorLine(stderr))
			}
			continue
		}
		if a.Good(p, ans, exit) {
			fmt.Fprintf(d.w, "  %s call (%s): %s, by %s: right\n", p.Name, p.Command, ans.Outcome, ans.How)
			continue
		}
		want := "allowed"
		if p.Block {
			want = "blocked"
		}
		d.problem("%s call (%s): %s, by %s; %s needs it %s%s", p.Name, p.Command, ans.Outcome, ans.How, a.Title, want, errorLine(stderr))
	}
}

// errorLine returns the first line of a hook's stderr, for a problem.
func errorLine(stderr []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(stderr)), "\n")
	if line == "" {
		return ""
	}
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	return " (stderr: " + line + ")"
}

// sandbox makes the throwaway directory the test calls run in, and their
// environment: this one without warden's variables, with HOME, the XDG
// directories and an empty organization policy in it, so that the hook
// reads the default policy and writes its store and audit key there.
func sandbox() (string, []string, error) {
	dir, err := os.MkdirTemp("", "warden-doctor-")
	if err != nil {
		return "", nil, err
	}
	for _, sub := range []string{"home", "config", "state", "data", "cache", "project"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return dir, nil, err
		}
	}
	org := filepath.Join(dir, "org-policy.yaml")
	if err := os.WriteFile(org, nil, 0o600); err != nil {
		return dir, nil, err
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "WARDEN_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+filepath.Join(dir, "home"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "WARDEN_ORG_POLICY="+org)
	return dir, env, nil
}

func (d *doctor) cleanup() {
	if d.sandbox != "" {
		os.RemoveAll(d.sandbox)
	}
}

func (d *doctor) summary(agents int) {
	fmt.Fprintln(d.w)
	if d.ran {
		fmt.Fprintln(d.w, "The test calls ran in a throwaway home and state directory, under warden's default policy: nothing was recorded in your audit trail.")
	}
	switch {
	case d.installed == 0:
		fmt.Fprintf(d.w, "warden is not installed for any of the %d agents checked: run warden install AGENT.\n", agents)
	case d.problems == 0:
		fmt.Fprintf(d.w, "warden is installed in %d place(s); no problem found.\n", d.installed)
	default:
		fmt.Fprintf(d.w, "warden is installed in %d place(s); %d problem(s) found.\n", d.installed, d.problems)
	}
}
