#!/usr/bin/env bash
# Measures `warden hook claude-code` from spawn to exit on a realistic
# PreToolUse payload, with the default policy, the default store and the
# audit trail on (DESIGN.md §8: ≤ 5× a minimal Go program that reads and
# writes one JSON line), side by side with that program (bench/minimal)
# and with `warden assess --store` on the same call. Every run continues
# one conversation (one session_id) in its store, as an agent's session
# does.
# All commands run round-robin (bench/spawn), N times each, so they share
# the machine's noise; the table gives median and p90 wall time, median CPU
# time and the ratio of each median to the minimal program's.
#
# The payload is Claude Code's, with the action's "tool" and "arguments"
# beside tool_name and tool_input, so that assess reads the same call from
# the same file (the hook ignores fields it does not know).
#
# Usage: bench/hook.sh [N]   — runs per command (default 50)
# BASE=/path/to/warden adds the hook row for another warden binary.
# The summary is also written to bench/out/hook.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
if [[ ! $n =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: bench/hook.sh [N]" >&2
	exit 2
fi
out=bench/out
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$out/minimal" ./bench/minimal
go build -o "$out/spawn" ./bench/spawn
# static, as the README builds warden for hooks (see bench/startup.sh)
CGO_ENABLED=${CGO_ENABLED:-0} go build -o "$out/warden" ./cmd/warden
w=$out/warden

# the default store and the audit key live here, not in the user's home;
# no organization policy
export XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config WARDEN_ORG_POLICY=$tmp/org.yaml
unset WARDEN_AUDIT_KEY WARDEN_AUDIT_KEY_FILE
: >"$tmp/org.yaml"
cmd='rm -rf build && go test ./... 2>&1 | tail -n 20'
printf '%s\n' '{"session_id":"8c1f0a57-4e2b-4d6a-9b55-0f6d2c1e9a31","transcript_path":"/home/user/.claude/projects/-home-user-project/8c1f0a57-4e2b-4d6a-9b55-0f6d2c1e9a31.jsonl","cwd":"/home/user/project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"'"$cmd"'","description":"Rebuild and run the tests"},"tool_use_id":"toolu_01JxKq5cWq8mV1hZ3f2YbR7n","tool":"Bash","arguments":{"command":"'"$cmd"'","description":"Rebuild and run the tests"}}' >"$tmp/payload.json"

# the hook's answer must be an answer, not a failure (exit 2)
if ! "$w" hook claude-code <"$tmp/payload.json" >"$tmp/answer" 2>"$tmp/err"; then
	echo "warden hook claude-code failed on the payload:" >&2
	cat "$tmp/answer" "$tmp/err" >&2
	exit 1
fi

targets=(
	"minimal=$out/minimal"
	"assess-store=$w assess --home /home/user --store $tmp/assess.db"
	"hook=$w hook claude-code"
)
if [[ -n ${BASE:-} ]]; then
	targets+=("base-hook=$BASE hook claude-code --store $tmp/base.db")
fi

{
	echo "runs: $n per command, round-robin; $(nproc) cores; $(go version | awk '{print $3}')"
	echo "payload: Claude Code PreToolUse, Bash: $cmd"
	echo "answer: $(cat "$tmp/answer")"
	"$out/spawn" -n "$n" -in "$tmp/payload.json" "${targets[@]}" | tee "$tmp/table"
	awk '$1 == "hook" { x = $5 }
		END { if (x != "") printf "budget: hook ≤ 5× minimal: %s (%.1f×)\n", (x <= 5 ? "ok" : "MISSED"), x }' "$tmp/table"
	echo "audit: $("$w" audit verify | awk '/^result/ { $1 = ""; print }')"
} 2>&1 | tee "$out/hook.txt"
