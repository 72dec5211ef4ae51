#!/usr/bin/env bash
# Measures the rule pack's start-up: the first rules.New of a fresh
# process (median of N runs: time, allocations, bytes allocated), the
# package inits (GODEBUG=inittrace=1), and rules.New, the rule pack over
# testdata/actions.jsonl, large inputs and the keyword automaton as Go
# benchmarks. With a second worktree as argument, runs the same in it
# first, side by side (old, then this one).
# Usage: bench/rules.sh [OLD-WORKTREE] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-}
runs=${2:-21}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

side() { # side DIR LABEL
	(cd "$1" && go build -o "$tmp/rulesnew-$2" ./bench/rulesnew)
	for _ in $(seq "$runs"); do "$tmp/rulesnew-$2"; done | sort -n |
		awk -v l="$2" '{a[NR]=$0; f[NR]=$4} END {split(a[int((NR+1)/2)], m, " "); n=asort(f); printf "%-4s first rules.New: %.3f ms, %d allocs, %.1f KB; then the first Analyze of one action: %.3f ms (medians of %d)\n", l, m[1]/1e6, m[2], m[3]/1024, f[int((n+1)/2)]/1e6, NR}'
	GODEBUG=inittrace=1 "$tmp/rulesnew-$2" 2>&1 >/dev/null |
		awk -v l="$2" '{ms += $5; kb += $8} END {printf "%-4s package inits: %.3f ms, %.0f KB\n", l, ms, kb/1024*1024/1024}'
}
[ -n "$old" ] && side "$old" old
side . new
for d in ${old:+"$old"} .; do
	echo "== $d"
	(cd "$d" && go test -run '^$' -bench 'BenchmarkNew$|BenchmarkAnalyzeCorpus|BenchmarkLarge' -benchtime 2x ./analyze/rules &&
		go test -run '^$' -bench 'BenchmarkNew|BenchmarkSet|BenchmarkFind' -benchtime 20x ./internal/keywords) | grep -E '^Benchmark|^ok'
done
