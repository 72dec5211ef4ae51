package install

import (
	"fmt"
	"strconv"
	"strings"
)

// Next returns what the user must still do, or should know, once
// warden's hook for a is installed in scope s: a trust step, a restart.
func (a *Agent) Next(s Scope) []string {
	var out []string
	switch a.Name {
	case "claude-code":
		out = append(out, "Claude Code reads its settings when it starts: restart sessions that are running (/hooks lists the hooks it runs).")
		if s == Project {
			out = append(out, "Claude Code runs a project's hooks only in a folder you trust; settings.local.json stays out of git (it names this machine's binary).")
		}
	case "codex":
		out = append(out, "Codex skips new or changed hooks until you trust them: start Codex, open /hooks and trust warden's PreToolUse and PostToolUse hooks. Until then Codex checks nothing with warden.")
		if s == Project {
			out = append(out, "Codex loads a project's .codex/hooks.json only in a project it trusts.")
		}
	case "gemini":
		out = append(out, "Gemini CLI runs hooks only in folders it trusts.")
		if s == Project {
			out = append(out, "Gemini CLI warns once about new project hooks, then runs them.")
		}
	case "cursor":
		out = append(out, "Cursor lists the hooks in Settings > Hooks: restart it if warden's do not show.")
	case "copilot":
		out = append(out, "Copilot CLI loads hooks when it starts: restart sessions that are running.")
		if s == Project {
			out = append(out, "This file is in the repository and names this machine's binary: keep it out of commits (list .github/hooks/warden.json in .git/info/exclude) unless every machine, and Copilot's cloud agent, has warden there; where the binary is missing, every tool call is denied.")
		}
	case "windsurf":
		out = append(out, "Windsurf's hooks are in beta: reload Windsurf for them to take effect.")
	}
	return out
}

// FailClosed says what a does with a call when warden's hook fails
// (crashes, cannot start, times out), and which option warden set for
// it to block.
func (a *Agent) FailClosed() string {
	switch a.Name {
	case "claude-code":
		return `onFailure "block": Claude Code 2.1.295 and later block the call; earlier versions ignore the option and let it run`
	case "cursor":
		return "failClosed true: Cursor blocks the call when warden fails, times out or answers nothing"
	case "codex":
		return "none: Codex has no such option (openai/codex#41979): should warden crash or time out, the call runs"
	case "gemini":
		return "none: Gemini CLI has no such option: should warden crash or time out, the call runs"
	case "copilot":
		return "none needed for a failure: Copilot CLI denies the call when its hook fails; but one that times out lets the call run"
	}
	return "none: " + a.Title + " blocks only on exit code 2 of a pre-hook: should warden crash or time out, the call runs"
}

// Describe says what each of warden's entries runs and how.
func (a *Agent) Describe(command string) string {
	var opts []string
	for _, m := range a.handler(command) {
		switch m.k {
		case "type", a.commandKey, "name":
		case "timeout", "timeoutSec":
			unit := "s"
			if a.Name == "gemini" {
				unit = "ms"
			}
			opts = append(opts, fmt.Sprintf("timeout %v %s", m.v, unit))
		default:
			opts = append(opts, fmt.Sprintf("%s %s", m.k, strings.TrimSpace(defaultStyle.render(m.v, "", false))))
		}
	}
	if a.grouped && a.matcher != "" {
		opts = append([]string{"matcher " + strconv.Quote(a.matcher)}, opts...)
	}
	return command + " (" + strings.Join(opts, ", ") + ")"
}

// ClaudeVersion reads the version from the output of `claude --version`
// ("2.1.300 (Claude Code)").
func ClaudeVersion(out string) (string, bool) {
	for _, w := range strings.Fields(out) {
		if parts := strings.Split(w, "."); len(parts) == 3 {
			ok := true
			for _, p := range parts {
				if _, err := strconv.Atoi(p); err != nil {
					ok = false
				}
			}
			if ok {
				return w, true
			}
		}
	}
	return "", false
}

// OnFailureHonoured reports whether Claude Code of version v (as
// ClaudeVersion reads it) blocks a call when a hook with onFailure
// "block" fails: 2.1.295 and later.
func OnFailureHonoured(v string) bool {
	min := [3]int{2, 1, 295}
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		if n != min[i] {
			return n > min[i]
		}
	}
	return true
}
