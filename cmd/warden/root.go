package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// exitError carries an exit code without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// run executes the CLI and returns the process exit code: 0 success, 1 a
// command's negative answer (findings, blocked URLs), 2 usage or runtime error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		fmt.Fprintln(stderr, "warden:", err)
		return 2
	}
	return 0
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "warden",
		Short:         "Assess and decide on the tool calls of AI agents before they run",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newAssessCmd(), newAuditCmd(), newEvalCmd(), newScanCmd(), newCheckURLCmd(), newPolicyCmd(), newVersionCmd())
	root.AddCommand(newInstallCmd(), newDoctorCmd())
	root.AddCommand(newApproveCmd(), newRejectCmd(), newExplainCmd())
	root.AddCommand(newHookCmd())
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print warden's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), "warden", version)
			return nil
		},
	}
}

// engineFlags are the flags every assessing command shares.
type engineFlags struct {
	policyFile string
	cwd        string
	home       string
	mode       string
}

func (f *engineFlags) register(cmd *cobra.Command, defCwd, defHome string) {
	cmd.Flags().StringVar(&f.policyFile, "policy", "", "policy file (YAML)")
	cmd.Flags().StringVar(&f.cwd, "cwd", defCwd, "working directory for actions that name none (absolute)")
	cmd.Flags().StringVar(&f.home, "home", defHome, "the user's home directory (absolute; default $HOME)")
	cmd.Flags().StringVar(&f.mode, "mode", "", "permission mode: default, plan, acceptEdits, dontAsk, bypassPermissions (overrides the policy file)")
}

func (f *engineFlags) engine(opts ...warden.Option) (*warden.Engine, error) {
	p, err := f.load()
	if err != nil {
		return nil, err
	}
	return warden.New(append([]warden.Option{warden.WithPolicy(p), warden.WithCwd(f.cwd), warden.WithHome(f.homeDir())}, opts...)...)
}

func (f *engineFlags) homeDir() string {
	if f.home != "" {
		return f.home
	}
	home, _ := os.UserHomeDir()
	return home
}

// check refuses a relative --cwd or --home: a relative home would make ~
// mean another directory (rm -rf ~ judged as a workspace folder), and a
// relative working directory another workspace.
func (f *engineFlags) check() error {
	for _, fl := range []struct{ name, dir string }{{"--cwd", f.cwd}, {"--home", f.home}} {
		if fl.dir != "" && !filepath.IsAbs(fl.dir) {
			return fmt.Errorf("%s %q: the directory must be an absolute path", fl.name, fl.dir)
		}
	}
	if f.home == "" && !filepath.IsAbs(f.homeDir()) {
		return fmt.Errorf("the home directory %q ($HOME) is not an absolute path; give --home", f.homeDir())
	}
	return nil
}

// load reads the policy layers for --cwd and --home, --policy last, and
// applies --mode. A policy file that is named (--policy,
// $WARDEN_ORG_POLICY) and cannot be read, or an invalid one, is an error.
func (f *engineFlags) load() (*policy.Policy, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	src := policy.FindSources(f.cwd, f.homeDir())
	src.Explicit = f.policyFile
	p, err := policy.Load(src)
	if err != nil {
		return nil, err
	}
	if f.mode != "" {
		m, err := policy.ParseMode(f.mode)
		if err != nil {
			return nil, err
		}
		p.Mode = m
		p.Origins["mode"] = "--mode"
	}
	return p, nil
}
