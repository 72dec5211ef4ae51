#!/usr/bin/env bash
# Measures the session stores (DESIGN.md §8: the SQLite store adds ≤ 1 ms
# to a call; a hook starts in a few milliseconds):
#  1. BenchmarkUpdate (package store): one Update of a conversation with 40
#     steps behind it, on a live state (none), the memory store, SQLite (a
#     file on disk, WAL) and PostgreSQL (when WARDEN_TEST_POSTGRES_DSN is
#     set), and BenchmarkOpenUpdateClose (a hook process's open, one
#     Update, close), in one run; medians, and what each store adds to a
#     call over memory.
#  2. What a hook process pays: bench/storehook run N times on a fresh
#     SQLite file (and PostgreSQL), median of its open, Update and close.
#  3. The package inits modernc.org/sqlite and pgx add to a process
#     (GODEBUG=inittrace=1 on bench/storehook, which links both), median
#     over N runs, against the whole process's inits.
# Usage: bench/store.sh [N]   — repetitions (default 5 benchmark runs, 10×N hook runs)
# The output is also written to bench/out/store.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
mkdir -p bench/out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

{
	echo "== Update latency (ns/op, median of $n runs)"
	go test ./store -run '^$' -bench '^(BenchmarkUpdate|BenchmarkOpenUpdateClose)$' -benchmem -count "$n" >"$tmp/bench.txt"
	for b in $(awk '/^Benchmark/ {sub(/-[0-9]+$/, "", $1); print $1}' "$tmp/bench.txt" | sort -u); do
		printf '%-40s %12s ns/op\n' "$b" "$(awk -v b="$b" '{x=$1; sub(/-[0-9]+$/, "", x)} x == b {print $3}' "$tmp/bench.txt" | median)"
	done | tee "$tmp/medians.txt"
	mem=$(awk '$1 == "BenchmarkUpdate/memory" {print $2}' "$tmp/medians.txt")
	for s in sqlite postgres; do
		v=$(awk -v s="BenchmarkUpdate/$s" '$1 == s {print $2}' "$tmp/medians.txt")
		[ -n "$v" ] && awk -v s="$s" -v v="$v" -v m="$mem" 'BEGIN {printf "%s adds %.3f ms to a call over memory (budget for SQLite: 1 ms)\n", s, (v-m)/1e6}'
	done

	echo
	echo "== a hook process's store: open, one Update, close (ms, median of $((10 * n)) processes; wall includes waiting for the disk)"
	go build -o "$tmp/storehook" ./bench/storehook
	dsns=("$tmp/hook/warden.db")
	[ -n "${WARDEN_TEST_POSTGRES_DSN:-}" ] && dsns+=("$WARDEN_TEST_POSTGRES_DSN")
	for dsn in "${dsns[@]}"; do
		: >"$tmp/hook.txt"
		for ((i = 0; i < 10 * n; i++)); do "$tmp/storehook" -store "$dsn" >>"$tmp/hook.txt"; done
		name=sqlite
		case $dsn in postgres*) name=postgres ;; esac
		for k in open update close; do
			printf '%-9s %-7s wall %8s  cpu %8s\n' "$name" "$k" \
				"$(grep -o "\"${k}_ms\":[0-9.]*" "$tmp/hook.txt" | cut -d: -f2 | median)" \
				"$(grep -o "\"${k}_cpu_ms\":[0-9.]*" "$tmp/hook.txt" | cut -d: -f2 | median)"
		done
	done

	echo
	echo "== package inits (ms, median of $((10 * n)) processes of bench/storehook)"
	for ((i = 0; i < 10 * n; i++)); do
		GODEBUG=inittrace=1 "$tmp/storehook" -store "$tmp/hook/warden.db" 2>&1 >/dev/null |
			awk '/^init / {
				g = "other"
				if ($2 ~ /^modernc\.org\//) g = "modernc.org/sqlite (+libc)"
				else if ($2 ~ /^github\.com\/jackc\//) g = "github.com/jackc/pgx"
				else if ($2 ~ /^github\.com\/(dustin|google\/uuid|ncruces|remyoudompheng|mattn)\//) g = "their dependencies"
				t[g] += $5; all += $5
			} END {for (g in t) printf "%s\t%f\n", g, t[g]; printf "all inits\t%f\n", all}'
	done >"$tmp/init.txt"
	cut -f1 "$tmp/init.txt" | sort -u | while read -r g; do
		printf '%-28s %s\n' "$g" "$(awk -F'\t' -v g="$g" '$1 == g {print $2}' "$tmp/init.txt" | median)"
	done
} | tee bench/out/store.txt
