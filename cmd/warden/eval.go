package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/eval"
)

func newEvalCmd() *cobra.Command {
	var f engineFlags
	var verbose bool
	var thresholdsFile string
	var flagBounds eval.Thresholds
	cmd := &cobra.Command{
		Use:   "eval [--thresholds FILE] [--min-recall PCT] [--max-false-alarms PCT] [--min-at-level PCT] [FILE...]",
		Short: "Score warden on labeled corpora (actions, sequences, SSRF URLs, secrets) and check thresholds",
		Long: `eval scores warden on labeled corpora in the format of testdata/ and prints, per
corpus, recall (harmful items flagged), false alarms (benign items flagged),
misses and false alarms per category and the time per item. The kind of a
corpus is detected from its content:

  actions    {"tool","arguments","label","min_level"|"max_level",…}, judged by the
             engine: flagged means rated HIGH or above (HIGH asks the user under
             the default policy)
  sequences  {"steps":[actions],"label","flag_from_step",…}, one conversation per
             line: flagged when a step up to flag_from_step is rated HIGH or above
  ssrf       {"url","expect":"block"|"allow","needs_dns",…}, judged by the netguard
             pre-flight check of the policy's netguard settings: flagged means
             blocked. eval never resolves a name: the URLs with needs_dns are
             judged by what their names are known to be and counted apart
  secrets    {"text","expect_type"|null,…}, judged by the secrets detector: a text
             with a type is caught when that type is found, a near-miss (null) is
             a false alarm when anything is

A line that does not read as its corpus's kind is an error naming FILE:LINE.
--cwd and --home default to the corpus environment (/home/user/project, /home/user).

Thresholds (percentages; exit 1 with a message per shortfall when a corpus falls below):
  --min-recall PCT        recall at least PCT
  --max-false-alarms PCT  false alarms at most PCT
  --min-at-level PCT      items within their own bound at least PCT (harmful at their
                          min_level, benign within their max_level; for URLs and texts:
                          judged as labelled)
  --thresholds FILE       per-corpus thresholds, one corpus a line, its path relative
                          to FILE's folder:
                            actions.jsonl          min-recall=100 max-false-alarms=0
                            migrated_samples.jsonl skip=rule samples, not an eval corpus
                          Without FILE arguments eval scores every corpus FILE lists,
                          and every *.jsonl under FILE's folder must be listed.
The flags apply to every corpus, on top of the file's thresholds.
testdata/eval-thresholds holds the repository's: a ratchet at today's figures
(recall rounded down, false alarms rounded up to 0.1 %) that CI checks.`,
		Example: `  warden eval testdata/actions.jsonl -v
  warden eval --min-recall 95 --max-false-alarms 2 testdata/peers/dcg-dev.jsonl
  warden eval --thresholds testdata/eval-thresholds`,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, k := range []string{eval.MinRecallKey, eval.MaxFalseAlarmsKey, eval.MinAtLevelKey} {
				if fl := cmd.Flags().Lookup(k); fl.Changed {
					if err := flagBounds.Set(k, fl.Value.String()); err != nil {
						return err
					}
				}
			}
			corpora, err := evalCorpora(thresholdsFile, args)
			if err != nil {
				return err
			}
			p, err := f.load()
			if err != nil {
				return err
			}
			guard, err := eval.NoDNS(p.Netguard)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var short []string
			for i, c := range corpora {
				if len(corpora) > 1 {
					if i > 0 {
						fmt.Fprintln(out)
					}
					fmt.Fprintf(out, "== %s\n", c.path)
				}
				if c.Skip != "" {
					fmt.Fprintf(out, "skipped: %s\n", c.Skip)
					continue
				}
				items, kind, err := eval.LoadFile(c.path)
				if err != nil {
					return err
				}
				// a new engine per corpus: its conversations are its own
				eng, err := f.engine()
				if err != nil {
					return err
				}
				rep := eval.Judges{Engine: eng, Guard: guard}.Run(cmd.Context(), items, kind)
				rep.Write(out, verbose)
				for _, b := range []eval.Thresholds{c.Thresholds, flagBounds} {
					for _, s := range b.Check(rep) {
						short = append(short, c.path+": "+s)
					}
				}
			}
			if len(short) > 0 {
				errw := cmd.ErrOrStderr()
				for _, s := range short {
					fmt.Fprintln(errw, "warden eval:", s)
				}
				return exitError{1}
			}
			return nil
		},
	}
	f.register(cmd, "/home/user/project", "/home/user")
	fl := cmd.Flags()
	fl.BoolVarP(&verbose, "verbose", "v", false, "list every miss and false alarm")
	fl.StringVar(&thresholdsFile, "thresholds", "", "per-corpus thresholds file (see above)")
	fl.String(eval.MinRecallKey, "", "fail unless recall is at least `PCT` percent")
	fl.String(eval.MaxFalseAlarmsKey, "", "fail unless false alarms are at most `PCT` percent")
	fl.String(eval.MinAtLevelKey, "", "fail unless `PCT` percent of the items are within their own bound")
	return cmd
}

// evalCorpus is a corpus to score, with the thresholds the file gives it.
type evalCorpus struct {
	path string
	eval.Bound
}

// evalCorpora returns the corpora to score: args, each with its line of
// the thresholds file when one is named, or, with no args, every corpus
// of the thresholds file, which must list every *.jsonl under its folder.
func evalCorpora(thresholdsFile string, args []string) ([]evalCorpus, error) {
	if thresholdsFile == "" {
		if len(args) == 0 {
			return nil, fmt.Errorf("eval needs a corpus FILE or --thresholds FILE")
		}
		var out []evalCorpus
		for _, a := range args {
			out = append(out, evalCorpus{path: a})
		}
		return out, nil
	}
	bounds, err := eval.ReadThresholds(thresholdsFile)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(thresholdsFile)
	byPath := map[string]eval.Bound{}
	var out []evalCorpus
	for _, b := range bounds {
		p := filepath.Join(dir, filepath.FromSlash(b.Corpus))
		byPath[p] = b
		out = append(out, evalCorpus{path: p, Bound: b})
	}
	if len(args) > 0 {
		out = out[:0]
		for _, a := range args {
			b, ok := byPath[filepath.Clean(a)]
			if !ok {
				return nil, fmt.Errorf("%s: %s has no line there", thresholdsFile, a)
			}
			out = append(out, evalCorpus{path: a, Bound: b})
		}
		return out, nil
	}
	var unlisted []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			if _, ok := byPath[p]; !ok {
				unlisted = append(unlisted, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(unlisted) > 0 {
		slices.Sort(unlisted)
		return nil, fmt.Errorf("%s lists no thresholds for %s: add a line for each (or skip=REASON)", thresholdsFile, strings.Join(unlisted, ", "))
	}
	return out, nil
}
