// Package session follows one conversation of an agent across its tool
// calls, so that harm split into innocent-looking steps is seen at the
// step that completes it.
//
// A State holds what earlier calls left behind: the working directory of
// the agent's persistent shell, its variables, aliases, functions and git
// aliases, the variables of its Python kernel, the files the agent wrote
// or edited (with their text), downloaded or made executable, the files
// that hold sensitive data (credentials copied, the environment dumped,
// database rows saved), the listings of files it saved, the contexts its
// tools act on (a cluster context, an infrastructure workspace, a cloud
// project: Context), and the sensitive
// data read into the agent's context (Reads), with keyed hashes of the
// values seen in tool outputs (Observe). The engine lends that state to
// the analyzers of the next call (tool.Call.Prior, Cwd, Workspace), asks
// the State which chains the call completes (Analyze), and then replays
// the call's effects into it (Record).
//
// The approvals a person gave for the rest of the conversation live in the
// State too (Approve, Approvals).
//
// A Store keeps the states of the conversations in progress and serializes
// the calls of each (Update): NewMemoryStore keeps them in this process;
// the stores of package store (SQLite, PostgreSQL) keep them on disk, so
// that a hook, one process per tool call, continues the conversation. A
// State is saved as a versioned binary encoding (MarshalBinary,
// UnmarshalState); the key of its remembered hashes belongs to its store
// and is saved with it, never in the State's encoding.
//
// Memory is bounded: the memory store keeps at most MaxSessions states,
// evicting the least recently used; every store forgets the states idle
// longer than TTL; each State keeps at most MaxFiles files of at most
// MaxFileBytes each, MaxNames variables, aliases and functions (and
// approvals, and sensitive reads), and the last Window actions of
// history, and its encoding is at most MaxBytes.
package session

import (
	"slices"
	"time"

	"github.com/agentwarden/warden/risk"
)

// Config bounds the sessions kept. Zero fields take the defaults.
type Config struct {
	// Window is how many recent actions each session's history keeps
	// (default 20: what the guardrail judge reads).
	Window int
	// MaxSessions is how many sessions are kept at once (default 10,000);
	// beyond it the least recently used is forgotten.
	MaxSessions int
	// TTL forgets sessions idle for longer (default 24h).
	TTL time.Duration
	// MaxFiles and MaxFileBytes bound the files tracked per session
	// (default 128 files, 64 KiB of text each); MaxNames bounds the
	// variables, aliases and functions of each kind (default 256).
	MaxFiles     int
	MaxFileBytes int
	MaxNames     int
	// MaxBytes bounds the encoding of one state (default 32 MiB): a
	// larger state cannot be saved, and stored data larger is refused
	// before it is read.
	MaxBytes int
	// Now is the clock by which stores measure idleness (default
	// time.Now); tests set it to make sessions expire.
	Now func() time.Time
}

// DefaultConfig returns the default bounds.
func DefaultConfig() Config {
	return Config{Window: 20, MaxSessions: 10000, TTL: 24 * time.Hour, MaxFiles: 128, MaxFileBytes: 64 << 10, MaxNames: 256, MaxBytes: 32 << 20}
}

// WithDefaults returns c with its zero fields set to the defaults.
func (c Config) WithDefaults() Config { return c.withDefaults() }

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Window <= 0 {
		c.Window = d.Window
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = d.MaxSessions
	}
	if c.TTL <= 0 {
		c.TTL = d.TTL
	}
	if c.MaxFiles <= 0 {
		c.MaxFiles = d.MaxFiles
	}
	if c.MaxFileBytes <= 0 {
		c.MaxFileBytes = d.MaxFileBytes
	}
	if c.MaxNames <= 0 {
		c.MaxNames = d.MaxNames
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = d.MaxBytes
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Entry is one action of a session's history.
type Entry struct {
	Step     int          `json:"step"`
	Tool     string       `json:"tool"`
	Summary  string       `json:"summary"` // what the action does, shortened (≤ 300 bytes)
	Level    risk.Level   `json:"level"`
	Verdict  risk.Verdict `json:"verdict"`
	Resource []string     `json:"resources,omitempty"`
	Time     time.Time    `json:"time"`
}

// Approval is a person's approval remembered in a conversation: an exact
// action (Exact: the key the engine identifies it by, the keyed hash of
// the audit trail when one records the conversation, else its
// policy.ActionKey) or an allow rule (Rule: the rule's text), and where
// it came from. An approval lasts for the rest of the conversation, or,
// Once, for the next use only: the engine consumes it (Consume) in the
// Update whose action it allows.
type Approval struct {
	Exact  string `json:"exact,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Origin string `json:"origin,omitempty"`
	Once   bool   `json:"once,omitempty"`
}

// Approvals returns the approvals remembered for the conversation, in the
// order they were given.
func (st *State) Approvals() []Approval { return slices.Clone(st.approvals) }

// HasApprovals reports whether the conversation remembers any approval.
func (st *State) HasApprovals() bool { return len(st.approvals) > 0 }

// Approve remembers approvals in the conversation. An approval of the
// same exact action or rule, for as long, as one remembered is not added
// again (two one-time approvals of one action before it runs allow it
// once); beyond MaxNames approvals, no more are remembered (what is not
// remembered is asked again).
func (st *State) Approve(a ...Approval) {
	for _, x := range a {
		if x.Exact == "" && x.Rule == "" {
			continue
		}
		if len(st.approvals) >= st.cfg.MaxNames || slices.ContainsFunc(st.approvals, func(y Approval) bool {
			return y.Exact == x.Exact && y.Rule == x.Rule && y.Once == x.Once
		}) {
			continue
		}
		st.approvals = append(st.approvals, x)
	}
}

// Revoke forgets every approval of the exact action key, one-time or
// lasting, and reports how many it forgot.
func (st *State) Revoke(key string) int {
	n := len(st.approvals)
	st.approvals = slices.DeleteFunc(st.approvals, func(a Approval) bool { return a.Exact == key })
	return n - len(st.approvals)
}

// Consume forgets the one-time approval of the exact action key, once
// it was used; it reports whether there was one. The store saves the
// state at the end of the Update that consumed it, with what the Update
// recorded, or not at all: two Updates, serialized, cannot both use it.
func (st *State) Consume(key string) bool {
	i := slices.IndexFunc(st.approvals, func(a Approval) bool { return a.Once && a.Exact == key })
	if i < 0 {
		return false
	}
	st.approvals = slices.Delete(st.approvals, i, i+1)
	return true
}
