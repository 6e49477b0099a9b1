#!/usr/bin/env bash
# The feed before and after a change, in one run: two `reel` binaries (BEFORE and AFTER) each seed their own
# catalog of ROWS videos and serve it; wrk (../shared/anchors/feed_load.sh, 2 threads, 16 connections) loads the
# first page and a deep page (90 % of the way down, a cursor the server never issued) on each, interleaved, and nginx
# (one worker) serves AFTER's first-page bytes as the ceiling. Prints each pair's ratio.
# ENGINE=postgres puts each catalog in a throwaway PostgreSQL 15 cluster instead (scripts/lib/postgres.sh).
#   scripts/compare-feed.sh /tmp/reel-before .build/release/reel
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(realpath "$1")
after=$(realpath "$2")
anchor=$(realpath ../shared/anchors/feed_load.sh)
rows=${ROWS:-1000000}
work=$(mktemp -d /tmp/reel-bench-compare.XXXXXX)
engine=${ENGINE:-sqlite}
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    if [ "$engine" = postgres ]; then pg_stop "$work/pg"; fi
    rm -rf "$work"
}
trap cleanup EXIT
if [ "$engine" = postgres ]; then
    source scripts/lib/postgres.sh
    pg_start "$work/pg"
    pg_createdb before
    pg_createdb after
fi

start() { # name binary -> sets base_<name>
    local name=$1 bin=$2
    mkdir -p "$work/$name/library"
    local catalog=$work/$name/feed.sqlite
    if [ "$engine" = postgres ]; then catalog=$PG_URL_BASE/$name; fi
    "$bin" db seed --database "$catalog" --count "$rows"
    "$bin" serve --database "$catalog" --library "$work/$name/library" --port 0 --log-level warning \
        >"$work/$name/out" 2>"$work/$name/err" &
    pids+=($!)
    for _ in $(seq 100); do grep -q '^listening on' "$work/$name/out" 2>/dev/null && break; sleep 0.1; done
    local base
    base=$(sed -n 's/^listening on //p' "$work/$name/out")
    [ -n "$base" ] || { echo "$name: reel serve did not start" >&2; cat "$work/$name/err" >&2; exit 1; }
    eval "base_$name=\$base"
}
start before "$before"
start after "$after"

mkdir -p "$work/nginx/static"
curl -sf "$base_after/v1/feed?limit=20" -o "$work/nginx/static/first.json"
curl -sf "$base_before/v1/feed?limit=20" -o "$work/before-first.json"
cmp -s "$work/before-first.json" "$work/nginx/static/first.json" && same=yes || same=no
chmod -R a+rX "$work"
source scripts/lib/nginx.sh
nginx_start "sendfile on;" "location = /first.json { root $work/nginx/static; default_type application/json; }"
nport=$nginx_port

deep_n=$((rows / 10))  # 90 % of the way down the newest-first feed
cursor=$(printf 'v1:%d:%s' "$(( (1700000000 + deep_n) * 1000 ))" "$(printf 'v%09d' "$deep_n")" | base64 -w0 | tr '+/' '-_' | tr -d '=')
curl -sf "$base_before/v1/feed?limit=20&cursor=$cursor" -o "$work/before-deep.json"
curl -sf "$base_after/v1/feed?limit=20&cursor=$cursor" -o "$work/after-deep.json"
cmp -s "$work/before-deep.json" "$work/after-deep.json" && same_deep=yes || same_deep=no
urls=("$base_before/v1/feed?limit=20" "$base_after/v1/feed?limit=20" "$base_before/v1/feed?limit=20&cursor=$cursor"
      "$base_after/v1/feed?limit=20&cursor=$cursor" "http://127.0.0.1:$nport/first.json"
      "$base_before/v1/feed?limit=20" "$base_after/v1/feed?limit=20" "$base_before/v1/feed?limit=20&cursor=$cursor"
      "$base_after/v1/feed?limit=20&cursor=$cursor")
out=$work/load.txt
CONNS=16 THREADS=2 DURATION=${DURATION:-10s} "$anchor" "${urls[@]}" | tee "$out"
python3 - "$out" "$same" "$same_deep" <<'PY'
import re, sys
rows = [dict(re.findall(r"(\S+?)=(\S+)", line)) for line in open(sys.argv[1]) if line.startswith("conns=")]
b1, a1, bd1, ad1, nginx, b2, a2, bd2, ad2 = rows
r = lambda x: float(x["req/s"])
p = lambda x: float(x["p99_ms"])
print()
print("| page (20 items, 16 connections), round 1 / round 2 | before req/s | after req/s | after / before | before p99 ms | after p99 ms |")
print("|---|---|---|---|---|---|")
for name, (b, a, bb, aa) in (("first (kept page)", (b1, a1, b2, a2)), ("deep (90 % down, never issued)", (bd1, ad1, bd2, ad2))):
    print(f"| {name} | {r(b):.0f} / {r(bb):.0f} | {r(a):.0f} / {r(aa):.0f} | **{r(a)/r(b):.2f}× / {r(aa)/r(bb):.2f}×** | "
          f"{p(b):.2f} / {p(bb):.2f} | {p(a):.2f} / {p(aa):.2f} |")
print()
print(f"nginx, the after first page as a static file: {r(nginx):.0f} req/s; first page / nginx: before "
      f"{r(b1)/r(nginx):.2f}× / {r(b2)/r(nginx):.2f}×, after {r(a1)/r(nginx):.2f}× / {r(a2)/r(nginx):.2f}×")
print(f"Same bytes before and after: first page {sys.argv[2]}, deep page {sys.argv[3]}; "
      f"non-2xx: {sum(int(x['non2xx']) for x in rows)}, socket errors: {sum(int(x['sock_err']) for x in rows)}")
PY
