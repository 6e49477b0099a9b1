#!/usr/bin/env bash
# Upload throughput on loopback: one 50 MB upload to `reel serve` over tus in 5 MB chunks (a creation-with-upload
# POST, then nine PATCHes; each chunk fsynced and committed before it is acknowledged), against curl PUTting the
# same file to nginx's WebDAV module, in one run.
# Both sides are driven by curl, streaming the file with -T (--data-binary would read each chunk into memory first)
# and without `Expect: 100-continue` (tus clients do not send it; each would cost a round trip before the body),
# one process and one connection each (reel's PATCHes go with --next), fifteen times each; the table shows the median
# MB/s and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
runs=${RUNS:-15}
size=50000000
chunk=5000000
work=$(mktemp -d /tmp/reel-bench-upload.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# 50 MB that admission accepts as far as sniffing goes: an MP4 header, then random bytes. Nothing here decodes
# it; the job the worker would run is not part of the measurement (no --inbox).
head -c "$size" /dev/urandom > "$work/upload.mp4"
printf '\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2' | dd of="$work/upload.mp4" conv=notrunc status=none
split -b "$chunk" -d -a 2 "$work/upload.mp4" "$work/chunk."

db=$work/catalog.sqlite
token=$("$reel" token create --database "$db" --name bench 2>/dev/null)
"$reel" serve --database "$db" --library "$work/library" --port 0 --log-level warning >"$work/reel.out" 2>"$work/reel.err" &
pids+=($!)
for _ in $(seq 100); do grep -q '^listening on' "$work/reel.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$work/reel.out")
[ -n "$base" ] || { echo "reel serve did not start" >&2; cat "$work/reel.err" >&2; exit 1; }

mkdir -p "$work/nginx/dav" "$work/nginx/tmp"
chmod a+rx "$work"; chmod -R a+rwX "$work/nginx"  # nginx workers run as nobody
source scripts/lib/nginx.sh
source scripts/lib/bench.sh
nginx_start "client_max_body_size 100m;" \
    "location /dav/ { root $work/nginx; dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw; }"
nport=$nginx_port

now() { date +%s.%N; }
# The PATCHes' arguments are built before the clock starts: only the two curls (creation with the first chunk, then
# the other PATCHes on one connection) are timed, against nginx's one curl.
offsets=()
offset=0
for part in "$work"/chunk.*; do offsets+=("$offset"); offset=$((offset + $(stat -c %s "$part"))); done
metadata="filename $(printf bench.mp4 | base64)"
reel_once() {
    local location start end patches=() index=0
    start=$(now)
    # creation-with-upload: the POST carries the first chunk, the PATCHes the other nine.
    location=$(curl -sf -D - -o /dev/null -H "Expect:" -X POST -T "$work/chunk.00" "$base/v1/uploads" -H "Authorization: Bearer $token" \
        -H "Tus-Resumable: 1.0.0" -H "Upload-Length: $size" -H "Upload-Metadata: $metadata" \
        -H "Content-Type: application/offset+octet-stream" | tr -d '\r' | sed -n 's/^Location: //p')
    for part in "$work"/chunk.*; do
        if [ "$index" -eq 0 ]; then index=1; continue; fi
        [ ${#patches[@]} -eq 0 ] || patches+=(--next)
        patches+=(-sf -o /dev/null -H "Expect:" -X PATCH -H "Authorization: Bearer $token" -H "Tus-Resumable: 1.0.0"
                  -H "Upload-Offset: ${offsets[$index]}" -H "Content-Type: application/offset+octet-stream" -T "$part" "$base$location")
        index=$((index + 1))
    done
    curl "${patches[@]}"
    end=$(now)
    [ "$(curl -sf -I -H "Authorization: Bearer $token" -H "Tus-Resumable: 1.0.0" "$base$location" | tr -d '\r' | sed -n 's/^Upload-Offset: //p')" = "$size" ] \
        || { echo "reel's upload did not complete" >&2; exit 1; }
    python3 -c "print($size / ($end - $start) / 1e6)"
}
nginx_once() {
    local start end
    start=$(now)
    curl -sf -o /dev/null -H "Expect:" -T "$work/upload.mp4" "http://127.0.0.1:$nport/dav/upload-$1.mp4"
    end=$(now)
    python3 -c "print($size / ($end - $start) / 1e6)"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

reel_rates=() nginx_rates=()
for run in $(seq "$runs"); do
    rate=$(reel_once) || exit 1
    reel_rates+=("$rate")
    rate=$(nginx_once "$run") || exit 1
    nginx_rates+=("$rate")
    rm -rf "$work/library/.incoming"/* "$work/nginx/dav"/*
done
reel=$(printf '%s\n' "${reel_rates[@]}" | median)
ngx=$(printf '%s\n' "${nginx_rates[@]}" | median)
echo "| server | MB/s (median of $runs) | ratio |"
echo "|---|---|---|"
printf '| reel serve, tus, 5 MB PATCHes, fsync + catalog commit each | %.0f | %.2f× |\n' "$reel" "$(python3 -c "print($reel / $ngx)")"
printf '| nginx WebDAV, one curl PUT (no fsync) | %.0f | 1.00× |\n' "$ngx"
bench_result "50 MB upload, tus in 5 MB PATCHes (fsync + catalog commit each), median of $runs" "$reel" \
    "nginx WebDAV, one curl PUT (no fsync)" "$ngx" MB/s
