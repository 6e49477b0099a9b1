#!/usr/bin/env bash
# The job queue's claims under contention (issue 12): 8 concurrent claimers draining 10,000 queued jobs, in claims per
# second and p99 claim latency, with zero double claims. Reel on PostgreSQL (SELECT ... FOR UPDATE SKIP LOCKED behind
# the JobQueue role, through postgres-nio), beside pgbench running the same claim statement with 8 clients on an
# identical queue (the server's own ceiling for that statement), and Reel on SQLite (one writer) in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
# The claim driver lives in reel-bench (built beside reel by `make bench`), so the reel binary carries no benchmark.
bench="$(dirname "$reel")/reel-bench"
[ -x "$bench" ] || { echo "bench-claims: $bench is not built (make bench builds it)" >&2; exit 1; }
jobs=${JOBS:-10000}
claimers=${CLAIMERS:-8}
work=$(mktemp -d /tmp/reel-bench-claims.XXXXXX)
source scripts/lib/postgres.sh
cleanup() { pg_stop "$work/pg"; rm -rf "$work"; }
trap cleanup EXIT
pg_start "$work/pg"
pg_createdb reel
pg_createdb pgbench

"$bench" claims --database "$PG_URL_BASE/reel" --jobs "$jobs" --claimers "$claimers" >"$work/pg.json"
"$bench" claims --database "$work/catalog.sqlite" --jobs "$jobs" --claimers "$claimers" >"$work/sqlite.json"

# pgbench: Reel's schema (migrated by `reel db seed --count 1`), the same number of queued jobs, and Reel's claim
# statement; each of the 8 clients runs jobs/8 claims.
"$reel" db seed --database "$PG_URL_BASE/pgbench" --count 1 >/dev/null
pg_as "$pg_bin/psql" -q -h "$PG_SOCKET" -p "$PG_PORT" -U reel -d pgbench -c \
    "INSERT INTO jobs (id, kind, source_name, state, created_at, updated_at) SELECT lpad(n::text, 12, '0'), 'unknown', '\\x00', 'queued', n, n FROM generate_series(1, $jobs) n"
cat >"$work/claim.sql" <<'SQL'
UPDATE jobs SET state = 'processing', owner = 'pgbench', epoch = epoch + 1, lease_expires_at = 60000, attempts = attempts + 1,
       progress = 0, started_at = 1, updated_at = 1
WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND owner IS NULL AND not_before <= 1
            ORDER BY not_before, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING *;
SQL
pg_as "$pg_bin/pgbench" -n -h "$PG_SOCKET" -p "$PG_PORT" -U reel -c "$claimers" -j 2 -t $((jobs / claimers)) -r -f "$work/claim.sql" pgbench \
    >"$work/pgbench.txt" 2>&1 || { cat "$work/pgbench.txt" >&2; exit 1; }
claimed=$(pg_as "$pg_bin/psql" -tA -h "$PG_SOCKET" -p "$PG_PORT" -U reel -d pgbench -c "SELECT count(*) FILTER (WHERE epoch = 1) || ' ' || count(*) FILTER (WHERE epoch > 1) FROM jobs")

python3 - "$work/pg.json" "$work/sqlite.json" "$work/pgbench.txt" "$claimed" "$jobs" "$claimers" <<'PY'
import json, re, sys
pg, lite = (json.load(open(p)) for p in sys.argv[1:3])
bench = open(sys.argv[3]).read()
tps = float(re.search(r"tps = ([\d.]+)", bench).group(1))
latency = float(re.search(r"latency average = ([\d.]+) ms", bench).group(1))
once, twice = map(int, sys.argv[4].split())
print(f"| {sys.argv[6]} claimers, {sys.argv[5]} jobs | claims/s | p50 ms | p99 ms | double claims | claimed |")
print("|---|---|---|---|---|---|")
for name, r in (("Reel on PostgreSQL 15", pg), ("Reel on SQLite", lite)):
    print(f"| {name} | {r['claims_per_s']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['double_claims']} | {r['claims']} |")
print(f"| pgbench, the same statement | {tps:.0f} | (mean {latency:.2f}) | - | {twice} | {once + twice} |")
print()
print(f"Goal: ≥ 2,000 claims/s on PostgreSQL with zero double claims: {pg['claims_per_s']:.0f} claims/s, {pg['double_claims']} double claims; "
      f"Reel / pgbench: {pg['claims_per_s'] / tps:.2f}×")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result(f"job claims/s on PostgreSQL 15, {sys.argv[6]} claimers", pg['claims_per_s'], "pgbench, the same statement", tps, "claims/s")
result("double claims on PostgreSQL 15", pg['double_claims'], "pgbench, the same statement", twice, "claims", "lower")
PY
