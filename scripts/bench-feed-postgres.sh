#!/usr/bin/env bash
# The feed on PostgreSQL against the feed on SQLite (issue 12), in one run, on the same 1,000,000 videos: seeded into
# SQLite, moved with `reel db copy`, each served by `reel serve`; wrk with the shared anchor's settings (2 threads,
# 16 connections), as scripts/bench-feed.sh. Three pages of 20 items:
#   first, kept: the first page, kept while the catalog generation holds (a copy, no query);
#   first, queried: the same items behind a cursor above every item that the server never issued, so never kept;
#   deep, queried: ~900,000 rows in, behind a cursor the server never issued.
# Goals: PostgreSQL ≥ 0.5× SQLite's req/s on the first and deep pages, and its deep page within 10 % of its first
# (keyset paging: depth costs nothing; the like-for-like comparison is queried against queried, and the kept first page
# is printed beside it).
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
anchor=$(realpath ../shared/anchors/feed_load.sh)
rows=${ROWS:-1000000}
work=$(mktemp -d /tmp/reel-bench-feed-pg.XXXXXX)
source scripts/lib/serve.sh
start_postgres
pg_createdb feed

db=$work/feed.sqlite
mkdir -p "$work/library"
"$reel" db seed --database "$db" --count "$rows" >&2
"$reel" db copy --from "$db" --to "$PG_URL_BASE/feed" --batch 2000 >/dev/null 2>"$work/copy.log" || { cat "$work/copy.log" >&2; exit 1; }
tail -1 "$work/copy.log" >&2
pg_as "$pg_bin/psql" -q -h "$PG_SOCKET" -p "$PG_PORT" -U reel -d feed -c "VACUUM ANALYZE" >&2

serve sqlite "$db"
serve postgres "$PG_URL_BASE/feed"

deep_n=$((rows - rows * 9 / 10))  # 900,000 rows in for the default 1,000,000
deep_id=$(printf 'v%09d' "$deep_n")
cursor=$(printf 'v1:%d:%s' "$(( (1700000000 + deep_n) * 1000 ))" "$deep_id" | base64 -w0 | tr '+/' '-_' | tr -d '=')
# Above every item: its page is the first page, read by a query every time.
above=$(printf 'v1:%d:v' "$(( (1700000000 + rows) * 1000 ))" | base64 -w0 | tr '+/' '-_' | tr -d '=')
# Both servers answer the same bytes for the same page, and the queried first page is the kept one.
for path in "/v1/feed?limit=20" "/v1/feed?limit=20&cursor=$above" "/v1/feed?limit=20&cursor=$cursor"; do
    cmp -s <(curl -sf "$base_sqlite$path") <(curl -sf "$base_postgres$path") || { echo "the two engines answer $path differently" >&2; exit 1; }
done
cmp -s <(curl -sf "$base_postgres/v1/feed?limit=20") <(curl -sf "$base_postgres/v1/feed?limit=20&cursor=$above") \
    || { echo "the queried first page differs from the kept one" >&2; exit 1; }
urls=()
for base in "$base_sqlite" "$base_postgres"; do
    urls+=("$base/v1/feed?limit=20" "$base/v1/feed?limit=20&cursor=$above" "$base/v1/feed?limit=20&cursor=$cursor")
done
out=$work/load.txt
CONNS=16 THREADS=2 DURATION=${DURATION:-10s} "$anchor" "${urls[@]}" | tee "$out"
python3 - "$out" "$rows" <<'PY'
import re, sys
rows = [dict(re.findall(r"(\S+?)=(\S+)", line)) for line in open(sys.argv[1]) if line.startswith("conns=")]
lite_kept, lite_first, lite_deep, pg_kept, pg_first, pg_deep = rows
f = lambda r, k: float(r[k])
ratio = lambda p, l: f(p, 'req/s') / f(l, 'req/s')
print()
print(f"| page (20 items, 16 connections, {int(sys.argv[2]):,} videos) | SQLite req/s | SQLite p99 ms | PostgreSQL 15 req/s | PostgreSQL p99 ms | PostgreSQL / SQLite |")
print("|---|---|---|---|---|---|")
for name, l, p in (("first, kept (no query)", lite_kept, pg_kept), ("first, queried (a cursor above every item)", lite_first, pg_first),
                   ("deep, queried (~900k in)", lite_deep, pg_deep)):
    print(f"| {name} | {f(l,'req/s'):.0f} | {f(l,'p99_ms'):.2f} | {f(p,'req/s'):.0f} | {f(p,'p99_ms'):.2f} | {ratio(p, l):.2f}× |")
print()
print(f"Goals: PostgreSQL ≥ 0.5× SQLite: first kept {ratio(pg_kept, lite_kept):.2f}×, first queried {ratio(pg_first, lite_first):.2f}×, "
      f"deep {ratio(pg_deep, lite_deep):.2f}×; PostgreSQL deep / first, both queried: {ratio(pg_deep, pg_first):.2f} (within 10 %: 0.90–1.10), "
      f"deep / kept first: {ratio(pg_deep, pg_kept):.2f}; "
      f"non-2xx: {sum(int(r['non2xx']) for r in rows)}, socket errors: {sum(int(r['sock_err']) for r in rows)}")
sys.path.insert(0, "scripts/lib")
from bench_result import result
for name, l, p in (("first page, kept", lite_kept, pg_kept), ("first page, queried", lite_first, pg_first),
                   ("deep page (~900k in), queried", lite_deep, pg_deep)):
    result(f"{name}: req/s on PostgreSQL 15", f(p, 'req/s'), "Reel on SQLite, the same rows", f(l, 'req/s'), "req/s")
PY
