# `reel serve` for benchmarks. Source it after setting $reel and $work, then:
#   serve NAME DATABASE [OPTION...]   starts `reel serve --database DATABASE --library ${library:-$work/library}` on a
#                                     free port with OPTIONs, waits until it listens and sets base_NAME to its URL
#   stop_servers                      stops every server `serve` started (call it from the script's EXIT trap)
#   start_postgres                    starts a throwaway PostgreSQL in $work/pg (scripts/lib/postgres.sh) and sets an
#                                     EXIT trap that stops the servers and it, and removes $work
pids=()

serve() {
    local name=$1 database=$2
    shift 2
    mkdir -p "${library:-$work/library}"
    "$reel" serve --database "$database" --library "${library:-$work/library}" --port 0 --log-level warning "$@" \
        >"$work/$name.out" 2>"$work/$name.err" &
    pids+=($!)
    for _ in $(seq 300); do grep -q '^listening on' "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    local base
    base=$(sed -n 's/^listening on //p' "$work/$name.out")
    [ -n "$base" ] || { echo "reel serve --database $database did not start" >&2; cat "$work/$name.err" >&2; exit 1; }
    printf -v "base_$name" '%s' "$base"
}

stop_servers() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
}

start_postgres() {
    source scripts/lib/postgres.sh
    trap 'stop_servers; pg_stop "$work/pg"; rm -rf "$work"' EXIT
    pg_start "$work/pg"
}
