#!/usr/bin/env bash
# Measures Engine.Check (no judge) over testdata/actions.jsonl: median and p99
# per action, against DESIGN.md §8 (median ≤ 10 µs, p99 ≤ 100 µs).
# Usage: bench/check.sh [count]   — repeat count for benchstat (default 6)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-6}
mkdir -p bench/out
go test -run '^$' -bench 'BenchmarkCheckCorpus$' -benchtime 50x -count "$count" . | tee bench/out/check.txt
if command -v benchstat >/dev/null 2>&1; then
	benchstat bench/out/check.txt
else
	echo "(install benchstat with: go install golang.org/x/perf/cmd/benchstat@latest)"
fi
