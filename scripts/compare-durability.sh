#!/usr/bin/env bash
# What durable acknowledgements cost (issue 62): two reel binaries, before and after, in one sitting, taken in turn.
#  1. Event ingest, as bench-events.sh's first part: a fresh SQLite catalog (1,000 seeded videos) under `reel serve`,
#     wrk POSTing batches of 50 events to /v1/events from 64 connections for 10 s, unpaced; events/s = rows stored /
#     the run's seconds (every 204 is a committed batch). ROUNDS rounds, each binary once per round. A binary with
#     viewer sessions (`reel serve --session-key-file`) gets a session token per batch, as bench-events.sh sends
#     them, and its event budgets raised out of the way; an older one gets the batches with a `session` field.
#  2. Uploads: scripts/bench-upload.sh for each binary in turn (RUNS uploads of 50 MB each, medians), UPLOAD_ROUNDS
#     times.
# Usage: scripts/compare-durability.sh BEFORE AFTER   (ROUNDS=3, DURATION=10s, RUNS=7, UPLOAD_ROUNDS=2)
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(realpath "$1") after=$(realpath "$2")
rounds=${ROUNDS:-3} duration=${DURATION:-10s}
command -v wrk >/dev/null || { echo "compare-durability: skipped, it needs wrk (apt-get install wrk)"; exit 0; }
command -v sqlite3 >/dev/null || { echo "compare-durability: skipped, it needs sqlite3"; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/reel-compare-durability.XXXXXX")
trap 'stop_servers; rm -rf "$work"' EXIT
reel=$before
source scripts/lib/serve.sh

# The same 2,000 distinct batches of 50 events as bench-events.sh.
python3 scripts/lib/event_batches.py batches "$work/batches.txt" --with-session
# The same batches without `session` fields, for servers that store each batch under its token's session.
python3 scripts/lib/event_batches.py batches "$work/batches-sessionless.txt"
cat > "$work/post.lua" <<'LUA'
local bodies = {}
local tokens = {}
local counter = 0
function init(args)
    -- Each line: a batch, or a session's token, a tab and its batch.
    for line in io.lines(args[1]) do
        local tab = line:find("\t", 1, true)
        if tab then
            tokens[#bodies + 1] = line:sub(1, tab - 1)
            bodies[#bodies + 1] = line:sub(tab + 1)
        else
            bodies[#bodies + 1] = line
        end
    end
    counter = math.random(#bodies)
end
function request()
    counter = counter % #bodies + 1
    local headers = {["Content-Type"] = "application/json"}
    if tokens[counter] then headers["Reel-Session"] = tokens[counter] end
    return wrk.format("POST", "/v1/events", headers, bodies[counter])
end
LUA

ingest() {  # ingest LABEL BINARY ROUND: prints events/s
    reel=$2
    local db="$work/$1-$3.sqlite" out seconds rows
    "$reel" db seed --database "$db" --count 1000 >/dev/null 2>&1
    local base_var="base_$1$3" batches="$work/batches.txt"
    if "$reel" serve --help 2>&1 | grep -q -- --session-key-file; then
        serve "$1$3" "$db" --events-session-rate 1000000 --events-session-burst 1000000 \
            --events-address-rate 1000000 --events-address-burst 1000000
        batches="$work/batches-$1$3.txt"
        python3 scripts/lib/event_batches.py tokens "${!base_var}" "$work/batches-sessionless.txt" "$batches"
    else
        serve "$1$3" "$db"
    fi
    out=$(wrk -t2 -c64 -d"$duration" --timeout 10s -s "$work/post.lua" "${!base_var}" -- "$batches")
    seconds=$(printf '%s\n' "$out" | awk '/requests in/{for(i=1;i<=NF;i++) if($i=="in"){v=$(i+1); sub(/s,$/,"",v); print v}}')
    stop_servers; pids=()
    rows=$(sqlite3 "$db" "SELECT count(*) FROM viewer_events")
    python3 -c "print(round($rows / $seconds))"
}

echo "| round | before: events/s | after: events/s |"
echo "|---|---|---|"
for round in $(seq "$rounds"); do
    b=$(ingest before "$before" "$round")
    a=$(ingest after "$after" "$round")
    echo "| $round | $b | $a |"
done
echo
for round in $(seq "${UPLOAD_ROUNDS:-2}"); do
    for side in before after; do
        binary=$before; [ "$side" = after ] && binary=$after
        echo "upload, $side, round $round:"
        RUNS=${RUNS:-7} scripts/bench-upload.sh "$binary" | tail -2
    done
done
