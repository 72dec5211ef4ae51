package main

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
)

func newApproveCmd() *cobra.Command {
	var dsn, keyFile, by, reason string
	var once, session, project bool
	var f engineFlags
	cmd := &cobra.Command{
		Use:   "approve REF [--once|--session|--project]",
		Short: "Approve exactly the action warden asked about or denied, by the reference it gave",
		Long: `approve approves the action the audit trail recorded under REF, the reference
warden gave when it asked about or denied it ("warden approve 3f9a1c0d2b7e
--once|--session|--project"): the start of the action's keyed hash, which binds
the approval to that exact action, every argument and secret included.

  --once     the next identical call of the action's conversation runs, one time
             (the default)
  --session  the identical call runs for the rest of the conversation
  --project  the narrowest allow rule of the action is written to the project's
             .warden/policy.yaml (refused for a locked action, and for one the
             trail holds masked, since the rule would hold the mask)

The approval is recorded in the audit trail, with who (--by, default the user
name) and why (--reason), before it takes effect. No approval passes a deny rule.
A person runs this; the agent running it is a critical guard finding.

Exit status: 0 approved, 1 not approved (no action has this reference, or the
approval was refused: the reason is printed), 2 usage or runtime error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			scope, err := scopeFlag(once, session, project)
			if err != nil {
				return err
			}
			ref, err := audit.ParseRef(args[0])
			if err != nil {
				return err
			}
			s, k, err := openAnswering(cmd, dsn, keyFile, &by)
			if err != nil {
				return err
			}
			defer s.Close()
			found, err := audit.FindAction(cmd.Context(), s.b, ref)
			if errors.Is(err, audit.ErrUnknownRef) {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: no action of %s has the reference %s: nothing approved (warden audit list shows what was recorded)\n", s.name, ref)
				return exitError{1}
			}
			if err != nil {
				return err
			}
			// the policy of the action's working directory, as the check had it
			if a := found.Check.Action; a != nil && filepath.IsAbs(a.Cwd) && !cmd.Flags().Changed("cwd") {
				f.cwd = a.Cwd
			}
			eng, err := f.engine(warden.WithStore(s.st), warden.WithAudit(audit.NewLog(s.b, k)))
			if err != nil {
				return err
			}
			found, ap, err := eng.ApproveRef(cmd.Context(), ref, scope, warden.By(by), warden.Because(reason))
			if err != nil {
				if found == nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: not approved: %s\n", err)
				return exitError{1}
			}
			ev := found.Check
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "approved %s: %s %s\n", scopeText(scope), ev.Tool, cell(actionText(ev.Action), 200))
			fmt.Fprintf(out, "  action %s (event %d", audit.ShortRef(found.Hash), ev.Seq)
			if ev.Session != "" {
				fmt.Fprintf(out, ", session %s", cell(ev.Session, 64))
			}
			if ev.Decision != nil {
				fmt.Fprintf(out, ", %s", ev.Decision.Verdict)
			}
			fmt.Fprintln(out, ")")
			switch scope {
			case policy.ScopeOnce:
				fmt.Fprintf(out, "  the next identical call of session %s runs, one time\n", cell(ev.Session, 64))
			case policy.ScopeSession:
				fmt.Fprintf(out, "  the identical call runs for the rest of session %s\n", cell(ev.Session, 64))
			case policy.ScopeProject:
				fmt.Fprintf(out, "  allow rule %s written to %s\n", ap.Rule, ap.File)
			}
			return nil
		},
	}
	wd, _ := os.Getwd()
	f.register(cmd, wd, "")
	storeFlag(cmd, &dsn)
	fl := cmd.Flags()
	fl.BoolVar(&once, "once", false, "approve the next identical call of the action's conversation, one time (the default)")
	fl.BoolVar(&session, "session", false, "approve the identical call for the rest of the conversation")
	fl.BoolVar(&project, "project", false, "write the action's narrowest allow rule to the project's .warden/policy.yaml")
	fl.StringVar(&by, "by", "", "who approves, for the audit trail (default: the user name)")
	fl.StringVar(&reason, "reason", "", "why, for the audit trail")
	fl.StringVar(&keyFile, "audit-key", "", "the audit key file the trail was recorded with (default: as warden assess --store finds it; never created here)")
	return cmd
}

// scopeFlag returns the scope --once, --session and --project say, at
// most one of them; once when none does.
func scopeFlag(once, session, project bool) (policy.Scope, error) {
	n := 0
	scope := policy.ScopeOnce
	for _, s := range []struct {
		set   bool
		scope policy.Scope
	}{{once, policy.ScopeOnce}, {session, policy.ScopeSession}, {project, policy.ScopeProject}} {
		if s.set {
			n++
			scope = s.scope
		}
	}
	if n > 1 {
		return "", errors.New("--once, --session and --project: give one of them")
	}
	return scope, nil
}

// scopeText says what an approval of scope is for.
func scopeText(scope policy.Scope) string {
	switch scope {
	case policy.ScopeOnce:
		return "once"
	case policy.ScopeSession:
		return "for the session"
	}
	return "for the project"
}

func newRejectCmd() *cobra.Command {
	var dsn, keyFile, by, reason string
	var f engineFlags
	cmd := &cobra.Command{
		Use:   "reject REF",
		Short: "Refuse the action warden asked about, by its reference, and withdraw its approvals",
		Long: `reject records in the audit trail that a person refused the action recorded
under REF (the reference warden gave when it asked or denied), with who (--by,
default the user name) and why (--reason), and withdraws the approvals of that
exact action remembered in its conversation (--once or --session), in the same
save: an approval given by mistake is taken back. A project rule is not removed
(edit the project's .warden/policy.yaml). A person runs this; the agent running
it is a critical guard finding.

Exit status: 0 recorded, 1 no action has this reference, 2 usage or runtime error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref, err := audit.ParseRef(args[0])
			if err != nil {
				return err
			}
			s, k, err := openAnswering(cmd, dsn, keyFile, &by)
			if err != nil {
				return err
			}
			defer s.Close()
			eng, err := f.engine(warden.WithStore(s.st), warden.WithAudit(audit.NewLog(s.b, k)))
			if err != nil {
				return err
			}
			found, revoked, err := eng.DeclineRef(cmd.Context(), ref, warden.By(by), warden.Because(reason))
			if errors.Is(err, audit.ErrUnknownRef) {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: no action of %s has the reference %s: nothing recorded (warden audit list shows what was recorded)\n", s.name, ref)
				return exitError{1}
			}
			if err != nil {
				return err
			}
			ev := found.Check
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "refused: %s %s\n", ev.Tool, cell(actionText(ev.Action), 200))
			fmt.Fprintf(out, "  action %s (event %d", audit.ShortRef(found.Hash), ev.Seq)
			if ev.Session != "" {
				fmt.Fprintf(out, ", session %s", cell(ev.Session, 64))
			}
			fmt.Fprintln(out, ")")
			switch revoked {
			case 0:
				fmt.Fprintln(out, "  no approval of it to withdraw")
			case 1:
				fmt.Fprintln(out, "  withdrew 1 approval of it")
			default:
				fmt.Fprintf(out, "  withdrew %d approvals of it\n", revoked)
			}
			return nil
		},
	}
	wd, _ := os.Getwd()
	f.register(cmd, wd, "")
	storeFlag(cmd, &dsn)
	cmd.Flags().StringVar(&by, "by", "", "who refuses, for the audit trail (default: the user name)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, for the audit trail")
	cmd.Flags().StringVar(&keyFile, "audit-key", "", "the audit key file the trail was recorded with (default: as warden assess --store finds it; never created here)")
	return cmd
}

// openAnswering opens what a person's answer (approve, reject) is
// recorded with: the store dsn names, which must exist, and the audit key
// its trail was signed with (keyFile, else as assess finds it; never
// created). by, when empty, becomes the user's name.
func openAnswering(cmd *cobra.Command, dsn, keyFile string, by *string) (*auditStore, *audit.Keys, error) {
	if *by == "" {
		if u, err := user.Current(); err == nil {
			*by = u.Username
		}
	}
	k, _, err := signingKeys(keyFile, false)
	if err != nil {
		return nil, nil, fmt.Errorf("the audit key: %w", err)
	}
	s, err := openAuditStore(cmd.Context(), dsn)
	return s, k, err
}
