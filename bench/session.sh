#!/usr/bin/env bash
# Measures the per-action cost of following conversations: every step of
# testdata/sequences.jsonl and testdata/session_chains.jsonl checked in a
# session per sequence, against the same steps checked alone.
# Usage: bench/session.sh [count]   — repeat count for benchstat (default 6)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-6}
mkdir -p bench/out
go test -run '^$' -bench 'BenchmarkSessionTracking' -benchtime 200x -count "$count" . | tee bench/out/session.txt
if command -v benchstat >/dev/null 2>&1; then
	benchstat bench/out/session.txt
else
	echo "(install benchstat with: go install golang.org/x/perf/cmd/benchstat@latest)"
fi
