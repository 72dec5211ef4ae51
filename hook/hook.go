// Package hook speaks the hook protocols of coding agents (Claude Code,
// Codex, Gemini CLI, …): an agent runs `warden hook AGENT` as a new
// process before (and after) each tool call, writes the call on its
// stdin, and reads warden's answer from the process's stdout, stderr and
// exit code.
//
// An Adapter turns one agent's payload into a Call and a Verdict into
// that agent's Reply. Run reads one payload, asks an Engine and answers;
// every failure on the way (input it cannot read, a panic, a store that
// fails, a deadline) is the agent's blocking answer, Adapter.Fail, since
// almost every agent lets a tool call run when its hook crashes, exits
// with an unexpected code or times out.
package hook

import (
	"fmt"

	"github.com/agentwarden/warden/risk"
)

// Event is the point in a tool call an agent asks about.
type Event string

// The events.
const (
	Before Event = "before" // before the tool runs: Check
	After  Event = "after"  // after it ran: Observe its output
)

// Call is one hook invocation, read from an agent's payload.
type Call struct {
	Event Event
	// Action is the tool call: the tool (the agent's name for it, which
	// warden's catalog knows, or an MCP tool's mcp__server__tool), its
	// arguments, the session_id, cwd and the agent's name.
	Action risk.Action
	Output string // After: the tool's output as text
	Mode   string // the agent's permission mode as it sent it ("" when none)
}

// Verdict is what warden answers about a Call.
type Verdict struct {
	Decision risk.Decision // Before: allow / ask / deny with reasons
	// Hint is, for ask and deny, the one-line command(s) that approve the
	// action ("" when none).
	Hint    string
	Context string // After: what the output held, for the model ("" when nothing)
	// Shadow is shadow mode: the decision is made and audited but never
	// blocks; the adapter allows (as it does with no decision) and says
	// what would have happened.
	Shadow bool
}

// Reply is what the hook process writes and how it exits.
type Reply struct {
	Stdout []byte
	Stderr []byte
	Exit   int
}

// Adapter speaks one agent's hook protocol. An adapter is a value without
// state; its options (an authoritative allow for Claude Code, …) are
// options of its constructor.
type Adapter interface {
	// Name is the agent's name on the command line: "claude-code",
	// "codex", …
	Name() string
	// Parse reads one payload. An error means the payload is not a call
	// warden can judge; Run answers it with Fail.
	Parse(payload []byte) (Call, error)
	// Reply is the agent's answer to v on c. It never fails.
	Reply(c Call, v Verdict) Reply
	// Fail is the agent's blocking answer, with reason: used for every
	// failure, including before and while parsing, so it must block the
	// call in that agent whatever the payload was. The reason holds no
	// raw input (no secret from the payload reaches the agent's logs).
	Fail(reason string) Reply
}

// builtin lists every adapter, one line per agent.
func builtin() []Adapter {
	return []Adapter{
		ClaudeCode{},
		Codex{},
		Gemini{},
		Cursor{},
		Copilot{},
		Windsurf{},
	}
}

// Adapters returns every adapter by name, with its constructor's
// defaults. Two adapters of one name are a programming error: it panics.
func Adapters() map[string]Adapter {
	all := builtin()
	m := make(map[string]Adapter, len(all))
	for _, a := range all {
		if _, dup := m[a.Name()]; dup {
			panic(fmt.Sprintf("hook: two adapters named %q", a.Name()))
		}
		m[a.Name()] = a
	}
	return m
}

// Lookup returns the adapter named name, with its constructor's
// defaults, and whether there is one.
func Lookup(name string) (Adapter, bool) {
	for _, a := range builtin() {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns the adapters' names, in the order of builtin.
func Names() []string {
	all := builtin()
	names := make([]string, len(all))
	for i, a := range all {
		names[i] = a.Name()
	}
	return names
}
