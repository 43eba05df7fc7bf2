#!/usr/bin/env bash
# Watches a running `swift test` for a stall and, if one comes, records every thread's
# backtrace of the test process: what the threads were blocked in while no test finished.
#
#   Tests/stall-watch.sh LOG [SECONDS]
#
# LOG is the output `swift test` is writing. Once a hundred tests have finished, a gap of
# SECONDS (default 60) with no test finishing counts as a stall: the backtraces (gdb, if
# installed; the kernel's view of each thread otherwise) go to LOG.stall, once. It only
# looks: it stops nothing, and ends by itself when no test process is left.
#
# Why: three CI runs out of ten had a test phase in which nothing finished for some 200 s,
# then dozens of tests failed their timeouts at once; local runs never did. .ci/run runs
# the tests under this watch, and prints LOG.stall when there is one.
set -uo pipefail
log=$1
limit=${2:-60}
out="$log.stall"
rm -f "$out"
finished() {
    local n
    n=$(grep -cE "(passed|failed) after [0-9.]+ seconds" "$log" 2>/dev/null)
    echo "${n:-0}"
}
# `swift test` builds before it starts the test process: wait for it (30 minutes at most).
for _ in $(seq 360); do
    pgrep -f "swift-attPackageTests" >/dev/null && break
    sleep 5
done
last=0
since=$SECONDS
while pgrep -f "swift-attPackageTests" >/dev/null; do
    sleep 5
    n=$(finished)
    if [ "$n" != "$last" ]; then
        last=$n
        since=$SECONDS
        continue
    fi
    [ "$n" -ge 100 ] && [ $((SECONDS - since)) -ge "$limit" ] || continue
    pid=$(pgrep -f "swift-attPackageTests" | head -n 1)
    {
        echo "no test finished for $((SECONDS - since)) s after $n had ($(date -u +%H:%M:%S)); test process $pid"
        echo "--- the machine"
        uptime
        ps -eo pid,stat,pcpu,rss,etime,args --sort=-pcpu | head -n 25
        echo "--- the test process's threads (state, what the kernel has them wait in)"
        for task in /proc/"$pid"/task/*; do
            echo "$(basename "$task") $(cat "$task/comm" 2>/dev/null) $(awk '{print $3}' "$task/stat" 2>/dev/null) $(cat "$task/wchan" 2>/dev/null)"
        done
        if command -v gdb >/dev/null; then
            echo "--- every thread's backtrace (gdb)"
            timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 30" 2>&1 | grep -v "^\[New LWP\|^warning: "
        fi
    } >"$out" 2>&1
    exit 0
done
