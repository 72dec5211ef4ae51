#!/usr/bin/env bash
# Measures how Engine.Check's cost grows with the size of a script
# (BenchmarkLinear: bash of many lines, bash on one line, Python, SQL, of
# 10 KB, 100 KB and 1 MB) and prints, per kind and work budget, the ratio
# of the 1 MB cost to the 100 KB one in CPU time, wall time, work units
# and bytes allocated, and whether each size finished its analysis or
# stopped on the work budget (engine.work_budget). DESIGN.md §8: a 1 MB
# script costs ≤ 12× a 100 KB one. "budget" is the engine's default work
# budget, "full" one large enough for the analysis to complete.
# Usage: bench/linear.sh [-base REF] [-count N] [bench-regexp]
#   -base REF  also runs the same benchmark on git revision REF (or on the
#              module in directory REF), which must hold BenchmarkLinear,
#              interleaved, and prints both
#   -count N   repetitions (default 3); the medians are compared
set -euo pipefail
cd "$(dirname "$0")/.."
base="" count=3
while [ $# -gt 0 ]; do
	case $1 in
	-base) base=$2; shift 2 ;;
	-count) count=$2; shift 2 ;;
	*) break ;;
	esac
done
filter=${1:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/new.test" .
bins=(new)
if [ -n "$base" ]; then
	if [ -d "$base" ]; then
		(cd "$base" && go test -c -o "$tmp/base.test" .)
	else
		mkdir "$tmp/base"
		git archive "$base" | tar -x -C "$tmp/base"
		(cd "$tmp/base" && go test -c -o "$tmp/base.test" .)
	fi
	bins=(base new)
fi
for ((i = 0; i < count; i++)); do
	for b in "${bins[@]}"; do
		# the 1 MB sizes once per round; the smaller ones repeat
		"$tmp/$b.test" -test.run '^$' -test.bench "BenchmarkLinear/$filter/(10KB|100KB)/" -test.benchtime 5x | sed -n "s/^Benchmark/$b Benchmark/p" >>"$tmp/out"
		"$tmp/$b.test" -test.run '^$' -test.bench "BenchmarkLinear/$filter/1MB/" -test.benchtime 2x | sed -n "s/^Benchmark/$b Benchmark/p" >>"$tmp/out"
	done
done
python3 - "$tmp/out" "${bins[@]}" <<'PY'
import re, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    m = re.match(r"BenchmarkLinear/([^/]+)/([^/]+)/([^-]+)", f[1])
    if not m:
        continue
    key = (f[0], m.group(1), m.group(3), m.group(2))
    vals = {f[i + 1]: float(f[i]) for i in range(3, len(f) - 1) if re.match(r"^[0-9.]+$", f[i])}
    rows.setdefault(key, []).append(vals)
def med(key, unit):
    return statistics.median(r[unit] for r in rows[key]) if key in rows else float("nan")
kinds = sorted({(k[1], k[2]) for k in rows}, key=lambda k: (k[1], k[0]))
print("1 MB / 100 KB ratios (medians); 10K/100K/1M: analysis done (ok) or stopped on the work budget (stop)")
print(f"{'rev':5} {'input':13} {'budget':7} {'cpu':>6} {'wall':>6} {'work':>6} {'B/op':>6}  {'cpu 100KB':>10} {'cpu 1MB':>10}  10K/100K/1M")
worst = 0
for kind, budget in kinds:
    for rev in sys.argv[2:]:
        a, b = (rev, kind, budget, "100KB"), (rev, kind, budget, "1MB")
        if a not in rows or b not in rows:
            continue
        r = {u: med(b, u) / med(a, u) if med(a, u) else float("nan") for u in ("cpu-ns/op", "ns/op", "work/op", "B/op")}
        stops = "/".join("stop" if med((rev, kind, budget, s), "stopped") else "ok" for s in ("10KB", "100KB", "1MB"))
        print(f"{rev:5} {kind:13} {budget:7} {r['cpu-ns/op']:6.1f} {r['ns/op']:6.1f} {r['work/op']:6.1f} {r['B/op']:6.1f}  {med(a, 'cpu-ns/op')/1e6:8.1f}ms {med(b, 'cpu-ns/op')/1e6:8.1f}ms  {stops}")
        if rev == "new":
            worst = max(worst, r["cpu-ns/op"])
print(f"worst CPU ratio: {worst:.1f} (budget ≤ 12)")
PY
