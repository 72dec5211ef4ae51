package netguard

import (
	"strings"
	"unicode"

	"github.com/agentwarden/warden/tool"
)

// mcpSink reports, for a call of an MCP server's tool that the catalog
// does not know, whether the tool is named for publishing what it is
// given to other people (post_message, send_email, create_issue,
// add_comment): its text arguments go to the server's service and, from
// there, to its readers. server is the service's name as the call
// spells it.
func mcpSink(c *tool.Call) (server string, ok bool) {
	if c.Known || c.Server == "" {
		return "", false
	}
	words := nameWords(c.Name)
	for _, w := range words {
		switch {
		case readVerbs[w]:
			return "", false // search_messages, get_issue: reads first
		case sendVerbs[w] || publishNouns[strings.TrimSuffix(w, "s")]:
			return strings.ToLower(c.Server), true
		}
	}
	return "", false
}

// sendVerbs are the verbs of tools that deliver their text to others.
var sendVerbs = map[string]bool{"send": true, "post": true, "publish": true, "comment": true, "reply": true, "share": true,
	"tweet": true, "email": true, "mail": true, "message": true, "submit": true, "forward": true, "notify": true,
	"broadcast": true, "upload": true, "announce": true}

// publishNouns are what such a tool creates or edits for others to read
// (create_issue, update_pull_request, add_review).
var publishNouns = map[string]bool{"issue": true, "pr": true, "pull": true, "comment": true, "message": true, "post": true,
	"gist": true, "page": true, "ticket": true, "review": true, "discussion": true, "release": true, "note": true,
	"wiki": true, "snippet": true, "paste": true, "thread": true, "chat": true, "status": true}

// readVerbs are the verbs of tools that fetch rather than deliver.
var readVerbs = map[string]bool{"get": true, "list": true, "search": true, "read": true, "find": true, "fetch": true,
	"query": true, "describe": true, "show": true, "view": true, "lookup": true, "count": true, "download": true}

// nameWords splits a tool's name into lower-case words: at _, -, ., /,
// spaces and a lower-to-upper case change (addComment).
func nameWords(name string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	prevLower := false
	for i, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || r == ' ' || r == ':':
			flush(i)
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush(i)
		}
		if start < 0 {
			start = i
		}
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		if len(out) > 12 {
			return out
		}
	}
	flush(len(name))
	return out
}

// sentToServer reports whether raw stands in a text argument of c other
// than one that names a credential the tool itself signs in with (token,
// api_key, password …): there it is the tool's own login, not content.
func sentToServer(c *tool.Call, raw string) bool {
	var walk func(key string, v any, depth int) bool
	walk = func(key string, v any, depth int) bool {
		if depth > 8 {
			return false
		}
		switch v := v.(type) {
		case string:
			return !credentialKey(key) && strings.Contains(v, raw)
		case map[string]any:
			for k, x := range v {
				if walk(k, x, depth+1) {
					return true
				}
			}
		case []any:
			for _, x := range v {
				if walk(key, x, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk("", c.Action.Arguments, 0)
}

// credentialKey reports an argument name that holds the tool's own
// credential.
func credentialKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"token", "key", "password", "passwd", "secret", "auth", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// forServer reports whether server, an MCP server's name (github,
// slack-bot), is one of the services hosts names (github.com,
// api.slack.com): the name of a host's registered domain.
func forServer(server string, hosts []string) bool {
	for _, h := range hosts {
		h = strings.TrimSuffix(h, "*")
		labels := strings.Split(strings.Trim(h, "."), ".")
		name := labels[0]
		if len(labels) >= 2 {
			name = labels[len(labels)-2]
		}
		if name != "" && strings.Contains(server, name) {
			return true
		}
	}
	return false
}
