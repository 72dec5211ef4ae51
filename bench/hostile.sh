#!/usr/bin/env bash
# Runs each hostile input (internal/hostile: expansion bombs, nesting far
# past any real script, wrapper stacks past the resolver's depth) through
# `warden assess` and prints, per input, its size, wall time, peak RSS and
# the level and decision warden gives it. DESIGN.md §8: no input may take
# more than ~100 ms or ~64 MB, and none may be safe.
# Usage: bench/hostile.sh [name-regexp]
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/warden" ./cmd/warden
mkdir "$tmp/in"
go run ./internal/hostile/gen "$tmp/in" >/dev/null

# measure runs warden assess on one input file and prints "seconds KB
# cpu-seconds" (the CPU time tells the cost on a loaded machine).
if [ -x /usr/bin/time ]; then
	measure() {
		/usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$tmp/warden" assess --home /home/user --cwd /home/user/project <"$1" >"$tmp/out" || true
		tail -n 1 "$tmp/time" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}'
	}
else
	# no GNU time: bash's own clock, and the peak RSS (VmHWM) read from
	# /proc while the process runs (its last reading before it exits)
	measure() {
		local start end pid hwm=? v
		start=$(date +%s%N)
		"$tmp/warden" assess --home /home/user --cwd /home/user/project <"$1" >"$tmp/out" &
		pid=$!
		while v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null) && [ -n "$v" ]; do
			hwm=$v
			sleep 0.005
		done
		wait "$pid" || true
		end=$(date +%s%N)
		printf '%d.%02d %s ?\n' $(((end - start) / 1000000000)) $((((end - start) / 10000000) % 100)) "$hwm"
	}
fi

printf '%-20s %9s %8s %8s %9s  %-8s %s\n' input bytes seconds cpu_s peak_KB level decision
# the baseline: a harmless command, for the start-up every row includes
echo '{"tool":"Bash","arguments":{"command":"ls"}}' >"$tmp/baseline.json"
fail=0
for f in "$tmp/baseline.json" "$tmp"/in/*.json; do
	name=$(basename "$f" .json)
	[[ $name == baseline || $name =~ $filter ]] || continue
	read -r secs kb cpu < <(measure "$f")
	out=$(cat "$tmp/out")
	level=$(sed -n 's/^{"level":"\([a-z]*\)".*/\1/p' <<<"$out")
	decision=$(sed -n 's/.*"decision":"\([a-z]*\)".*/\1/p' <<<"$out")
	printf '%-20s %9d %8s %8s %9s  %-8s %s\n' "$name" "$(wc -c <"$f")" "$secs" "$cpu" "$kb" "${level:-?}" "${decision:-?}"
	if [ "$name" != baseline ] && { [ "$level" = safe ] || [ "$decision" = allow ]; }; then
		fail=1
	fi
done
if [ "$fail" = 1 ]; then
	echo "FAIL: a hostile input was safe or allowed" >&2
	exit 1
fi
