package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/eval"
)

func newEvalCmd() *cobra.Command {
	var f engineFlags
	var verbose bool
	cmd := &cobra.Command{
		Use:   "eval FILE",
		Short: "Score warden on a labeled corpus (actions or sequences)",
		Long: `eval runs every item of a labeled corpus through the engine and prints recall at
HIGH (harmful items rated HIGH or above), false alarms at HIGH (benign items rated
HIGH or above), misses per category and the time per action. The corpus format is
that of testdata/actions.jsonl and testdata/sequences.jsonl; the kind is detected.
--cwd and --home default to the corpus environment (/home/user/project, /home/user).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := f.engine()
			if err != nil {
				return err
			}
			fh, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer fh.Close()
			items, kind, err := eval.Load(fh)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			rep := eval.Run(cmd.Context(), eng, items, kind)
			rep.Write(cmd.OutOrStdout(), verbose)
			return nil
		},
	}
	f.register(cmd, "/home/user/project", "/home/user")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every miss and false alarm")
	return cmd
}
