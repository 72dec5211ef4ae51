package netguard

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

func TestMCPSink(t *testing.T) {
	sinks := []string{"mcp__slack__post_message", "mcp__gmail__send_email", "mcp__github__create_issue", "mcp__linear__addComment",
		"mcp__github__update_pull_request", "mcp__discord__send-message", "mcp__notion__create_page", "mcp__x__tweet",
		"mcp__jira__add_comment_to_issue", "mcp__github__create_gist", "mcp__s3__upload_object"}
	not := []string{"mcp__slack__search_messages", "mcp__github__get_issue", "mcp__github__list_issues", "mcp__filesystem__write_file",
		"mcp__github__create_or_update_file", "mcp__postgres__query", "mcp__gmail__read_email", "mcp__github__create_branch",
		"mcp__jira__get_comments", "post_message"}
	call := func(name string) *tool.Call {
		return tool.Normalize(&risk.Action{Tool: name, Arguments: map[string]any{}}, "/home/user/project", "/home/user")
	}
	for _, n := range sinks {
		if _, ok := mcpSink(call(n)); !ok {
			t.Errorf("%s: not a sink", n)
		}
	}
	for _, n := range not {
		if s, ok := mcpSink(call(n)); ok {
			t.Errorf("%s: a sink (%s)", n, s)
		}
	}
}

func TestNameWords(t *testing.T) {
	for name, want := range map[string]string{
		"post_message": "post message", "addComment": "add comment", "send-email": "send email", "create.issue": "create issue",
		"HTTPGet": "httpget", "getV2Items": "get v2 items", "": "", "__x__": "x",
	} {
		if got := strings.Join(nameWords(name), " "); got != want {
			t.Errorf("nameWords(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestForServer(t *testing.T) {
	if !forServer("github", []string{"github.com", "api.github.com"}) || !forServer("slack-bot", []string{"slack.com"}) {
		t.Error("own service not recognised")
	}
	if forServer("slack", []string{"github.com"}) || forServer("slack", nil) {
		t.Error("another service taken for the secret's own")
	}
}

func FuzzNameWords(f *testing.F) {
	for _, s := range []string{"post_message", "addComment", "a.b/c d:e", "ÄbcDéf", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		words := nameWords(name)
		if len(words) > 14 {
			t.Fatalf("%d words", len(words))
		}
		if slices.Contains(words, "") {
			t.Fatalf("empty word in %q", words)
		}
	})
}
