#!/usr/bin/env bash
# The demo, on a machine with no Bluetooth at all: installs what it needs (libbluetooth-dev
# libssl-dev and libedit-dev from Debian, Bumble from PyPI), builds swift-att, starts two of Bumble's virtual
# controllers on one virtual radio, runs `swift-att peripheral heart-rate` on the first
# and `swift-att central` on the second: the central finds the monitor by its service,
# prints its database as a tree, then prints live heart-rate values.
#
#   Tests/bench/demo.sh [--count N]      (N heart-rate values; default 10)
#
# Everything it starts is stopped when it exits, however it exits.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
count=10
if [ "${1:-}" = "--count" ] && [ -n "${2:-}" ]; then count=$2; fi

say() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

say "installing what the demo needs (libbluetooth-dev, libssl-dev, libedit-dev, Bumble)"
if ! dpkg -s libbluetooth-dev libssl-dev libedit-dev >/dev/null 2>&1; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get install -y -qq libbluetooth-dev libssl-dev libedit-dev >/dev/null 2>&1 || { $sudo apt-get update -qq >/dev/null; $sudo apt-get install -y -qq libbluetooth-dev libssl-dev libedit-dev >/dev/null; }
fi
Tests/bench/setup.sh

say "building swift-att (release)"
# The build's last line when it works; all of it when it does not (a compiler error must
# not hide behind "error: fatalError").
build_log=$(mktemp)
if ! swift build -c release --static-swift-stdlib --product swift-att >"$build_log" 2>&1; then
    cat "$build_log" >&2
    rm -f "$build_log"
    echo "demo: the build failed (its output is above); nothing was started" >&2
    exit 1
fi
tail -n 1 "$build_log"
rm -f "$build_log"
bin=.build/release/swift-att
python=Tests/bench/.venv/bin/python

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

source Tests/bench/radio.sh
start_radio "$work" 600
say "Bumble's virtual radio: controllers on tcp:127.0.0.1:$port0 and :$port1"

say "swift-att peripheral heart-rate (on controller 1)"
# Each swift-att keeps its identity and bonds in a file of its own: the two run at once.
"$bin" peripheral heart-rate --transport "tcp:127.0.0.1:$port0" --interval 500 --bonds "$work/peripheral-bonds.json" \
    > "$work/peripheral.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "advertising" "$work/peripheral.out" && break; sleep 0.1; done
sed -n 1p "$work/peripheral.out"

say "swift-att central discover --service 180D (on controller 2)"
"$bin" central discover --service 180D --transport "tcp:127.0.0.1:$port1" --bonds "$work/central-bonds.json"

say "swift-att central heart-rate --count $count"
"$bin" central heart-rate --count "$count" --transport "tcp:127.0.0.1:$port1" --bonds "$work/central-bonds.json"

say "what the peripheral saw"
cat "$work/peripheral.out"
