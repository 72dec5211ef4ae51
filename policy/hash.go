package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/agentwarden/warden/internal/jsonenc"
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
	return h.appendJSON(make([]byte, 0, 512))
}

// appendJSON appends h as json.Marshal writes it (HTML escapes included),
// without reflection: encoding/json builds its encoders for hashedPolicy
// and all it holds on a process's first Marshal, which costs more than
// the writing. TestHashedJSON and FuzzHashedJSON hold the bytes equal to
// json.Marshal's, field by field (a field added fails them).
func (h *hashedPolicy) appendJSON(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, `{"Version":`...)
	dst = jsonenc.String(dst, h.Version)
	dst = append(dst, `,"Mode":`...)
	dst = jsonenc.String(dst, string(h.Mode))
	dst = append(dst, `,"DisableBypass":`...)
	dst = jsonenc.Bool(dst, h.DisableBypass)
	dst = append(dst, `,"BypassLocked":`...)
	dst = jsonenc.Bool(dst, h.BypassLocked)
	if h.Shadow {
		dst = append(dst, `,"Shadow":true`...)
	}
	if h.EnforceLocked {
		dst = append(dst, `,"EnforceLocked":true`...)
	}
	dst = append(dst, `,"Environment":`...)
	dst = jsonenc.String(dst, h.Environment)
	dst = append(dst, `,"Confirm":{"Type":`...)
	dst = jsonenc.String(dst, h.Confirm.Type)
	dst = append(dst, `,"Name":`...)
	dst = jsonenc.String(dst, h.Confirm.Name)
	dst = jsonenc.OptString(dst, `,"Threshold":`, h.Confirm.Threshold)
	if h.Confirm.ConfirmUnknown {
		dst = append(dst, `,"ConfirmUnknown":true`...)
	}
	dst = append(dst, `},"Deny":`...)
	dst = appendHashedEntries(dst, h.Deny)
	dst = append(dst, `,"Ask":`...)
	dst = appendHashedEntries(dst, h.Ask)
	dst = append(dst, `,"Allow":`...)
	dst = appendHashedEntries(dst, h.Allow)
	dst = append(dst, `,"Netguard":{`...)
	ng := len(dst)
	dst = hashOptStrings(dst, `,"schemes":`, h.Netguard.Schemes)
	dst = hashOptStrings(dst, `,"allowed_hosts":`, h.Netguard.AllowedHosts)
	dst = hashOptStrings(dst, `,"allow_private":`, h.Netguard.AllowPrivate)
	dst = hashOptStrings(dst, `,"extra_blocked_hosts":`, h.Netguard.ExtraBlockedHosts)
	if h.Netguard.ResolveDNS {
		dst = append(dst, `,"resolve_dns":true`...)
	}
	if h.Netguard.BlockDocumentation {
		dst = append(dst, `,"block_documentation":true`...)
	}
	if len(dst) > ng {
		dst = append(dst[:ng], dst[ng+1:]...) // the first member's comma
	}
	dst = append(dst, `},"ResolveTime":`...)
	dst = strconv.AppendInt(dst, int64(h.ResolveTime), 10)
	dst = append(dst, `,"Analyzers":{"Disabled":`...)
	dst = jsonenc.Strings(dst, h.Analyzers.Disabled)
	dst = append(dst, `,"DisabledRules":`...)
	dst = jsonenc.Strings(dst, h.Analyzers.DisabledRules)
	dst = append(dst, `},"Secrets":{"AllowMarker":`...)
	dst = jsonenc.String(dst, h.Secrets.AllowMarker)
	dst = append(dst, `},"MCP":{"TrustAnnotations":`...)
	dst = jsonenc.Strings(dst, h.MCP.TrustAnnotations)
	dst = append(dst, "}}"...)
	return jsonenc.EscapeHTML(dst, start)
}

func appendHashedEntries(dst []byte, es []hashedEntry) []byte {
	if es == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, e := range es {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		start := len(dst)
		dst = jsonenc.OptString(dst, `,"Rule":`, e.Rule)
		dst = jsonenc.OptString(dst, `,"Base":`, e.Base)
		dst = jsonenc.OptString(dst, `,"If":`, e.If)
		dst = jsonenc.OptString(dst, `,"Reason":`, e.Reason)
		if e.Org {
			dst = append(dst, `,"Org":true`...)
		}
		dst = jsonenc.OptString(dst, `,"Exact":`, e.Exact)
		if len(dst) > start {
			dst = append(dst[:start], dst[start+1:]...) // the first member's comma
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// hashOptStrings appends name and list, unless list is empty (omitempty).
func hashOptStrings(dst []byte, name string, list []string) []byte {
	if len(list) == 0 {
		return dst
	}
	return jsonenc.Strings(append(dst, name...), list)
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
