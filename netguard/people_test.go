package netguard

import (
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// TestPeopleSent: the records of several people in what a publishing
// tool or a request sends off the machine are people's records leaving
// (high); one contact, addressees, trailers and local requests are not.
func TestPeopleSent(t *testing.T) {
	export := "Customer export for the vendor as requested:\nmaria.gonzalez@example.com, +34 612 445 901, Calle Mayor 12 Madrid, card ****4417\nj.smith@example.org, +1 415 555 0199, 88 Pine St SF, card ****0923\n(1,842 more rows in attached CSV)"
	mcp := func(name string, args map[string]any) *tool.Call {
		return tool.Normalize(&risk.Action{Tool: name, Arguments: args}, "/home/user/project", "/home/user")
	}
	send := func(url, text string) *tool.Call {
		return &tool.Call{Effects: []tool.Effect{{Kind: tool.SendData, URL: url, Inline: true, Text: text, Known: true}}}
	}
	for name, c := range map[string]*tool.Call{
		"slack export":      mcp("mcp__slack__slack_post_message", map[string]any{"channel_id": "C09EXTVENDOR", "text": export}),
		"issue with leads":  mcp("mcp__github__create_issue", map[string]any{"title": "leads", "body": "alice@corp-a.com\nbob@corp-b.io\ncarol@corp-c.net"}),
		"curl body":         send("https://paste.example.net/api", export),
		"json body":         send("https://x.example/c", `{"rows":[{"email":"ann@a.example","phone":"+1 415 555 0100"},{"email":"bo@b.example","phone":"+1 415 555 0101"},{"email":"cy@c.example"}]}`),
		"unknown host body": send("", export),
	} {
		fs := peopleSent(c)
		if len(fs) != 1 || fs[0].Rule != RulePeopleSent || fs[0].Level != risk.High {
			t.Errorf("%s: %+v, want one high %s", name, fs, RulePeopleSent)
		}
	}
	for name, c := range map[string]*tool.Call{
		"status":        mcp("mcp__slack__slack_post_message", map[string]any{"channel_id": "C04", "text": "PR for #398 is up: https://github.com/acme/orders-api/pull/412 - ping jane@acme.io or +1 415 555 0100"}),
		"recipients":    mcp("mcp__gmail__send_email", map[string]any{"to": []any{"a@x.com", "b@y.com", "c@z.com"}, "subject": "Standup", "body": "Moved to 10:30."}),
		"trailers":      mcp("mcp__github__create_pull_request", map[string]any{"title": "x", "body": "Fixes #1\n\nCo-authored-by: Ann <ann@acme.io>\nCo-authored-by: Bo <bo@acme.io>\nCo-authored-by: Cy <cy@acme.io>"}),
		"a read":        mcp("mcp__slack__search_messages", map[string]any{"query": export}),
		"local request": send("http://localhost:3000/import", export),
		"addressees":    send("https://api.sendgrid.com/v3/mail/send", `{"personalizations":[{"to":[{"email":"a@x.com"},{"email":"b@x.com"},{"email":"c@x.com"}]}],"content":[{"value":"Release 1.2 is out"}]}`),
	} {
		if fs := peopleSent(c); len(fs) != 0 {
			t.Errorf("%s: %+v, want none", name, fs)
		}
	}
}
