package install

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden/hook"
)

// Agent is an agent warden installs its hook into: where the agent keeps
// its hook settings and what warden's entry in them looks like.
type Agent struct {
	// Name is the agent's name on warden's command line: "claude-code".
	Name string
	// Title is its name for people: "Claude Code".
	Title string
	// Events are the agent's hook events warden's adapter answers, before
	// and after a tool call, in the order install adds them.
	Events []string
	// Before is the event of Events that runs before a tool call, which
	// is the one that can block it.
	Before string
	// comments: the agent reads its settings as JSONC (comments allowed,
	// no trailing commas). Where it does not, a comment is refused: a
	// file the agent cannot parse runs no hook, warden's included.
	comments bool
	// grouped: an event holds matcher groups {matcher, hooks: [handler]}
	// (Claude Code, Codex, Gemini CLI); otherwise handlers directly.
	grouped bool
	// matcher is a group's matcher for every tool ("" for none).
	matcher string
	// commandKey is the handler's key for the command line.
	commandKey string
	// handler is warden's handler for command, without the command.
	handler func(command string) obj
	// version: a file the agent reads starts with "version": 1.
	version bool
	// failClosed names the handler's option that makes the agent block a
	// call when the hook fails ("" when the agent has none).
	failClosed string
	// user is the file of the user's scope, given the environment;
	// project the file of the project's, relative to its directory.
	user    func(e Env) string
	project string
}

// The timeout install sets, hook.Timeout (30 s, against the agents'
// defaults of 30 s to 600 s): warden answers in milliseconds, but under
// a store lock another hook process holds it may work up to
// hook.Deadline (15 s) before it gives its blocking answer, and a hook
// the agent gives up on first is, for most agents, a call that runs.
const (
	timeoutSec = int(hook.Timeout / time.Second)
	timeoutMs  = int(hook.Timeout / time.Millisecond)
)

// Agents lists every agent, in the order of warden's documentation.
//
// What each entry is, and where, was checked against the agents'
// documentation and code (see docs/agent-hooks-research.md; the search
// notes are in each comment).
var Agents = []*Agent{
	{
		// Claude Code: ~/.claude/settings.json ($CLAUDE_CONFIG_DIR when
		// set); a project's .claude/settings.local.json, the file that is
		// not committed: the command names this machine's binary.
		// Strict JSON: a comment makes Claude Code skip the whole file
		// ("Invalid or malformed JSON", anthropics/claude-code#83190).
		// timeout in seconds (default 600). onFailure "block" on the
		// handler (not the group) blocks a call when the hook cannot
		// start, times out or exits with another code than 0 or 2; added
		// in 2.1.295, accepted and ignored by older versions.
		Name: "claude-code", Title: "Claude Code",
		Events: []string{"PreToolUse", "PostToolUse"}, Before: "PreToolUse",
		grouped: true, matcher: "*", commandKey: "command",
		handler: func(c string) obj {
			return obj{{"type", "command"}, {"command", c}, {"timeout", timeoutSec}, {"onFailure", "block"}}
		},
		failClosed: "onFailure",
		user: func(e Env) string {
			if d := e.getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
				return filepath.Join(d, "settings.json")
			}
			return filepath.Join(e.Home, ".claude", "settings.json")
		},
		project: ".claude/settings.local.json",
	},
	{
		// Codex: hooks.json beside each config layer, ~/.codex
		// ($CODEX_HOME when set) and a project's .codex. Read with
		// serde_json (no comments); its root allows "hooks" (and
		// "description") only. A group without a matcher matches every
		// tool (schemastore codex-hooks.json; "*" is not a valid Rust
		// regex). timeout (alias timeoutSec) in seconds, default 600
		// (codex-rs hooks/src/engine/discovery.rs). No fail-closed option
		// (openai/codex#41979). Hooks are trusted by a hash of their
		// definition and keyed by position: warden's group goes last so
		// that the keys of the hooks before it do not move.
		Name: "codex", Title: "Codex",
		Events: []string{"PreToolUse", "PostToolUse"}, Before: "PreToolUse",
		grouped: true, commandKey: "command",
		handler: func(c string) obj {
			return obj{{"type", "command"}, {"command", c}, {"timeout", timeoutSec}}
		},
		user: func(e Env) string {
			if d := e.getenv("CODEX_HOME"); filepath.IsAbs(d) {
				return filepath.Join(d, "hooks.json")
			}
			return filepath.Join(e.Home, ".codex", "hooks.json")
		},
		project: ".codex/hooks.json",
	},
	{
		// Gemini CLI: ~/.gemini/settings.json, a project's
		// .gemini/settings.json, read through strip-json-comments (JSONC).
		// "*" matches every tool (hookPlanner.ts). timeout in
		// milliseconds, default 60000 (docs/hooks/reference.md); name
		// identifies the hook in /hooks and hooksConfig.disabled. No
		// fail-closed option.
		Name: "gemini", Title: "Gemini CLI",
		Events: []string{"BeforeTool", "AfterTool"}, Before: "BeforeTool",
		comments: true, grouped: true, matcher: "*", commandKey: "command",
		handler: func(c string) obj {
			return obj{{"name", "warden"}, {"type", "command"}, {"command", c}, {"timeout", timeoutMs}}
		},
		user:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		project: ".gemini/settings.json",
	},
	{
		// Cursor: ~/.cursor/hooks.json, a project's .cursor/hooks.json,
		// {"version": 1, "hooks": {event: [handler]}}. preToolUse and
		// postToolUse see every tool (Shell, Read, Write, MCP:…); the
		// granular before*/after* hooks fire for the same call besides,
		// so warden takes the one layer. failClosed true
		// blocks the call when the hook crashes, times out or answers
		// nothing. The timeout's unit is not documented where we could
		// read it; Cursor's own examples (60) and plugins (3 to 11) are
		// seconds. Comments: not known to be accepted, so refused.
		Name: "cursor", Title: "Cursor",
		Events: []string{"preToolUse", "postToolUse"}, Before: "preToolUse",
		commandKey: "command", version: true,
		handler: func(c string) obj {
			return obj{{"command", c}, {"type", "command"}, {"timeout", timeoutSec}, {"failClosed", true}}
		},
		failClosed: "failClosed",
		user:       func(e Env) string { return filepath.Join(e.Home, ".cursor", "hooks.json") },
		project:    ".cursor/hooks.json",
	},
	{
		// GitHub Copilot CLI: a file of warden's own among the *.json of
		// ~/.copilot/hooks ($COPILOT_HOME/hooks when set) or a
		// repository's .github/hooks (docs.github.com hooks reference).
		// {"version": 1, "hooks": {event: [{type, bash, timeoutSec}]}},
		// timeoutSec in seconds, default 30. No fail-closed option: an
		// error of the hook already denies, a timeout allows.
		Name: "copilot", Title: "Copilot CLI",
		Events: []string{"preToolUse", "postToolUse"}, Before: "preToolUse",
		commandKey: "bash", version: true,
		handler: func(c string) obj {
			return obj{{"type", "command"}, {"bash", c}, {"timeoutSec", timeoutSec}}
		},
		user: func(e Env) string {
			if d := e.getenv("COPILOT_HOME"); filepath.IsAbs(d) {
				return filepath.Join(d, "hooks", "warden.json")
			}
			return filepath.Join(e.Home, ".copilot", "hooks", "warden.json")
		},
		project: ".github/hooks/warden.json",
	},
	{
		// Windsurf (Cascade hooks, beta): ~/.codeium/windsurf/hooks.json,
		// a workspace's .windsurf/hooks.json; {"hooks": {event:
		// [{command, show_output}]}}. No timeout field and no fail-closed
		// option documented: only exit 2 blocks.
		Name: "windsurf", Title: "Windsurf",
		Events: []string{"pre_run_command", "pre_read_code", "pre_write_code", "pre_mcp_tool_use",
			"post_run_command", "post_read_code", "post_write_code", "post_mcp_tool_use"},
		Before:     "pre_run_command",
		commandKey: "command",
		handler: func(c string) obj {
			return obj{{"command", c}, {"show_output", true}}
		},
		user:    func(e Env) string { return filepath.Join(e.Home, ".codeium", "windsurf", "hooks.json") },
		project: ".windsurf/hooks.json",
	},
}

// Lookup returns the agent named name.
func Lookup(name string) (*Agent, bool) {
	for _, a := range Agents {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns the agents' names.
func Names() []string {
	out := make([]string, len(Agents))
	for i, a := range Agents {
		out[i] = a.Name
	}
	return out
}

// Scope is where a hook applies: every project of the user, or one.
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// Env is what the places of the settings depend on.
type Env struct {
	Home string // the user's home directory (absolute)
	Dir  string // the project's directory (absolute), for Project
	// Getenv reads CLAUDE_CONFIG_DIR, CODEX_HOME and COPILOT_HOME; nil
	// reads none.
	Getenv func(string) string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Path returns the settings file of a in scope s.
func (a *Agent) Path(s Scope, e Env) (string, error) {
	switch s {
	case User:
		if !filepath.IsAbs(e.Home) {
			return "", fmt.Errorf("the home directory %q is not an absolute path", e.Home)
		}
		return a.user(e), nil
	case Project:
		if !filepath.IsAbs(e.Dir) {
			return "", fmt.Errorf("the project directory %q is not an absolute path", e.Dir)
		}
		return filepath.Join(e.Dir, filepath.FromSlash(a.project)), nil
	}
	return "", fmt.Errorf("unknown scope %q", s)
}

// root returns the directory below which install may create and remove
// directories for a's file in scope s: the home or project directory,
// or, for a directory an environment variable names, that directory's
// parent.
func (a *Agent) root(s Scope, e Env, file string) string {
	base := e.Home
	if s == Project {
		base = e.Dir
	}
	if rel, err := filepath.Rel(base, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return base
	}
	return filepath.Dir(filepath.Dir(file))
}

// entry is what install adds to each event's list.
func (a *Agent) entry(command string) obj {
	h := a.handler(command)
	if !a.grouped {
		return h
	}
	if a.matcher == "" {
		return obj{{"hooks", []any{h}}}
	}
	return obj{{"matcher", a.matcher}, {"hooks", []any{h}}}
}

// hooksValue is the "hooks" object of a file holding warden's entries
// only.
func (a *Agent) hooksValue(command string) obj {
	var o obj
	for _, ev := range a.Events {
		o = append(o, kv{ev, []any{a.entry(command)}})
	}
	return o
}

// freshFile is the file install writes where there is none. Its
// "version" comes after "hooks": a file holding only "version": 1, to
// which install appends "hooks", must not read as one install created.
func (a *Agent) freshFile(s style, command string) []byte {
	root := obj{{"hooks", a.hooksValue(command)}}
	if a.version {
		root = append(root, kv{"version", 1})
	}
	return []byte(s.render(root, "", true) + s.nl)
}

// Options are the options of warden hook that install can put on the
// command line, in the order it writes them: --authoritative (Claude
// Code only: warden's allow skips Claude Code's prompt) and --shadow
// (decide and record every call, block none).
var Options = []string{"--authoritative", "--shadow"}

// Command returns the command line an agent runs for warden's hook: the
// absolute path of binary, quoted for a POSIX shell (or fish) where it
// needs it, then "hook", the agent's name and options (of Options, in
// their order, each once).
func Command(binary, agent string, options ...string) (string, error) {
	for _, o := range options {
		if !slices.Contains(Options, o) {
			return "", fmt.Errorf("the hook option %q: install writes only %s", o, strings.Join(Options, " and "))
		}
		if o == "--authoritative" && agent != "claude-code" {
			return "", fmt.Errorf("--authoritative is an option of the claude-code hook only (it makes warden's allow skip Claude Code's permission prompt); %s has none", agent)
		}
	}
	if !filepath.IsAbs(binary) {
		return "", fmt.Errorf("the warden binary %q is not an absolute path", binary)
	}
	for _, r := range binary {
		if r < 0x20 || r == 0x7f || r == '\'' || r == '\\' {
			return "", fmt.Errorf("the warden binary's path %q holds %q, which warden does not quote for every agent's shell: move the binary", binary, r)
		}
	}
	q := binary
	if strings.IndexFunc(binary, func(r rune) bool { return !plainRune(r) }) >= 0 {
		q = "'" + binary + "'"
	}
	cmd := q + " hook " + agent
	for _, o := range Options {
		if slices.Contains(options, o) {
			cmd += " " + o
		}
	}
	return cmd, nil
}

// CommandOptions returns the words of a command line of warden's hook
// after "hook AGENT": its options, as written.
func CommandOptions(cmd string) []string {
	w := words(cmd)
	if len(w) <= 3 {
		return nil
	}
	return w[3:]
}

// sameCommand reports whether the command lines a and b run the same
// binary (its path cleaned) with "hook AGENT" and the same set of
// options, whatever their order: an option is a word that starts with
// "-", with the word after it when that does not ("--store FILE").
func sameCommand(a, b string) bool {
	wa, wb := words(a), words(b)
	if len(wa) < 3 || len(wb) < 3 || filepath.Clean(wa[0]) != filepath.Clean(wb[0]) || !slices.Equal(wa[1:3], wb[1:3]) {
		return false
	}
	return slices.Equal(optionSet(wa[3:]), optionSet(wb[3:]))
}

// optionSet returns the options of words w, sorted, each once.
func optionSet(w []string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		o := w[i]
		if strings.HasPrefix(o, "-") && !strings.Contains(o, "=") && i+1 < len(w) && !strings.HasPrefix(w[i+1], "-") {
			i++
			o += " " + w[i]
		}
		out = append(out, o)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// plainRune reports whether r needs no quotes in a shell word.
func plainRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./+,:@%=-", r)
}

// words splits a command line as a POSIX shell splits simple words:
// blanks separate, single and double quotes and backslashes quote.
func words(cmd string) []string {
	var out []string
	var cur strings.Builder
	in, any := byte(0), false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case in == '\'':
			if c == '\'' {
				in = 0
			} else {
				cur.WriteByte(c)
			}
		case in == '"':
			switch {
			case c == '"':
				in = 0
			case c == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`", cmd[i+1]) >= 0:
				i++
				cur.WriteByte(cmd[i])
			default:
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			in, any = c, true
		case c == '\\' && i+1 < len(cmd):
			i++
			cur.WriteByte(cmd[i])
			any = true
		case c == ' ' || c == '\t' || c == '\n':
			if any {
				out = append(out, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteByte(c)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// wardenBinary returns the binary of a command line that runs warden's
// hook for agent: "BINARY hook AGENT …" where BINARY's name begins with
// "warden".
func wardenBinary(cmd, agent string) (string, bool) {
	w := words(cmd)
	if len(w) < 3 || w[1] != "hook" || w[2] != agent || !strings.HasPrefix(path.Base(filepath.ToSlash(w[0])), "warden") {
		return "", false
	}
	return w[0], true
}
