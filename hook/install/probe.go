package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Probe is a tool call warden doctor sends through an installed hook, as
// the agent would, to see the answer the agent gets.
type Probe struct {
	Name string
	// Command is the shell command of the call.
	Command string
	// Block is what the agent needs: the call blocked (or held for the
	// user), or allowed.
	Block bool
}

// Probes are a harmless and a dangerous call of the agent's shell tool.
var Probes = []Probe{
	{Name: "harmless", Command: "ls", Block: false},
	{Name: "dangerous", Command: "rm -rf ~/", Block: true},
}

// Payload returns the payload a sends its hook before its shell tool
// runs command, in session, working in cwd: the fields its documented
// payloads have (hook/testdata), with placeholders for what only the
// agent knows (transcript, turn, model).
func (a *Agent) Payload(command, session, cwd string) []byte {
	var p any
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	switch a.Name {
	case "claude-code":
		p = map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "toolu_warden_doctor"}
	case "codex":
		p = map[string]any{"session_id": session, "turn_id": "warden-doctor", "transcript_path": nil, "cwd": cwd, "hook_event_name": "PreToolUse",
			"model": "warden-doctor", "permission_mode": "default", "tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "warden-doctor"}
	case "gemini":
		p = map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": now.Format(time.RFC3339),
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": command}}
	case "cursor":
		p = map[string]any{"conversation_id": session, "generation_id": "warden-doctor", "hook_event_name": "preToolUse", "workspace_roots": []string{cwd},
			"tool_name": "Shell", "tool_input": map[string]any{"command": command, "cwd": cwd}, "tool_use_id": "warden-doctor", "cwd": cwd}
	case "copilot":
		args, _ := json.Marshal(map[string]any{"command": command})
		p = map[string]any{"sessionId": session, "timestamp": now.UnixMilli(), "cwd": cwd, "toolName": "bash", "toolArgs": string(args)}
	case "windsurf":
		p = map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": session, "execution_id": "warden-doctor", "timestamp": now.Format(time.RFC3339),
			"tool_info": map[string]any{"command_line": command, "cwd": cwd}}
	default:
		panic("install: no payload for " + a.Name)
	}
	out, _ := json.Marshal(p)
	return out
}

// Outcome is what an agent does with a call after its hook answered.
type Outcome int

// The outcomes.
const (
	Allowed Outcome = iota // the call runs (warden allowed it, or made no decision)
	Asked                  // the agent asks the user
	Blocked                // the call does not run
	Broken                 // the agent cannot read the answer; the call runs (or, for an agent that fails closed, does not)
)

func (o Outcome) String() string {
	return [...]string{"allowed", "held for the user", "blocked", "not understood"}[o]
}

// Answer is what an agent makes of a hook process's output and exit.
type Answer struct {
	Outcome Outcome
	How     string // what in the output decided it
}

// Read returns what a makes of a hook's stdout, stderr and exit code
// before a tool call, by the agent's documented protocol (see
// docs/agent-hooks-research.md): independent of warden's adapters, so
// that doctor checks them from the agent's side.
func (a *Agent) Read(stdout, stderr []byte, exit int) Answer {
	out := bytes.TrimSpace(stdout)
	var m map[string]any
	isJSON := len(out) > 0 && json.Unmarshal(out, &m) == nil
	field := func(keys ...string) string {
		var v any = m
		for _, k := range keys {
			o, ok := v.(map[string]any)
			if !ok {
				return ""
			}
			v = o[k]
		}
		s, _ := v.(string)
		return s
	}
	errText := len(bytes.TrimSpace(stderr)) > 0
	switch a.Name {
	case "claude-code":
		switch {
		case exit == 2 && errText:
			return Answer{Blocked, "exit 2 with the reason on stderr"}
		case exit != 0:
			return Answer{Broken, fmt.Sprintf("exit %d: a hook error, on which Claude Code runs the call unless onFailure blocks it", exit)}
		case len(out) == 0:
			return Answer{Allowed, "no decision (exit 0, no output)"}
		case !isJSON:
			return Answer{Broken, "output that is not JSON: Claude Code runs the call"}
		}
		switch d := field("hookSpecificOutput", "permissionDecision"); d {
		case "allow":
			return Answer{Allowed, `permissionDecision "allow"`}
		case "ask":
			return Answer{Asked, `permissionDecision "ask"`}
		case "deny":
			return Answer{Blocked, `permissionDecision "deny"`}
		case "":
			return Answer{Allowed, "JSON without a decision"}
		default:
			return Answer{Broken, fmt.Sprintf("permissionDecision %q, which Claude Code does not know", d)}
		}
	case "codex":
		switch {
		case exit == 2 && errText:
			return Answer{Blocked, "exit 2 with the reason on stderr"}
		case exit != 0:
			return Answer{Broken, fmt.Sprintf("exit %d: Codex runs the call", exit)}
		case len(out) == 0:
			return Answer{Allowed, "no decision (exit 0, no output)"}
		case !isJSON:
			return Answer{Broken, "output that is not JSON: Codex runs the call"}
		}
		if field("hookSpecificOutput", "permissionDecision") == "deny" && field("hookSpecificOutput", "permissionDecisionReason") != "" {
			return Answer{Blocked, `permissionDecision "deny" with a reason`}
		}
		if field("decision") == "block" && field("reason") != "" {
			return Answer{Blocked, `decision "block" with a reason`}
		}
		if codexNoDecision(m) {
			return Answer{Allowed, "JSON without a decision (a message only)"}
		}
		return Answer{Broken, "JSON Codex refuses (it supports only a deny with a reason, or no decision): Codex runs the call"}
	case "gemini":
		switch {
		case exit == 2 && errText:
			return Answer{Blocked, "exit 2 with the reason on stderr"}
		case exit != 0:
			return Answer{Broken, fmt.Sprintf("exit %d: Gemini CLI warns and runs the call", exit)}
		case len(out) == 0:
			return Answer{Allowed, "no decision (exit 0, no output)"}
		case !isJSON:
			return Answer{Broken, "output that is not JSON: Gemini CLI runs the call"}
		}
		switch d := field("decision"); d {
		case "deny", "block":
			return Answer{Blocked, fmt.Sprintf("decision %q", d)}
		case "ask":
			return Answer{Asked, `decision "ask"`}
		case "allow", "approve", "":
			return Answer{Allowed, fmt.Sprintf("decision %q", d)}
		default:
			return Answer{Broken, fmt.Sprintf("decision %q, which Gemini CLI does not know", d)}
		}
	case "cursor":
		// installed with failClosed: anything Cursor cannot read blocks
		switch {
		case exit == 2:
			return Answer{Blocked, "exit 2"}
		case exit != 0:
			return Answer{Blocked, fmt.Sprintf("exit %d: a failure, which failClosed blocks", exit)}
		case !isJSON:
			return Answer{Blocked, "no JSON answer: a failure, which failClosed blocks"}
		}
		switch p := field("permission"); p {
		case "allow":
			return Answer{Allowed, `permission "allow"`}
		case "deny", "ask":
			return Answer{Blocked, fmt.Sprintf("permission %q", p)}
		default:
			return Answer{Blocked, "no permission in the answer: a failure, which failClosed blocks"}
		}
	case "copilot":
		switch {
		case exit != 0:
			return Answer{Blocked, fmt.Sprintf("exit %d: Copilot CLI denies the call as a hook error, with its own message, not warden's reason", exit)}
		case len(out) == 0:
			return Answer{Allowed, "no decision (exit 0, no output)"}
		case !isJSON:
			return Answer{Broken, "output that is not JSON"}
		}
		switch d := field("permissionDecision"); d {
		case "deny":
			return Answer{Blocked, `permissionDecision "deny"`}
		case "ask":
			return Answer{Asked, `permissionDecision "ask"`}
		case "allow", "":
			return Answer{Allowed, fmt.Sprintf("permissionDecision %q", d)}
		default:
			return Answer{Broken, fmt.Sprintf("permissionDecision %q, which Copilot CLI does not know", d)}
		}
	case "windsurf":
		switch exit {
		case 2:
			return Answer{Blocked, "exit 2"}
		case 0:
			return Answer{Allowed, "exit 0"}
		}
		return Answer{Broken, fmt.Sprintf("exit %d: Windsurf runs the call", exit)}
	}
	return Answer{Broken, "an agent warden does not know"}
}

// Good reports whether the answer is what probe p needs: a harmless call
// allowed, a dangerous one blocked or held for the user, and neither
// answered in a way the agent cannot read. For Copilot CLI, a block by a
// hook error is not good either: warden failed.
func (a *Agent) Good(p Probe, ans Answer, exit int) bool {
	if a.Name == "copilot" && exit != 0 {
		return false
	}
	if p.Block {
		return ans.Outcome == Blocked || ans.Outcome == Asked
	}
	return ans.Outcome == Allowed
}

// Run runs a hook's command line as the agents do, through /bin/sh -c,
// with payload on its stdin, in dir with env, for at most the timeout
// install gives the agents, and returns its output and exit code.
func Run(ctx context.Context, command string, payload []byte, dir string, env []string) (stdout, stderr []byte, exit int, err error) {
	ctx, cancel := context.WithTimeout(ctx, time.Duration(timeoutSec)*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(payload)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var xe *exec.ExitError
	switch {
	case err == nil:
		return o.Bytes(), e.Bytes(), 0, nil
	case ctx.Err() != nil:
		return o.Bytes(), e.Bytes(), -1, fmt.Errorf("no answer within %d s: the agent would give up on the hook", timeoutSec)
	case errors.As(err, &xe) && xe.ExitCode() >= 0:
		return o.Bytes(), e.Bytes(), xe.ExitCode(), nil
	}
	return o.Bytes(), e.Bytes(), -1, fmt.Errorf("the hook did not run: %v", strings.TrimSpace(err.Error()))
}

// codexNoDecision reports whether m is PreToolUse output that Codex
// reads as valid and without a decision (codex-rs/hooks/src/engine/
// output_parser.rs, parse_pre_tool_use): only the fields its schema
// allows, no decision, reason or updated input, and none of the universal
// fields PreToolUse does not support (continue false, stopReason,
// suppressOutput). A systemMessage is shown to the user and the call
// runs, as shadow mode wants; additionalContext goes to the model.
func codexNoDecision(m map[string]any) bool {
	for k, v := range m {
		switch k {
		case "systemMessage":
			if _, ok := v.(string); !ok {
				return false
			}
		case "continue":
			if v != true {
				return false
			}
		case "suppressOutput":
			if v != false {
				return false
			}
		case "hookSpecificOutput":
			h, ok := v.(map[string]any)
			if !ok {
				return false
			}
			for hk, hv := range h {
				switch hk {
				case "hookEventName":
					if hv != "PreToolUse" {
						return false
					}
				case "additionalContext":
					if _, ok := hv.(string); !ok {
						return false
					}
				default: // permissionDecision, its reason, updatedInput, or a field the schema refuses
					return false
				}
			}
		default: // decision, reason, stopReason, or a field the schema refuses
			return false
		}
	}
	return true
}
