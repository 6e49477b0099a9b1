# A client host for browser benchmarks: a network namespace joined to the root namespace by a veth pair on
# 203.0.113.0/24 (TEST-NET-3: Chromium's local-network checks block an insecure page on a private address such as
# 10/8). The root side is 203.0.113.1, the namespace's 203.0.113.2. Source it, then:
#   netns_up NS HOST PEER      makes namespace NS with veth HOST (root side) and PEER (inside)
#   netns_shape NS HOST PEER RATE   tc tbf at RATE each way (this kernel has no netem: no added round trip)
#   netns_down NS HOST         removes both (safe to call when they do not exist)
netns_up() {
    local ns=$1 host=$2 peer=$3
    ip netns add "$ns"
    ip link add "$host" type veth peer name "$peer"
    ip link set "$peer" netns "$ns"
    ip addr add 203.0.113.1/24 dev "$host"
    ip link set "$host" up
    ip netns exec "$ns" ip addr add 203.0.113.2/24 dev "$peer"
    ip netns exec "$ns" ip link set "$peer" up
    ip netns exec "$ns" ip link set lo up
}

netns_shape() {
    tc qdisc replace dev "$2" root tbf rate "$4" burst 16kb latency 1s
    ip netns exec "$1" tc qdisc replace dev "$3" root tbf rate "$4" burst 16kb latency 1s
}

netns_down() {
    ip netns del "$1" 2>/dev/null || true
    ip link del "$2" 2>/dev/null || true
}
