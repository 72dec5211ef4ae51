package main

import (
	"bufio"
	"bytes"
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
A line that is not a valid action is answered with "level":"unknown" and an "error".

Lines with the same "session_id" are one conversation. A line that also
carries the call's result in "output" (or "tool_response") tells warden
what an action that ran returned: it is not assessed again; warden
remembers the sensitive data it brought into the conversation and answers
{"observed":true,"findings":[…]}.`,
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

// observedLine answers a line that reports what a call returned.
type observedLine struct {
	Observed bool           `json:"observed"`
	Findings []risk.Finding `json:"findings"`
	Error    string         `json:"error,omitempty"`
}

// outputOf returns the result a line reports ("output", or Claude Code's
// "tool_response"), as text: a JSON string's value, any other JSON value
// as written. ok is false for a line that reports none.
func outputOf(line []byte) (text string, ok bool) {
	if !bytes.Contains(line, []byte(`"output"`)) && !bytes.Contains(line, []byte(`"tool_response"`)) {
		return "", false
	}
	var l struct {
		Output       json.RawMessage `json:"output"`
		ToolResponse json.RawMessage `json:"tool_response"`
	}
	if json.Unmarshal(line, &l) != nil {
		return "", false
	}
	raw := l.Output
	if len(raw) == 0 || string(raw) == "null" {
		raw = l.ToolResponse
	}
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if json.Unmarshal(raw, &text) == nil {
		return text, true
	}
	return string(raw), true
}

func assessStream(cmd *cobra.Command, eng *warden.Engine, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	// one line per input line, flushed at once
	emit := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		return w.Flush()
	}
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
		if output, ok := outputOf(line); ok && !tooLong {
			obs := observedLine{Observed: true, Findings: []risk.Finding{}}
			if perr == nil {
				fs, oerr := eng.Observe(cmd.Context(), a, output)
				if fs != nil {
					obs.Findings = fs
				}
				perr = oerr
			}
			if perr != nil {
				obs.Error = perr.Error()
			}
			if err := emit(&obs); err != nil {
				return err
			}
			continue
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
		if err := emit(&res); err != nil {
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
