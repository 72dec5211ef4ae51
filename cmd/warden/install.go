package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/hook/install"
)

func newInstallCmd() *cobra.Command {
	var project, user, uninstall, dryRun, shadow, authoritative bool
	var binary string
	cmd := &cobra.Command{
		Use:   "install AGENT [--user|--project] [--shadow] [--authoritative] [--uninstall] [--dry-run]",
		Short: "Put warden's hook into an agent's settings (" + strings.Join(install.Names(), ", ") + "), or take it out",
		Long: `install adds "warden hook AGENT" to the agent's hook settings, before and after every tool
call, with a short timeout and the agent's fail-closed option where it has one:

  claude-code  ~/.claude/settings.json          project: .claude/settings.local.json
  codex        ~/.codex/hooks.json              project: .codex/hooks.json
  gemini       ~/.gemini/settings.json          project: .gemini/settings.json
  cursor       ~/.cursor/hooks.json             project: .cursor/hooks.json
  copilot      ~/.copilot/hooks/warden.json     project: .github/hooks/warden.json
  windsurf     ~/.codeium/windsurf/hooks.json   project: .windsurf/hooks.json

(--user, the default, guards every project; --project the current directory only.
$CLAUDE_CONFIG_DIR, $CODEX_HOME and $COPILOT_HOME move the user's files as they move the
agents'.) The hook runs this warden binary, by its absolute path (the one on $PATH when it
is this binary), or --binary. --shadow puts "warden hook AGENT --shadow" in (every call
decided and recorded, none blocked); --authoritative, for claude-code only, "warden hook
claude-code --authoritative" (warden's allow skips Claude Code's permission prompt).

The file is edited, not rewritten: other hooks and keys, their order, the indentation,
comments where the agent allows them and the end of the file stay as they are. Installing
again changes nothing, or, when warden's entries run another binary or other options (an
edit by hand, or other flags), only their command, in place. --uninstall takes out warden's
entries, whatever options they run; where installing again would give back exactly the
file it read, the rest is as install found it. A file holding nothing but warden's hooks,
as install creates one, is removed: that is how install knows a file it created, by its
content, without a record elsewhere. A file that does not parse, or whose "hooks" is not what the agent reads, is
refused as FILE:LINE:COL: message and left alone; so is a symbolic link on the way to it.
--dry-run prints the file as it would be, and writes nothing.

install prints what it did, what is left to do (Codex: trust the hooks in /hooks), and
how to undo it. warden doctor checks what is installed.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: install.Names(),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, ok := install.Lookup(args[0])
			if !ok {
				return fmt.Errorf("unknown agent %q: one of %s", args[0], strings.Join(install.Names(), ", "))
			}
			if project && user {
				return errors.New("--project and --user: choose one")
			}
			scope := install.User
			if project {
				scope = install.Project
			}
			env, err := installEnv()
			if err != nil {
				return err
			}
			var options []string
			if authoritative {
				if a.Name != "claude-code" {
					return fmt.Errorf("--authoritative is an option of the claude-code hook only (warden's allow then skips Claude Code's permission prompt); %s has none", a.Name)
				}
				options = append(options, "--authoritative")
			}
			if shadow {
				options = append(options, "--shadow")
			}
			if uninstall && len(options) > 0 {
				return errors.New("--uninstall takes out warden's entries whatever options they run: --shadow and --authoritative are for install")
			}
			var c *install.Change
			if uninstall {
				c, err = install.Uninstall(a, scope, env)
			} else {
				bin, berr := hookBinary(binary)
				if berr != nil {
					return berr
				}
				command, cerr := install.Command(bin, a.Name, options...)
				if cerr != nil {
					return cerr
				}
				c, err = install.Install(a, scope, env, command)
			}
			if err != nil {
				return err
			}
			if !dryRun {
				if err := c.Write(); err != nil {
					return err
				}
			}
			reportChange(cmd.OutOrStdout(), c, uninstall, dryRun)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&user, "user", false, "the user's settings, for every project (the default)")
	f.BoolVar(&project, "project", false, "the settings of the project in the current directory")
	f.BoolVar(&uninstall, "uninstall", false, "take warden's hook out")
	f.BoolVar(&dryRun, "dry-run", false, "print the file as it would be; write nothing")
	f.StringVar(&binary, "binary", "", "the warden binary the hook runs (absolute; default: this one)")
	f.BoolVar(&shadow, "shadow", false, "the hook runs warden hook AGENT --shadow: every call decided and recorded, none blocked")
	f.BoolVar(&authoritative, "authoritative", false, "claude-code only: the hook runs warden hook claude-code --authoritative, whose allow skips Claude Code's prompt")
	return cmd
}

// installEnv is the environment the agents' settings are found in: the
// home directory, the current directory as the project's, and the
// variables that move the agents' directories.
func installEnv() (install.Env, error) {
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return install.Env{}, fmt.Errorf("the home directory %q ($HOME) is not an absolute path", home)
	}
	wd, err := os.Getwd()
	if err != nil {
		return install.Env{}, err
	}
	return install.Env{Home: home, Dir: wd, Getenv: os.Getenv}, nil
}

// hookBinary returns the warden binary the hook is to run: flag, or this
// process's executable, by the path $PATH finds it at when that is the
// same file (a path that stays the same across upgrades). A binary in a
// temporary directory (go run, go test) is refused: it goes away.
func hookBinary(flag string) (string, error) {
	if flag != "" {
		if !filepath.IsAbs(flag) {
			return "", fmt.Errorf("--binary %q: the path must be absolute", flag)
		}
		st, err := os.Stat(flag)
		if err != nil {
			return "", fmt.Errorf("--binary: %w", err)
		}
		if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
			return "", fmt.Errorf("--binary %s: not an executable file", flag)
		}
		return filepath.Clean(flag), nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this warden binary (%v): name it with --binary", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") || strings.HasSuffix(exe, ".test") {
		return "", fmt.Errorf("this warden runs from a temporary build (%s), which goes away: install the binary (go install) and run install with it, or name it with --binary", exe)
	}
	if tmp := filepath.Clean(os.TempDir()) + string(filepath.Separator); strings.HasPrefix(exe, tmp) {
		return "", fmt.Errorf("this warden binary is in the temporary directory (%s), which is cleared: move it, or name the binary the hook is to run with --binary", exe)
	}
	if p, err := exec.LookPath("warden"); err == nil && filepath.IsAbs(p) {
		a, aerr := os.Stat(p)
		b, berr := os.Stat(exe)
		if aerr == nil && berr == nil && os.SameFile(a, b) {
			return filepath.Clean(p), nil
		}
	}
	return exe, nil
}

// reportChange prints what a change did (or, dry, would do), what is
// left to do, and how to undo it.
func reportChange(w io.Writer, c *install.Change, uninstall, dry bool) {
	a := c.Agent
	fmt.Fprintf(w, "%s, %s scope: %s\n", a.Title, c.Scope, c.Path)
	if dry {
		fmt.Fprintln(w, "  dry run: nothing is written; warden would have")
	}
	for _, d := range c.Done {
		fmt.Fprintln(w, "  "+d)
	}
	if dry && c.Changed() {
		if c.After == nil {
			fmt.Fprintln(w, "  the file would be removed")
		} else {
			fmt.Fprintln(w, "  the file would read, between the lines of dashes:")
			fmt.Fprintln(w, "-----")
			w.Write(c.After)
			if len(c.After) > 0 && c.After[len(c.After)-1] != '\n' {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, "-----")
		}
	}
	if uninstall {
		if c.Changed() {
			if c.Exact && c.After != nil {
				fmt.Fprintln(w, "  nothing else changed: installing again gives back, byte for byte, the file uninstall read")
			} else if c.After != nil {
				fmt.Fprintln(w, "  the file was edited since install: only warden's entries were taken out")
			}
			fmt.Fprintf(w, "warden no longer checks %s's tool calls here. To install again: warden install %s --%s\n", a.Title, a.Name, c.Scope)
		}
		return
	}
	fmt.Fprintln(w, "  each entry runs "+a.Describe(c.Command))
	fmt.Fprintln(w, "fail-closed: "+failClosedNote(a))
	for _, n := range a.Next(c.Scope) {
		fmt.Fprintln(w, "next: "+n)
	}
	fmt.Fprintf(w, "undo: warden install %s --%s --uninstall\n", a.Name, c.Scope)
}

// failClosedNote says whether a blocks a call when warden's hook fails;
// for Claude Code, by the version `claude --version` reports.
func failClosedNote(a *install.Agent) string {
	if a.Name != "claude-code" {
		return a.FailClosed()
	}
	v, err := claudeVersion()
	switch {
	case err != nil:
		return `onFailure "block" is set; Claude Code honours it from 2.1.295 on, and could not tell its version (` + err.Error() + `): check with claude --version`
	case install.OnFailureHonoured(v):
		return `onFailure "block": Claude Code ` + v + ` blocks a call when warden fails, times out or cannot start`
	default:
		return `onFailure "block" is set, but Claude Code ` + v + ` ignores it (2.1.295 and later honour it): until you upgrade, a crash or timeout of warden lets the call run`
	}
}

// claudeVersion runs `claude --version` (the claude on $PATH), for at
// most three seconds.
func claudeVersion() (string, error) {
	p, err := exec.LookPath("claude")
	if err != nil {
		return "", errors.New("claude is not on $PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("claude --version: %v", err)
	}
	v, ok := install.ClaudeVersion(string(out))
	if !ok {
		return "", fmt.Errorf("claude --version printed %q", strings.TrimSpace(string(out)))
	}
	return v, nil
}
