#!/usr/bin/env bash
# Measures the audit trail (issue 16), in one run:
#  1. Appends per second with durability on (SQLite: WAL, synchronous=FULL;
#     PostgreSQL: synchronous_commit on), one appender after another and
#     many at once through one audit.Log (group commit): the stores' own
#     benchmarks, BenchmarkAudit* in store/sqlite and store/postgres
#     (PostgreSQL when WARDEN_TEST_POSTGRES_DSN is set); medians of N runs.
#  2. What recording adds to a hook's process: one action through
#     `warden assess --store FILE`, spawn to exit, recording on (this
#     tree), against the same without a store, the same --store through
#     warden built from BASE_REF (default 9a6378e: main just before assess
#     recorded, the SQLite store already synchronous=FULL with the trail's
#     tables) and from OLD_REF (default 116122a: before issue 16, the store
#     synchronous=NORMAL), and the minimal Go program (bench/minimal),
#     round-robin (bench/spawn). DESIGN.md §8's budget: one action through
#     `warden assess --store FILE` ≤ 5× the minimal program.
# Usage: bench/audit.sh [N]   — benchmark runs (default 5); 10×N spawns per command
# GO_BENCH=0 skips part 1.
# The output is also written to bench/out/audit.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5}
if [[ ! $n =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: bench/audit.sh [N]" >&2
	exit 2
fi
base_ref=${BASE_REF:-9a6378e}
old_ref=${OLD_REF:-116122a}
out=bench/out
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

{
	echo "$(date -u +%FT%TZ); $(nproc) cores; $(go version | awk '{print $3}'); tree $(git rev-parse --short HEAD)"
	echo
	pg="not measured: WARDEN_TEST_POSTGRES_DSN is unset"
	[ -n "${WARDEN_TEST_POSTGRES_DSN:-}" ] && pg="measured"
	echo "== appends per second, durable (median of $n runs; PostgreSQL $pg)"
	if [ "${GO_BENCH:-1}" = 0 ]; then
		echo "(skipped: GO_BENCH=0)"
		: >"$tmp/bench.txt"
	else
		go test ./store/sqlite ./store/postgres -run '^$' -bench 'Audit' -count "$n" >"$tmp/bench.txt"
	fi
	# rows: package, benchmark, metric, value (appends or events per
	# second, events per commit, and ns/op of the in-Update benchmark)
	awk '/^pkg:/ {pkg = $2; sub(/.*\//, "", pkg)} /^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) {
			u = $(i+1)
			if (u == "events/s" || u == "appends/s") u = "appends/s"
			else if (u != "events/commit" && !(u == "ns/op" && name ~ /InUpdate/)) continue
			print pkg "\t" name "\t" u "\t" $i
		}
	}' "$tmp/bench.txt" >"$tmp/rates.txt"
	cut -f1-3 "$tmp/rates.txt" | sort -u | while IFS=$'\t' read -r pkg name unit; do
		printf '%-9s %-44s %12.1f %s\n' "$pkg" "$name" \
			"$(awk -F'\t' -v p="$pkg" -v b="$name" -v u="$unit" '$1 == p && $2 == b && $3 == u {print $4}' "$tmp/rates.txt" | median)" "$unit"
	done

	echo
	echo "== one action through warden assess, spawn to exit ($((10 * n)) runs per command, round-robin)"
	go build -o "$out/minimal" ./bench/minimal
	go build -o "$out/spawn" ./bench/spawn
	# static, as the README builds warden for hooks (see bench/startup.sh)
	CGO_ENABLED=${CGO_ENABLED:-0} go build -o "$tmp/warden" ./cmd/warden
	for ref in "base:$base_ref" "old:$old_ref"; do
		name=${ref%%:*}
		mkdir -p "$tmp/$name"
		git archive "${ref#*:}" | tar -x -C "$tmp/$name"
		(cd "$tmp/$name" && CGO_ENABLED=${CGO_ENABLED:-0} go build -o "$tmp/warden-$name" ./cmd/warden)
	done
	echo '{"tool":"Bash","arguments":{"command":"rm -rf build && go test ./..."},"cwd":"/home/user/project","session_id":"bench"}' >"$tmp/action.json"
	# the audit key and the stores exist before the timing, as on a machine
	# where hooks have run before
	export XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state"
	unset WARDEN_AUDIT_KEY WARDEN_AUDIT_KEY_FILE
	w=$tmp/warden
	"$w" assess --home /home/user --store "$tmp/rec.db" <"$tmp/action.json" >/dev/null
	"$tmp/warden-base" assess --home /home/user --store "$tmp/base.db" <"$tmp/action.json" >/dev/null
	"$tmp/warden-old" assess --home /home/user --store "$tmp/old.db" <"$tmp/action.json" >/dev/null
	echo "store-recording: this tree; store-unrecorded: $base_ref; store-$old_ref: $old_ref"
	"$out/spawn" -n $((10 * n)) -in "$tmp/action.json" \
		"minimal=$out/minimal" \
		"assess=$w assess --home /home/user" \
		"store-recording=$w assess --home /home/user --store $tmp/rec.db" \
		"store-unrecorded=$tmp/warden-base assess --home /home/user --store $tmp/base.db" \
		"store-$old_ref=$tmp/warden-old assess --home /home/user --store $tmp/old.db" | tee "$tmp/table"
	awk '$1 == "store-recording" { x = $5; rw = $2; rc = $4 } $1 == "store-unrecorded" { uw = $2; uc = $4 }
		END {
			printf "recording adds %.2f ms wall, %.2f ms CPU to one action (median against median)\n", rw - uw, rc - uc
			printf "budget: assess --store with recording ≤ 5× minimal: %s (%.1f×)\n", (x <= 5 ? "ok" : "MISSED"), x
		}' "$tmp/table"
	"$w" audit verify --store "$tmp/rec.db" | tail -n 1
	echo "events recorded in the timed store: $("$w" audit list --store "$tmp/rec.db" | tail -n +2 | wc -l)"
} 2>&1 | tee "$out/audit.txt"
