package warden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
)

// No record of the trail shows a raw secret: every secret of the corpus,
// and passwords in URLs and on command lines, carried by an action's
// arguments (at every depth), its thought and summary, a fetched URL, a
// tool's output (Observe), a reported error (Report) and a person's
// reason (Approve, Decline), is masked in every record's bytes.
func TestAuditNoRawSecret(t *testing.T) {
	ctx := context.Background()
	tr := newTrail(t)
	eng := corpusEngine(t, warden.WithAudit(tr.log), clock())
	var all []string
	carry := func(id, text string, fetch bool) {
		t.Helper()
		as := []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": "echo " + shellQuote(text) + " >> config.txt"}},
			{Tool: "Write", Arguments: map[string]any{"file_path": "/home/user/project/settings.py", "content": text}},
			{Tool: "mcp__notes__save", Arguments: map[string]any{"note": map[string]any{"parts": []any{"intro", text, 3.0}}}},
			{Tool: "Bash", Arguments: map[string]any{"command": "ls"}, Thought: "I will use " + text, Summary: text},
		}
		if fetch {
			as = append(as, risk.Action{Tool: "WebFetch", Arguments: map[string]any{"url": "https://x.example/c?v=" + strings.ReplaceAll(text, " ", "+"), "prompt": "ok"}})
		}
		for _, a := range as {
			a.SessionID = id
			if _, _, err := eng.Check(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		// an input refused: recorded with its error, masked all the same
		bad := risk.Action{Tool: "Bash", SessionID: id, Arguments: map[string]any{"command": "echo \x00 " + shellQuote(text)}}
		if _, _, err := eng.Check(ctx, bad); !risk.IsInputError(err) {
			t.Fatalf("a NUL byte: %v", err)
		}
		ls := risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls"}, SessionID: id}
		if _, err := eng.Observe(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "cat config.txt"}, SessionID: id}, text); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Observe(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "cat config.txt"}}, text); err != nil {
			t.Fatal(err)
		}
		if err := eng.Report(ctx, ls, audit.Outcome{Error: "failed: " + text}); err != nil {
			t.Fatal(err)
		}
		if err := eng.Decline(ctx, ls, warden.Because("it shows "+text)); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Approve(ctx, ls, policy.ScopeSession, warden.Because("ok, "+text)); err != nil {
			t.Fatal(err)
		}
	}
	texts, raws := secretTexts(t)
	for i, text := range texts {
		carry(fmt.Sprintf("s%d", i), text, true)
		all = append(all, raws[i]...)
	}
	// passwords: the text carried, and the part of it that must not show.
	// A command line is not carried in a fetched URL's query: there the
	// detector does not see it as a command (a limit of package secrets)
	for i, pw := range []struct{ text, secret string }{
		{"https://admin:S3cr3tPw@example.com/x", "S3cr3tPw"},
		{"postgres://u:pw@h/db", ":pw@"},
		{"mongodb+srv://svc:Hk3mW9qL2z@cluster0.mongodb.net/app", "Hk3mW9qL2z"},
		{"curl -u bob:Tr0ub4dor3 https://api.example.org/v1", "Tr0ub4dor3"},
		{"mysql -uroot -pHx82kLm shop", "Hx82kLm"},
		{"sshpass -p Wq8zR3nP ssh deploy@10.0.0.5", "Wq8zR3nP"},
		{"PGPASSWORD=Zq8pLm2x psql -h db -U app", "Zq8pLm2x"},
		{"docker login -u ci -p Zx9mKq2L registry.internal", "Zx9mKq2L"},
	} {
		carry(fmt.Sprintf("p%d", i), pw.text, strings.Contains(pw.text, "://") && !strings.Contains(pw.text, " "))
		all = append(all, pw.secret)
	}
	recs := tr.records(t)
	if len(recs) < 10*len(texts) {
		t.Fatalf("only %d records", len(recs))
	}
	for _, raw := range all {
		escaped, _ := json.Marshal(raw) // as the record's JSON writes it
		for _, form := range [][]byte{[]byte(raw), escaped[1 : len(escaped)-1]} {
			for _, r := range recs {
				if bytes.Contains(r.Data, form) {
					t.Errorf("event %d (%s) shows the secret %q: %s", r.Seq, r.Kind, raw, r.Data)
					break
				}
			}
		}
	}
	checkMaskedActions(t, tr.events(t))
}

// checkMaskedActions is the metamorphic check: the detector finds no
// secret in any text of any recorded action, nor in the action's JSON.
func checkMaskedActions(t *testing.T, evs []*audit.Event) {
	t.Helper()
	det := secrets.Default()
	for _, ev := range evs {
		if ev.Action == nil {
			continue
		}
		var texts []string
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				texts = append(texts, x)
			case map[string]any:
				for k, e := range x {
					texts = append(texts, k)
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(ev.Action.Arguments)
		data, _ := json.Marshal(ev.Action)
		texts = append(texts, ev.Action.Thought, ev.Action.Summary, ev.Action.Cwd, string(data))
		for _, s := range texts {
			if fs := det.ScanString("", s); len(fs) > 0 {
				t.Errorf("event %d: the detector finds %s in the masked %q", ev.Seq, fs[0].Type, s)
			}
		}
	}
}

// FuzzAuditEvent: whatever action the engine is given, its event is
// appended, decodes, and shows no secret the detector finds in the
// recorded action.
func FuzzAuditEvent(f *testing.F) {
	f.Add("Bash", "command", "mysql -uroot -pHx82kLm shop", "use ghp_R8sWq2LmZx9KpT4vN7bY3cJ6hD1fG5aE0uIo")
	f.Add("mcp__x__y", "url", "postgres://u:pw@h/db", "")
	f.Add("", "", "", "")
	f.Add(" ", "k\x00", "\xff", "thought")
	tr := newTrail(f)
	eng := corpusEngine(f, warden.WithAudit(tr.log))
	f.Fuzz(func(t *testing.T, tool, key, value, thought string) {
		ctx := context.Background()
		a := risk.Action{Tool: tool, Arguments: map[string]any{key: value, "list": []any{value}}, Thought: thought, SessionID: "f"}
		eng.Check(ctx, a)
		head, err := tr.mem.Head(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tr.mem.Get(ctx, head.Seq)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := audit.Decode(&r)
		if err != nil {
			t.Fatalf("the event does not decode: %v\n%s", err, r.Data)
		}
		if ev.ActionHash != tr.keys.ActionHash(&a) {
			t.Errorf("action hash %q", ev.ActionHash)
		}
		checkMaskedActions(t, []*audit.Event{ev})
	})
}
