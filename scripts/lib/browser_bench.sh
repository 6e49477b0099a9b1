# Set-up shared by the benchmarks that drive the web client in Chromium through a shaped namespace. Source it after
# setting $reel and $bench (the script's name), then:
#   browser_bench_start PREFIX   exits 0 saying why when root or Chromium is missing; fetches hls.js; makes $work; names
#                                the namespace and veth pair ($ns, $host, $peer) from PREFIX and this pid; sets an EXIT
#                                trap that stops the servers, removes the namespace and $work
#   publish_inbox COUNT          runs `reel worker --once` on $work/inbox into $work/library ($catalog), and exits
#                                unless it published COUNT videos
#   serve_hlsjs                  serves .build/vendor (hls.js) from the root side, as from a CDN; sets $files
source scripts/lib/netns.sh
source scripts/lib/serve.sh

browser_bench_start() {
    [ -x "$reel" ] || { echo "$bench: no reel binary at $reel" >&2; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "$bench: skipped, it needs root for ip netns and tc"; exit 0; }
    command -v chromium >/dev/null || { echo "$bench: skipped, it needs chromium (apt-get install chromium)"; exit 0; }
    python3 scripts/fetch-hlsjs.py >&2
    work=$(mktemp -d "/tmp/reel-$bench.XXXXXX")
    ns=reel$1$$
    host=v$1$$h
    peer=v$1$$n
    trap 'stop_servers; netns_down "$ns" "$host"; rm -rf "$work"' EXIT
    mkdir -p "$work/inbox" "$work/library"
}

publish_inbox() {
    catalog=$work/library/catalog.sqlite
    "$reel" worker --inbox "$work/inbox" --library "$work/library" --database "$catalog" --once --settle 0 \
        --log-level error >&2
    local count
    count=$(ls "$work/library/videos" | wc -l)
    [ "$count" = "$1" ] || { echo "$bench: the worker published $count videos, not $1" >&2; exit 1; }
}

serve_hlsjs() {
    python3 Tests/Browser/cors_file_server.py .build/vendor 203.0.113.1 > "$work/files.out" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do grep -q '^listening on' "$work/files.out" && break; sleep 0.1; done
    files=$(sed -n 's/^listening on //p' "$work/files.out")
    [ -n "$files" ] || { echo "$bench: the hls.js file server did not start" >&2; cat "$work/files.out" >&2; exit 1; }
}
