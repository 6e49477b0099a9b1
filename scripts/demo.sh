#!/usr/bin/env bash
# `make demo`: the main job end to end on the embedded default (SQLite + a local library).
#   1. starts `reel serve --inbox` over a fresh library and catalog in .demo/;
#   2. drops every SampleMedia/ file into the inbox (written under a dotfile name, then renamed, as an uploader would);
#   3. waits until the worker has finished them all;
#   4. prints the web page's URL (the feed in a browser) first, then the JSON feed and a master playlist a player
#      can open, and keeps serving until Ctrl-C.
# DEMO_EXIT=1 stops the server once the URLs are printed (for checks); PORT picks the port (default: a free one).
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
[ -x "$reel" ] || { echo "demo: $reel is not built (run make release)" >&2; exit 1; }

demo=$PWD/.demo
rm -rf "$demo"
mkdir -p "$demo/inbox"
# An upload token for the page's Upload button and for tus clients (the catalog keeps only its hash).
token=$("$reel" token create --database "$demo/catalog.sqlite" --name demo 2>/dev/null)
"$reel" serve --database "$demo/catalog.sqlite" --library "$demo/library" --inbox "$demo/inbox" \
    --host 127.0.0.1 --port "${PORT:-0}" --settle 0.5 >"$demo/serve.out" 2>"$demo/serve.log" &
server=$!
stop() { kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
trap stop EXIT INT TERM
for _ in $(seq 100); do grep -q '^listening on' "$demo/serve.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$demo/serve.out")
[ -n "$base" ] || { echo "demo: reel serve did not start" >&2; cat "$demo/serve.log" >&2; exit 1; }
# /metrics is on the operations listener (loopback, a port of its own), not beside the feed.
admin=$(sed -n 's/^admin on //p' "$demo/serve.out")
echo "== Open $base/ in a browser to watch the feed (it fills in as the worker publishes)."
echo "== reel serve --inbox is up at $base (logs: .demo/serve.log)"

files=(SampleMedia/*.mp4 SampleMedia/*.jpg SampleMedia/*.png SampleMedia/*.heic)
for file in "${files[@]}"; do
    name=$(basename "$file")
    cp "$file" "$demo/inbox/.$name.uploading"
    mv "$demo/inbox/.$name.uploading" "$demo/inbox/$name"
done
# A hostile upload too: an HLS playlist named .mp4 that points at /etc/passwd. It must end in rejected/.
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n' > "$demo/inbox/.hostile.uploading"
mv "$demo/inbox/.hostile.uploading" "$demo/inbox/hostile.mp4"
expected=$(( ${#files[@]} + 1 ))
echo "== dropped $expected uploads into .demo/inbox; waiting for the worker"

finished=0
for _ in $(seq 600); do
    finished=$(curl -sf "$admin/metrics" | awk '/^reel_worker_jobs_total/ {n += $NF} END {print n + 0}')
    [ "$finished" -ge "$expected" ] && break
    sleep 0.5
done
[ "$finished" -ge "$expected" ] || { echo "demo: only $finished of $expected uploads finished" >&2; tail -20 "$demo/serve.log" >&2; exit 1; }

echo
echo "== jobs"
grep '"job finished"' "$demo/serve.log" | python3 -c '
import json, sys
for line in sys.stdin:
    j = json.loads(line)
    state, kind, reason, name, took = j["state"], j["kind"], j.get("reason", ""), j["file"], j["seconds"]
    print(f"  {state:9} {kind:7} {reason:24} {name}  ({took} s)")'
echo
echo "== library: $(ls .demo/library/videos | wc -l) videos, $(ls .demo/library/images | wc -l) images, $(ls .demo/library/originals | wc -l) originals, $(ls .demo/library/rejected | grep -vc reason.json) rejected"
master=$(curl -sf "$base/v1/feed?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["master_url"])')
echo
echo "Web page:        $base/   (debug overlay: $base/?debug=1)"
echo "Upload token:    $token   (the page's Upload button, or any tus client: $base/v1/uploads)"
echo "Feed:            $base/v1/feed"
echo "Master playlist: $base$master"
echo "  (for example: ffplay '$base$master', or gst-launch-1.0 playbin3 uri=$base$master)"
if [ "${DEMO_EXIT:-0}" = 1 ]; then
    exit 0
fi
echo
echo "Serving until Ctrl-C."
wait "$server"
