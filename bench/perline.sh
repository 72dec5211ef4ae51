#!/usr/bin/env bash
# CPU per line of `warden assess` over many distinct actions, side by side with
# the seed-004 peer assessor (DESIGN.md §8: ≤ 0.8× the peer's), start-up and per
# line reported apart. Usage: bench/perline.sh [lines] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
go build -o bench/out/warden ./cmd/warden
python3 bench/perline.py bench/out/warden "${1:-20000}" "${2:-5}"
