package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonenc"
	"github.com/agentwarden/warden/internal/parsed"
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
	// the verdicts and stages, constants, with their keys
	switch l.Decision {
	case risk.Allow:
		dst = append(dst, `,"decision":"allow"`...)
	case risk.Ask:
		dst = append(dst, `,"decision":"ask"`...)
	case risk.Deny:
		dst = append(dst, `,"decision":"deny"`...)
	default:
		dst = jsonenc.String(append(dst, `,"decision":`...), string(l.Decision))
	}
	if l.DecisionRule != "" {
		dst = append(dst, `,"decision_rule":`...)
		dst = jsonenc.String(dst, l.DecisionRule)
	}
	switch l.DecisionStage {
	case "":
	case risk.StagePolicy:
		dst = append(dst, `,"decision_stage":"policy"`...)
	case risk.StageReview:
		dst = append(dst, `,"decision_stage":"review"`...)
	case risk.StageRecord:
		dst = append(dst, `,"decision_stage":"record"`...)
	default:
		dst = jsonenc.String(append(dst, `,"decision_stage":`...), string(l.DecisionStage))
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
// order. Lines are assessed on up to GOMAXPROCS workers, which read the
// input, answer it and write the answers themselves, a batch of the lines
// that have already arrived at a time (a caller that writes one line and
// waits has its own batch of one): one worker (GOMAXPROCS=1) reads,
// answers and writes in turn, with no hand-off at all, and several hand
// nothing to each other but the turn to read and to write. The lines of a
// session are answered in input order (a conversation is a sequence),
// lines without a session_id in any. The output is flushed before the
// input is waited for, and whenever a worker has written answers while
// no further line has arrived: at once for a caller that waits for its
// answer, when the buffer fills for a stream.
func assessStream(cmd *cobra.Command, eng *warden.Engine, in io.Reader, out io.Writer) error {
	limit := eng.Limits()
	workers := max(1, runtime.GOMAXPROCS(0))
	// at most this many batches beyond one per worker wait to be answered
	// or written; with the bounds of a batch, they bound the memory of a
	// stream
	const waiting = 4
	s := &stream{
		ctx:    cmd.Context(),
		eng:    eng,
		limit:  limit,
		tokens: make(chan struct{}, workers+waiting),
		lines:  newLineReader(in, limit.MaxBytes),
		w:      bufio.NewWriterSize(out, 64<<10),
		ring:   make([]*batch, workers+waiting),
		spare:  make(chan batchMem, workers+waiting),
	}
	s.enc = json.NewEncoder(s.w)
	s.enc.SetEscapeHTML(false)
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(s.work)
	}
	s.work()
	wg.Wait()
	if s.werr == nil {
		s.werr = s.w.Flush()
	}
	if s.werr != nil {
		return s.werr
	}
	return s.rerr
}

// stream is the state warden assess's workers share (see assessStream).
type stream struct {
	ctx   context.Context
	eng   *warden.Engine
	limit risk.Limits
	// tokens holds one token for each batch read and not yet written: a
	// worker takes one before it reads a batch, and the batch's writer
	// gives it back
	tokens chan struct{}

	// inMu guards the input: lines and the fields below it. A worker
	// waiting for input holds it.
	inMu  sync.Mutex
	lines *lineReader
	eof   bool  // no batch is left to read
	rerr  error // why reading failed
	seq   int   // the number of batches read
	// last is the latest batch read that holds a line of each session,
	// for the lines of the session after it, which wait for it (see
	// parsedLine.after); sweep is the size at which the batches answered
	// are dropped from it
	last  map[string]*batch
	sweep int

	// outMu guards the output: w, enc and the fields below. It is taken
	// after inMu, never before (a writer only tries inMu).
	outMu sync.Mutex
	w     *bufio.Writer
	enc   *json.Encoder
	werr  error // the first write error; nothing is written after it
	next  int   // the sequence number of the next batch to write
	// ring holds the batches answered and not yet written, batch seq at
	// seq % len(ring): at most len(ring) batches hold tokens
	ring []*batch

	// spare holds the arrays of batches written, cleared, for the batches
	// read next (there are never more batches than tokens)
	spare chan batchMem
}

// batchMem is the arrays of a batch's lines and answers, batchLines long.
type batchMem struct {
	lines   []parsedLine
	answers []lineAnswer
}

// mem returns arrays for a batch: a spare batch's, or new ones.
func (s *stream) mem() batchMem {
	select {
	case m := <-s.spare:
		return m
	default:
		return batchMem{make([]parsedLine, 0, batchLines), make([]lineAnswer, 0, batchLines)}
	}
}

// recycle keeps the arrays of b, written, for a batch to come: cleared,
// they keep nothing of b's alive.
func (s *stream) recycle(b *batch) {
	m := batchMem{b.lines[:0], b.answers[:cap(b.answers)]}
	clear(m.answers) // the lines were cleared as they were answered
	m.answers = m.answers[:0]
	b.lines, b.answers = nil, nil
	select {
	case s.spare <- m:
	default:
	}
}

// work reads batches, answers them and writes what is answered, in
// order, until the input ends.
func (s *stream) work() {
	// the actions this worker checks are risk.ParseLine's, valid under
	// the engine's limits: the engine need not validate them again
	var slot parsed.Slot
	ctx := parsed.With(s.ctx, &slot)
	for {
		s.tokens <- struct{}{}
		b := s.read()
		if b == nil {
			<-s.tokens
			return
		}
		for i := range b.lines {
			l := &b.lines[i]
			if l.after != nil {
				<-l.after.done // the session's earlier lines are answered
			}
			answer(ctx, &slot, s.eng, l.action, l.output, l.perr, &b.answers[i])
			*l = parsedLine{} // done with it
		}
		close(b.done)
		s.write(b)
	}
}

// read reads the next batch: at least one line, waiting for it (after
// flushing the output) if none has arrived, then those that have arrived
// behind it, up to batchLines lines or batchBytes bytes. It returns nil at
// the end of input.
func (s *stream) read() *batch {
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if s.eof {
		return nil
	}
	m := s.mem()
	b := &batch{seq: s.seq, done: make(chan struct{}), lines: m.lines}
	size := 0
	for len(b.lines) < batchLines && size < batchBytes {
		if !s.lines.ready() {
			if len(b.lines) > 0 {
				break // no other line has arrived: answer these now
			}
			s.flush() // the answers written are out before input is waited for
		}
		line, tooLong, err := s.lines.next()
		if errors.Is(err, io.EOF) && line == nil {
			s.eof = true
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			s.rerr, s.eof = err, true
			break
		}
		// decoded here, once: the session it names orders it
		var l parsedLine
		if tooLong {
			l.perr = &risk.InputError{Reason: "action is larger than the limit"}
		} else {
			l.action, l.output, l.perr = risk.ParseLine(line, s.limit, outputKeys...)
		}
		if id := l.action.SessionID; id != "" {
			s.follow(id, b, &l)
		}
		b.lines = append(b.lines, l)
		size += len(line)
	}
	if len(b.lines) == 0 {
		return nil // m is dropped: the input has ended
	}
	s.seq++
	b.answers = m.answers[:len(b.lines)]
	return b
}

// follow makes line l of batch b, of session id, wait for the session's
// lines in earlier batches, and b the session's latest batch.
func (s *stream) follow(id string, b *batch, l *parsedLine) {
	if prev := s.last[id]; prev != nil && prev != b && !prev.answered() {
		l.after = prev
	}
	if s.last == nil {
		s.last = make(map[string]*batch)
	}
	s.last[id] = b
	if len(s.last) >= s.sweep {
		maps.DeleteFunc(s.last, func(_ string, b *batch) bool { return b.answered() })
		s.sweep = 2*len(s.last) + 64
	}
}

// flush flushes the output.
func (s *stream) flush() {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.werr == nil {
		s.werr = s.w.Flush()
	}
}

// write writes the answers of b, answered, and those of the batches after
// it answered before, once every batch before b is written; then it
// flushes the output unless a further line has already arrived (whose
// answer will follow).
func (s *stream) write(b *batch) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.ring[b.seq%len(s.ring)] = b
	wrote := false
	for {
		i := s.next % len(s.ring)
		n := s.ring[i]
		if n == nil || n.seq != s.next {
			break // not answered yet
		}
		for j := range n.answers {
			if s.werr == nil {
				s.werr = writeAnswer(s.w, s.enc, n.answers[j].value())
			}
		}
		s.ring[i] = nil
		s.recycle(n)
		s.next++
		<-s.tokens
		wrote = true
	}
	if wrote && s.werr == nil && !s.arrived() {
		s.werr = s.w.Flush()
	}
}

// arrived reports whether a further line of input has arrived, unread:
// false when a worker is reading (it may be waiting for input).
func (s *stream) arrived() bool {
	if !s.inMu.TryLock() {
		return false
	}
	defer s.inMu.Unlock()
	return !s.eof && s.lines.ready()
}

// A batch is at most batchLines lines, and it closes once it holds
// batchBytes or more.
const (
	batchLines = 32
	batchBytes = 64 << 10
)

// batch is lines of input that arrived together, answered by one worker,
// and their answers.
type batch struct {
	seq     int // its place in the input: the number of batches before it
	lines   []parsedLine
	answers []lineAnswer  // answers[i] answers lines[i]
	done    chan struct{} // closed when every line is answered
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

// parsedLine is an input line, decoded (see answer).
type parsedLine struct {
	action risk.Action
	output any // see outputOf
	perr   error
	// after is the batch that holds the line before it of its session,
	// when another one does and is not answered yet: it waits for it
	after *batch
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

// answer sets dst, a zero lineAnswer, to the answer to one input line,
// decoded: an action to check (a), the result of a call that ran (see
// outputOf), or input that is not an action (perr). a, when perr is nil,
// is what risk.ParseLine returned under the engine's limits, which slot,
// the one ctx carries, names to the engine while it checks a.
func answer(ctx context.Context, slot *parsed.Slot, eng *warden.Engine, a risk.Action, result any, perr error, dst *lineAnswer) {
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
	// the assessment straight into its place (it is large)
	l := &dst.assess
	var d risk.Decision
	var cerr error
	slot.Set(a.Arguments)
	l.Assessment, d, cerr = eng.Check(ctx, a)
	slot.Set(nil)
	l.Decision, l.DecisionRule, l.DecisionStage, l.DecisionRef, l.DecisionShadow = d.Verdict, d.Rule, d.Stage, d.Ref, d.Shadow
	if cerr != nil {
		l.Error = cerr.Error()
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
