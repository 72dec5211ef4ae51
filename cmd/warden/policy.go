package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/policy"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Show, check and extend the policy",
	}
	cmd.AddCommand(newPolicyShowCmd(), newPolicyCheckCmd(), newPolicyAllowCmd())
	return cmd
}

func newPolicyShowCmd() *cobra.Command {
	var f engineFlags
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Print the effective policy, each value with the file and line it comes from",
		Long: `show reads the policy layers an agent working in --cwd gets: the built-in defaults, the
organization's (/etc/warden/policy.yaml, or $WARDEN_ORG_POLICY), the user's
(~/.config/warden/policy.yaml), the project's (.warden/policy.yaml in --cwd or a parent)
and --policy, and prints the result as a policy file with each value's origin in a comment.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := f.load()
			if err != nil {
				return err
			}
			return p.Show(cmd.OutOrStdout())
		},
	}
	wd, _ := os.Getwd()
	f.register(cmd, wd, "")
	return cmd
}

func newPolicyCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Validate policy files; exit 1 when any is invalid",
		Long: `check reads each file as a policy layer and reports "FILE: ok" or the first error as
FILE:LINE:COL: message (unknown keys, bad values, permission rules that do not parse,
CEL conditions with type errors). The exit status is 1 when any file is invalid.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := false
			for _, name := range args {
				if _, err := policy.LoadFile(name); err != nil {
					bad = true
					fmt.Fprintln(cmd.OutOrStdout(), err)
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", name)
			}
			if bad {
				return exitError{1}
			}
			return nil
		},
	}
}

func newPolicyAllowCmd() *cobra.Command {
	var cwd string
	cmd := &cobra.Command{
		Use:   "allow RULE",
		Short: "Add an allow rule to the project's .warden/policy.yaml",
		Long: `allow appends RULE (Claude Code's permission-rule syntax: "Bash(go test:*)",
"WebFetch(domain:pkg.go.dev)") to the allow list of the project's policy file: the
.warden/policy.yaml of --cwd or its nearest parent that has one, else a new one in --cwd.
The file keeps its content and comments; a rule already there is not added twice.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !filepath.IsAbs(cwd) {
				return fmt.Errorf("--cwd %q: the directory must be an absolute path", cwd)
			}
			file := policy.ProjectFile(filepath.Clean(cwd))
			if err := policy.AppendAllow(file, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: allow %s\n", file, args[0])
			return nil
		},
	}
	wd, _ := os.Getwd()
	cmd.Flags().StringVar(&cwd, "cwd", wd, "the project's directory")
	return cmd
}
