#!/usr/bin/env bash
# `make bench`: every scripts/bench-*.sh in turn, each running Reel and its reference tool in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=${1:-.build/release/reel}
echo "# Reel benchmarks, $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for bench in scripts/bench-*.sh; do
    echo
    echo "## $bench"
    "$bench" "$reel"
done
