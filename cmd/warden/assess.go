package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonenc"
	"github.com/agentwarden/warden/risk"
)

func newAssessCmd() *cobra.Command {
	var f engineFlags
	var dsn, keyFile string
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
run); without it they live as long as the process.

With --store, every answer is also recorded in the store's audit trail
(warden audit list|show|verify|export|prune), durably, before it is
written, and its chain signed with the audit key: --audit-key FILE, else
$WARDEN_AUDIT_KEY (the base64 seed), else the file $WARDEN_AUDIT_KEY_FILE,
else $XDG_CONFIG_HOME/warden/audit.key, else ~/.config/warden/audit.key,
created (mode 0600) on first use. A store or key that cannot be used is an
error before any line is read: nothing is assessed unrecorded. An event that
cannot be written denies its action. A line that also
carries the call's result in "output" (or "tool_response") tells warden
what an action that ran returned: it is not assessed again; warden
remembers the sensitive data it brought into the conversation and answers
{"observed":true,"findings":[…]}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var opts []warden.Option
			if dsn != "" {
				st, b, err := openRecording(cmd.Context(), dsn, keyFile)
				if err != nil {
					return err
				}
				defer st.Close()
				defer b.Close()
				opts = append(opts, warden.WithStore(st))
				opts = append(opts, b.opts...)
			} else if keyFile != "" {
				return errors.New("--audit-key without --store: nothing is recorded without a store")
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
	cmd.Flags().StringVar(&keyFile, "audit-key", "", "with --store: "+keyHelp)
	cmd.Flags().StringVar(&dsn, "store", "", "keep conversations in this store, so that they continue across processes, and record every answer in its audit trail: a SQLite file path (the default store is "+defaultStoreHelp+"), or a postgres:// URL (default: in memory, for this process only, unrecorded)")
	return cmd
}

// assessLine is one output line of warden assess.
type assessLine struct {
	risk.Assessment
	Decision     risk.Verdict `json:"decision"`
	DecisionRule string       `json:"decision_rule,omitempty"`
	// DecisionStage is the stage that decided: policy, review or record.
	DecisionStage risk.Stage `json:"decision_stage,omitempty"`
	// DecisionRef names the action in the store's audit trail (with
	// --store), for warden approve and warden explain.
	DecisionRef string `json:"decision_ref,omitempty"`
	// DecisionShadow marks a decision of shadow mode (the policy's
	// enforce: false): recorded, not to be enforced.
	DecisionShadow bool   `json:"decision_shadow,omitempty"`
	Error          string `json:"error,omitempty"`
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
	if l.DecisionRef != "" {
		dst = append(dst, `,"decision_ref":`...)
		dst = jsonenc.String(dst, l.DecisionRef)
	}
	if l.DecisionShadow {
		dst = append(dst, `,"decision_shadow":true`...)
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

// outputKeys are the fields in which a line reports the result of a call
// that ran: "output", or Claude Code's "tool_response".
var outputKeys = []string{"output", "tool_response"}

// outputOf returns the result a line reports, v (the value of the first
// of outputKeys it holds, see risk.ParseLine), as text: a JSON string's
// value, any other JSON value encoded. ok is false for a line that reports
// none.
func outputOf(v any) (text string, ok bool) {
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
// order. Lines are assessed on up to GOMAXPROCS workers: the lines of one
// session on one worker, in order (a conversation is a sequence), lines
// without a session_id on any. They are handed over in batches of the
// lines that have already arrived (a caller that writes one line and
// waits has its own batch of one), and the output is flushed whenever no
// further answer is ready: at once for such a caller, when its buffer
// fills for a stream.
func assessStream(cmd *cobra.Command, eng *warden.Engine, in io.Reader, out io.Writer) error {
	ctx := cmd.Context()
	limit := eng.Limits()
	lines := newLineReader(in, limit.MaxBytes)
	w := bufio.NewWriterSize(out, 64<<10)

	workers := max(1, runtime.GOMAXPROCS(0))
	// at most this many batches wait to be answered or written; with the
	// bounds of a batch, they bound the memory of a stream
	const waiting = 4
	queues := make([]chan batchPart, workers)
	for i := range queues {
		queues[i] = make(chan batchPart, waiting+1)
		go func(q chan batchPart) {
			for p := range q {
				for _, i := range p.lines {
					l := &p.b.lines[i]
					answer(ctx, eng, l.action, l.output, l.perr, &p.b.answers[i])
					*l = parsedLine{} // done with it
				}
				if p.b.left.Add(-1) == 0 {
					close(p.b.done)
				}
			}
		}(queues[i])
	}
	defer func() {
		for _, q := range queues {
			close(q)
		}
	}()
	pending := make(chan *batch, waiting)
	done := make(chan error, 1)
	go func() { done <- writeAnswers(pending, w) }()

	var rerr error
	rr := 0 // the worker of the next line without a session
	for eof := false; !eof; {
		b := &batch{done: make(chan struct{})}
		parts := make([][]int, workers)
		size := 0
		for len(b.lines) < batchLines && size < batchBytes {
			line, tooLong, err := lines.next()
			if errors.Is(err, io.EOF) && line == nil {
				eof = true
				break
			}
			if err != nil && !errors.Is(err, io.EOF) {
				rerr, eof = err, true
				break
			}
			// decoded here, once: the session it names picks the worker
			var l parsedLine
			if tooLong {
				l.perr = &risk.InputError{Reason: "action is larger than the limit"}
			} else {
				l.action, l.output, l.perr = risk.ParseLine(line, limit, outputKeys...)
			}
			q := rr
			if id := l.action.SessionID; id != "" {
				q = int(fnv32a(id) % uint32(workers))
			} else {
				rr = (rr + 1) % workers
			}
			parts[q] = append(parts[q], len(b.lines))
			b.lines = append(b.lines, l)
			size += len(line)
			if !lines.ready() {
				break // no other line has arrived: answer these now
			}
		}
		if len(b.lines) == 0 {
			break
		}
		b.answers = make([]lineAnswer, len(b.lines))
		for _, p := range parts {
			if len(p) > 0 {
				b.left.Add(1)
			}
		}
		pending <- b
		for q, p := range parts {
			if len(p) > 0 {
				queues[q] <- batchPart{b, p}
			}
		}
	}
	close(pending)
	if werr := <-done; werr != nil {
		return werr
	}
	return rerr
}

// writeAnswers writes the answers of the batches from pending on w, in
// order, and flushes w whenever the next batch is not answered yet. After
// a write fails, it keeps receiving batches (the workers must not block)
// and returns the error when pending is closed.
func writeAnswers(pending <-chan *batch, w *bufio.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var werr error
	b, ok := <-pending
	for ok {
		<-b.done
		for i := range b.answers {
			if werr == nil {
				werr = writeAnswer(w, enc, b.answers[i].value())
			}
		}
		var next *batch
		select {
		case next, ok = <-pending:
		default: // none has arrived
		}
		if werr == nil && (next == nil || !next.answered()) {
			werr = w.Flush()
		}
		if next == nil && ok {
			next, ok = <-pending
		}
		b = next
	}
	return werr
}

// A batch is at most batchLines lines, and it closes once it holds
// batchBytes or more.
const (
	batchLines = 32
	batchBytes = 64 << 10
)

// batch is lines of input that arrived together, handed to the workers in
// parts, and their answers.
type batch struct {
	lines   []parsedLine
	answers []lineAnswer  // answers[i] answers lines[i]
	left    atomic.Int32  // parts not yet answered
	done    chan struct{} // closed when every part is answered
}

// answered reports whether every line of b is answered.
func (b *batch) answered() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// batchPart is the lines of a batch (indexes, in order) that one worker
// answers.
type batchPart struct {
	b     *batch
	lines []int
}

// parsedLine is an input line, decoded (see answer).
type parsedLine struct {
	action risk.Action
	output any // see outputOf
	perr   error
}

// fnv32a is the 32-bit FNV-1a hash of s.
func fnv32a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// lineAnswer is the answer to one input line: observed when the line
// reported what a call returned, assess otherwise.
type lineAnswer struct {
	assess   assessLine
	observed *observedLine
}

// value returns the answer to write.
func (l *lineAnswer) value() any {
	if l.observed != nil {
		return l.observed
	}
	return &l.assess
}

// answer sets dst to the answer to one input line, decoded: an action to
// check (a), the result of a call that ran (see outputOf), or input that
// is not an action (perr).
func answer(ctx context.Context, eng *warden.Engine, a risk.Action, result any, perr error, dst *lineAnswer) {
	if output, ok := outputOf(result); ok {
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
		dst.observed = &obs
		return
	}
	if perr != nil {
		as, d := eng.Reject(ctx, perr)
		dst.assess = assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule, DecisionStage: d.Stage, DecisionShadow: d.Shadow, Error: perr.Error()}
		return
	}
	as, d, cerr := eng.Check(ctx, a)
	dst.assess = assessLine{Assessment: as, Decision: d.Verdict, DecisionRule: d.Rule, DecisionStage: d.Stage, DecisionRef: d.Ref, DecisionShadow: d.Shadow}
	if cerr != nil {
		dst.assess.Error = cerr.Error()
	}
}

// lineReader reads input lines and tells whether another one has
// already arrived.
type lineReader struct {
	r     *bufio.Reader
	limit int
	// tail is the number of buffered bytes after the last newline seen in
	// the buffer: while more than tail bytes are buffered, a whole line
	// is; -1 when the buffer must be looked at again (it may have been
	// refilled)
	tail int
}

func newLineReader(in io.Reader, limit int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, 64<<10), limit: limit, tail: -1}
}

// ready reports whether a whole line is buffered, so that next will not
// wait for input.
func (lr *lineReader) ready() bool {
	n := lr.r.Buffered()
	if lr.tail >= 0 && n > lr.tail {
		return true
	}
	buf, _ := lr.r.Peek(n)
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 {
		lr.tail = -1 // next reads past the buffer
		return false
	}
	lr.tail = n - i - 1
	return true
}

// next reads one line without its newline (and a trailing CR). At most
// limit bytes are kept; the rest of a longer line is consumed and tooLong is
// set. At the end of input it returns io.EOF, with the last line if it had
// no newline. The line is valid until the next call of next or ready: a
// line that is whole in the buffer is not copied.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	r, limit := lr.r, lr.limit
	for {
		chunk, isPrefix, rerr := r.ReadLine()
		if line == nil && !tooLong && !isPrefix && rerr == nil && (limit <= 0 || len(chunk) <= limit) {
			if chunk == nil {
				chunk = []byte{}
			}
			return chunk, false, nil
		}
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
