package netguard

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/internal/people"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// RulePeopleSent is people's records sent off the machine: the rule shell
// analysis gives a customers' export or a dump that a command sends
// (high, named by a guess).
const RulePeopleSent = "exfil.sensitive_data"

// peopleSent reports text that carries the records of several people
// (see people.Records: customers' e-mail addresses with their phone
// numbers or cards, a list of addresses) sent where others read it: the
// text arguments of an MCP tool named for publishing (post_message,
// send_email, create_issue; see mcpSink), and the data a command or code
// sends inline in a request to a host off the machine (a curl body, a
// requests.post json=). The arguments that address a message (to, cc,
// recipients) are not its content, and neither are the tool's own
// credentials.
func peopleSent(c *tool.Call) []risk.Finding {
	if server, sink := mcpSink(c); sink {
		var b strings.Builder
		contentText(&b, "", c.Action.Arguments, 0)
		if n := people.Records(b.String()); n > 0 {
			return []risk.Finding{peopleFinding(n, "MCP server "+server+" by "+c.Name+", which publishes what it is given", "mcp:"+server)}
		}
	}
	for _, e := range c.Effects {
		if e.Kind != tool.SendData || !e.Inline || strings.IndexByte(e.Text, '@') < 0 || !offMachine(e.URL) {
			continue
		}
		if n := people.Records(plainText(e.Text)); n > 0 {
			to := orNetwork(e.URL)
			return []risk.Finding{peopleFinding(n, cutHost(to), resource(e.URL))}
		}
	}
	return nil
}

func peopleFinding(n int, where, res string) risk.Finding {
	return risk.Finding{Analyzer: Name, Rule: RulePeopleSent, Level: risk.High, Resource: res,
		Reason: "The text sent to " + where + " carries the records of " + strconv.Itoa(n) + " people (e-mail addresses, with phone numbers or cards): people's records leave for whoever reads it"}
}

// plainText returns text as people.Records reads it: a JSON document's
// keys and values as lines (contentText), any other text as it is.
func plainText(text string) string {
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		var v any
		if json.Unmarshal([]byte(t), &v) == nil {
			var b strings.Builder
			contentText(&b, "", v, 0)
			return b.String()
		}
	}
	return text
}

// contentText writes the text values of v, one a line, leaving out the
// arguments that address a message or hold a credential.
func contentText(b *strings.Builder, key string, v any, depth int) {
	if depth > 8 || b.Len() > 256<<10 {
		return
	}
	switch v := v.(type) {
	case string:
		if !credentialKey(key) {
			b.WriteString(v)
			b.WriteByte('\n')
		}
	case map[string]any:
		for k, x := range v {
			if !addressKey(k) { // the whole of to: [{email: …}]
				contentText(b, k, x, depth+1)
			}
		}
	case []any:
		for _, x := range v {
			contentText(b, key, x, depth+1)
		}
	}
}

// addressKey reports an argument that says who a message goes to or
// comes from, not what it says.
func addressKey(k string) bool {
	switch strings.TrimSuffix(strings.ToLower(k), "s") {
	case "to", "cc", "bcc", "from", "recipient", "sender", "reply_to", "replyto", "attendee", "reviewer", "assignee", "member", "invitee", "owner", "author":
		return true
	}
	return false
}

// offMachine reports a destination (a URL or host) that is not this
// machine or its local network; an unknown one ("") counts as off it.
func offMachine(dest string) bool {
	if dest == "" {
		return true
	}
	parse := parseHostPort
	if strings.Contains(dest, "://") {
		parse = parseURL
	}
	t, err := parse(dest)
	if err != nil || t.host == "" {
		return true
	}
	cat := classifyName(t.host).cat
	if t.addr.IsValid() {
		cat = classify(t.addr).cat
	}
	return !cat.Local()
}

// orNetwork names an unknown destination.
func orNetwork(to string) string {
	if to == "" {
		return "the network"
	}
	return to
}
