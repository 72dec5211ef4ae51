#!/usr/bin/env bash
# Counts the CPU instructions one iteration of a Go benchmark executes, with
# valgrind's callgrind: repeatable on a noisy, shared machine where timings
# are not (the same binary and input give the same count). Runs the
# benchmark with N and 4N iterations, GC off and one P, and reports
# (I(4N) - I(N)) / 3N: start-up and setup cancel out. Allocation and GC
# cost are not counted: report -benchmem figures beside it.
# Usage: bench/instr.sh PACKAGE BENCHMARK [N]
#   e.g. bench/instr.sh . 'BenchmarkCheckCorpus$' 4
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=$1 bench=$2 n=${3:-4}
# go test runs a benchmark once before it runs it N times, except when
# N is 1: (I(4N) - I(N)) / 3N counts one iteration only for N >= 2
[ "$n" -ge 2 ] || { echo "instr.sh: N must be 2 or more (with 1, go test runs the first count once and the second 1+4 times)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instr.sh needs valgrind (apt-get install valgrind)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/b.test" "$pkg"
count() {
	(cd "$pkg" && GOGC=off GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" \
		"$tmp/b.test" -test.run '^$' -test.bench "$bench" -test.benchtime "${1}x" >/dev/null 2>"$tmp/err.$1") ||
		{ cat "$tmp/err.$1" >&2; exit 1; }
	sed -n 's/^==[0-9]*== Collected : //p' "$tmp/err.$1"
}
a=$(count "$n")
b=$(count $((4 * n)))
awk -v a="$a" -v b="$b" -v n="$n" -v name="$bench" 'BEGIN { printf "%s: %.0f instructions per iteration\n", name, (b - a) / (3 * n) }'
