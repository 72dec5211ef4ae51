package netguard

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/tool"
)

// RuleSecretSent is a secret written into a request that goes to a host
// other than the secret's service (or, for a secret no request carries,
// to any host off the machine): critical and locked, as every secret
// leaving the machine is.
const RuleSecretSent = "exfil.secret"

// leaks reports the secrets of c (those the secrets preparer found) that
// a request of c carries off the machine to a host they are not for:
// written into a URL requested (by a tool, a command or code), or into
// the words of a command that connects somewhere (a header, a body, a
// form field). A secret whose services the detector's rules do not name
// (a password, a generic key) is not judged: sending it may be how it is
// used; it stays a hard-coded secret.
//
// A tool of an MCP server named for publishing what it is given
// (post_message, send_email, create_issue; see mcpSink) sends its text
// arguments to the server's service: a secret among them leaves for that
// service and its readers, unless the service is the secret's own.
func leaks(c *tool.Call) []risk.Finding {
	if len(c.SecretsFound) == 0 {
		return nil
	}
	server, sink := mcpSink(c)
	if len(c.URLs) == 0 && len(c.Dests) == 0 && !sink {
		return nil
	}
	var out []risk.Finding
	det := secrets.Default()
	for _, s := range c.SecretsFound {
		hosts, never := det.Services(s.Type)
		if len(hosts) == 0 && !never || len(s.Raw) < 8 {
			continue
		}
		// away reports whether dest, a URL or host:port, is off the
		// machine (for a secret with services, off the local network
		// too: a company's own mirror or proxy) and not one of the
		// secret's services
		away := func(dest string) bool {
			parse := parseHostPort
			if strings.Contains(dest, "://") {
				parse = parseURL
			}
			t, err := parse(dest)
			if err != nil || t.host == "" {
				return false
			}
			cat := classifyName(t.host).cat
			if t.addr.IsValid() {
				cat = classify(t.addr).cat
			}
			if never {
				return !cat.Local()
			}
			return !cat.Local() && !cat.Internal() && !secrets.ForService(t.host, hosts)
		}
		to := sentIn(c, s.Raw, away)
		var where, res string
		switch {
		case to != "":
			where, res = cutHost(to), resource(to)
		case sink && !forServer(server, hosts) && sentToServer(c, s.Raw):
			to, where, res = server, "MCP server "+server+" by "+c.Name+", which publishes what it is given", "mcp:"+server
		default:
			continue
		}
		why := "The " + s.Description + " written " + strings.TrimPrefix(s.Where, "written ") + " (" + s.Match + ") is sent to " + where
		if never {
			why += ": a secret no request needs to carry leaves the machine"
		} else {
			why += ", which is not the service it is for (" + strings.Join(dedupe(hosts), ", ") + "): the secret leaves for someone else"
		}
		out = append(out, risk.Finding{Analyzer: Name, Rule: RuleSecretSent, Level: risk.Critical, Locked: true,
			Reason: why, Resource: res})
	}
	return out
}

// sentIn returns a destination of c, one away accepts, that a request
// carrying raw goes to; "" when none does.
func sentIn(c *tool.Call, raw string, away func(string) bool) string {
	holds := func(u string) bool {
		if strings.Contains(u, raw) {
			return true
		}
		dec, err := url.QueryUnescape(u)
		return err == nil && dec != u && strings.Contains(dec, raw)
	}
	for _, u := range c.URLs {
		if holds(u) && away(u) {
			return u
		}
	}
	for _, d := range c.Dests {
		if d.URL != "" && holds(d.URL) && away(d.URL) {
			return d.URL
		}
	}
	// the commands that carry it, and where the program each runs connects
	for _, sc := range c.Scripts {
		if sc.Err != nil {
			continue
		}
		for _, cmd := range sc.Commands {
			if len(cmd.Args) == 0 || !carries(cmd, raw) {
				continue
			}
			sent := ""
			destsOf(c, cmd, func(dest string) bool {
				if away(dest) {
					sent = dest
				}
				return sent == ""
			})
			if sent != "" {
				return sent
			}
		}
	}
	return ""
}

// destsOf calls fn with where the program cmd runs connects (each of c's
// destinations reached through it: its URL, else its host), until fn
// returns false.
func destsOf(c *tool.Call, cmd tool.Command, fn func(dest string) bool) {
	name := path.Base(cmd.Args[0])
	for _, d := range c.Dests {
		if d.Via != name {
			continue
		}
		dest := d.URL
		if dest == "" {
			dest = d.Host
		}
		if !fn(dest) {
			return
		}
	}
}

// carries reports whether a word of cmd, or the text a heredoc or
// here-string feeds it, holds raw.
func carries(cmd tool.Command, raw string) bool {
	for _, a := range cmd.Args[1:] {
		if strings.Contains(a, raw) {
			return true
		}
	}
	for _, rd := range cmd.Redirs {
		if rd.Stdin() && strings.Contains(rd.Target, raw) {
			return true
		}
	}
	return false
}

// cutHost renders a destination for a reason: its scheme and host, never
// its path or query (where the secret may stand).
func cutHost(dest string) string {
	if u, err := url.Parse(dest); err == nil && u.Host != "" {
		return u.Scheme + "://" + u.Host
	}
	if i := strings.IndexAny(dest, "/?#"); i >= 0 {
		return dest[:i]
	}
	return dest
}

func dedupe(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !strings.HasSuffix(s, "*") && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
