package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
)

func newExplainCmd() *cobra.Command {
	var dsn string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [REF|SEQ]",
		Short: "Say why warden decided as it did on a call, and how to allow it, from the audit trail",
		Long: `explain reads the audit trail of a store and says why a decision was made: the
action (secrets masked), the findings with their rule IDs and levels, the policy
rule or setting that decided and the policy layer and file it comes from, the
permission mode, whether it was enforced (shadow mode), the answers people gave
about the action, and how to allow it: the warden approve command, or why
nothing but a change of the policy can.

Without an argument it explains the last decision recorded; REF explains the
last decision on the action of that reference (as warden gave it); SEQ the
event of that sequence number (an approval explains the check it answered).
--json writes the same as one JSON object. Exit 1 when there is no such event.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			arg := ""
			if len(args) == 1 {
				arg = args[0]
			}
			seq, ref, err := parseExplainArg(arg)
			if err != nil {
				return err
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			x, err := explainEvent(cmd.Context(), s.b, seq, ref)
			if errors.Is(err, errNoEvent) || errors.Is(err, audit.ErrUnknownRef) {
				fmt.Fprintf(cmd.ErrOrStderr(), "warden: %s: %v\n", s.name, err)
				return exitError{1}
			}
			if err != nil {
				return fmt.Errorf("reading the audit trail of %s: %w", s.name, err)
			}
			store := ""
			if dsn != "" {
				store = shownDSN(dsn)
			}
			x.allowing(store)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				return enc.Encode(x)
			}
			var out bytes.Buffer
			x.write(&out)
			_, err = cmd.OutOrStdout().Write(out.Bytes())
			return err
		},
	}
	storeFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write the explanation as one JSON object")
	return cmd
}

// errNoEvent is the error of an event explain cannot find.
var errNoEvent = errors.New("no such event")

// parseExplainArg reads explain's argument: a sequence number (decimal
// digits: a reference always holds a letter), a reference, or nothing
// (both zero: the last decision).
func parseExplainArg(arg string) (seq int64, ref string, err error) {
	if arg == "" {
		return 0, "", nil
	}
	if strings.Trim(arg, "0123456789") == "" {
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || n < 1 {
			return 0, "", fmt.Errorf("SEQ %q: want an event's sequence number (1 or more)", arg)
		}
		return n, "", nil
	}
	ref, err = audit.ParseRef(arg)
	return 0, ref, err
}

// explanation is what explain says of one decision, all of it read from
// the trail (masked as stored).
type explanation struct {
	Seq     int64      `json:"seq"`
	Time    time.Time  `json:"time"`
	Kind    audit.Kind `json:"kind"`
	Session string     `json:"session,omitempty"`
	Agent   string     `json:"agent,omitempty"`
	Tool    string     `json:"tool,omitempty"`
	// Ref is the action's reference (its keyed hash, shortened).
	Ref        string           `json:"ref,omitempty"`
	Action     *risk.Action     `json:"action,omitempty"`
	Assessment *risk.Assessment `json:"assessment,omitempty"`
	Decision   *risk.Decision   `json:"decision,omitempty"`
	Mode       string           `json:"mode,omitempty"`
	PolicyHash string           `json:"policy_hash,omitempty"`
	// Enforced is false for a decision made in shadow mode: recorded,
	// and the action ran whatever it says.
	Enforced bool `json:"enforced"`
	// Allow says how to allow the action: the command, or why nothing
	// but a change of the policy allows it.
	Allow allowing `json:"allow"`
	// Answers are the approvals and refusals people gave about the
	// action, in order.
	Answers []personAnswer `json:"answers,omitempty"`
	Error   string         `json:"error,omitempty"`
	// Warning is a problem of the stored event (see warden audit verify).
	Warning string `json:"warning,omitempty"`
}

// allowing is how the action of a decision can be allowed.
type allowing struct {
	// Command approves exactly the action (warden approve …); "" when no
	// approval can.
	Command string `json:"command,omitempty"`
	// Why says what it takes: why no approval can, why no rule can, or
	// that nothing is needed.
	Why string `json:"why,omitempty"`
}

// personAnswer is a person's answer about the action.
type personAnswer struct {
	Seq    int64      `json:"seq"`
	Time   time.Time  `json:"time"`
	Kind   audit.Kind `json:"kind"`
	By     string     `json:"by,omitempty"`
	Reason string     `json:"reason,omitempty"`
	Scope  string     `json:"scope,omitempty"`
	Rule   string     `json:"rule,omitempty"`
	File   string     `json:"file,omitempty"`
	Of     int64      `json:"of,omitempty"`
	Error  string     `json:"error,omitempty"`
}

// explainEvent finds the decision to explain: the event seq (an answer
// explains the check it answers), the last check of the action ref, or,
// both zero, the last decision of the trail; and the answers about its
// action.
func explainEvent(ctx context.Context, b audit.Backend, seq int64, ref string) (*explanation, error) {
	var ev *audit.Event
	var found *audit.Found
	var warning error
	switch {
	case ref != "":
		f, err := audit.FindAction(ctx, b, ref)
		if err != nil {
			return nil, err
		}
		ev, found = f.Check, f
	case seq > 0:
		r, err := b.Get(ctx, seq)
		if errors.Is(err, audit.ErrNotFound) {
			return nil, fmt.Errorf("%w: the trail holds no event %d", errNoEvent, seq)
		}
		if err != nil {
			return nil, err
		}
		if ev, warning = audit.Decode(&r); ev == nil {
			return nil, warning
		}
		if a := ev.Approval; a != nil && a.Of > 0 && ev.Decision == nil {
			return explainEvent(ctx, b, a.Of, "")
		}
		if ev.Decision == nil {
			return nil, fmt.Errorf("%w: event %d is a %s event, which decides nothing (warden audit show %d prints it); explain takes a decision", errNoEvent, seq, ev.Kind, seq)
		}
	default:
		var last *audit.Record
		err := b.Scan(ctx, audit.Filter{Kinds: []audit.Kind{audit.KindCheck, audit.KindReject}, Limit: 1, Last: true}, func(r *audit.Record) error {
			cp := *r
			cp.Data = bytes.Clone(r.Data)
			last = &cp
			return nil
		})
		if err != nil {
			return nil, err
		}
		if last == nil {
			return nil, fmt.Errorf("%w: the trail holds no decision yet", errNoEvent)
		}
		if ev, warning = audit.Decode(last); ev == nil {
			return nil, warning
		}
	}
	if found == nil && ev.ActionHash != "" {
		f, err := audit.FindAction(ctx, b, ev.ActionHash)
		if err != nil && !errors.Is(err, audit.ErrUnknownRef) {
			return nil, err
		}
		found = f
	}
	x := &explanation{Seq: ev.Seq, Time: ev.Time, Kind: ev.Kind, Session: ev.Session, Agent: ev.Agent, Tool: ev.Tool,
		Ref: audit.ShortRef(ev.ActionHash), Action: ev.Action, Assessment: ev.Assessment, Decision: ev.Decision,
		Mode: ev.Mode, PolicyHash: ev.PolicyHash, Enforced: !ev.Shadow(), Error: ev.Error}
	if warning != nil {
		x.Warning = warning.Error()
	}
	if found != nil {
		for _, a := range found.Answers {
			x.Answers = append(x.Answers, personAnswer{Seq: a.Seq, Time: a.Time, Kind: a.Kind, By: a.Approval.By, Reason: a.Approval.Reason,
				Scope: a.Approval.Scope, Rule: a.Approval.Rule, File: a.Approval.File, Of: a.Approval.Of, Error: a.Error})
		}
	}
	return x, nil
}

// allowing says how to allow the action x explains, the approve command
// naming store ("" for the default one).
func (x *explanation) allowing(store string) {
	d := x.Decision
	switch {
	case d == nil:
	case d.Verdict == risk.Allow:
		x.Allow.Why = "it was allowed: nothing to approve"
	case d.Stage == risk.StageRecord:
		x.Allow.Why = "it was denied because the decision could not be recorded (nothing runs unrecorded): once the store can write, the same call is decided anew"
	case x.Kind == audit.KindReject || x.Error != "":
		x.Allow.Why = "the input was not a valid action: there is nothing to approve; the agent must send a valid call"
	case strings.HasPrefix(d.Rule, "deny: "):
		x.Allow.Why = fmt.Sprintf("the deny rule %s%s denies it, and no approval passes a deny rule: only a change of that policy file allows it", strings.TrimPrefix(d.Rule, "deny: "), where(d))
	case d.Ref == "" && x.Ref != "":
		// recorded before warden said which scopes apply
		x.Allow.Command = "warden approve " + x.Ref
		if store != "" {
			x.Allow.Command += " --store " + store
		}
		x.Allow.Why = "--once, --session or --project; this event predates the scopes warden records, so it may refuse one"
	default:
		x.Allow.Command = warden.ApproveHint(*d, store)
		var why []string
		if x.Assessment != nil && x.Assessment.Locked {
			why = append(why, "it is locked ("+x.Assessment.LockedRules()+"): no rule, no mode and no project approval opens it, only a person's approval of this exact action")
		} else if !slices.Contains(d.Approvable, string(policy.ScopeProject)) {
			why = append(why, "no project rule can be written for it: no narrow rule allows only this call (a compound command, several files), the trail holds it masked (it carried a secret), or it has no project")
		}
		if !slices.Contains(d.Approvable, string(policy.ScopeOnce)) {
			why = append(why, "it belongs to no conversation (no session_id): it can be approved for the project only")
		}
		if x.Allow.Command == "" {
			why = append([]string{"no approval can allow it"}, why...)
		}
		x.Allow.Why = strings.Join(why, "; ")
	}
}

// where says where the rule or setting of decision d comes from: "
// (file:line:col, project layer)", "" when the trail does not say.
func where(d *risk.Decision) string {
	switch {
	case d.Origin != "" && d.Layer != "" && d.Layer != d.Origin:
		return " (" + d.Origin + ", " + d.Layer + " layer)"
	case d.Origin != "":
		return " (" + d.Origin + ")"
	}
	return ""
}

// write prints x for a person: one section a line, continued lines
// indented. Texts that came from the agent are masked again and cut
// short.
func (x *explanation) write(w io.Writer) {
	head := fmt.Sprintf("event %d · %s · %s", x.Seq, x.Kind, x.Time.UTC().Format(time.RFC3339))
	if x.Session != "" {
		head += " · session " + cell(x.Session, 64)
	}
	if x.Agent != "" {
		head += " · agent " + cell(x.Agent, 32)
	}
	fmt.Fprintln(w, head)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(label, text string) { fmt.Fprintf(tw, "%s\t%s\n", label, text) }
	if x.Warning != "" {
		line("WARNING", x.Warning+" (warden audit verify checks the whole chain)")
	}
	if x.Action != nil {
		line("action", cell(secrets.Redact(x.Tool+" "+actionText(x.Action)), 200))
		var more []string
		if x.Action.Cwd != "" {
			more = append(more, "cwd "+cell(secrets.Redact(x.Action.Cwd), 120))
		}
		if x.Ref != "" {
			more = append(more, "reference "+x.Ref)
		}
		if len(more) > 0 {
			line("", strings.Join(more, " · "))
		}
	}
	if x.Error != "" {
		line("error", cell(secrets.Redact(x.Error), 200))
	}
	if d := x.Decision; d != nil {
		verdict := string(d.Verdict)
		if !x.Enforced {
			verdict += " — NOT ENFORCED (shadow mode: the action ran)"
		}
		line("decision", verdict)
		by := d.Rule
		if d.Stage != "" && d.Stage != risk.StagePolicy {
			by += " (" + string(d.Stage) + " stage)"
		}
		line("decided by", cell(by, 200)+where(d))
		settings := "mode " + orDash(x.Mode)
		if x.PolicyHash != "" {
			settings += " · policy " + x.PolicyHash[:min(12, len(x.PolicyHash))]
		}
		line("", settings)
		for _, r := range d.Reasons {
			line("reason", cell(secrets.Redact(r), 300))
		}
	}
	if as := x.Assessment; as != nil {
		what := fmt.Sprintf("%s (score %d)", as.Level, as.Score)
		if as.Unknown {
			what += ", part of it could not be assessed"
		}
		if as.Locked {
			what += ", locked"
		}
		line("assessed", what)
		for i, f := range as.Findings {
			label := ""
			if i == 0 {
				label = "findings"
			}
			text := fmt.Sprintf("%-8s %s: %s", f.Level, f.Rule, cell(secrets.Redact(f.Reason), 200))
			if f.Resource != "" {
				text += " [" + cell(secrets.Redact(f.Resource), 100) + "]"
			}
			if f.Locked {
				text += " (locked)"
			}
			line(label, text)
		}
	}
	if x.Allow.Command != "" {
		line("to allow it", x.Allow.Command)
	}
	if x.Allow.Why != "" {
		label := "to allow it"
		if x.Allow.Command != "" {
			label = ""
		}
		line(label, x.Allow.Why)
	}
	for i, a := range x.Answers {
		label := ""
		if i == 0 {
			label = "answers"
		}
		text := fmt.Sprintf("event %d %s", a.Seq, a.Kind)
		if a.Scope != "" {
			text += " " + a.Scope
		}
		if a.By != "" {
			text += " by " + cell(a.By, 64)
		}
		if a.Rule != "" {
			text += " [" + cell(a.Rule, 100) + "]"
		}
		if a.File != "" {
			text += " in " + cell(a.File, 200)
		}
		if a.Reason != "" {
			text += ": " + cell(secrets.Redact(a.Reason), 200)
		}
		if a.Error != "" {
			text += " — refused: " + cell(secrets.Redact(a.Error), 200)
		}
		line(label, text)
	}
	tw.Flush()
}
