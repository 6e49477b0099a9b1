# nginx for benchmarks, the reference beside Reel: one worker, no access log, everything in $work/nginx. Source it
# after setting $work and `pids` (the EXIT trap that stops them is the caller's), then:
#   nginx_start HTTP SERVER   writes $work/nginx/nginx.conf with the lines HTTP inside `http {}` and SERVER inside
#                             its one `server {}`, which listens on a free loopback port; starts nginx in the
#                             foreground (its pid added to pids), waits until the port takes connections, and sets
#                             nginx_port, nginx_base (http://127.0.0.1:PORT) and nginx_master (the master's pid)
nginx_start() {
    local http=$1 server=$2
    nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    nginx_base="http://127.0.0.1:$nginx_port"
    mkdir -p "$work/nginx/tmp"
    cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/tmp; proxy_temp_path $work/nginx/tmp; fastcgi_temp_path $work/nginx/tmp;
    uwsgi_temp_path $work/nginx/tmp; scgi_temp_path $work/nginx/tmp;
    $http
    server {
        listen 127.0.0.1:$nginx_port;
        $server
    }
}
CONF
    nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
    nginx_master=$!
    pids+=("$nginx_master")
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$nginx_port") 2>/dev/null && return 0; sleep 0.1; done
    echo "nginx did not start on port $nginx_port" >&2
    cat "$work/nginx/error.log" >&2
    exit 1
}
