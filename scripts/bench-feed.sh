#!/usr/bin/env bash
# The feed under load: Reel's `reel serve` against Datasette serving the same SQLite file read-only, in one run,
# with the shared anchor's wrk settings (../shared/anchors/feed_load.sh: 2 threads, 16 connections).
# 1,000,000 seeded videos; the first page and a deep page ~900,000 rows in, 20 items each.
# Datasette gets its cheapest keyset path (its own `_next` on the primary key, no filter, no count); Reel's pages
# are the real feed (published only, newest first, with every item's renditions).
# nginx (one worker) serves Reel's own first-page bytes as a static file: the ceiling for a page that is cached.
# Reel's /healthz (a catalog ping per request, JSONEncoder, a 15-byte body) is there as an uncached baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
anchor=$(realpath ../shared/anchors/feed_load.sh)
rows=${ROWS:-1000000}
work=$(mktemp -d /tmp/reel-bench-feed.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

db=$work/feed.sqlite
mkdir -p "$work/library"
"$reel" db seed --database "$db" --count "$rows"
# Checkpoint so Datasette's immutable (read-only) open sees every row without the WAL.
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()" "$db"

"$reel" serve --database "$db" --library "$work/library" --port 0 --log-level warning >"$work/reel.out" 2>"$work/reel.err" &
pids+=($!)
for _ in $(seq 100); do grep -q '^listening on' "$work/reel.out" 2>/dev/null && break; sleep 0.1; done
reel_base=$(sed -n 's/^listening on //p' "$work/reel.out")
[ -n "$reel_base" ] || { echo "reel serve did not start" >&2; cat "$work/reel.err" >&2; exit 1; }

dport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
datasette serve --immutable "$db" --host 127.0.0.1 --port "$dport" >"$work/datasette.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$dport/-/versions.json" >/dev/null 2>&1 && break; sleep 0.2; done
ds_version=$(curl -sf "http://127.0.0.1:$dport/-/versions.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["datasette"]["version"])')

# The same first-page bytes as a static file behind nginx, one worker, no access log.
mkdir -p "$work/nginx/static"
curl -sf "$reel_base/v1/feed?limit=20" -o "$work/nginx/static/first.json"
chmod -R a+rX "$work"
source scripts/lib/nginx.sh
nginx_start "sendfile on; tcp_nopush on;" \
    "location = /first.json { root $work/nginx/static; default_type application/json; }"
nport=$nginx_port
nginx_version=$(nginx -v 2>&1 | sed 's|.*nginx/||')

# The deep page: the cursor of the item 900,000 rows into the newest-first feed, and the same depth for Datasette.
deep_n=$((rows - 900000))
deep_id=$(printf 'v%09d' "$deep_n")
cursor=$(printf 'v1:%d:%s' "$(( (1700000000 + deep_n) * 1000 ))" "$deep_id" | base64 -w0 | tr '+/' '-_' | tr -d '=')
ds="http://127.0.0.1:$dport/feed/videos.json?_size=20&_nocount=1&_nofacet=1&_nosuggest=1"
# The deep cursor is made here, not issued by the server, so Reel does not cache its page: it measures the query.
urls=("$reel_base/v1/feed?limit=20" "$reel_base/v1/feed?limit=20&cursor=$cursor" "$ds" "$ds&_next=$(printf 'v%09d' 900000)"
      "http://127.0.0.1:$nport/first.json" "$reel_base/healthz")

out=$work/load.txt
CONNS=16 THREADS=2 DURATION=${DURATION:-10s} "$anchor" "${urls[@]}" | tee "$out"
python3 - "$out" "$ds_version" "$nginx_version" <<'PY'
import re, sys
rows = [dict(re.findall(r"(\S+?)=(\S+)", line)) for line in open(sys.argv[1]) if line.startswith("conns=")]
reel_first, reel_deep, ds_first, ds_deep, nginx_first, reel_health = rows
f = lambda r, k: float(r[k])
print()
print(f"| page (20 items, 16 connections) | Reel req/s | Reel p99 ms | Datasette {sys.argv[2]} req/s | Datasette p99 ms | Reel / Datasette req/s |")
print("|---|---|---|---|---|---|")
for name, r, d in (("first (cached)", reel_first, ds_first), ("deep (~900k in, uncached)", reel_deep, ds_deep)):
    print(f"| {name} | {f(r,'req/s'):.0f} | {f(r,'p99_ms'):.2f} | {f(d,'req/s'):.0f} | {f(d,'p99_ms'):.2f} | {f(r,'req/s')/f(d,'req/s'):.1f}× |")
print()
print(f"| the same first page (16 connections) | req/s | p99 ms | Reel / this req/s |")
print("|---|---|---|---|")
print(f"| Reel `/v1/feed?limit=20` | {f(reel_first,'req/s'):.0f} | {f(reel_first,'p99_ms'):.2f} | 1.00× |")
print(f"| nginx {sys.argv[3]}, one worker, static file | {f(nginx_first,'req/s'):.0f} | {f(nginx_first,'p99_ms'):.2f} | "
      f"{f(reel_first,'req/s')/f(nginx_first,'req/s'):.2f}× |")
print(f"| Reel `/healthz` (a catalog ping, JSONEncoder, no cache) | {f(reel_health,'req/s'):.0f} | {f(reel_health,'p99_ms'):.2f} | "
      f"{f(reel_first,'req/s')/f(reel_health,'req/s'):.2f}× |")
print()
print(f"Goals (issue 63): first page ≥ 0.8× nginx: {f(reel_first,'req/s')/f(nginx_first,'req/s'):.2f}×; first page p99 ≤ 1 ms: "
      f"{f(reel_first,'p99_ms'):.2f} ms; deep page ≥ 0.4× nginx: {f(reel_deep,'req/s')/f(nginx_first,'req/s'):.2f}×")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result("first page req/s, 20 items, 16 connections", f(reel_first,'req/s'), f"nginx {sys.argv[3]} (static file, one worker)", f(nginx_first,'req/s'), "req/s")
result("first page p99 latency", f(reel_first,'p99_ms'), f"nginx {sys.argv[3]}", f(nginx_first,'p99_ms'), "ms", "lower")
result("deep page req/s (~900,000 rows in, uncached)", f(reel_deep,'req/s'), f"nginx {sys.argv[3]} (the first page's bytes)", f(nginx_first,'req/s'), "req/s")
result("first page req/s", f(reel_first,'req/s'), f"Datasette {sys.argv[2]}", f(ds_first,'req/s'), "req/s")
result("deep page req/s", f(reel_deep,'req/s'), f"Datasette {sys.argv[2]} (keyset _next)", f(ds_deep,'req/s'), "req/s")
print(f"Reel deep page / first page req/s: {f(reel_deep,'req/s')/f(reel_first,'req/s'):.3f}; "
      f"non-2xx: {sum(int(r['non2xx']) for r in rows)}, socket errors: {sum(int(r['sock_err']) for r in rows)}")
PY
