package secrets

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"unsafe"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Name is the analyzer's name in findings.
const Name = "secrets"

// Analyzer finds secrets written into an action: in a command line, in
// the text of a file written or edited, in code, a URL, an SQL statement
// or the arguments of a tool. A hard-coded secret is high: it lands in a
// file, a shell history or a log, and the agent is handling a raw
// credential. It also records the secrets on the call (tool.Call.Secrets)
// so that whatever shows the call's text can mask them.
type Analyzer struct {
	// Detector is the detector used (nil: Default()).
	Detector *Detector
}

// Name implements the engine's Analyzer.
func (Analyzer) Name() string { return Name }

// Analyze implements the engine's Analyzer.
func (a Analyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	d := a.Detector
	if d == nil {
		d = Default()
	}
	var out []risk.Finding
	d.inCall(c, func(f Finding, where, resource string) {
		out = append(out, risk.Finding{Analyzer: Name, Rule: "secrets." + f.Type, Level: risk.High, Reversible: true,
			Reason:   fmt.Sprintf("Hard-coded secret %s: %s (%s, %s)", where, f.Match, f.Description, f.Severity),
			Resource: resource})
	})
	return out, nil
}

// Collect records on c (tool.Call.Secrets) the secrets its text holds,
// unless the secrets analyzer already did: the engine calls it before it
// shows anything of the call, whatever analyzers it runs, so that no
// assessment or history shows a raw secret.
func Collect(c *tool.Call) {
	if !c.SecretsScanned {
		Default().inCall(c, nil)
	}
}

// inCall finds the secrets in every text of c, records each new one on
// c.Secrets and, when found is not nil, hands it on with where it was
// found. It marks c as scanned.
func (d *Detector) inCall(c *tool.Call, found func(f Finding, where, resource string)) {
	c.SecretsScanned = true
	find := func(text, where, resource string) {
		if len(text) < 8 {
			return
		}
		for _, f := range d.find(readOnly(text), true) {
			raw := text[f.Start:f.End]
			if slices.Contains(c.Secrets, raw) {
				continue
			}
			c.Secrets = append(c.Secrets, raw)
			if found != nil {
				found(f, where, resource)
			}
		}
	}
	for _, s := range c.Shell {
		find(s, "on the command line", "")
	}
	for _, ct := range c.Content {
		where, res := "in the text written", ""
		if ct.Path != "" {
			where, res = "written into "+ct.Path, "file:"+c.Abs(ct.Path)
		}
		find(ct.Text, where, res)
	}
	for _, code := range c.Code {
		find(code.Text, "in the code", "")
	}
	for _, q := range c.SQL {
		find(q, "in the SQL", "")
	}
	for _, u := range c.URLs {
		find(u, "in the URL", "")
		if dec, err := url.QueryUnescape(u); err == nil && dec != u {
			find(dec, "in the URL", "") // masked where it shows verbatim
		}
	}
	for _, t := range c.Text {
		find(t, "in the tool's arguments", "")
	}
}

// readOnly returns the bytes of s without copying them. The detector
// only reads its input, so the string is never written through them.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Values returns the secrets in text, raw, for a caller that must keep
// them from showing (the session's memory of tool outputs): each with its
// description.
func (d *Detector) Values(text string) (descs, values []string) {
	for _, f := range d.find(readOnly(text), true) {
		descs = append(descs, f.Description)
		values = append(values, text[f.Start:f.End])
	}
	return descs, values
}
