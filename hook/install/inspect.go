package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentwarden/warden/hook"
	"github.com/agentwarden/warden/internal/lazyre"
)

// Status is what is installed in one agent's settings for one scope.
type Status struct {
	Agent *Agent
	Scope Scope
	Path  string
	// Exists: there is a file; Err: it cannot be read or parsed (then
	// nothing more is known).
	Exists bool
	Err    error
	// Hooks are warden's entries, in the order of the agent's events.
	Hooks []Hook
	// Problems keep warden's hook from guarding the agent as install
	// means it to; Warnings may.
	Problems, Warnings []string
}

// Installed reports whether the file holds any of warden's entries.
func (s Status) Installed() bool { return len(s.Hooks) > 0 }

// Hook is one of warden's entries in an agent's settings.
type Hook struct {
	Event   string
	Command string
	// Binary is the command's program, as written.
	Binary string
	// FailClosed: the entry sets the agent's fail-closed option.
	FailClosed bool
	// Timeout is the agent's timeout for the entry (0: its default).
	Timeout time.Duration
	// Options are the command's words after "hook AGENT" (--shadow,
	// --authoritative, ...).
	Options []string
	// Current: the entry is what install writes now for its command.
	Current bool
	// Group and Handler are the entry's index in the event's array and,
	// for grouped agents, in its group's hooks (Codex keys trust by them).
	Group, Handler int
}

// Inspect reads what is installed for a in scope s: warden's entries,
// and what in the file or beside it keeps them from working (an event
// without one, a missing fail-closed option, a timeout shorter than
// warden's deadline, hooks the agent is told to disable).
func Inspect(a *Agent, s Scope, e Env) Status {
	st := Status{Agent: a, Scope: s}
	c, text, err := load(a, s, e)
	if c != nil {
		st.Path = c.Path
	} else if p, perr := a.Path(s, e); perr == nil {
		st.Path = p
	}
	if err != nil {
		st.Err = err
		return st
	}
	st.Exists = c.Existed
	if !c.Existed || len(strings.TrimSpace(string(text))) == 0 {
		return st
	}
	d, err := a.parse(c.Path, text)
	if err != nil {
		st.Err = err
		return st
	}
	hooks := d.root.get("hooks")
	if hooks != nil {
		for _, f := range a.find(hooks) {
			bin, _ := wardenBinary(f.command, a.Name)
			h := Hook{Event: f.event, Command: f.command, Binary: bin, Options: CommandOptions(f.command), Group: f.elem, Handler: f.handler,
				Current: same(f.arr.elems[f.elem], a.entry(f.command))}
			if a.failClosed != "" {
				o := f.node.get(a.failClosed)
				h.FailClosed = o != nil && (a.failClosed == "onFailure" && o.kind == kString && o.str == "block" || o.kind == kBool && o.str == "true")
			}
			h.Timeout = a.timeout(f.node)
			st.Hooks = append(st.Hooks, h)
		}
	}
	if !st.Installed() {
		return st
	}
	st.check(d)
	if a.Name == "codex" {
		st.codexConfig(e)
	}
	return st
}

// timeout returns the timeout handler h sets (0 when none).
func (a *Agent) timeout(h *node) time.Duration {
	for _, k := range []string{"timeout", "timeoutSec"} {
		if n := h.get(k); n != nil && n.kind == kNumber {
			f, err := strconv.ParseFloat(n.str, 64)
			if err != nil || f < 0 {
				return 0
			}
			if a.Name == "gemini" {
				return time.Duration(f * float64(time.Millisecond))
			}
			return time.Duration(f * float64(time.Second))
		}
	}
	return 0
}

// check adds the problems of the file's entries and settings.
func (st *Status) check(d *doc) {
	a := st.Agent
	seen := map[string]int{}
	for _, h := range st.Hooks {
		seen[h.Event]++
		if a.failClosed != "" && !h.FailClosed {
			st.Problems = append(st.Problems, fmt.Sprintf("%s: the entry lacks %s, so %s lets the call run when warden fails: run warden install %s --%s", h.Event, a.failClosed, a.Title, a.Name, st.Scope))
		}
		if h.Timeout > 0 && h.Timeout < hook.Deadline+time.Second {
			st.Problems = append(st.Problems, fmt.Sprintf("%s: its timeout (%v) is shorter than warden may take before it answers (%v): %s may give up on the hook first, and then (%s): run warden install %s --%s", h.Event, h.Timeout, hook.Deadline, a.Title, a.FailClosed(), a.Name, st.Scope))
		}
	}
	for _, ev := range a.Events {
		switch n := seen[ev]; {
		case n == 0:
			st.Problems = append(st.Problems, fmt.Sprintf("%s has no warden hook: run warden install %s --%s", ev, a.Name, st.Scope))
		case n > 1:
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s runs warden %d times", ev, n))
		}
	}
	for _, h := range st.Hooks {
		if !h.Current && h.Timeout >= hook.Deadline+time.Second && (a.failClosed == "" || h.FailClosed) {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: the entry differs from what warden install writes now: run warden install %s --%s to update it", h.Event, a.Name, st.Scope))
			break
		}
	}
	root := d.root
	switch a.Name {
	case "claude-code":
		if n := root.get("disableAllHooks"); n != nil && n.kind == kBool && n.str == "true" {
			st.Problems = append(st.Problems, `"disableAllHooks": true turns every hook of this file off, warden's included`)
		}
	case "gemini":
		for _, key := range []string{"hooksConfig", "hooks"} {
			cfg := root.get(key)
			if cfg == nil || cfg.kind != kObject {
				continue
			}
			if n := cfg.get("enabled"); n != nil && n.kind == kBool && n.str == "false" {
				st.Problems = append(st.Problems, fmt.Sprintf(`"%s": {"enabled": false} turns Gemini CLI's hooks off, warden's included`, key))
			}
			if n := cfg.get("disabled"); n != nil && n.kind == kArray {
				for _, el := range n.elems {
					if el.kind == kString && (el.str == "warden" || len(st.Hooks) > 0 && el.str == st.Hooks[0].Command) {
						st.Problems = append(st.Problems, fmt.Sprintf(`"%s".disabled names warden's hook (%q): Gemini CLI skips it`, key, el.str))
					}
				}
			}
		}
	}
}

// codexHooksOff finds hooks turned off in Codex's config.toml.
var codexHooksOff = lazyre.New(`(?m)^\s*(?:codex_)?hooks\s*=\s*false\b`)

// codexConfig reads Codex's config.toml beside the hooks: hooks turned
// off, and whether Codex was told to trust warden's (Codex records a
// trusted hash per hook, keyed by the file, the event and the entry's
// position, in the user's config.toml; warden cannot compute the hash
// and only sees whether one is recorded).
func (st *Status) codexConfig(e Env) {
	for _, cfg := range []string{filepath.Join(filepath.Dir(st.Path), "config.toml"), filepath.Join(filepath.Dir(st.Agent.user(e)), "config.toml")} {
		text, err := os.ReadFile(cfg)
		if err != nil || len(text) > MaxSize {
			continue
		}
		if codexHooksOff.Get().Match(text) && strings.Contains(string(text), "[features]") {
			st.Problems = append(st.Problems, cfg+": [features] turns Codex's hooks off, warden's included")
		}
	}
	user, err := os.ReadFile(filepath.Join(filepath.Dir(st.Agent.user(e)), "config.toml"))
	if err != nil {
		user = nil
	}
	for _, h := range st.Hooks {
		label := map[string]string{"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}[h.Event]
		key := fmt.Sprintf("%s:%s:%d:%d", st.Path, label, h.Group, h.Handler)
		i := strings.Index(string(user), strconv.Quote(key))
		if i < 0 || !strings.Contains(sectionAt(string(user), i), "trusted_hash") {
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s: Codex records no trust for warden's hook (%s): until you trust it in Codex's /hooks, Codex skips it", h.Event, key))
		}
	}
}

// sectionAt returns the TOML text from offset i to the next table header.
func sectionAt(text string, i int) string {
	rest := text[i:]
	if j := strings.Index(rest, "\n["); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
