package secrets

import (
	"context"
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
// credential. It reads the secrets the Preparer found
// (tool.Call.SecretsFound); on a call no Preparer read, it finds them
// itself, without recording them.
type Analyzer struct {
	// Detector is the detector used when no Preparer ran (nil: Default()).
	Detector *Detector
}

// Name implements the engine's Analyzer.
func (Analyzer) Name() string { return Name }

// Analyze implements the engine's Analyzer.
func (a Analyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	found := c.SecretsFound
	if !c.SecretsScanned {
		found = detector(a.Detector).inCall(c, nil)
	}
	if len(found) == 0 {
		return nil, nil
	}
	out := make([]risk.Finding, 0, len(found))
	for _, f := range found {
		out = append(out, risk.Finding{Analyzer: Name, Rule: "secrets." + f.Type, Level: risk.High, Reversible: true,
			Reason:   "Hard-coded secret " + f.Where + ": " + f.Match + " (" + f.Description + ", " + f.Severity + ")",
			Resource: f.Resource})
	}
	return out, nil
}

// Preparer finds the secrets in the text of a call and records them on
// it (tool.Call.SecretsFound, their raw values in tool.Call.Secrets), so
// that the analyzer judges them and whatever shows the call's text masks
// them. It runs after the preparers that add text to the call (code,
// shell).
type Preparer struct {
	// Detector is the detector used (nil: Default()).
	Detector *Detector
}

// Name returns "secrets".
func (Preparer) Name() string { return Name }

// Prepare records the secrets of c. It reports no findings: the analyzer
// does.
func (p Preparer) Prepare(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	detector(p.Detector).record(c)
	return nil, nil
}

// Collect records on c (tool.Call.Secrets) the secrets its text holds,
// unless the Preparer already did: the engine calls it before it shows
// anything of the call, whatever preparers it runs, so that no assessment
// or history shows a raw secret.
func Collect(c *tool.Call) {
	if !c.SecretsScanned {
		Default().record(c)
	}
}

func detector(d *Detector) *Detector {
	if d == nil {
		return Default()
	}
	return d
}

// record finds the secrets of c that it does not hold yet, adds them to
// c.SecretsFound and their raw values to c.Secrets, and marks c as
// scanned.
func (d *Detector) record(c *tool.Call) {
	c.SecretsScanned = true
	for _, f := range d.inCall(c, c.Secrets) {
		c.SecretsFound = append(c.SecretsFound, f)
		c.Secrets = append(c.Secrets, f.Raw)
	}
}

// inCall returns the secrets in every text of c, each once and in the
// order found, but those in known. It only reads c.
func (d *Detector) inCall(c *tool.Call, known []string) []tool.Secret {
	var out []tool.Secret
	// find adds the secrets of text, found where; written into path when
	// one is given (named only once a secret is found)
	find := func(text, where, path string) {
		if len(text) < 8 {
			return
		}
		resource := ""
		for _, f := range d.find(readOnly(text), true) {
			raw := text[f.Start:f.End]
			if slices.Contains(known, raw) || slices.ContainsFunc(out, func(s tool.Secret) bool { return s.Raw == raw }) {
				continue
			}
			if path != "" && resource == "" {
				where, resource = "written into "+path, "file:"+c.Abs(path)
			}
			out = append(out, tool.Secret{Raw: raw, Type: f.Type, Match: f.Match, Description: f.Description,
				Severity: string(f.Severity), Where: where, Resource: resource})
		}
	}
	for _, s := range c.Shell {
		find(s, "on the command line", "")
	}
	for _, ct := range c.Content {
		find(ct.Text, "in the text written", ct.Path)
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
	return out
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
