#!/usr/bin/env bash
# `make bench [BENCH=name...]`: the benchmarks through one harness (scripts/lib/bench_harness.py), which writes their
# figures to docs/benchmarks.md. Usage: scripts/bench.sh [path/to/reel] [name...]
set -euo pipefail
cd "$(dirname "$0")/.."
reel=${1:-.build/release/reel}
shift || true
exec python3 scripts/lib/bench_harness.py "$reel" "$@"
