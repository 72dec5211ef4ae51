#!/usr/bin/env bash
# Compares the throughput of `warden scan` with gitleaks on one core: both
# scan the same deterministic tree of generated source (bench/gensrc, seed 1)
# with GOMAXPROCS=1, pinned to one CPU with taskset when it is available.
# Each tool runs RUNS times (default 3) on a warm page cache; the best time
# counts. MB means 2^20 bytes of file content. The budget is >= 100 MB/s.
#
# gitleaks runs its default rules with --max-decode-depth 1: warden decodes
# base64, hex and percent-encoded blobs once and scans what they hold, and
# depth 1 asks gitleaks for the same (its default, 5, also decodes what the
# decoded text holds; on this tree that costs no more than depth 1, while
# depth 0 is about a fifth faster). gitleaks does not read .gitignore files
# and warden does; the tree's .gitignore ignores nothing that is generated,
# so both scan the same bytes.
#
# Usage: bench/secrets.sh [MB]   — size of the generated tree (default 64)
# The tree is kept in $TMPDIR/warden-bench/tree-<MB>mb-<generator hash> and reused;
# the summary is also written to bench/out/secrets.txt. gitleaks needs about
# a minute per run for 64 MB: RUNS=1 gives a quicker, noisier answer.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
TIMEFORMAT='%3R %3U %3S'

mb=${1:-64}
if [[ ! $mb =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: bench/secrets.sh [MB]" >&2
	exit 2
fi
runs=${RUNS:-3}
out=bench/out
mkdir -p "$out"
for tool in awk go find sha256sum; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/secrets.sh: $tool is required" >&2
		exit 1
	fi
done

# The tree: regenerated only when the size or the generator changes.
gen_id=$(sha256sum bench/gensrc/main.go | cut -c1-12)
# Outside the repository, so that go vet ./... and gofmt never read it.
trees=${TMPDIR:-/tmp}/warden-bench
mkdir -p "$trees"
tree=$trees/tree-${mb}mb-$gen_id
if [[ ! -d $tree ]]; then
	rm -rf "$trees/tree-${mb}mb-"*
	go run ./bench/gensrc -out "$tree.partial" -mb "$mb" -seed 1
	mv "$tree.partial" "$tree"
fi
bytes=$(find "$tree" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s }')
files=$(find "$tree" -type f | awk 'END { print NR }')
# Warm the page cache so neither tool pays for the first read.
find "$tree" -type f -exec cat {} + >/dev/null

# One core: GOMAXPROCS=1 everywhere, plus taskset on the first CPU this
# process may use.
pin=()
pinning="GOMAXPROCS=1 only (taskset not available; not pinned to a CPU)"
if command -v taskset >/dev/null 2>&1; then
	core=$(taskset -pc $$ 2>/dev/null | sed -E 's/.*: *//; s/[-,].*//')
	if [[ $core =~ ^[0-9]+$ ]] && taskset -c "$core" true 2>/dev/null; then
		pin=(taskset -c "$core")
		pinning="GOMAXPROCS=1 taskset -c $core"
	fi
fi

# best NAME MAXRC CMD... runs CMD RUNS times on one core with stdout in
# $out/NAME.out and stderr in $out/NAME.err, and sets secs to the fastest
# wall time and cpu to the least CPU time (user + system) of the runs. An
# exit code above MAXRC is a failure: it is reported and best returns 1.
best() {
	local name=$1 maxrc=$2 i rc real user sys
	shift 2
	secs='' cpu=''
	for ((i = 0; i < runs; i++)); do
		rc=0
		{ time GOMAXPROCS=1 "${pin[@]}" "$@" >"$out/$name.out" 2>"$out/$name.err"; } 2>"$out/$name.time" || rc=$?
		if ((rc > maxrc)); then
			echo "$name: exit code $rc (see $out/$name.err):" >&2
			tail -n 5 "$out/$name.err" >&2
			return 1
		fi
		read -r real user sys <"$out/$name.time"
		secs=$(awk -v a="$real" -v b="${secs:-$real}" 'BEGIN { print (a < b ? a : b) }')
		cpu=$(awk -v a="$user" -v s="$sys" -v b="${cpu:-inf}" 'BEGIN { c = a + s; print (b == "inf" || c < b ? c : b) }')
	done
}

# count FILE JQFILTER GREPKEY prints the number of findings in a JSON report:
# with jq when it is installed, else by counting a key every finding has.
count() {
	if command -v jq >/dev/null 2>&1; then
		jq "$2" "$1"
	else
		grep -o "\"$3\"" "$1" | awk 'END { print NR }'
	fi
}

mbps() { awk -v b="$bytes" -v s="$1" 'BEGIN { printf "%.1f", b / 1048576 / s }'; }

# warden: exit 0 is clean, 1 is findings, anything else an error.
warden=$out/warden
warden_secs=
if ! go build -o "$warden" ./cmd/warden 2>"$out/warden-build.err"; then
	warden_note="warden: build failed (see $out/warden-build.err)"
elif ! "$warden" scan --help >/dev/null 2>&1; then
	warden_note="warden scan: not available"
elif best warden 1 "$warden" scan --format json "$tree"; then
	warden_secs=$secs warden_cpu=$cpu
	warden_found=$(count "$out/warden.out" '.findings | length' file_path)
else
	warden_note="warden scan: failed"
fi

# gitleaks: on PATH, else in GOBIN or GOPATH/bin, else installed there.
unset GITLEAKS_CONFIG GITLEAKS_CONFIG_TOML
gitleaks=$(command -v gitleaks || true)
if [[ -z $gitleaks ]]; then
	gobin=$(go env GOBIN)
	if [[ -z $gobin ]]; then
		gopath=$(go env GOPATH)
		gobin=${gopath%%:*}/bin
	fi
	gitleaks=$gobin/gitleaks
	if [[ ! -x $gitleaks ]]; then
		echo "installing gitleaks into $gobin"
		GOFLAGS=-mod=mod go install github.com/zricethezav/gitleaks/v8@latest
	fi
fi
gitleaks_version=$("$gitleaks" version 2>/dev/null || true)
if [[ ! $gitleaks_version =~ ^v?[0-9] ]]; then
	gitleaks_version=$(go version -m "$gitleaks" 2>/dev/null | awk '$1 == "mod" { print $3 }')
fi
gitleaks_report=$out/gitleaks-report.json
gitleaks_secs=
if best gitleaks 0 "$gitleaks" dir "$tree" --no-banner --no-color --max-decode-depth 1 \
	--report-format json --report-path "$gitleaks_report" --exit-code 0; then
	gitleaks_secs=$secs gitleaks_cpu=$cpu
	gitleaks_found=$(count "$gitleaks_report" length RuleID)
fi

# busy NAME WALL CPU notes a run whose wall time exceeds its CPU time by
# more than a fifth: another process shared the core, and the CPU-time
# throughput is the better estimate of an idle core.
busy() {
	if awk -v w="$2" -v c="$3" 'BEGIN { exit !(w > 1.2 * c) }'; then
		printf 'note: %s shared its core (%.2f s wall, %.2f s CPU): %s MB/s by CPU time\n' "$1" "$2" "$3" "$(mbps "$3")"
	fi
}

{
	printf 'tree: %s MB in %d files (%s)\n' "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')" "$files" "$tree"
	printf 'cores: %s, best of %d runs\n' "$pinning" "$runs"
	if [[ -n $warden_secs ]]; then
		printf 'warden:   %6s MB/s (%.2f s), %d findings\n' "$(mbps "$warden_secs")" "$warden_secs" "$warden_found"
	else
		echo "$warden_note"
	fi
	if [[ -n $gitleaks_secs ]]; then
		printf 'gitleaks: %6s MB/s (%.2f s), %d findings (gitleaks %s, --max-decode-depth 1)\n' \
			"$(mbps "$gitleaks_secs")" "$gitleaks_secs" "$gitleaks_found" "${gitleaks_version:-unknown}"
	else
		echo "gitleaks: failed"
	fi
	if [[ -n $warden_secs && -n $gitleaks_secs ]]; then
		printf 'ratio: warden is %sx gitleaks\n' "$(awk -v w="$warden_secs" -v g="$gitleaks_secs" 'BEGIN { printf "%.1f", g / w }')"
	fi
	if [[ -z $warden_secs ]]; then
		echo "budget: >= 100 MB/s: not measured"
	elif awk -v r="$(mbps "$warden_secs")" 'BEGIN { exit !(r >= 100) }'; then
		echo "budget: >= 100 MB/s: ok"
	else
		echo "budget: >= 100 MB/s: MISSED"
	fi
	if [[ -n $warden_secs ]]; then busy warden "$warden_secs" "$warden_cpu"; fi
	if [[ -n $gitleaks_secs ]]; then busy gitleaks "$gitleaks_secs" "$gitleaks_cpu"; fi
} | tee "$out/secrets.txt"
