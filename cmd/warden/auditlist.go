package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
)

func newAuditListCmd() *cobra.Command {
	var dsn string
	var f filterFlags
	var wouldBlock bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the events of the audit trail, one line each",
		Long: `list prints the events the filters select, one line each, in order:
sequence number, time (UTC), kind, tool, decision and the rule that made it,
level, session, and what the action was (secrets masked, cut short).
warden audit show SEQ prints one whole.

A decision made in shadow mode (enforce: false, warden hook --shadow) was
recorded but not enforced: its decision reads "deny (not enforced)".
--would-block lists only those that asked or denied: what shadow mode let
through that enforcement would have blocked.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			flt, err := f.filter(time.Now())
			if err != nil {
				return err
			}
			var keep *shadowFilter
			if wouldBlock {
				if flt.Verdict == risk.Allow {
					return fmt.Errorf("--would-block and --decision allow: an allowed call blocks nothing")
				}
				keep = &shadowFilter{limit: flt.Limit, last: flt.Last}
				flt.Limit, flt.Last = 0, false // counted after the events are read
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			out := bufio.NewWriter(cmd.OutOrStdout())
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SEQ\tTIME\tKIND\tTOOL\tDECISION\tLEVEL\tSESSION\tACTION")
			n := 0
			emit := func(line string) error {
				fmt.Fprintln(tw, line)
				if n++; n%1000 == 0 { // alignment per block: a long trail is not held in memory
					return tw.Flush()
				}
				return nil
			}
			err = s.b.Scan(cmd.Context(), flt, func(r *audit.Record) error {
				if keep != nil {
					return keep.add(r, emit)
				}
				return emit(listLine(r))
			})
			if err == nil && keep != nil {
				err = keep.flush(emit)
			}
			if errors.Is(err, errEnough) {
				err = nil
			}
			if ferr := tw.Flush(); err == nil {
				err = ferr
			}
			if ferr := out.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return fmt.Errorf("reading the audit trail of %s: %w", s.name, err)
			}
			if n == 0 {
				fmt.Fprintln(cmd.ErrOrStderr(), "warden: no event selected")
			}
			return nil
		},
	}
	storeFlag(cmd, &dsn)
	f.register(cmd)
	cmd.Flags().BoolVar(&wouldBlock, "would-block", false, "only the calls shadow mode let through that enforcement would have blocked (asked or denied, not enforced)")
	return cmd
}

// errEnough stops a scan that has listed the events it was to.
var errEnough = errors.New("enough")

// shadowFilter selects, for --would-block, the decisions of shadow mode
// that asked or denied, and applies --limit and --last to what it
// selects (the store cannot: it does not know shadow mode).
type shadowFilter struct {
	limit int
	last  bool
	n     int
	ring  []string // the last limit lines, for --last
}

// add lists r, or keeps it for --last, when it would have blocked.
func (f *shadowFilter) add(r *audit.Record, emit func(string) error) error {
	if r.Verdict != risk.Ask && r.Verdict != risk.Deny {
		return nil
	}
	ev, err := audit.Decode(r)
	if err != nil || !ev.Shadow() {
		return nil // an event that cannot be read is not shown as shadowed
	}
	line := listLine(r)
	switch {
	case f.last:
		if len(f.ring) == f.limit {
			f.ring = f.ring[1:]
		}
		f.ring = append(f.ring, line)
		return nil
	case f.limit > 0 && f.n == f.limit:
		return errEnough
	}
	f.n++
	return emit(line)
}

// flush lists the lines kept for --last.
func (f *shadowFilter) flush(emit func(string) error) error {
	for _, l := range f.ring {
		if err := emit(l); err != nil {
			return err
		}
	}
	return nil
}

// listLine is the tab-separated line of list for r.
func listLine(r *audit.Record) string {
	decision, level := "-", "-"
	if r.Verdict != "" {
		decision = string(r.Verdict)
	}
	if r.Level != risk.Unknown {
		level = r.Level.String()
	}
	var what string
	ev, err := audit.Decode(r)
	if err != nil {
		what = "(cannot be read: " + err.Error() + ")"
	} else {
		if ev.Shadow() {
			decision += " (not enforced)"
		}
		if ev.Decision != nil && ev.Decision.Rule != "" {
			decision += " " + ev.Decision.Rule
		}
		if ev.Assessment != nil {
			level = ev.Assessment.Level.String()
		}
		what = summary(ev)
	}
	return strings.Join([]string{fmt.Sprint(r.Seq), r.Time.UTC().Format(time.RFC3339), string(r.Kind),
		orDash(cell(r.Tool, 24)), decision, level, orDash(cell(r.Session, 24)), what}, "\t")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// summaryArgs are the arguments that say what a call does, in the order
// summary looks for them.
var summaryArgs = []string{"command", "cmd", "file_path", "path", "url", "query", "sql", "code", "pattern", "notebook_path"}

// summary says in a few words what ev records: the action (its command,
// file or URL), an approval, a prune. Secrets are masked (again: the
// stored event has them masked already) and the text is cut short.
func summary(ev *audit.Event) string {
	var s string
	switch {
	case ev.Pruned != nil:
		p := ev.Pruned
		s = "removed " + removed(p)
		if p.By != "" {
			s += " by " + p.By
		}
		if p.Reason != "" {
			s += ": " + p.Reason
		}
	case ev.Approval != nil:
		a := ev.Approval
		s = actionText(ev.Action)
		if a.By != "" {
			s = "by " + a.By + ": " + s
		}
		if a.Rule != "" {
			s += " [" + a.Rule + "]"
		}
		if a.Reason != "" {
			s += " (" + a.Reason + ")"
		}
	case ev.Outcome != nil:
		s = actionText(ev.Action)
		switch o := ev.Outcome; {
		case o.Interrupted:
			s += " → interrupted"
		case o.ExitCode != nil:
			s += fmt.Sprintf(" → exit %d", *o.ExitCode)
		case o.Error != "":
			s += " → " + o.Error
		}
	case ev.Action != nil:
		s = actionText(ev.Action)
	case ev.Error != "":
		s = ev.Error
	}
	if ev.Bypass {
		s = "[bypass attempt] " + s
	}
	return cell(secrets.Redact(s), 100)
}

// actionText is the argument that says what a is, else its arguments as
// JSON.
func actionText(a *risk.Action) string {
	if a == nil {
		return ""
	}
	for _, k := range summaryArgs {
		if v, ok := a.Arguments[k].(string); ok && v != "" {
			return v
		}
	}
	if len(a.Arguments) == 0 {
		return ""
	}
	b, err := json.Marshal(a.Arguments)
	if err != nil {
		return ""
	}
	return string(b)
}

// cell makes s one short line: control characters (newlines, tabs) as
// spaces, at most n runes, an ellipsis where it was cut.
func cell(s string, n int) string {
	var b strings.Builder
	runes := 0
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			r = ' '
		}
		if runes == n {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		runes++
	}
	return b.String()
}

// removed says which events a prune removed: "3 events (seq 1 to 3)",
// "1 event (seq 4)".
func removed(p *audit.Pruned) string {
	if p.Count == 1 {
		return fmt.Sprintf("1 event (seq %d)", p.First)
	}
	return fmt.Sprintf("%d events (seq %d to %d)", p.Count, p.First, p.Before-1)
}
