#!/usr/bin/env bash
# Measures start-up: one action through warden, process spawn to exit,
# against a minimal Go program that reads and writes one JSON line
# (bench/minimal). DESIGN.md §8: one action through `warden assess --store
# FILE` costs ≤ 5× the minimal program (≈ 10 ms).
# All commands run round-robin (bench/spawn), N times each, so they share
# the machine's noise; the table gives median and p90 wall time, median CPU
# time and the ratio of each median to the minimal program's. Then the top
# package inits of `warden version` (GODEBUG=inittrace=1).
#
# Usage: bench/startup.sh [N]   — runs per command (default 50)
# BASE=/path/to/warden adds the same rows for another warden binary (e.g.
# one built from main), for before/after figures side by side.
# The summary is also written to bench/out/startup.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
if [[ ! $n =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: bench/startup.sh [N]" >&2
	exit 2
fi
out=bench/out
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$out/minimal" ./bench/minimal
go build -o "$out/spawn" ./bench/spawn
# the warden binary as the README builds it for hooks: static (CGO_ENABLED=0),
# which spares every process the dynamic loader and libc (about 1 ms here);
# CGO_ENABLED=1 bench/startup.sh measures the default build
CGO_ENABLED=${CGO_ENABLED:-0} go build -o "$out/warden" ./cmd/warden
w=$out/warden
# the audit key (created on first use) and any default state live here,
# not in the user's home
export XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config
unset WARDEN_AUDIT_KEY WARDEN_AUDIT_KEY_FILE
echo '{"tool":"Bash","arguments":{"command":"rm -rf build && go test ./..."},"cwd":"/home/user/project"}' >"$tmp/action.json"

targets=(
	"minimal=$out/minimal"
	"version=$w version"
	"assess=$w assess --home /home/user"
)
# --store exists once the engine has it: each run then opens the same SQLite
# file, as a hook's process per tool call does. (The help is read whole
# before it is searched: grep -q stops reading at the first match, and
# under pipefail the writer's SIGPIPE would make the test fail at random.)
has_store() { [[ $("$1" assess --help 2>&1) == *--store* ]]; }
if has_store "$w"; then
	targets+=("assess-store=$w assess --home /home/user --store $tmp/state.db")
fi
if [[ -n ${BASE:-} ]]; then
	targets+=("base-version=$BASE version" "base-assess=$BASE assess --home /home/user")
	if has_store "$BASE"; then
		targets+=("base-store=$BASE assess --home /home/user --store $tmp/base.db")
	fi
fi

{
	echo "runs: $n per command, round-robin; $(nproc) cores; $(go version | awk '{print $3}')"
	"$out/spawn" -n "$n" -in "$tmp/action.json" "${targets[@]}" | tee "$tmp/table"
	# the budget: one action through assess --store (assess while the flag
	# is missing) within 5× the minimal program, by median wall time
	awk '$1 == "assess" || $1 == "assess-store" { row = $1; x = $5 }
		END { if (row != "") printf "budget: %s ≤ 5× minimal: %s (%.1f×)\n", row, (x <= 5 ? "ok" : "MISSED"), x }' "$tmp/table"
	echo
	echo "top package inits of warden version (GODEBUG=inittrace=1, one run):"
	GODEBUG=inittrace=1 "$w" version 2>&1 >/dev/null | awk '/^init / { printf "%8.3f ms %9d B  %s\n", $5, $8, $2 }' | sort -rn >"$tmp/inits"
	head -n 8 "$tmp/inits"
	awk '{ all += $1 } $5 ~ /agentwarden/ { own += $1 } END { printf "%8.3f ms all package inits, %.3f ms of them warden'"'"'s own\n", all, own }' "$tmp/inits"
} 2>&1 | tee "$out/startup.txt"
