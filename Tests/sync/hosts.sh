# The sync tier's test hosts (sourced by Tests/sync/run): one network namespace for the collector and
# one per device, each device joined to the collector by its own veth pair on a /30 of 10.213.0.0/16
# that exists only inside these namespaces. Nothing is routed to or from the machine's own network.
#   hosts_create N        the collector host and devices 1..N
#   on HOST COMMAND…      runs COMMAND inside HOST's namespace (HOST: collector or device number)
#   partition I / heal I  cuts device I's link (both ends down) and restores it
#   collector_address I   the collector's address as device I sees it
#   hosts_destroy         deletes every namespace this run made
# Names carry the run's PID, so two runs (or a leftover) never collide.

hosts_prefix="cs$$"
hosts_devices=0

netns_name() { if [ "$1" = collector ]; then echo "$hosts_prefix-col"; else echo "$hosts_prefix-d$1"; fi; }
collector_address() { echo "10.213.$1.1"; }
device_address() { echo "10.213.$1.2"; }

hosts_create() {
    local count=$1 i col
    col=$(netns_name collector)
    ip netns add "$col"
    ip -n "$col" link set lo up
    for i in $(seq 1 "$count"); do
        local ns; ns=$(netns_name "$i")
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        # Created straight into the namespaces: the machine's own interfaces never see these names.
        ip link add "up$i" netns "$ns" type veth peer name "dev$i" netns "$col"
        ip -n "$ns" addr add "$(device_address "$i")/30" dev "up$i"
        ip -n "$col" addr add "$(collector_address "$i")/30" dev "dev$i"
        ip -n "$ns" link set "up$i" up
        ip -n "$col" link set "dev$i" up
    done
    hosts_devices=$count
}

on() {
    local host=$1; shift
    ip netns exec "$(netns_name "$host")" "$@"
}

partition() {
    ip -n "$(netns_name "$1")" link set "up$1" down
    ip -n "$(netns_name collector)" link set "dev$1" down
}

heal() {
    ip -n "$(netns_name "$1")" link set "up$1" up
    ip -n "$(netns_name collector)" link set "dev$1" up
}

hosts_destroy() {
    local i
    for i in $(seq 1 "$hosts_devices"); do ip netns del "$(netns_name "$i")" 2>/dev/null || true; done
    ip netns del "$(netns_name collector)" 2>/dev/null || true
}
