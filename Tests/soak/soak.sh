#!/usr/bin/env bash
# The soak: eight simultaneous links exchanging sequence-numbered notifications and
# indications over Bumble's virtual radio, both ways round:
#   1. swift-att as peripheral (swift-att-soak peripheral) with eight Bumble centrals;
#   2. swift-att as central (swift-att-soak central) to eight Bumble peripherals.
# Every receiver checks every sequence number: none lost, repeated or reordered, and the
# last one received is the last one sent. The swift-att process reports its resident
# memory (start, after warm-up, peak, end), malloc's bytes in use and its open
# descriptors; it fails if after warm-up RSS grows by more than --rss-growth-kib, bytes
# in use by more than --heap-growth-kib, or a descriptor is left open. Each direction
# starts and stops its own Bumble processes.
#
#   Tests/soak/soak.sh [--seconds S | --minutes M] [--links N] [--rss-growth-kib K]
#                      [--heap-growth-kib K] [--only peripheral|central] [--logs DIR]
#   (defaults: 60 s per direction, 8 links, 4096 and 1024 KiB)
#
# SOAK_CONFIGURATION=debug runs a debug build (default: the release build CI makes).
# SOAK_SNOOP=1 writes every host's btsnoop capture into the logs directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds=60
links=8
growth=4096
heap=1024
only=
logs=
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --minutes) seconds=$(( $2 * 60 )); shift 2 ;;
        --links) links=$2; shift 2 ;;
        --rss-growth-kib) growth=$2; shift 2 ;;
        --heap-growth-kib) heap=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --logs) logs=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set/p' "$0" | grep '^#'; exit 0 ;;
        *) echo "usage: $0 [--seconds S | --minutes M] [--links N] [--rss-growth-kib K] [--heap-growth-kib K] [--only peripheral|central] [--logs DIR]" >&2; exit 2 ;;
    esac
done

Tests/bench/setup.sh
configuration=${SOAK_CONFIGURATION:-release}
if [ "$configuration" = release ]; then
    # The flags CI's release builds use, so the soak shares their build products.
    swift build -c release --static-swift-stdlib --product swift-att-soak 2>&1 | tail -n 1
else
    swift build --product swift-att-soak 2>&1 | tail -n 1
fi
soak=.build/$configuration/swift-att-soak
python=Tests/bench/.venv/bin/python
work=${logs:-$(mktemp -d)}
mkdir -p "$work"
snoop=()
if [ -n "${SOAK_SNOOP:-}" ]; then export SOAK_SNOOP=$work; else unset SOAK_SNOOP; fi
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "$logs" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Every process is bounded: setup (connecting and discovering, one link at a time),
# the run, and the end.
lifetime=$((seconds + 60 + 10 * links))

# $1 controllers on one radio; sets $ports (comma-separated) and $controllers (its pid).
start_controllers() {
    ports=$("$python" -c "
import socket
socks = [socket.socket() for _ in range($1)]
for s in socks: s.bind(('127.0.0.1', 0))
print(','.join(str(s.getsockname()[1]) for s in socks))
for s in socks: s.close()")
    rm -f "$work/controllers.out"
    "$python" Tests/bench/controllers.py --ports "$ports" --duration $((lifetime + 30)) < /dev/null > "$work/controllers.out" 2>&1 &
    controllers=$!
    pids+=("$controllers")
    for _ in $(seq 100); do grep -q READY "$work/controllers.out" && return 0; sleep 0.1; done
    cat "$work/controllers.out" >&2
    return 1
}

stop_controllers() {
    kill "$controllers" 2>/dev/null || true
    wait "$controllers" 2>/dev/null || true
}

# The table of one direction: each link's values sent and received, and the swift-att
# process's figures. Fails on any difference between sent and received.
report() {
    "$python" Tests/soak/report.py "$@"
}

status=0
if [ "$only" != central ]; then
    echo "== 1. swift-att peripheral, $links Bumble centrals, ${seconds} s"
    start_controllers $((links + 1))
    snoop=()
    [ -n "${SOAK_SNOOP:-}" ] && snoop=(--btsnoop "$work/swift-peripheral.btsnoop")
    timeout "$lifetime" "$soak" peripheral --transport "tcp:127.0.0.1:${ports%%,*}" --links "$links" \
        --seconds "$seconds" --rss-growth-kib "$growth" --heap-growth-kib "$heap" "${snoop[@]}" > "$work/swift-peripheral.out" 2>&1 &
    swift=$!
    pids+=("$swift")
    for _ in $(seq 100); do grep -q '"ready"' "$work/swift-peripheral.out" && break; sleep 0.1; done
    address=$(sed -n 's/.*"ready","address":"\([0-9A-F:]*\)".*/\1/p' "$work/swift-peripheral.out")
    if [ -z "$address" ]; then
        cat "$work/swift-peripheral.out" >&2
        exit 1
    fi
    timeout "$((lifetime + 30))" "$python" Tests/soak/bumble_soak.py centrals --ports "${ports#*,}" --target "$address" --seconds "$lifetime" \
        > "$work/bumble-centrals.out" 2>&1 || status=1
    wait "$swift" || status=1
    stop_controllers
    report peripheral "$work/swift-peripheral.out" "$work/bumble-centrals.out" || status=1
fi

if [ "$only" != peripheral ]; then
    echo "== 2. swift-att central, $links Bumble peripherals, ${seconds} s"
    start_controllers $((links + 1))
    timeout "$((lifetime + 30))" "$python" Tests/soak/bumble_soak.py peripherals --ports "${ports#*,}" --seconds "$lifetime" \
        > "$work/bumble-peripherals.out" 2>&1 &
    bumble=$!
    pids+=("$bumble")
    snoop=()
    [ -n "${SOAK_SNOOP:-}" ] && snoop=(--btsnoop "$work/swift-central.btsnoop")
    timeout "$lifetime" "$soak" central --transport "tcp:127.0.0.1:${ports%%,*}" --links "$links" \
        --seconds "$seconds" --rss-growth-kib "$growth" --heap-growth-kib "$heap" "${snoop[@]}" > "$work/swift-central.out" 2>&1 || status=1
    wait "$bumble" || status=1
    stop_controllers
    report central "$work/swift-central.out" "$work/bumble-peripherals.out" || status=1
fi

if [ "$status" -eq 0 ]; then echo "soak passed"; else echo "soak FAILED (logs: $work)" >&2; fi
# Keep the logs of a failed run.
[ "$status" -eq 0 ] || logs=$work
exit "$status"
