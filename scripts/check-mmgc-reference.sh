#!/usr/bin/env bash
# The reference table's samples50 rows (../shared/data/prefetch/reference_results.tsv) against
# `reel simulate --mode mmgc --users challenge-after-sample0:50 --seed 42`: the challenge's 50 users drawn after its
# default user's run, as the table was made. Prints both for every (policy, set) row and the largest differences.
# Usage: scripts/check-mmgc-reference.sh [path/to/reel]
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
data=$(realpath ../shared/data/prefetch)
[ -f "$data/reference_results.tsv" ] || { echo "check-mmgc-reference: $data is missing" >&2; exit 1; }
[ -x "$reel" ] || { echo "check-mmgc-reference: no reel binary at $reel" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
grep -P '\tsamples50\t' "$data/reference_results.tsv" | while IFS=$'\t' read -r policy set _ score _ bytes wasted rebuffer watch _; do
    "$reel" simulate --mode mmgc --network "$data/mmgc2022/network_traces/$set" --catalog "$data/mmgc2022/short_video_size" \
        --retention "$data/mmgc2022/user_ret" --policy "$policy" --users challenge-after-sample0:50 --seed 42 --json |
        python3 -c "
import json, sys
d = json.load(sys.stdin)
ref = dict(score=$score, bytes_downloaded=$bytes, wasted_bytes=$wasted, rebuffer_ms=$rebuffer, watch_ms=$watch)
print('\t'.join(['$policy', '$set'] + [f'{d[k]:.4f}\t{v}' for k, v in ref.items()]))" >> "$out"
done
python3 - "$out" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
names = ["score", "bytes", "wasted", "rebuffer ms", "watch ms"]
print("| policy | set | " + " | ".join(f"{n} (Reel / table)" for n in names) + " |")
print("|---|---|" + "---|" * len(names))
worst = [0.0] * len(names)
for r in rows:
    cells = []
    for i in range(len(names)):
        reel, ref = float(r[2 + 2 * i]), float(r[3 + 2 * i])
        worst[i] = max(worst[i], abs(reel - ref))
        cells.append(f"{r[2 + 2 * i]} / {r[3 + 2 * i]}")
    print(f"| {r[0]} | {r[1]} | " + " | ".join(cells) + " |")
print(f"{len(rows)} rows; largest differences: " + ", ".join(f"{n} {w:.4g}" for n, w in zip(names, worst)))
PY
