package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonenc"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/session"
	"github.com/agentwarden/warden/store"
)

func newAssessCmd() *cobra.Command {
	var f engineFlags
	var dsn string
	cmd := &cobra.Command{
		Use:   "assess",
		Short: "Assess JSONL actions from stdin; one JSONL assessment per line, in order",
		Long: `assess reads one action per line on stdin, e.g.
  {"tool":"Bash","arguments":{"command":"rm -rf ~"}}
and writes one assessment per input line, in order, flushed as it goes.
A line that is not a valid action is answered with "level":"unknown" and an "error".

Lines with the same "session_id" are one conversation. With --store, the
conversations are kept in a SQLite file or a PostgreSQL database and
continue in the next process (one process per tool call, as agent hooks
run); without it they live as long as the process. A line that also
carries the call's result in "output" (or "tool_response") tells warden
what an action that ran returned: it is not assessed again; warden
remembers the sensitive data it brought into the conversation and answers
{"observed":true,"findings":[…]}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var opts []warden.Option
			if dsn != "" {
				st, err := store.Open(cmd.Context(), dsn, session.DefaultConfig())
				if err != nil {
					return fmt.Errorf("--store: %w", err)
				}
				defer st.Close()
				opts = append(opts, warden.WithStore(st))
			}
			eng, err := f.engine(opts...)
			if err != nil {
				return err
			}
			return assessStream(cmd, eng, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	wd, _ := os.Getwd()
	f.register(cmd, wd, "")
	cmd.Flags().StringVar(&dsn, "store", "", "keep conversations in this store, so that they continue across processes: a SQLite file path, or a postgres:// URL (default: in memory, for this process only)")
	return cmd
}

// assessLine is one output line of warden assess.
type assessLine struct {
	risk.Assessment
	Decision     risk.Verdict `json:"decision"`
	DecisionRule string       `json:"decision_rule,omitempty"`
	// DecisionStage is the stage that decided: policy, review or record.
	DecisionStage risk.Stage `json:"decision_stage,omitempty"`
	Error         string     `json:"error,omitempty"`
}

// appendJSON appends l's JSON line, as encoding/json writes it (HTML
// escaping off) with its newline. It fails where encoding/json does (a
// level that is not valid), and dst is then to be dropped.
func (l *assessLine) appendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, '{')
	dst, err := l.Assessment.AppendJSONFields(dst)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `,"decision":`...)
	dst = jsonenc.String(dst, string(l.Decision))
	if l.DecisionRule != "" {
		dst = append(dst, `,"decision_rule":`...)
		dst = jsonenc.String(dst, l.DecisionRule)
	}
	if l.DecisionStage != "" {
		dst = append(dst, `,"decision_stage":`...)
		dst = jsonenc.String(dst, string(l.DecisionStage))
	}
	if l.Error != "" {
		dst = append(dst, `,"error":`...)
		dst = jsonenc.String(dst, l.Error)
	}
	return append(dst, "}\n"...), nil
}

// writeAnswer writes v, an answer, as one JSON line on w: an assessLine
// without reflection, anything else (and an assessLine appendJSON fails
// on, for encoding/json's error) with enc, which writes to w.
func writeAnswer(w *bufio.Writer, enc *json.Encoder, v any) error {
	if l, ok := v.(*assessLine); ok {
		if b, err := l.appendJSON(w.AvailableBuffer()); err == nil {
			_, err = w.Write(b)
			return err
		}
	}
	return enc.Encode(v)
}

// observedLine answers a line that reports what a call returned.
type observedLine struct {
	Observed bool           `json:"observed"`
	Findings []risk.Finding `json:"findings"`
	Error    string         `json:"error,omitempty"`
}

// outputOf returns the result a line reports ("output", or Claude Code's
// "tool_response") in its decoded object obj, as text: a JSON string's
// value, any other JSON value encoded. ok is false for a line that reports
// none.
func outputOf(obj map[string]any) (text string, ok bool) {
	v := obj["output"]
	if v == nil {
		v = obj["tool_response"]
	}
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// assessStream answers the actions of in, one line each, on out, in input
// order, each line flushed as soon as it and those before it are
// answered. Lines are assessed on up to GOMAXPROCS workers: the lines of
// one session on one worker, in order (a conversation is a sequence),
// lines without a session_id on any.
func assessStream(cmd *cobra.Command, eng *warden.Engine, in io.Reader, out io.Writer) error {
	ctx := cmd.Context()
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)

	workers := max(1, runtime.GOMAXPROCS(0))
	type job struct {
		action risk.Action
		obj    map[string]any
		perr   error
		result chan any
	}
	queues := make([]chan job, workers)
	for i := range queues {
		queues[i] = make(chan job, 16)
		go func(q chan job) {
			for j := range q {
				j.result <- answer(ctx, eng, j.action, j.obj, j.perr)
			}
		}(queues[i])
	}
	defer func() {
		for _, q := range queues {
			close(q)
		}
	}()
	// the answers, in input order: at most 4 per worker wait to be written
	pending := make(chan chan any, 4*workers)
	done := make(chan error, 1)
	go func() {
		var werr error
		for res := range pending {
			v := <-res
			if werr != nil {
				continue // drain: the workers must not block
			}
			if werr = writeAnswer(w, enc, v); werr == nil {
				werr = w.Flush()
			}
		}
		done <- werr
	}()

	limit := eng.Limits()
	next := 0
	var rerr error
	for {
		line, tooLong, err := readLine(r, limit.MaxBytes)
		if errors.Is(err, io.EOF) && line == nil {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			rerr = err
			break
		}
		// decoded here, once: the session it names picks the worker
		j := job{result: make(chan any, 1)}
		if tooLong {
			j.perr = &risk.InputError{Reason: "action is larger than the limit"}
		} else {
			j.action, j.obj, j.perr = risk.ParseObject(line, limit)
		}
		q := next
		if id := j.action.SessionID; id != "" {
			h := fnv.New32a()
			h.Write([]byte(id))
			q = int(h.Sum32() % uint32(workers))
		} else {
			next = (next + 1) % workers
		}
		pending <- j.result
		queues[q] <- j
	}
	close(pending)
	if werr := <-done; werr != nil {
		return werr
	}
	return rerr
}

// answer answers one input line, decoded: an action to check (a), the
// output of a call that ran (obj has one), or input that is not an action
// (perr).
func answer(ctx context.Context, eng *warden.Engine, a risk.Action, obj map[string]any, perr error) any {
	if output, ok := outputOf(obj); ok {
		obs := observedLine{Observed: true, Findings: []risk.Finding{}}
		if perr == nil {
			fs, oerr := eng.Observe(ctx, a, output)
			if fs != nil {
				obs.Findings = fs
			}
			perr = oerr
		}
		if perr != nil {
			obs.Error = perr.Error()
		}
		return &obs
	}
	if perr != nil {
		as, d := eng.Reject(ctx, perr)
		return &assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule, DecisionStage: d.Stage, Error: perr.Error()}
	}
	as, d, cerr := eng.Check(ctx, a)
	res := &assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule, DecisionStage: d.Stage}
	if cerr != nil {
		res.Error = cerr.Error()
	}
	return res
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
