# A throwaway PostgreSQL 15 server for benchmarks and the demo, as the tests make one: Debian's binaries, initdb into
# a temporary directory as the unprivileged `postgres` user, a private port, fsync off. Source it, then:
#   pg_start DIR        starts a server with its cluster in DIR; sets PG_PORT and PG_URL_BASE (postgres://reel@127.0.0.1:PORT)
#   pg_stop DIR         stops it
#   pg_createdb NAME    creates a database
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
pg_as() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else "$@"; fi; }

pg_start() {
    local dir=$1
    [ -n "$pg_bin" ] || { echo "no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)" >&2; return 1; }
    mkdir -p "$dir/socket"
    if [ "$(id -u)" = 0 ]; then
        chown -R postgres:postgres "$dir"
        chmod o+x "$(dirname "$dir")"  # mktemp -d makes it 0700: postgres must reach its cluster through it
    fi
    pg_as "$pg_bin/initdb" -D "$dir/data" -U reel -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; return 1; }
    PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    pg_as "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "-p $PG_PORT -k $dir/socket -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200" start >/dev/null \
        || { cat "$dir/server.log" >&2; return 1; }
    PG_SOCKET=$dir/socket
    PG_URL_BASE="postgres://reel@127.0.0.1:$PG_PORT"
}

pg_stop() { pg_as "$pg_bin/pg_ctl" -D "$1/data" -m immediate stop >/dev/null 2>&1 || true; }

pg_createdb() { pg_as "$pg_bin/createdb" -h "$PG_SOCKET" -p "$PG_PORT" -U reel "$1"; }
