package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentwarden/warden/netguard"
)

// hashVersion names the canonical form Hash renders; a change to the form
// changes it, so that hashes of different forms never compare equal.
const hashVersion = "warden policy hash v1"

// Hash identifies what the policy decides: the hex SHA-256 of a canonical
// rendering of every setting that can change a decision — the mode, the
// bypass switch, the environment, the confirmation policy, each rule list
// entry by entry (rule text and the directory its paths are anchored to,
// condition, reason, organization flag, exact approval), netguard, the
// analyzer, secrets and MCP settings. Where each setting came from
// (Origins, Layers) is left out: the same rules loaded from another path
// decide the same. The audit trail records it with each decision, so that
// "which rules were in force?" has an answer.
//
// Hash renders the policy afresh at each call (tens of microseconds for a
// policy of a few hundred rules): a caller that records many decisions of
// one policy keeps the hash with it.
func (p *Policy) Hash() string {
	sum := sha256.Sum256(p.canonical())
	return hex.EncodeToString(sum[:])
}

// hashedPolicy is the canonical form of a policy Hash hashes: encoded as
// JSON, whose struct fields keep their order.
type hashedPolicy struct {
	Version       string
	Mode          Mode
	DisableBypass bool
	BypassLocked  bool
	Shadow        bool `json:",omitempty"` // omitted when false: the hashes of policies before it stay
	EnforceLocked bool `json:",omitempty"`
	Environment   string
	Confirm       hashedConfirm
	Deny          []hashedEntry
	Ask           []hashedEntry
	Allow         []hashedEntry
	Netguard      netguard.Config // the resolver is not encoded (json:"-")
	ResolveTime   time.Duration
	Analyzers     AnalyzerSettings
	Secrets       SecretsSettings
	MCP           MCPSettings
}

type hashedConfirm struct {
	Type           string // the Go type, for a confirmation policy of the caller's
	Name           string
	Threshold      string `json:",omitempty"`
	ConfirmUnknown bool   `json:",omitempty"`
}

type hashedEntry struct {
	Rule   string `json:",omitempty"`
	Base   string `json:",omitempty"`
	If     string `json:",omitempty"`
	Reason string `json:",omitempty"`
	Org    bool   `json:",omitempty"`
	Exact  string `json:",omitempty"`
}

// canonical renders p as Hash hashes it.
func (p *Policy) canonical() []byte {
	h := hashedPolicy{Version: hashVersion, Mode: p.Mode, DisableBypass: p.DisableBypass, BypassLocked: p.bypassLocked,
		Shadow: p.Shadow, EnforceLocked: p.enforceLocked,
		Environment: p.Environment, Netguard: p.Netguard, ResolveTime: p.Netguard.ResolveTimeout,
		Analyzers: p.Analyzers, Secrets: p.Secrets, MCP: p.MCP}
	confirm := p.Confirm
	if confirm == nil {
		confirm = DefaultConfirmRisky() // what decides when none is set
	}
	h.Confirm = hashedConfirm{Type: fmt.Sprintf("%T", confirm), Name: confirm.Name()}
	if cr, ok := confirm.(ConfirmRisky); ok {
		h.Confirm.Threshold, h.Confirm.ConfirmUnknown = cr.Threshold().String(), cr.ConfirmUnknown()
	}
	if len(h.Netguard.Schemes) == 0 {
		h.Netguard.Schemes = []string{"http", "https"} // the default, as Show writes it
	}
	h.Deny, h.Ask, h.Allow = hashedEntries(p.Deny), hashedEntries(p.Ask), hashedEntries(p.Allow)
	b, err := json.Marshal(h)
	if err != nil {
		panic("policy: the canonical form does not encode: " + err.Error()) // strings, bools and lists only
	}
	return b
}

func hashedEntries(es []Entry) []hashedEntry {
	out := make([]hashedEntry, len(es))
	for i, e := range es {
		out[i] = hashedEntry{Reason: e.Reason, Org: e.Org, Exact: e.Exact}
		if e.Rule != nil {
			out[i].Rule, out[i].Base = e.Rule.Text, e.Rule.base
		}
		if e.If != nil {
			out[i].If = e.If.Src
		}
	}
	return out
}
