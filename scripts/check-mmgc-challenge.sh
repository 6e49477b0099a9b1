#!/usr/bin/env bash
# Reel's challenge protocol against the MM'22 challenge's own simulator: both baselines on the four trace sets,
# users 0..<USERS of test_user_samples (seed 42, the challenge's RANDOM_SEED), printed side by side with the
# largest relative difference. The challenge's code is only run from a checkout given here, never kept in Reel.
#
# usage: scripts/check-mmgc-challenge.sh CHALLENGE_CHECKOUT [USERS] [REEL]
#   CHALLENGE_CHECKOUT  a clone of github.com/AItransCompetition/Short-Video-Streaming-Challenge
#   USERS               default 50, as the challenge scores a submission
#   REEL                default .build/release/reel
# Needs python3 with NumPy and the traces in ../shared/data/prefetch (the same data as the checkout's data/).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$(realpath "${1:?usage: scripts/check-mmgc-challenge.sh CHALLENGE_CHECKOUT [USERS] [REEL]}")
users=${2:-50}
reel=$(realpath "${3:-.build/release/reel}")
data=$(realpath ../shared/data/prefetch/mmgc2022)
[ -x "$reel" ] || { echo "check-mmgc-challenge: no reel at $reel (make release, or give its path)" >&2; exit 1; }
[ -d "$data/user_ret" ] || { echo "check-mmgc-challenge: $data is missing" >&2; exit 1; }
python3 -c 'import numpy' 2>/dev/null || { echo "check-mmgc-challenge: python3 has no NumPy" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for policy in no_save fixed_preload; do
    for set in high medium low mixed; do
        python3 scripts/mmgc-challenge-reference.py "$checkout" "$policy" "$set" "$users" > "$work/$policy-$set.challenge" &
        "$reel" simulate --mode mmgc --policy "$policy" --users "challenge:$users" --seed 42 --json \
            --network "$data/network_traces/$set" --catalog "$data/short_video_size" --retention "$data/user_ret" \
            > "$work/$policy-$set.reel"
        wait
    done
done
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
keys = [("score", "score"), ("bytes_downloaded", "bytes"), ("qoe", "QoE"), ("wasted_bytes", "wasted"),
        ("download_watch_ratio", "ratio")]
print("| policy | set | " + " | ".join(f"{label} challenge | {label} reel" for _, label in keys) + " |")
print("|---|---|" + "---|---|" * len(keys))
worst = 0.0
for policy in ("no_save", "fixed_preload"):
    for trace_set in ("high", "medium", "low", "mixed"):
        theirs = json.load(open(os.path.join(work, f"{policy}-{trace_set}.challenge")))
        ours = json.load(open(os.path.join(work, f"{policy}-{trace_set}.reel")))
        cells = []
        for key, _ in keys:
            a, b = theirs[key], ours[key]
            worst = max(worst, abs(a - b) / max(1.0, abs(a)))
            cells += [f"{a:.4f}", f"{b:.4f}"]
        print(f"| {policy} | {trace_set} | " + " | ".join(cells) + " |")
print(f"\nlargest difference: {worst:.3g} (relative, or absolute below 1)")
sys.exit(0 if worst <= 1e-9 else 1)
PY
