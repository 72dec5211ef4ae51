package session

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// RuleTaintedEgress flags data sent over the network after sensitive data
// was read into the conversation: the agent holds it and may be sending it.
const RuleTaintedEgress = "session.tainted_egress"

// RuleSensitiveOutput flags a tool output that holds sensitive data.
const RuleSensitiveOutput = "session.sensitive_output"

// Read is sensitive data that a call brought into the conversation: the
// agent has seen it and could send it anywhere.
type Read struct {
	Step int
	// What describes the data and where it came from ("credentials in
	// /home/user/.aws/credentials", "personal data (email from users)");
	// never the data itself.
	What string
}

// Reads returns the sensitive data read into the conversation so far.
func (st *State) Reads() []Read { return append([]Read(nil), st.reads...) }

// Tainted reports whether sensitive data was read into the conversation.
func (st *State) Tainted() bool { return len(st.reads) > 0 }

func (st *State) read(what string) int {
	for i, r := range st.reads {
		if r.What == what {
			return i
		}
	}
	if len(st.reads) >= st.cfg.MaxNames {
		return len(st.reads) - 1
	}
	st.reads = append(st.reads, Read{Step: st.step, What: what})
	return len(st.reads) - 1
}

// contextReads records the sensitive data call c brings into the
// conversation, and returns the indices of the reads.
func (st *State) contextReads(c *tool.Call) []int {
	var out []int
	if c.Class == tool.Read {
		env := c.Env()
		for _, p := range c.Paths {
			switch abs := c.Abs(p); {
			case env.IsCredential(abs):
				out = append(out, st.read("credentials in "+abs))
			case paths.SecretName(abs):
				out = append(out, st.read("secrets in "+abs))
			}
		}
	}
	if c.Class == tool.Database {
		for _, pd := range c.PersonalData {
			out = append(out, st.read("personal data ("+pd+")"))
		}
	}
	for i := range c.Effects {
		e := &c.Effects[i]
		if e.Kind != tool.ReadFile || e.Sensitive == "" {
			continue
		}
		what := e.Sensitive
		if e.Path != "" {
			what += " in " + e.Path
		}
		out = append(out, st.read(what))
	}
	return out
}

// ---------------------------------------------------------------- outputs

// Sensitive is one sensitive value found in a tool's output by a Scanner.
type Sensitive struct {
	// What names the kind of data ("a private key", "a payment card
	// number"), never the value.
	What string
	// Value is the sensitive text itself. The session keeps only keyed
	// hashes of it, never the text.
	Value string
}

// A Scanner finds sensitive values in a tool's output.
type Scanner func(text string) []Sensitive

// maxObserved bounds how much of one output is read.
const maxObserved = 1 << 20

// Observe records what call c returned: when c read sensitive data
// (credentials, the environment, rows of personal data), or when a
// scanner finds sensitive values in the output, the conversation now
// holds them, and the values are remembered (as keyed hashes) so that a
// later request that carries one of them is caught. It returns a finding
// for each kind of sensitive data seen.
func (st *State) Observe(c *tool.Call, output string, scanners ...Scanner) []risk.Finding {
	if len(output) > maxObserved {
		output = output[:maxObserved]
	}
	var out []risk.Finding
	if reads := st.contextReads(c); len(reads) > 0 {
		// everything the read returned is sensitive: remember its values
		for _, v := range secretTokens(output) {
			st.mark(v, reads[0])
		}
		out = append(out, risk.Finding{Analyzer: "session", Rule: RuleSensitiveOutput, Level: risk.Low,
			Reason: fmt.Sprintf("The output of %s holds %s; sending it anywhere later will be flagged", c.Action.Tool, st.reads[reads[0]].What)})
	}
	seen := map[string]bool{}
	for _, scan := range scanners {
		for _, s := range scan(output) {
			r := st.read(s.What + " in the output of " + c.Action.Tool)
			st.mark(s.Value, r)
			if !seen[s.What] {
				seen[s.What] = true
				out = append(out, risk.Finding{Analyzer: "session", Rule: RuleSensitiveOutput, Level: risk.Low,
					Reason: fmt.Sprintf("The output of %s holds %s; sending it anywhere later will be flagged", c.Action.Tool, s.What)})
			}
		}
	}
	return out
}

// A value is remembered by keyed hashes of its windows of markWidth
// bytes, at most markWindows of them, so that a request that carries the
// value, or a good part of it, is recognized without the value being kept.
const (
	markWidth   = 12
	markWindows = 8
)

func (st *State) mark(v string, read int) {
	for _, p := range keyPreambles {
		if strings.HasPrefix(v, p) {
			// every key of the kind starts so: only what follows is its own
			v = v[min(len(v), 80):]
		}
	}
	if len(v) < markWidth {
		return
	}
	if st.marks == nil {
		st.marks = map[uint64]uint16{}
	}
	if st.key == nil {
		st.setKey(NewKey())
	}
	limit := 4 * st.cfg.MaxNames
	for i, n := 0, 0; i+markWidth <= len(v) && n < markWindows; i, n = i+markWidth, n+1 {
		if len(st.marks) >= limit {
			return
		}
		st.marks[st.mk.sum(v[i:i+markWidth])] = uint16(read)
	}
	if len(v)%markWidth != 0 && len(st.marks) < limit {
		st.marks[st.mk.sum(v[len(v)-markWidth:])] = uint16(read)
	}
}

// keyPreambles start the encoded body of every key of a kind: OpenSSH's
// "openssh-key-v1", DER's SEQUENCE header (MII…).
var keyPreambles = []string{"b3BlbnNzaC1rZXktdjE", "MII"}

// carries returns the read whose remembered value text carries, as
// written, percent-encoded or base64-encoded, or -1.
func (st *State) carries(text string) int {
	if len(st.marks) == 0 || len(text) < markWidth {
		return -1
	}
	if len(text) > maxInlineScan {
		text = text[:maxInlineScan]
	}
	if r := st.carriesRaw(text); r >= 0 {
		return r
	}
	if strings.Contains(text, "%") {
		if d, err := url.QueryUnescape(text); err == nil {
			if r := st.carriesRaw(d); r >= 0 {
				return r
			}
		}
	}
	for _, blob := range base64Run.FindAllString(text, 16) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if d, err := enc.DecodeString(blob); err == nil {
				if r := st.carriesRaw(string(d)); r >= 0 {
					return r
				}
				break
			}
		}
	}
	return -1
}

var base64Run = lazyre.New(`[A-Za-z0-9+/_-]{16,}={0,2}`)

// maxInlineScan bounds the request text compared with remembered values.
const maxInlineScan = 64 << 10

func (st *State) carriesRaw(text string) int {
	for i := 0; i+markWidth <= len(text); i++ {
		if r, ok := st.marks[st.mk.sum(text[i:i+markWidth])]; ok && int(r) < len(st.reads) {
			return int(r)
		}
	}
	return -1
}

// secretTokens returns the words of a sensitive output worth
// remembering: e-mail addresses, and words of at least markWidth bytes
// that mix letters and digits or cases (keys, tokens, passwords, key
// material), not paths or plain words. At most 256.
func secretTokens(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return r <= ' ' || strings.ContainsRune("\"'`=:,;()[]{}<>|", r)
	}) {
		if len(out) >= 256 {
			break
		}
		if len(w) < markWidth || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-----") {
			continue
		}
		if strings.Contains(w, "@") && strings.Contains(w[strings.IndexByte(w, '@'):], ".") {
			out = append(out, w)
			continue
		}
		var lower, upper, digit bool
		for i := 0; i < len(w); i++ {
			switch c := w[i]; {
			case c >= 'a' && c <= 'z':
				lower = true
			case c >= 'A' && c <= 'Z':
				upper = true
			case c >= '0' && c <= '9':
				digit = true
			}
		}
		if n := btoi(lower) + btoi(upper) + btoi(digit); n >= 2 && (digit || n == 3 || len(w) >= 20) {
			out = append(out, w)
		}
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ---------------------------------------------------------------- egress

// egress is data a call sends out of the machine.
type egress struct {
	to   string // where: a URL, a host, an MCP server; "" when unknown
	text string // what is known of the data
}

// egresses returns the data call c sends over the network inline: the
// bodies, query strings and headers of its requests, text piped to nc,
// text typed into a web page, the arguments of an MCP tool that posts or
// sends messages.
func egresses(c *tool.Call) []egress {
	var out []egress
	for i := range c.Effects {
		e := &c.Effects[i]
		if e.Kind == tool.SendData && e.Inline {
			out = append(out, egress{to: e.URL, text: e.Text})
		}
	}
	switch c.Class {
	case tool.Network, tool.Browser:
		for _, u := range c.URLs {
			if d := tool.URLData(u); len(d) > 0 {
				out = append(out, egress{to: u, text: strings.Join(d, "\n")})
			}
		}
		if c.Class == tool.Browser && len(c.Text) > 0 {
			out = append(out, egress{to: "the web page open in the browser", text: strings.Join(c.Text, "\n")})
		}
	case tool.Other:
		switch {
		case c.Server != "" && sendingTool.MatchString(c.Name):
			out = append(out, egress{to: "MCP server " + c.Server + " (" + c.Name + ")", text: strings.Join(c.Text, "\n")})
		case len(c.URLs) > 0 && len(c.Content) > 0:
			// an HTTP tool the catalog does not know, given a body
			var b strings.Builder
			for _, ct := range c.Content {
				b.WriteString(ct.Text + "\n")
			}
			out = append(out, egress{to: c.URLs[0], text: b.String()})
		}
	}
	return out
}

// sendingTool matches the names of MCP tools that send what they are
// given to other people or services.
var sendingTool = lazyre.New(`(?i)(^|_)(send|post|publish|upload|share|tweet|reply|comment|message|email|mail|webhook|notify|create_(issue|gist|comment|pull_request|post|message|page|discussion)|add_comment|write_to)`)

// local reports a destination on this machine, in any form.
func local(to string) bool { return netguard.Local(to) }

// taintedEgress flags the data call c sends after sensitive data was read
// into the conversation: critical when it carries a remembered value,
// high otherwise.
func (ch *chain) taintedEgress(c *tool.Call) {
	st := ch.st
	if len(st.reads) == 0 {
		return
	}
	var worst *risk.Finding
	for _, eg := range egresses(c) {
		if local(eg.to) {
			continue
		}
		dest := eg.to
		if dest == "" {
			dest = "the network"
		}
		if r := st.carries(eg.text); r >= 0 {
			worst = &risk.Finding{Analyzer: "session", Rule: RuleExfiltration, Level: risk.Critical, Locked: true,
				Reason:   fmt.Sprintf("This sends %s, read in step %d, to %s", st.reads[r].What, st.reads[r].Step, redactDest(dest)),
				Resource: resource(eg.to)}
			break
		}
		if worst == nil {
			r := st.reads[len(st.reads)-1]
			worst = &risk.Finding{Analyzer: "session", Rule: RuleTaintedEgress, Level: risk.High,
				Reason: fmt.Sprintf("This sends data to %s after the conversation read %s in step %d: it may be leaking it",
					redactDest(dest), r.What, r.Step),
				Resource: resource(eg.to)}
		}
	}
	if worst != nil {
		ch.out = append(ch.out, *worst)
	}
}

// redactDest shows where data goes without the data the URL carries.
func redactDest(to string) string {
	u, err := url.Parse(to)
	if err != nil || u.Host == "" {
		return to
	}
	if len(tool.URLData(to)) > 0 {
		return u.Scheme + "://" + u.Hostname() + "/…"
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}

func resource(to string) string {
	if strings.Contains(to, "://") {
		return "url:" + redactDest(to)
	}
	return ""
}
