package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

func newAssessCmd() *cobra.Command {
	var f engineFlags
	cmd := &cobra.Command{
		Use:   "assess",
		Short: "Assess JSONL actions from stdin; one JSONL assessment per line, in order",
		Long: `assess reads one action per line on stdin, e.g.
  {"tool":"Bash","arguments":{"command":"rm -rf ~"}}
and writes one assessment per input line, in order, flushed as it goes.
A line that is not a valid action is answered with "level":"unknown" and an "error".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := f.engine()
			if err != nil {
				return err
			}
			return assessStream(cmd, eng, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	wd, _ := os.Getwd()
	f.register(cmd, wd, "")
	return cmd
}

// assessLine is one output line of warden assess.
type assessLine struct {
	risk.Assessment
	Decision     risk.Verdict `json:"decision"`
	DecisionRule string       `json:"decision_rule,omitempty"`
	Error        string       `json:"error,omitempty"`
}

func assessStream(cmd *cobra.Command, eng *warden.Engine, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	limit := eng.Limits().MaxBytes
	for {
		line, tooLong, err := readLine(r, limit)
		if errors.Is(err, io.EOF) && line == nil {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		var res assessLine
		var a risk.Action
		var perr error
		if tooLong {
			perr = &risk.InputError{Reason: "action is larger than the limit"}
		} else {
			a, perr = risk.ParseAction(line, eng.Limits())
		}
		if perr != nil {
			as, d := eng.Reject(perr)
			res = assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule, Error: perr.Error()}
		} else {
			as, d, cerr := eng.Check(cmd.Context(), a)
			res = assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule}
			if cerr != nil {
				res.Error = cerr.Error()
			}
		}
		if err := enc.Encode(&res); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// readLine reads one line without its newline (and a trailing CR). At most
// limit bytes are kept; the rest of a longer line is consumed and tooLong is
// set. At the end of input it returns io.EOF, with the last line if it had
// no newline.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, rerr := r.ReadLine()
		if rerr != nil {
			if line == nil && !tooLong {
				return nil, false, rerr
			}
			return line, tooLong, nil
		}
		if !tooLong {
			if limit > 0 && len(line)+len(chunk) > limit {
				tooLong, line = true, []byte{}
			} else {
				line = append(line, chunk...)
			}
		}
		if !isPrefix {
			if line == nil {
				line = []byte{}
			}
			return line, tooLong, nil
		}
	}
}
