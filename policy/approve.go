package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/agentwarden/warden/tool"
)

// Scope is how long a remembered approval lasts.
type Scope string

// The approval scopes.
const (
	ScopeOnce    Scope = "once"    // the next identical action of the conversation, one time
	ScopeSession Scope = "session" // the rest of the conversation
	ScopeProject Scope = "project" // written to the project's .warden/policy.yaml
)

// Scopes are the approval scopes, narrowest first.
var Scopes = []Scope{ScopeOnce, ScopeSession, ScopeProject}

// ParseScope reads a scope name.
func ParseScope(s string) (Scope, error) {
	switch Scope(s) {
	case ScopeOnce, ScopeSession, ScopeProject:
		return Scope(s), nil
	}
	return "", fmt.Errorf("policy: unknown approval scope %q (want once, session or project)", s)
}

// ActionKey identifies call c exactly, for an approval of that one
// action: the SHA-256, in hex, of the canonical JSON (keys sorted, numbers
// as written) of its tool as the agent named it, its arguments and its
// working directory. A call that differs in one character of any of them
// has another key.
func ActionKey(c *tool.Call) string {
	args := any(map[string]any{})
	if c.Action != nil && c.Action.Arguments != nil {
		args = canonical(c.Action.Arguments)
	}
	name := ""
	if c.Action != nil {
		name = c.Action.Tool
	}
	b, err := json.Marshal(struct {
		Tool      string `json:"tool"`
		Arguments any    `json:"arguments"`
		Cwd       string `json:"cwd"`
	}{name, args, c.Cwd})
	if err != nil { // a value JSON cannot hold: no key any other call shares
		b = fmt.Appendf(nil, "unencodable %p", c)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonical reads v as JSON would, with numbers kept as written, so that
// the same arguments built in Go (int 1) and decoded from JSON (1) encode
// alike.
func canonical(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}
