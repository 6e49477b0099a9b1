#!/usr/bin/env bash
# Viewer events (issue 33), on SQLite and on PostgreSQL 15 (a throwaway cluster, fsync off as every bench's):
#  1. Ingest: wrk POSTs batches of 50 events to /v1/events from 64 connections for 10 s; every 204 is a committed
#     batch. Events/s = rows in viewer_events afterwards / the run's seconds.
#  2. Ceiling: the same rows, exported as CSV, loaded into an empty copy of the table by `sqlite3 .import` and by
#     PostgreSQL's `COPY` (one bulk load: no HTTP, no JSON, no group commits). Reel / ceiling is printed.
#  3. The feed while events arrive: wrk on /v1/feed?limit=20 (1 thread, 16 connections) alone, then again while a
#     second wrk posts events at 20,000 events/s (400 batches/s arriving at random, a Poisson process, over 32
#     connections). Each loaded run is set against the alone runs on either side of it, so a drift of the host between
#     runs biases neither way. Five rounds, each with the CPU time the hypervisor stole during it (a noisy neighbour
#     halves a round). A control in each round sends the same events to a second server on its own catalog: the feed
#     then shares only the cores with them. A floor in each round is the cheapest ingest this machine allows: the same
#     paced POSTs answered 204 by nginx (one worker, the body read and dropped), while a separate process inserts the
#     same rows into SQLite at the same rate, 50 rows per prepared INSERT and a commit every 10 ms, as Reel groups
#     them. No JSON, no checks, no roll-up. The pacing wrk's own CPU counts against the feed in all three. The CPU
#     that the control's server and the floor's two processes use per second is printed beside them.
#  4. The roll-up's CPU per stored event: the server's CPU from start through its first roll-up, on a copy of the
#     SQLite catalog as ingested and on one with no events; the difference over the events is what each event costs.
#     A running server reads each event once (later passes read only what arrived since), so this times the arrival
#     rate is the roll-up's share of a core.
# Every batch is one session's, with a token from POST /v1/sessions in Reel-Session (2,000 sessions, one per batch,
# made before the runs; every server here signs with the same key, the .session-key of their one library). All
# requests come from one address and each session sends several batches a second, so the servers run with the
# per-session and per-address budgets raised out of the way: they are still checked on every batch, and their cost
# is in the figures (ViewerEventBoundaryTests shows them refusing).
# Goals: ≥ 20,000 events/s on 2 cores on each engine; the feed's req/s with events ≥ 0.8× without.
# Usage: scripts/bench-events.sh [path/to/reel]   (DURATION=10s, ROUNDS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
duration=${DURATION:-10s}
[ -x "$reel" ] || { echo "bench-events: no reel binary at $reel" >&2; exit 1; }
command -v wrk >/dev/null || { echo "bench-events: skipped, it needs wrk (apt-get install wrk)"; exit 0; }
command -v sqlite3 >/dev/null || { echo "bench-events: skipped, it needs sqlite3 (apt-get install sqlite3)"; exit 0; }
work=$(mktemp -d /tmp/reel-bench-events.XXXXXX)
source scripts/lib/serve.sh
start_postgres
pg_createdb events
pg_createdb ceiling
psql_as() { pg_as "$pg_bin/psql" -X -q -t -A -h "$PG_SOCKET" -p "$PG_PORT" -U reel "$@"; }

# 2,000 distinct batches of 50 events, each one session's: a view start, 3 progress, 1 segment ... as a page sends.
python3 scripts/lib/event_batches.py batches "$work/batches.json"
cat > "$work/post.lua" <<'LUA'
-- POST /v1/events, cycling through the batches file. With RATE (batches/s over all of wrk's THREADS threads), the
-- batches arrive as a Poisson process at that rate whatever the answers' latency, as from many independent viewers:
-- each request takes the next arrival time of its thread (clock_gettime through LuaJIT's ffi) and waits for it.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *now);
]]
local now = ffi.new("bench_timespec")
local function milliseconds()
    ffi.C.clock_gettime(1, now)  -- CLOCK_MONOTONIC
    return tonumber(now.tv_sec) * 1000 + tonumber(now.tv_nsec) / 1e6
end
local bodies = {}
local tokens = {}
local counter = 0
local rate = tonumber(os.getenv("RATE") or "0")
local threads = tonumber(os.getenv("THREADS") or "1")
local next_arrival = nil
local thread_number = 0
function setup(thread)
    thread_number = thread_number + 1
    thread:set("seed", thread_number)
end
function init(args)
    -- Each line: a session's token, a tab, and its batch.
    for line in io.lines(args[1]) do
        local tab = line:find("\t", 1, true)
        tokens[#tokens + 1] = line:sub(1, tab - 1)
        bodies[#bodies + 1] = line:sub(tab + 1)
    end
    -- Each thread its own random stream, or the threads' arrivals would coincide and group better than viewers'.
    math.randomseed(os.time() * 100 + (seed or 0))
    counter = math.random(#bodies)
end
function request()
    counter = counter % #bodies + 1
    return wrk.format("POST", "/v1/events", {["Content-Type"] = "application/json", ["Reel-Session"] = tokens[counter]},
        bodies[counter])
end
if rate > 0 then
    function delay()
        local t = milliseconds()
        next_arrival = (next_arrival or t) - math.log(1 - math.random()) * 1000 * threads / rate
        return math.max(0, next_arrival - t)
    end
end
LUA

mkdir -p "$work/library"
"$reel" db seed --database "$work/sqlite.sqlite" --count 1000 >&2
"$reel" db seed --database "$PG_URL_BASE/events" --count 1000 >&2
budgets=(--events-session-rate 1000000 --events-session-burst 1000000 --events-address-rate 1000000
    --events-address-burst 1000000)
serve sqlite "$work/sqlite.sqlite" "${budgets[@]}"
serve postgres "$PG_URL_BASE/events" "${budgets[@]}"
# A session per batch, asked of the first server (they all share the library's key): "token<TAB>batch" lines.
python3 scripts/lib/event_batches.py tokens "$base_sqlite" "$work/batches.json" "$work/batches.txt"

wrk_events() {  # wrk_events BASE CONNECTIONS [RATE [DURATION]]: prints "seconds non2xx batches"
    local out
    out=$(RATE=${3:-0} THREADS=2 wrk -t2 -c"$2" -d"${4:-$duration}" --timeout 10s -s "$work/post.lua" "$1" -- "$work/batches.txt")
    local seconds non2xx batches
    seconds=$(printf '%s\n' "$out" | awk '/requests in/{for(i=1;i<=NF;i++) if($i=="in"){v=$(i+1); sub(/s,$/,"",v); print v}}')
    batches=$(printf '%s\n' "$out" | awk '/requests in/{print $1}')
    non2xx=$(printf '%s\n' "$out" | awk -F': *' '/Non-2xx or 3xx/{print $2}')
    echo "$seconds ${non2xx:-0} $batches"
}
# Milliseconds a command takes (its output dropped).
milliseconds() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
# psql runs as the postgres user: its CSV files live in a folder it may write.
mkdir -p "$work/csv" && chmod 777 "$work/csv"

# --- 1. ingest, and 2. the ceiling --------------------------------------------------------------------------
read -r lite_seconds lite_non2xx _ < <(wrk_events "$base_sqlite" 64)
sleep 1
lite_rows=$(sqlite3 "$work/sqlite.sqlite" "SELECT count(*) FROM viewer_events")
sqlite3 -csv "$work/sqlite.sqlite" "SELECT * FROM viewer_events" > "$work/csv/events.csv"
sqlite3 "$work/sqlite.sqlite" ".schema viewer_events" > "$work/schema.sql"
sqlite3 "$work/ceiling.sqlite" "PRAGMA journal_mode=WAL;" >/dev/null
sqlite3 "$work/ceiling.sqlite" < "$work/schema.sql"
# .import into the existing table: every row in one transaction.
lite_ceiling_ms=$(milliseconds sqlite3 "$work/ceiling.sqlite" ".import --csv $work/csv/events.csv viewer_events")
[ "$(sqlite3 "$work/ceiling.sqlite" "SELECT count(*) FROM viewer_events")" = "$lite_rows" ] \
    || { echo "bench-events: sqlite3 .import did not load every row" >&2; exit 1; }

read -r pg_seconds pg_non2xx _ < <(wrk_events "$base_postgres" 64)
sleep 1
pg_rows=$(psql_as -d events -c "SELECT count(*) FROM viewer_events")
psql_as -d events -c "\\copy viewer_events TO '$work/csv/pg-events.csv' CSV"
pg_as "$pg_bin/pg_dump" -h "$PG_SOCKET" -p "$PG_PORT" -U reel -s -t viewer_events events | psql_as -d ceiling >/dev/null
pg_ceiling_ms=$(milliseconds psql_as -d ceiling -c "\\copy viewer_events FROM '$work/csv/pg-events.csv' CSV")
[ "$(psql_as -d ceiling -c "SELECT count(*) FROM viewer_events")" = "$pg_rows" ] \
    || { echo "bench-events: COPY did not load every row" >&2; exit 1; }

# --- 3. the feed, with and without events arriving ----------------------------------------------------------
feed_rps() {  # feed_rps BASE
    wrk -t1 -c16 -d"$duration" --timeout 10s "$1/v1/feed?limit=20" | awk '/^Requests\/sec:/{print $2}'
}
# A server started afresh on the ingested catalog: its first roll-up reads the burst above (about 90,000 events/s,
# not the 20,000 this section paces) before the rounds, and the servers above stop, so no pass of theirs lands in a
# round. What the rounds then see is a running server's cost: each pass reads the events since the last.
# PostgreSQL stops too (its autovacuum of the rows above would land in a round), and the burst's WAL is checkpointed.
for pid in "${pids[@]}"; do kill "$pid"; wait "$pid" 2>/dev/null || true; done
pg_stop "$work/pg"
sqlite3 "$work/sqlite.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
# Its first pass has stored figures when every row of video_stats is from after its start.
started_ms=$(( $(date +%s%N) / 1000000 ))
serve feed "$work/sqlite.sqlite" "${budgets[@]}"
rolled() { [ "$(sqlite3 "$work/sqlite.sqlite" "SELECT coalesce(min(rolled_at), 0) >= $started_ms FROM video_stats")" = 1 ]; }
for _ in $(seq 3000); do rolled && break; sleep 0.1; done
rolled || { echo "bench-events: no first roll-up within 300 s" >&2; exit 1; }
# Jiffies in all and stolen, from /proc/stat's first line.
cpu_jiffies() { awk '/^cpu /{t=0; for(i=2;i<=NF;i++) t+=$i; print t, $9}' /proc/stat; }
"$reel" db seed --database "$work/control.sqlite" --count 1000 >&2
serve control "$work/control.sqlite" "${budgets[@]}"
control_pid=${pids[-1]}
# The floor: nginx answers every POST /v1/events with 204 (it reads the body and drops it) ...
source scripts/lib/nginx.sh
nginx_start "client_max_body_size 1m; client_body_buffer_size 64k;" "location = /v1/events { return 204; }"
for _ in $(seq 50); do nginx_worker=$(pgrep -P "$nginx_master" | head -1) && break; sleep 0.1; done
[ -n "$nginx_worker" ] || { echo "bench-events: nginx did not start" >&2; cat "$work/nginx/error.log" >&2; exit 1; }
base_floor=$nginx_base
# ... and a process of its own inserts the same rows, as stored above, into an empty copy of the table at the same
# rate: the batches due every 10 ms go in one transaction, 50 rows per prepared multi-row INSERT with the values
# bound from tuples made beforehand (no parse, no checks), in WAL mode with SQLite's default synchronous, as Reel's.
sqlite3 "$work/floor.sqlite" "PRAGMA journal_mode=WAL;" >/dev/null
sqlite3 "$work/floor.sqlite" < "$work/schema.sql"
cat > "$work/floor-insert.py" <<'PY'
import csv, sqlite3, sys, time
database, rows_csv, rate, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
typed = (int, str, str, str, str, int, float, float, int, int, str)  # received_at .. message, as the table's columns
def value(kind, text):
    return None if text == "" else kind(text)
rows = []
with open(rows_csv, newline="") as f:
    for record in csv.reader(f):
        rows.append(tuple(value(kind, text) for kind, text in zip(typed, record[1:])))
        if len(rows) == 100_000:
            break
batches = [sum(rows[i:i + 50], ()) for i in range(0, len(rows) - 49, 50)]
columns = "received_at, session, video, type, rendition, ms, position_s, watched_s, completed, bytes, message"
insert = f"INSERT INTO viewer_events ({columns}) VALUES " + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * 50)
db = sqlite3.connect(database, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
open(sys.argv[5], "w").close()  # ready: the rows are loaded, and the paced POSTs may start
cpu0, start, done = time.process_time(), time.monotonic(), 0
while (now := time.monotonic()) - start < seconds:
    due = int((now - start) * rate / 50)
    if due > done:
        db.execute("BEGIN")
        for n in range(done, due):
            db.execute(insert, batches[n % len(batches)])
        db.execute("COMMIT")
        done = due
    time.sleep(0.01)
print(done * 50, time.process_time() - cpu0, time.monotonic() - start)
PY
process_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
clock_ticks=$(getconf CLK_TCK)
rounds=""
# Alone, with events, alone, control, alone, ...: each loaded run is set against the mean of the alone runs on either
# side of it, so a drift of the host between runs (alone runs have swung by a fifth within minutes) biases neither.
before=$(feed_rps "$base_feed")
for _ in $(seq "${ROUNDS:-5}"); do
    read -r total0 steal0 < <(cpu_jiffies)
    # 400 batches/s, arriving at random (Poisson) over 32 connections; it runs 2 s longer than the feed's wrk.
    wrk_events "$base_feed" 32 400 "$(( ${duration%s} + 2 ))s" > "$work/paced.txt" &
    paced=$!
    sleep 1
    with_events=$(feed_rps "$base_feed")
    wait "$paced"
    read -r paced_seconds paced_non2xx paced_batches < "$work/paced.txt"
    read -r total1 steal1 < <(cpu_jiffies)
    between=$(feed_rps "$base_feed")
    read -r total2 steal2 < <(cpu_jiffies)
    steal_with=$(( (steal1 - steal0) * 1000 / (total1 - total0) ))
    steal_alone=$(( (steal2 - steal1) * 1000 / (total2 - total1) ))
    # The control: the same paced events to a second server on its own catalog, so the feed's server does none of
    # the work and only shares the two cores with it.
    control_ticks0=$(process_ticks "$control_pid")
    wrk_events "$base_control" 32 400 "$(( ${duration%s} + 2 ))s" > /dev/null &
    paced=$!
    sleep 1
    with_control=$(feed_rps "$base_feed")
    wait "$paced"
    control_ticks=$(( $(process_ticks "$control_pid") - control_ticks0 ))
    after=$(feed_rps "$base_feed")
    # The floor: the same paced POSTs to nginx, and the same rows into SQLite at the same rate by a process of its own.
    nginx_ticks0=$(process_ticks "$nginx_worker")
    rm -f "$work/floor-ready"
    python3 "$work/floor-insert.py" "$work/floor.sqlite" "$work/csv/events.csv" 20000 "$(( ${duration%s} + 2 ))" \
        "$work/floor-ready" > "$work/floor-insert.txt" &
    inserter=$!
    for _ in $(seq 300); do [ -e "$work/floor-ready" ] && break; sleep 0.1; done
    [ -e "$work/floor-ready" ] || { echo "bench-events: the floor's inserter did not load its rows in 30 s" >&2; exit 1; }
    wrk_events "$base_floor" 32 400 "$(( ${duration%s} + 2 ))s" > "$work/floor-paced.txt" &
    paced=$!
    sleep 1
    with_floor=$(feed_rps "$base_feed")
    wait "$paced" "$inserter"
    nginx_ticks=$(( $(process_ticks "$nginx_worker") - nginx_ticks0 ))
    read -r _ floor_non2xx _ < "$work/floor-paced.txt"
    [ "$floor_non2xx" = 0 ] || { echo "bench-events: nginx answered $floor_non2xx POSTs with other than 2xx" >&2; exit 1; }
    read -r floor_rows floor_cpu floor_seconds < "$work/floor-insert.txt"
    after_floor=$(feed_rps "$base_feed")
    paced_s=$(( ${duration%s} + 2 ))
    rounds+="$before,$between,$after,$with_events,$paced_seconds,$paced_non2xx,$paced_batches,$steal_alone,$steal_with,$with_control,"
    rounds+="$with_floor,$after_floor,$(( control_ticks * 1000 / clock_ticks )),$(( nginx_ticks * 1000 / clock_ticks )),"
    rounds+="$floor_rows,$floor_cpu,$floor_seconds,$paced_s;"
    before=$after_floor
done

# --- 4. the roll-up's CPU per stored event ----------------------------------------------------------------------
rollup_cpu_ms() {  # rollup_cpu_ms DATABASE: the server's CPU ms from its start through its first roll-up
    "$reel" serve --database "$1" --library "$work/library" --port 0 --log-level debug --stats-interval 3600 \
        >"$work/rollup.out" 2>"$work/rollup.err" &
    local pid=$! ticks
    for _ in $(seq 3000); do grep -q 'viewer figures rolled up' "$work/rollup.err" && break; sleep 0.1; done
    grep -q 'viewer figures rolled up' "$work/rollup.err" \
        || { echo "bench-events: no roll-up of $1 within 300 s" >&2; kill "$pid"; exit 1; }
    ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo $(( ticks * 1000 / clock_ticks ))
}
sqlite3 "$work/sqlite.sqlite" ".backup $work/rollup.sqlite"
rollup_rows=$(sqlite3 "$work/rollup.sqlite" "SELECT count(*) FROM viewer_events")
"$reel" db seed --database "$work/no-events.sqlite" --count 1000 >&2
rollup_full_ms=$(rollup_cpu_ms "$work/rollup.sqlite")
rollup_empty_ms=$(rollup_cpu_ms "$work/no-events.sqlite")

python3 - "$lite_rows" "$lite_seconds" "$lite_non2xx" "$lite_ceiling_ms" "$pg_rows" "$pg_seconds" "$pg_non2xx" "$pg_ceiling_ms" \
    "$rounds" "$rollup_rows" "$rollup_full_ms" "$rollup_empty_ms" <<'PY'
import sys
sys.path.insert(0, "scripts/lib")
from bench_result import result
a = sys.argv[1:]
lite_rows, lite_s, lite_bad, lite_ceiling = int(a[0]), float(a[1]), int(a[2]), float(a[3]) / 1000
pg_rows, pg_s, pg_bad, pg_ceiling = int(a[4]), float(a[5]), int(a[6]), float(a[7]) / 1000
rounds = [[float(x) for x in r.split(",")] for r in a[8].strip(";").split(";")]
rollup_rows, rollup_full, rollup_empty = int(a[9]), float(a[10]), float(a[11])
print("| engine | events stored | events/s via POST /v1/events | non-2xx | ceiling rows/s (bulk load) | Reel / ceiling |")
print("|---|---|---|---|---|---|")
for name, rows, seconds, bad, ceiling, tool in (("SQLite", lite_rows, lite_s, lite_bad, lite_ceiling, "sqlite3 .import"),
                                                ("PostgreSQL 15", pg_rows, pg_s, pg_bad, pg_ceiling, "COPY")):
    rate = rows / seconds
    top = rows / max(ceiling, 1e-3)
    print(f"| {name} | {rows:,} | {rate:,.0f} | {bad} | {top:,.0f} ({tool}, {ceiling:.2f} s) | {rate / top:.2f}× |")
    result(f"events/s stored via POST /v1/events on {name}", rate, f"{tool} of the same rows (bulk load)", top,
           "events/s")
print()
print("| round | feed alone req/s (before, between, after) | feed with events req/s | events/s arriving | non-2xx | with / alone before and between | CPU stolen (between, with) | control: events to another server, req/s | control / alone between and after |")
print("|---|---|---|---|---|---|---|---|---|")
ratios, controls, floors, control_cores, floor_cores, insert_us = [], [], [], [], [], []
floor_lines = []
for n, r in enumerate(rounds, 1):
    before, between, after, with_events, seconds, bad, batches, steal_alone, steal_with, control = r[:10]
    with_floor, after_floor, control_ms, nginx_ms, floor_rows, floor_cpu, floor_s, paced_s = r[10:]
    ratios.append(with_events / ((before + between) / 2))
    controls.append(control / ((between + after) / 2))
    floors.append(with_floor / ((after + after_floor) / 2))
    control_cores.append(control_ms / 1000 / paced_s)
    floor_cores.append(nginx_ms / 1000 / paced_s + floor_cpu / floor_s)
    insert_us.append(floor_cpu * 1e6 / max(1, floor_rows))
    print(f"| {n} | {before:,.0f}, {between:,.0f}, {after:,.0f} | {with_events:,.0f} | {batches * 50 / seconds:,.0f} "
          f"| {bad:.0f} | {ratios[-1]:.2f}× | {steal_alone / 10:.1f} %, {steal_with / 10:.1f} % | {control:,.0f} "
          f"| {controls[-1]:.2f}× |")
    floor_lines.append(f"| {n} | {with_floor:,.0f} | {after_floor:,.0f} | {floors[-1]:.2f}× | {control_cores[-1]:.2f} "
                       f"| {nginx_ms / 1000 / paced_s:.2f} + {floor_cpu / floor_s:.2f} | {floor_rows / floor_s:,.0f} "
                       f"| {insert_us[-1]:.1f} |")
print()
print("| round | feed with the floor req/s | feed alone after it | floor / alone after the control and after it "
      "| control server's cores | floor's cores (nginx + inserter) | rows/s the floor inserted | inserter µs per row |")
print("|---|---|---|---|---|---|---|---|")
print("\n".join(floor_lines))
median = lambda xs: sorted(xs)[len(xs) // 2]
result(f"feed req/s while 20,000 events/s arrive, median of {len(ratios)} rounds, as a share of alone",
       median(ratios), "the feed beside the cheapest ingest (nginx + a bare SQLite inserter)", median(floors), "× alone")
print(f"Feed (/v1/feed?limit=20, 16 connections, SQLite) while events arrive: median {median(ratios):.2f}× of "
      f"alone over {len(ratios)} rounds (goal ≥ 0.80×); with the same events sent to another server instead, "
      f"{median(controls):.2f}×; beside the floor (nginx answering the same POSTs 204, and the same rows inserted "
      f"by a process of their own), {median(floors):.2f}×")
print(f"CPU per second of events: Reel's server (the control's) {median(control_cores):.2f} of a core; the floor "
      f"{median(floor_cores):.2f} (its inserter {median(insert_us):.1f} µs per row)")
per_event_us = (rollup_full - rollup_empty) * 1000 / max(1, rollup_rows)
print(f"Roll-up: {rollup_full / 1000:.1f} CPU-s through a cold start's first pass over {rollup_rows:,} events, "
      f"{rollup_empty / 1000:.1f} over none: {per_event_us:.1f} µs per stored event. Each event is read once, so "
      f"20,000 events/s cost the roll-up {per_event_us * 20_000 / 1e4:.0f} % of one core.")
print(f"Goal ≥ 20,000 events/s: SQLite {lite_rows / lite_s:,.0f}, PostgreSQL {pg_rows / pg_s:,.0f}")
PY
