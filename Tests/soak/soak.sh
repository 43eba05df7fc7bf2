#!/usr/bin/env bash
# The soak: eight simultaneous links exchanging sequence-numbered notifications and
# indications over Bumble's virtual radio, both ways round:
#   1. swift-att as peripheral (swift-att-soak peripheral) with eight Bumble centrals;
#   2. swift-att as central (swift-att-soak central) to eight Bumble peripherals.
# Every receiver checks every sequence: zero lost, duplicated or reordered values. The
# swift-att side prints its resident memory and open descriptors at start, middle and end;
# the run fails if memory grows more than 10 % (and 4 MiB) from the middle to the end or
# descriptors grow at all.
#
#   Tests/soak/soak.sh [--seconds S] [--links N]      (defaults: 60 s, 8 links)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds=60
links=8
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --links) links=$2; shift 2 ;;
        *) echo "usage: $0 [--seconds S] [--links N]" >&2; exit 2 ;;
    esac
done

Tests/bench/setup.sh
configuration=${SOAK_CONFIGURATION:-release}
swift build -c "$configuration" --product swift-att-soak 2>&1 | tail -n 1
soak=.build/$configuration/swift-att-soak
python=Tests/bench/.venv/bin/python
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# $1 controllers on one radio; sets $ports (comma-separated), starting them in the background.
start_controllers() {
    ports=$("$python" -c "
import socket
socks = [socket.socket() for _ in range($1)]
for s in socks: s.bind(('127.0.0.1', 0))
print(','.join(str(s.getsockname()[1]) for s in socks))
for s in socks: s.close()")
    rm -f "$work/controllers.out"
    "$python" Tests/bench/controllers.py --ports "$ports" --duration $((seconds * 2 + 120)) < /dev/zero > "$work/controllers.out" 2>&1 &
    controllers=$!
    pids+=($controllers)
    for _ in $(seq 100); do grep -q READY "$work/controllers.out" && return 0; sleep 0.1; done
    cat "$work/controllers.out" >&2
    return 1
}

# Checks a swift-att "done" line: memory flat from the middle on, no descriptor growth.
check_figures() {
    "$python" - "$1" <<'PY'
import json, sys
done = json.loads(sys.argv[1])
middle, end = done['rssMiddleKiB'], done['rssEndKiB']
print(f"swift-att RSS start {done['rssStartKiB']} KiB, middle {middle} KiB, end {end} KiB; "
      f"fds start {done['fdsStart']}, end {done['fdsEnd']}")
grew = end - middle
if grew > max(4096, middle // 10):
    sys.exit(f'resident memory grew by {grew} KiB in the second half')
if done['fdsEnd'] > done['fdsStart']:
    sys.exit('open descriptors grew')
PY
}

status=0
echo "== 1. swift-att peripheral, $links Bumble centrals, ${seconds}s"
start_controllers $((links + 1))
first=${ports%%,*}
rest=${ports#*,}
"$soak" peripheral --transport "tcp:127.0.0.1:$first" --centrals "$links" --seconds "$seconds" > "$work/swift1.out" 2>&1 &
swift1=$!
pids+=($swift1)
for _ in $(seq 100); do grep -q '"ready"' "$work/swift1.out" && break; sleep 0.1; done
address=$("$python" -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['address'])" "$work/swift1.out")
"$python" Tests/soak/bumble_soak.py centrals --ports "$rest" --target "$address" --seconds $((seconds + 6)) > "$work/bumble1.out" 2>&1 || status=1
wait "$swift1" || status=1
cat "$work/swift1.out"
grep -E '"(stream|done)"' "$work/bumble1.out" || { cat "$work/bumble1.out"; status=1; }
check_figures "$(grep '"done"' "$work/swift1.out")" || status=1
kill "$controllers" 2>/dev/null || true

echo "== 2. swift-att central, $links Bumble peripherals, ${seconds}s"
start_controllers $((links + 1))
first=${ports%%,*}
rest=${ports#*,}
"$python" Tests/soak/bumble_soak.py peripherals --ports "$rest" --seconds $((seconds + 60)) > "$work/bumble2.out" 2>&1 &
bumble2=$!
pids+=($bumble2)
"$soak" central --transport "tcp:127.0.0.1:$first" --count "$links" --seconds "$seconds" > "$work/swift2.out" 2>&1 || status=1
cat "$work/swift2.out"
check_figures "$(grep '"done"' "$work/swift2.out")" || status=1

if [ "$status" -eq 0 ]; then echo "soak passed"; else echo "soak FAILED" >&2; fi
exit "$status"
