#!/usr/bin/env bash
# swift-att as another package sees it: builds Examples/HeartRateLogger (which depends on
# swift-att by path, as an application depends on it by URL) together with the Swift
# examples of README.md and Documentation/*.md, checks that they still show exactly those
# examples, and runs the logger once over in-memory controllers and once over Bumble's
# virtual radio (a monitor on one controller, the logger on the other).
#
#   Examples/run.sh          (needs Tests/bench/setup.sh's venv for the Bumble run)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

python3 Examples/check-readme-snippets.py

log=$(mktemp)
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work" "$log"
}
trap cleanup EXIT INT TERM

swift build --package-path Examples/HeartRateLogger 2>&1 | tee "$log" | tail -n 1
test "${PIPESTATUS[0]}" -eq 0
if grep -E "(warning|error):" "$log"; then
    echo "the example package built with warnings" >&2
    exit 1
fi
bin=Examples/HeartRateLogger/.build/debug/heart-rate-logger

echo "== heart-rate-logger demo (a monitor and the logger on in-memory controllers)"
"$bin" demo --count 5 | tee "$work/demo.out"
grep -q "^logged 5 readings" "$work/demo.out"

echo "== heart-rate-logger monitor and log, over Bumble's virtual controllers"
python=Tests/bench/.venv/bin/python
source Tests/bench/radio.sh
start_radio "$work" 300
"$bin" monitor --transport "tcp:127.0.0.1:$port0" --seconds 120 > "$work/monitor.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "^advertising" "$work/monitor.out" && break; sleep 0.1; done
cat "$work/monitor.out"
grep -q "^advertising" "$work/monitor.out" || { echo "the monitor did not start" >&2; exit 1; }
"$bin" log --transport "tcp:127.0.0.1:$port1" --count 3 | tee "$work/log.out"
test "$(grep -c -E '^[0-9]+ bpm$' "$work/log.out")" -eq 3
