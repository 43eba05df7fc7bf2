#!/bin/busybox sh
# The kernel bench's scenarios, run once hci0 exists (guest-init.sh). Each prints one
#   KBENCH RESULT <name> PASS|FAIL|SKIP <detail>
# line; "KBENCH NEED <what> <address>" asks the host to start a Bumble central against
# a swift-att peripheral advertising here; "KBENCH MEASURE <name> <value> <unit>" is a figure.
# Every wait is bounded.

SWIFT_ATT=/bin/swift-att
# Every swift-att that runs a host keeps the adapter's identity and its bonds in a bond
# file (--bonds; by default under $HOME, which is / here). Each is given one explicitly,
# in a directory of the guest's /tmp: GUEST_BONDS for every scenario before the
# kernel-SMP ones, a file of its own for each kernel-SMP peripheral. One swift-att at a
# time holds a file (a lock); the EBUSY check below deliberately shares the running
# peripheral's file, since the busy adapter must be what it reports, not the held file.
BONDS=/tmp/bonds
mkdir -p $BONDS
GUEST_BONDS=$BONDS/guest.json

result() { echo "KBENCH RESULT $1 $2 $3"; }

# wait_for FILE PATTERN TENTHS: until grep finds PATTERN in FILE, up to TENTHS/10 s.
wait_for() {
    i=0
    while [ "$i" -lt "$3" ]; do
        grep -q "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# count_of FILE PATTERN
count_of() { grep -c "$1" "$2" 2>/dev/null || true; }

advertised_address() {
    sed -n 's/.*"event":"advertising".*"address":"\([0-9A-F:]*\)".*/\1/p' "$1" | head -n 1
}

# stop_peripheral PID: SIGINT, then the exit status (killed after 10 s).
stop_peripheral() {
    kill -INT "$1" 2>/dev/null
    i=0
    while kill -0 "$1" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$1" 2>/dev/null
    wait "$1"
}

# (a) hci0 on the user channel: reset, BD_ADDR, version, buffers; 200 timed round trips.
scenario_open() {
    $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips 200 >/tmp/info.out 2>/tmp/info.err
    rc=$?
    sed 's/^/KBENCH INFO /' /tmp/info.out
    if [ $rc = 0 ] && grep -q '^Controller on hci0$' /tmp/info.out \
        && grep -q 'Public address:  F0:F0:F0:F0:00:01' /tmp/info.out \
        && grep -q 'HCI version:     5.0' /tmp/info.out \
        && grep -q 'LE ACL buffers:  64 × 27 bytes' /tmp/info.out \
        && grep -q '^HCI round trip: median ' /tmp/info.out && grep -q "^ *Bond file: *$GUEST_BONDS\$" /tmp/info.out; then
        result open-hci0 PASS "reset, BD_ADDR F0:F0:F0:F0:00:01, HCI 5.0, 64 x 27-byte LE buffers, identity in $GUEST_BONDS"
    else
        result open-hci0 FAIL "exit $rc: $(cat /tmp/info.err)"
    fi
    # The static random identity info made in the bond file: every later process on hci0
    # with the same file comes up under it.
    GUEST_IDENTITY=$(sed -n 's/^ *Random address: *\([0-9A-F:]*\) (static.*/\1/p' /tmp/info.out)
    median=$(sed -n 's/^HCI round trip: median \([0-9.]*\) ms.*/\1/p' /tmp/info.out)
    [ -n "$median" ] && echo "KBENCH MEASURE hci-round-trip $median ms ($(sed -n 's/^HCI round trip: //p' /tmp/info.out))"

    # Closing the user channel gave the adapter back: listed, down, nobody holds it.
    $SWIFT_ATT adapters >/tmp/adapters.out 2>&1
    rc=$?
    $SWIFT_ATT adapters --json >/tmp/adapters.json 2>&1
    sed 's/^/KBENCH ADAPTERS /' /tmp/adapters.out /tmp/adapters.json
    if [ $rc = 0 ] && grep -q '^hci0  F0:F0:F0:F0:00:01  down .*free: swift-att can open it' /tmp/adapters.out \
        && grep -q '^\[{"name":"hci0","index":0,"address":"F0:F0:F0:F0:00:01","state":"down","listed":true,"powered":false,"holder":"nobody","bluetoothd":null}\]$' /tmp/adapters.json; then
        result adapters-after-close PASS "hci0 listed, down and free again"
    else
        result adapters-after-close FAIL "exit $rc"
    fi
}

# The HCI round trip on hci0, swift-att against the C baseline (Tests/kernel/hci_baseline.c)
# in the same boot: eleven runs of 400 Read BD_ADDR each, alternating (a run catches the
# guest and the host fast or slow: round_trip_ab's A/A boots), and the system calls
# each makes per round trip (strace -f -c over 200 and 2000 round trips, differenced).
# Between the two in each run, Swift's floor (Tests/kernel/async_floor.swift: a task on a
# loop executor awaiting each answer, no host stack): what of swift-att's excess over C
# is the concurrency runtime's, and what the host's own.
round_trip_median() { sed -n 's/^.*round trip: median \([0-9.]*\) ms.*/\1/p' "$1"; }
# median LIST: the middle of a space-separated list of numbers (the upper one of an even count).
median() { echo "$1" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int(NR / 2) + 1] }'; }
# ratio A B [FORMAT]: A ÷ B, printed with FORMAT (two decimals).
ratio() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { printf f, a / b }'; }
syscalls_per_trip() {  # syscalls_per_trip COMMAND...: strace's call counts, 2000 trips minus 200
    strace -f -c -o /tmp/st.200 "$@" 200 >/dev/null 2>&1 || return 1
    strace -f -c -o /tmp/st.2000 "$@" 2000 >/dev/null 2>&1 || return 1
    awk '$NF != "total" && $1 ~ /^[0-9.]+$/ { n[$NF] += (FILENAME ~ /2000$/ ? $4 : -$4) }
         END { for (k in n) if (n[k] / 1800 >= 0.05) { t += n[k] / 1800; d = d sprintf(" %s %.2f", k, n[k] / 1800) } printf "%.2f (%s )", t, d }' \
        /tmp/st.200 /tmp/st.2000
}
# round_trip_usage COMMAND...: runs COMMAND for 200 and for 2000 round trips under busybox
# `time -v`, whose figures round_trip_cpu and round_trip_switches difference (start-up
# cancels out).
round_trip_usage() {
    busybox time -v "$@" 200 2>/tmp/usage.200 >/dev/null || return 1
    busybox time -v "$@" 2000 2>/tmp/usage.2000 >/dev/null
}
# round_trip_cpu: the process's own CPU per round trip, user and system, from the last
# round_trip_usage: what the program spends, apart from waiting for the controller's answer.
round_trip_cpu() {
    awk -F': ' '/User time/ { u[FILENAME] = $2 } /System time/ { s[FILENAME] = $2 }
         END { printf "user %.0f µs + system %.0f µs", 1e6 * (u["/tmp/usage.2000"] - u["/tmp/usage.200"]) / 1800,
                                                    1e6 * (s["/tmp/usage.2000"] - s["/tmp/usage.200"]) / 1800 }' /tmp/usage.200 /tmp/usage.2000
}
# round_trip_switches: page faults and context switches per round trip, from the last
# round_trip_usage: what the kernel does for a process besides its calls.
round_trip_switches() {
    awk -F': ' '/Minor/ { f[FILENAME] = $2 } /Voluntary context/ { v[FILENAME] = $2 } /Involuntary context/ { i[FILENAME] = $2 }
         END { printf "%.2f minor faults, %.2f voluntary and %.2f involuntary context switches per round trip",
               (f["/tmp/usage.2000"] - f["/tmp/usage.200"]) / 1800, (v["/tmp/usage.2000"] - v["/tmp/usage.200"]) / 1800, (i["/tmp/usage.2000"] - i["/tmp/usage.200"]) / 1800 }' /tmp/usage.200 /tmp/usage.2000
}
scenario_round_trip() {
    swift_medians="" floor_medians="" c_medians="" ratios="" floor_ratios="" over_floor=""
    for run in 1 2 3 4 5 6 7 8 9 10 11; do
        $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips 400 >/tmp/rt.swift 2>&1
        /bin/async_floor info --transport hci0 --round-trips 400 >/tmp/rt.floor 2>&1
        /bin/hci_baseline round-trip hci0 400 >/tmp/rt.c 2>&1
        s=$(round_trip_median /tmp/rt.swift) f=$(round_trip_median /tmp/rt.floor) c=$(round_trip_median /tmp/rt.c)
        swift_medians="$swift_medians $s"
        floor_medians="$floor_medians $f"
        c_medians="$c_medians $c"
        [ -n "$s" ] && [ -n "$c" ] && ratios="$ratios $(ratio "$s" "$c")"
        [ -n "$f" ] && [ -n "$c" ] && floor_ratios="$floor_ratios $(ratio "$f" "$c")"
        [ -n "$s" ] && [ -n "$f" ] && over_floor="$over_floor $(ratio "$s" "$f")"
    done
    echo "KBENCH MEASURE hci-round-trip-pairs swift-att$swift_medians ms; C$c_medians ms (eleven alternating runs of 400); each run's ratio$ratios, median $(median "$ratios")×"
    echo "KBENCH MEASURE hci-round-trip-floor Swift's floor$floor_medians ms, each run ÷ C$floor_ratios, median $(median "$floor_ratios")×; swift-att ÷ the floor, median of the runs $(median "$over_floor")× (async_floor.swift, between the two in each run)"
    swift_median=$(median "$swift_medians")
    c_median=$(median "$c_medians")
    if [ -n "$swift_median" ] && [ -n "$c_median" ]; then
        echo "KBENCH MEASURE hci-round-trip-vs-c $(ratio "$swift_median" "$c_median")× (median of medians: swift-att $swift_median ms, C $c_median ms)"
        result round-trip-vs-c PASS "swift-att $swift_median ms, C $c_median ms (median of eleven runs' medians)"
    else
        result round-trip-vs-c FAIL "swift-att: $(tail -n 1 /tmp/rt.swift) C: $(tail -n 1 /tmp/rt.c)"
    fi
    swift_calls=$(syscalls_per_trip $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips)
    c_calls=$(syscalls_per_trip /bin/hci_baseline round-trip hci0)
    echo "KBENCH MEASURE hci0-syscalls swift-att ${swift_calls:-not counted}, C ${c_calls:-not counted} per round trip (strace -f -c)"
    swift_cpu=$(round_trip_usage $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips && round_trip_cpu)
    c_cpu=$(round_trip_usage /bin/hci_baseline round-trip hci0 && round_trip_cpu)
    echo "KBENCH MEASURE hci0-round-trip-cpu swift-att ${swift_cpu:-not measured}; C ${c_cpu:-not measured} (the process's CPU per round trip: 2000 trips minus 200)"
}

# Not among the default scenarios: `Tests/kernel/run.sh --only round_trip_shape`. The C
# round trip given swift-att's shape one piece at a time (hci_baseline.c's knobs: an idle
# wake-up pipe in its poll, idle threads in the process, pages of memory touched around
# each write and read), with swift-att's own figures beside them: which of them costs
# swift-att its extra time per round trip.
scenario_round_trip_shape() {
    for shape in plain pipe threads both pages-32 pages-128 pages-512 swift-att; do
        case $shape in
            plain) set -- /bin/hci_baseline round-trip hci0 ;;
            pages-*) set -- env HCI_BASELINE_TOUCH_PAGES=${shape#pages-} /bin/hci_baseline round-trip hci0 ;;
            pipe) set -- env HCI_BASELINE_WAKE_PIPE=1 /bin/hci_baseline round-trip hci0 ;;
            threads) set -- env HCI_BASELINE_THREADS=3 /bin/hci_baseline round-trip hci0 ;;
            both) set -- env HCI_BASELINE_WAKE_PIPE=1 HCI_BASELINE_THREADS=3 /bin/hci_baseline round-trip hci0 ;;
            swift-att) set -- $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips ;;
        esac
        medians=""
        for run in 1 2 3; do
            "$@" 200 >/tmp/shape.out 2>&1
            medians="$medians $(round_trip_median /tmp/shape.out)"
        done
        if round_trip_usage "$@"; then
            usage="$(round_trip_cpu); $(round_trip_switches)"
        else
            usage="CPU not measured"
        fi
        echo "KBENCH MEASURE round-trip-shape-$shape$medians ms (three runs of 200); $usage"
    done
}

# Not among the default scenarios: `KERNEL_BENCH_SWIFT_ATT_B=PATH Tests/kernel/run.sh --only
# round_trip_ab`. Two builds of swift-att (the booted one, A, and /bin/swift-att-b) and
# the C baseline, taking turns for 21 rounds of 400 round trips in one boot: a change's
# effect on the hci0 round trip, before and after in the same run. Boots differ from each
# other by more than most changes do (the same build measured 1.03x to 1.35x C), so builds
# are compared within a boot, round by round: the median of B/A over the rounds.
scenario_round_trip_ab() {
    if [ ! -x /bin/swift-att-b ]; then
        result round-trip-ab SKIP "no second build (KERNEL_BENCH_SWIFT_ATT_B=PATH)"
        return
    fi
    a_medians="" b_medians="" c_medians="" ratios=""
    rounds=21 run=0
    while [ $run -lt $rounds ]; do
        run=$((run + 1))
        $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips 400 >/tmp/ab.a 2>&1
        /bin/swift-att-b info --transport hci0 --bonds $GUEST_BONDS --round-trips 400 >/tmp/ab.b 2>&1
        /bin/hci_baseline round-trip hci0 400 >/tmp/ab.c 2>&1
        a=$(round_trip_median /tmp/ab.a) b=$(round_trip_median /tmp/ab.b) c=$(round_trip_median /tmp/ab.c)
        if [ -z "$a" ] || [ -z "$b" ] || [ -z "$c" ]; then
            result round-trip-ab FAIL "round $run: A: $(tail -n 1 /tmp/ab.a) B: $(tail -n 1 /tmp/ab.b) C: $(tail -n 1 /tmp/ab.c)"
            return
        fi
        a_medians="$a_medians $a" b_medians="$b_medians $b" c_medians="$c_medians $c"
        ratios="$ratios $(ratio "$b" "$a" %.3f)"
    done
    a=$(median "$a_medians") b=$(median "$b_medians") c=$(median "$c_medians")
    echo "KBENCH MEASURE round-trip-ab A$a_medians ms; B$b_medians ms; C$c_medians ms ($rounds rounds of 400, taking turns)"
    echo "KBENCH MEASURE round-trip-ab-ratio B/A $(median "$ratios") (median of the rounds' ratios:$ratios); A $(ratio "$a" "$c")x C, B $(ratio "$b" "$c")x C (medians: A $a ms, B $b ms, C $c ms)"
    result round-trip-ab PASS "B/A $(median "$ratios") over $rounds rounds"
}

# Not among the default scenarios: `Tests/kernel/run.sh --only round_trip_trace`. The
# scheduler's own account of a round trip (ftrace's sched_switch and sched_wakeup, 300
# trips of each program): how often a trip switches the program out, preempted (R) or
# asleep (S), and what runs in its place; and who wakes it. round_trip_shape counts the
# switches; this says which task takes the CPU from swift-att the extra time. A program's
# threads are found by its thread group (the bridge is a swift-att too).
scenario_round_trip_trace() {
    T=/sys/kernel/tracing
    [ -e $T/trace ] || mount -t tracefs tracefs $T 2>/dev/null
    if [ ! -e $T/events/sched/sched_switch/enable ]; then
        result round-trip-trace SKIP "no tracefs with sched events in this kernel"
        return
    fi
    for program in C swift-att; do
        case $program in
            C) set -- /bin/hci_baseline round-trip hci0 ;;
            swift-att) set -- $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS --round-trips ;;
        esac
        echo 0 >$T/tracing_on
        echo 16384 >$T/buffer_size_kb
        echo 1 >$T/options/record-tgid
        echo >$T/trace
        echo 1 >$T/events/sched/sched_switch/enable
        echo 1 >$T/events/sched/sched_wakeup/enable
        echo 1 >$T/tracing_on
        "$@" 300 >/dev/null 2>&1 &
        pid=$!
        wait $pid
        echo 0 >$T/tracing_on
        # The program's threads are those the trace shows running in its thread group
        # (first pass); a comm may hold spaces, so fields are cut at the next key.
        awk -v tgid="$pid" -v program="$program" '
            function between(line, key, next_key,    rest) {
                rest = substr(line, index(line, key) + length(key))
                return next_key == "" ? rest : substr(rest, 1, index(rest, next_key) - 1)
            }
            function kind(comm) { sub(/\/.*$/, "", comm); return comm }  # kworker/0:1: kworker
            FNR == NR {
                if (/ sched_switch: / && match($0, /\( *[0-9]+\)/)) {
                    group = substr($0, RSTART + 1, RLENGTH - 2); gsub(/ /, "", group)
                    if (group == tgid) threads[between($0, "prev_pid=", " prev_prio=")] = 1
                }
                next
            }
            / sched_switch: / && (between($0, "prev_pid=", " prev_prio=") in threads) {
                state = substr(between($0, "prev_state=", " ==>"), 1, 1)
                out[state " to " kind(between($0, "next_comm=", " next_pid="))]++
            }
            / sched_wakeup: / && (between($0, " pid=", " prio=") in threads) {
                waker = $0; sub(/^ */, "", waker); sub(/-[0-9]+ +\(.*$/, "", waker)
                woke[kind(waker)]++
            }
            END {
                line = ""
                for (k in out) line = line sprintf("%s %.2f; ", k, out[k] / 300)
                wakers = ""
                for (k in woke) wakers = wakers sprintf("%s %.2f; ", k, woke[k] / 300)
                printf "KBENCH MEASURE round-trip-trace-%s switched out per trip: %s woken per trip by: %s\n", program, line, wakers
            }' $T/trace $T/trace
        # And a stretch of the steady state as it happened, from the middle of the run:
        # who switched to whom (with the state left in) and who woke whom, in order.
        echo "KBENCH TRACE $program is process $pid"
        total=$(grep -c ' sched_' $T/trace)
        grep ' sched_' $T/trace | sed -n "$((total / 2)),$((total / 2 + 40))p" | awk -v program="$program" '
            function between(line, key, next_key,    rest) {
                rest = substr(line, index(line, key) + length(key))
                return next_key == "" ? rest : substr(rest, 1, index(rest, next_key) - 1)
            }
            {
                match($0, /[0-9]+\.[0-9]+:/); at = substr($0, RSTART, RLENGTH - 1)
                if (/ sched_switch: /)
                    what = between($0, "prev_comm=", " prev_pid=") "-" between($0, "prev_pid=", " prev_prio=") \
                        "(" between($0, "prev_state=", " ==>") ") -> " between($0, "next_comm=", " next_pid=") "-" between($0, "next_pid=", " next_prio=")
                else {
                    waker = $0; sub(/^ */, "", waker); sub(/ +\(.*$/, "", waker)
                    what = waker " wakes " between($0, "comm=", " pid=") "-" between($0, " pid=", " prio=")
                }
                printf "KBENCH TRACE %s %s %s\n", program, at, what
            }'
    done
    echo 0 >$T/events/sched/sched_switch/enable
    echo 0 >$T/events/sched/sched_wakeup/enable
    echo 0 >$T/options/record-tgid
    echo >$T/trace
    result round-trip-trace PASS "see the round-trip-trace figures"
}

# Not among the default scenarios: `Tests/kernel/run.sh --only clock`. The guest's
# clock source and what a clock read costs in it (a host reads the clock a few times a
# turn; C's round trip twice).
scenario_clock() {
    source=/sys/devices/system/clocksource/clocksource0
    echo "KBENCH MEASURE clock $(/bin/hci_baseline clock 100000) (clock source $(cat $source/current_clocksource); available: $(cat $source/available_clocksource))"
    result clock PASS "see the clock figure"
}

# (b) swift-att peripheral heart-rate over hci0; a Bumble central on the host subscribes.
# Meanwhile (c, EBUSY) a second process opening hci0 is told who holds it.
scenario_heart_rate() {
    $SWIFT_ATT peripheral heart-rate --transport hci0 --bonds $GUEST_BONDS --interval 100 --json --duration 60 >/tmp/hr.out 2>/tmp/hr.err &
    pid=$!
    if ! wait_for /tmp/hr.out '"event":"advertising"' 100; then
        result peripheral-heart-rate FAIL "never advertised: $(cat /tmp/hr.err)"
        result error-ebusy FAIL "no peripheral to hold hci0"
        stop_peripheral $pid
        return
    fi
    address=$(advertised_address /tmp/hr.out)
    echo "KBENCH NEED heart-rate-central $address"

    $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS >/tmp/busy.out 2>/tmp/busy.err
    rc=$?
    $SWIFT_ATT adapters >/tmp/busy-adapters.out 2>&1
    if [ $rc = 3 ] && grep -q '^swift-att: error: hci0 is in use by another process (usually bluetoothd): stop it with .systemctl stop bluetooth. or power the adapter off with .btmgmt -i hci0 power off., then retry$' /tmp/busy.err \
        && grep -q '^hci0  .* another program on the HCI user channel$' /tmp/busy-adapters.out; then
        result error-ebusy PASS "$(cat /tmp/busy.err)"
    else
        result error-ebusy FAIL "exit $rc: $(cat /tmp/busy.err) / $(cat /tmp/busy-adapters.out)"
    fi

    # The central subscribes; the five measurements it waits for go out (one every 100 ms).
    # It disconnects once it has them (bumble_peer.py disconnects as it exits), so a sixth
    # goes out only if the timer beats the disconnection.
    if wait_for /tmp/hr.out '"event":"subscribed".*"2A37"' 300 && \
        i=0 && while [ "$(count_of '"event":"sent"' /tmp/hr.out)" -lt 5 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done && \
        [ "$(count_of '"event":"sent"' /tmp/hr.out)" -ge 5 ]; then
        sent=ok
    else
        sent=""
    fi
    stop_peripheral $pid
    rc=$?
    if [ -n "$sent" ] && [ $rc = 0 ] && grep -q '"event":"connected"' /tmp/hr.out && tail -n 1 /tmp/hr.out | grep -q '"event":"stopped","reason":"SIGINT"' \
        && [ -n "$address" ] && [ "$address" = "$GUEST_IDENTITY" ]; then
        result peripheral-heart-rate PASS "advertised as $address (the identity info made in $GUEST_BONDS), central connected and subscribed, $(count_of '"event":"sent"' /tmp/hr.out) measurements sent, stopped on SIGINT"
    else
        result peripheral-heart-rate FAIL "exit $rc, advertised as $address (identity in $GUEST_BONDS: ${GUEST_IDENTITY:-none}), sent=$(count_of '"event":"sent"' /tmp/hr.out): $(tail -n 3 /tmp/hr.out | tr '\n' ' ') $(cat /tmp/hr.err)"
    fi
}

# cpu_ticks: the guest's busy and idle clock ticks so far (/proc/stat, USER_HZ 100).
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
# proc_ticks PID: the process's user + system ticks so far.
proc_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# bridge_pid: the `swift-att bridge` that guest-init.sh started.
bridge_pid() {
    for p in /proc/[0-9]*; do
        tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q '^/bin/swift-att bridge ' && { echo "${p#/proc/}"; return; }
    done
}

# Notification rate over the kernel path: transfer sends /transfer.txt in 20-byte
# notifications, each as soon as the last was accepted; the host's central times them.
scenario_notification_rate() {
    # Gone before the peripheral starts, so that a run after the first waits for its own
    # lines, not the last run's (the shell truncates the file in the child, later).
    rm -f /tmp/tr.out /tmp/tr.err
    $SWIFT_ATT peripheral transfer --transport hci0 --bonds $GUEST_BONDS --file /transfer.txt --json --duration 120 >/tmp/tr.out 2>/tmp/tr.err &
    pid=$!
    if ! wait_for /tmp/tr.out '"event":"advertising"' 100; then
        result notification-rate FAIL "never advertised: $(cat /tmp/tr.err)"
        stop_peripheral $pid
        return
    fi
    echo "KBENCH NEED transfer-central $(advertised_address /tmp/tr.out)"
    # Where the guest's CPU goes while the notifications flow: the whole guest (/proc/stat),
    # the peripheral and the bridge (their utime + stime), from the transfer's start to its end.
    wait_for /tmp/tr.out '"event":"transfer-started"' 300
    bridge=$(bridge_pid)
    set -- $(cpu_ticks) $(proc_ticks $pid) $(proc_ticks "$bridge")
    wait_for /tmp/tr.out '"event":"transfer-complete"' 900
    set -- "$@" $(cpu_ticks) $(proc_ticks $pid) $(proc_ticks "$bridge")
    [ $# = 8 ] && echo "KBENCH MEASURE notification-rate-cpu $(awk -v b0="$1" -v i0="$2" -v p0="$3" -v r0="$4" -v b1="$5" -v i1="$6" -v p1="$7" -v r1="$8" 'BEGIN {
        t = (b1 - b0) + (i1 - i0); if (t <= 0) t = 1
        printf "guest CPU %.0f%% busy over %.2f s: the swift-att peripheral %.0f%%, the bridge %.0f%%, the rest (kernel, interrupts) %.0f%%", 100 * (b1 - b0) / t, t / 100, 100 * (p1 - p0) / t, 100 * (r1 - r0) / t, 100 * ((b1 - b0) - (p1 - p0) - (r1 - r0)) / t }')"
    done_line=$(grep '"event":"transfer-complete"' /tmp/tr.out)
    stop_peripheral $pid
    rc=$?
    bytes=$(wc -c </transfer.txt)
    if [ -n "$done_line" ] && [ $rc = 0 ] && echo "$done_line" | grep -q "\"bytes\":$bytes,"; then
        result notification-rate PASS "$done_line"
    else
        result notification-rate FAIL "exit $rc: $(tail -n 2 /tmp/tr.out | tr '\n' ' ') $(cat /tmp/tr.err)"
    fi
}

# The notification rate and the raw pump three times each, alternating: the emulated
# CPU's speed drifts within a boot (one rate moved by a third between runs), and medians
# of runs taken in turn compare the two at the same moments, as scenario_round_trip does.
scenario_notification_pairs() {
    for round in 1 2 3; do
        scenario_notification_rate
        scenario_raw_pump
    done
}

# The raw ACL pump on the same path (Tests/kernel/hci_baseline.c `pump`): bare ACL
# notifications from hci0, as fast as the controller's credits allow, no host stack; the
# host times them with acl_receiver.py on transfer-central's controller. The ceiling the
# full host's notification rate above is compared with, in the same boot.
scenario_raw_pump() {
    rm -f /tmp/pump.out  # as scenario_notification_rate's output: each run waits for its own
    /bin/hci_baseline pump hci0 5000 >/tmp/pump.out 2>&1 &
    pump=$!
    if ! wait_for /tmp/pump.out 'PUMP advertising' 100; then
        result raw-pump FAIL "never advertised: $(cat /tmp/pump.out)"
        kill $pump 2>/dev/null
        return
    fi
    echo "KBENCH NEED pump-receiver $(sed -n 's/^PUMP advertising //p' /tmp/pump.out)"
    set -- $(cpu_ticks) $(proc_ticks "$(bridge_pid)")
    wait_for /tmp/pump.out 'PUMP sent' 900
    set -- "$@" $(cpu_ticks) $(proc_ticks "$(bridge_pid)")
    [ $# = 6 ] && echo "KBENCH MEASURE pump-rate-cpu $(awk -v b0="$1" -v i0="$2" -v r0="$3" -v b1="$4" -v i1="$5" -v r1="$6" 'BEGIN {
        t = (b1 - b0) + (i1 - i0); if (t <= 0) t = 1
        printf "guest CPU %.0f%% busy over %.2f s: the bridge %.0f%%, the rest (the pump, the kernel, interrupts) %.0f%%", 100 * (b1 - b0) / t, t / 100, 100 * (r1 - r0) / t, 100 * ((b1 - b0) - (r1 - r0)) / t }')"
    wait $pump
    rc=$?
    if [ $rc = 0 ] && grep -q '^PUMP sent 5000 packets' /tmp/pump.out; then
        result raw-pump PASS "$(grep '^PUMP sent' /tmp/pump.out)"
    else
        result raw-pump FAIL "exit $rc: $(tail -n 2 /tmp/pump.out | tr '\n' ' ')"
    fi
}

# (c) The other error paths, for real.
scenario_errors() {
    # A user without CAP_NET_ADMIN.
    su -s /bin/sh nobody -c "$SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS" >/tmp/perm.out 2>/tmp/perm.err
    rc=$?
    if [ $rc = 3 ] && grep -q "^swift-att: error: opening hci0 needs root or CAP_NET_ADMIN: run with sudo, or grant the binary the capability with 'sudo setcap cap_net_admin+ep \$(which swift-att)'$" /tmp/perm.err; then
        result error-eperm PASS "$(cat /tmp/perm.err)"
    else
        result error-eperm FAIL "exit $rc: $(cat /tmp/perm.err)"
    fi

    # An adapter that does not exist: the message lists the ones that do.
    $SWIFT_ATT info --transport hci7 --bonds $GUEST_BONDS >/tmp/nodev.out 2>/tmp/nodev.err
    rc=$?
    if [ $rc = 3 ] && grep -q '^swift-att: error: no such adapter hci7 (adapters present: hci0)$' /tmp/nodev.err; then
        result error-enodev PASS "$(cat /tmp/nodev.err)"
    else
        result error-enodev FAIL "exit $rc: $(cat /tmp/nodev.err)"
    fi

    # rfkill: soft-block hci0's switch through sysfs, open, unblock.
    switch=""
    for r in /sys/class/rfkill/rfkill*; do
        [ "$(cat "$r/name" 2>/dev/null)" = hci0 ] && switch=$r
    done
    if [ -z "$switch" ]; then
        result error-rfkill FAIL "hci0 has no rfkill switch in /sys/class/rfkill"
        return
    fi
    echo 1 >"$switch/soft"
    $SWIFT_ATT info --transport hci0 --bonds $GUEST_BONDS >/tmp/rfkill.out 2>/tmp/rfkill.err
    rc=$?
    echo 0 >"$switch/soft"
    if [ $rc = 3 ] && grep -q "^swift-att: error: hci0 is blocked by rfkill: unblock it with 'rfkill unblock bluetooth'$" /tmp/rfkill.err; then
        result error-rfkill PASS "$(cat /tmp/rfkill.err)"
    else
        result error-rfkill FAIL "exit $rc: $(cat /tmp/rfkill.err)"
    fi
}

# (d) swift-att central over hci0 against a Bumble peripheral (the host runs one on the
# third controller, advertising "Bumble HRM" with service 180D): scan by name and service
# UUID, connect, discover, read a long value, write, subscribe, receive notifications.
# Hook: replace this body once `swift-att central` exists.
# (d) swift-att central over hci0 against Bumble's GATT server on the host
# (Tests/bench/bumble_server.py: heart rate, a 300-octet value, notifications every 100 ms
# once subscribed): scan by name, discover, long read, write, subscribe.
scenario_central() {
    echo "KBENCH NEED bumble-peripheral"
    long=5a7e0002-5eed-4a11-9c0d-5a7e00000000
    central() { $SWIFT_ATT central "$@" --transport hci0 --bonds $GUEST_BONDS --timeout 20; }
    if ! central discover "Bumble HR" >/tmp/cd.out 2>/tmp/cd.err; then
        result central-over-hci0 FAIL "discover: $(tail -n 1 /tmp/cd.err)"; return
    fi
    if ! grep -q '^Service 180D Heart Rate' /tmp/cd.out || ! grep -q '5A7E0002-5EED-4A11-9C0D-5A7E00000000  \[read, write\]' /tmp/cd.out; then
        result central-over-hci0 FAIL "discover printed no heart-rate service and long value"; return
    fi
    central read "Bumble HR" $long --json >/tmp/cr.out 2>/tmp/cr.err
    value=$(grep '"event":"read"' /tmp/cr.out | sed 's/.*"value":"\([0-9a-f]*\)".*/\1/')
    if [ "${#value}" != 600 ] || [ "${value#000102030405}" = "$value" ]; then
        result central-over-hci0 FAIL "long read: ${#value} hex digits: $(tail -n 1 /tmp/cr.err)"; return
    fi
    if ! central write "Bumble HR" 2A39 01 >/tmp/cw.out 2>/tmp/cw.err; then
        result central-over-hci0 FAIL "write: $(tail -n 1 /tmp/cw.err)"; return
    fi
    central subscribe "Bumble HR" 2A37 --count 3 --json >/tmp/cs.out 2>/tmp/cs.err
    if [ "$(count_of '"event":"notification".*"bpm"' /tmp/cs.out)" != 3 ]; then
        result central-over-hci0 FAIL "subscribe: $(tail -n 1 /tmp/cs.err)"; return
    fi
    result central-over-hci0 PASS "discovered, read 300 octets, wrote 2A39, 3 heart-rate notifications"
}

# (e) The Linux kernel's own Security Manager as the peer. hci1 is a second vhci adapter,
# bridged to its own Bumble controller and left to the kernel: btmgmt sets it up through
# the management socket and gatttool reads over the kernel's L2CAP ATT socket, so the
# kernel's SMP pairs with swift-att's (no bluetoothd, no D-Bus). swift-att serves
# kernel-smp.json on hci0 with --json, so it reports its side of each pairing (the
# "paired" and "security" events, the number it compared), and captures hci0: `swift-att
# dump` of the capture shows the order of events on each link and the LTK swift-att gave
# its controller. Its bond file holds the key it kept, and debugfs the key the kernel
# stored. One swift-att process (NoInputNoOutput) serves the reads at sec-level medium and
# low, a second (DisplayYesNo) those at sec-level high, each with a bond file of its own,
# so the second comes up under a new identity the kernel has no key for.
SMP_DB=/kernel-smp.json
# The characteristics read: their values fit one Read By Type Response at ATT_MTU 23
# (19 octets), as gatttool reads no further.
SMP_ENCRYPTED=5A7E0102-5EED-4A11-9C0D-5A7E00000000
SMP_AUTHENTICATED=5A7E0103-5EED-4A11-9C0D-5A7E00000000
SMP_SCENARIOS="kernel-smp-pair kernel-smp-bond kernel-smp-low kernel-smp-high"
SMP_BONDS=$BONDS/kernel-smp.json
HIGH_BONDS=$BONDS/kernel-smp-high.json
# A static random address for hci1: the kernel would otherwise connect from its public
# address, whose ACL data Bumble's link drops (BENCH.md quirk 13).
HCI1_ADDRESS=C0:4B:00:00:00:01
LTKS=/sys/kernel/debug/bluetooth/hci1/long_term_keys

# db_text UUID: the "text" of UUID's characteristic in $SMP_DB (one key per line there).
db_text() {
    sed -n "/\"uuid\": \"$1\"/,/\"text\"/ s/.*\"text\": \"\(.*\)\".*/\1/p" "$SMP_DB"
}

# hex_of TEXT: its bytes as gatttool prints a value ("73 65 61").
hex_of() {
    printf '%s' "$1" | od -An -tx1 -v | tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//'
}

# read_value FILE: the value gatttool printed for a read by UUID
# ("handle: 0x0013 <tab> value: 73 65 ..."), in hex.
read_value() {
    sed -n 's/^handle: 0x[0-9a-f]*[[:space:]]*value: \(.*\)$/\1/p' "$1" | head -n 1 | sed 's/ *$//'
}

# mgmt ARGS: one btmgmt command on hci1, its output kept for the report. btmgmt exits 0
# even when the kernel refuses, so its words decide.
mgmt() {
    echo "# btmgmt -i hci1 $*" >>/tmp/btmgmt.out
    timeout 10 btmgmt -i hci1 "$@" >/tmp/btmgmt.last 2>&1
    rc=$?
    cat /tmp/btmgmt.last >>/tmp/btmgmt.out
    [ $rc = 0 ] && ! grep -q 'failed' /tmp/btmgmt.last
}

# The kernel asks user space to confirm every LE Secure Connections pairing that is not
# Passkey Entry: a Numeric Comparison (a management User Confirm Request with hint 0 and
# the six-digit number) and, in Debian's kernel, even a Just Works pairing it starts
# itself with NoInputNoOutput (hint 1, after the Pairing Random exchange). It waits for
# the answer, which bluetoothd's agent would give. Here an interactive btmgmt on hci1
# prints "hci1 ADDRESS User Confirm NNNNNN hint H", asks "Accept pairing ... (yes/no)",
# and a loop that holds the write end of its input FIFO answers yes to each question.
# Ending the loop closes the FIFO: btmgmt exits.
agent_start() {
    rm -f /tmp/agent.in && mkfifo /tmp/agent.in
    btmgmt -i hci1 </tmp/agent.in >/tmp/agent.out 2>&1 &
    AGENT=$!
    (
        answered=0
        while kill -0 $AGENT 2>/dev/null; do
            asked=$(count_of 'User Confirm [0-9]' /tmp/agent.out)
            while [ "$answered" -lt "$asked" ]; do echo yes; answered=$((answered + 1)); done
            sleep 0.1
        done
    ) >/tmp/agent.in &
    AGENT_ANSWERS=$!
}

agent_stop() {
    kill -TERM $AGENT_ANSWERS 2>/dev/null
    wait $AGENT_ANSWERS 2>/dev/null
    i=0
    while kill -0 $AGENT 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    kill -TERM $AGENT 2>/dev/null
    wait $AGENT 2>/dev/null
}

# user_confirms FROM: the User Confirm Requests btmgmt printed, from the FROM-th on (1 is
# the first), one "NNNNNN hint H" a line.
user_confirms() {
    sed -n 's/.*User Confirm \([0-9]*\) hint \([0-9]*\).*/\1 hint \2/p' /tmp/agent.out | sed -n "$1,\$p"
}

# gatt ADDRESS UUID LEVEL OUT [SECONDS]: gatttool reads UUID's characteristic from the
# swift-att peripheral at ADDRESS at LEVEL through hci1 (Read By Type, so no handle to
# know). No "-i hci1": that names hci1's public address as the source, which the kernel
# routes nowhere once hci1's identity is its static address (EHOSTUNREACH); with no
# source the kernel takes the one adapter that is up and not on the user channel, hci1.
# Bounded (SECONDS, 40 by default): gatttool waits as long as the kernel's connection
# attempt does.
gatt() {
    timeout "${5:-40}" gatttool -t random -b "$1" --sec-level="$3" --char-read --uuid="$2" >"$4" 2>&1
}

# disconnections_reach N [OUT]: until the swift-att peripheral printing OUT (/tmp/smp.out
# by default) has seen N links close (the kernel drops an idle LE link about 2 s after
# gatttool's socket closes), so the next read is a new link.
disconnections_reach() {
    i=0
    while [ "$(count_of '"event":"disconnected"' "${2:-/tmp/smp.out}")" -lt "$1" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
    [ "$(count_of '"event":"disconnected"' "${2:-/tmp/smp.out}")" -ge "$1" ]
}

# kernel_ltk ADDRESS: hci1's stored LTK for the peripheral at ADDRESS, as debugfs prints
# it: address (type), authenticated, key type, key size, EDIV, Rand, the key least
# significant octet first.
kernel_ltk() {
    grep -i "^$1 " $LTKS 2>/dev/null | head -n 1
}

# ltk_words LINE: a debugfs LTK line's fields in words, for the report.
ltk_words() {
    echo "$1" | awk '{ printf "debugfs: authenticated %s, type %s, %s octets", $4, $5, $6 }'
}

# links_in_capture DUMP: one line per connection in swift-att's capture of hci0 (as
# `swift-att dump` prints it, SMP decoded): how often the kernel sent a Pairing Request,
# the link was encrypted (Encryption Change), swift-att refused a request for want of
# encryption (ATT error 0x0F) or of authentication (0x05), the LTK swift-att gave its
# controller (a decimal number), and the order of those events.
links_in_capture() {
    awk '
        /LE Connection Complete/ { n++ }
        /SMP: Pairing Request \(0x01\)/ { pairing[n]++; order[n] = order[n] "pair," }
        /HCI Event: Encryption Change/ { encrypted[n]++; order[n] = order[n] "encrypt," }
        /Error: +0x0f / { refused[n]++; order[n] = order[n] "refuse," }
        /Error: +0x05 / { refused[n]++; order[n] = order[n] "refuse-auth," }
        /Read By Type Response/ { order[n] = order[n] "read," }
        reply && /Long term key:/ { ltk[n] = $NF; reply = 0 }
        /HCI Command: LE Long Term Key Request Reply / { reply = 1 }
        END {
            for (i = 1; i <= n; i++)
                printf "link %d: pairing=%d encrypted=%d refused=%d ltk=%s order=%s\n",
                    i, pairing[i], encrypted[i], refused[i], (i in ltk) ? ltk[i] : "none", order[i]
        }' "$1"
}

# link_field N NAME [LINKS]: NAME's value on link N's line of LINKS (/tmp/smp.links).
link_field() {
    sed -n "s/^link $1: .*$2=\([^ ]*\).*/\1/p" "${3:-/tmp/smp.links}"
}

# link_story N [LINKS]: link N's events in words, for the report.
link_story() {
    link_field "$1" order "$2" | sed 's/pair,/Pairing Request, /g; s/refuse-auth,/read refused (Insufficient Authentication), /g;
        s/refuse,/read refused (Insufficient Encryption), /g; s/encrypt,/encrypted, /g; s/read,/read answered, /g; s/, $//'
}

# decimal_to_hex N: a 128-bit number (as swift-att dump prints an LTK) in 32 hex digits.
decimal_to_hex() {
    awk -v n="$1" 'BEGIN {
        hex = ""
        while (n != "" && n != "0") {          # long division by 16, one decimal digit at a time
            q = ""; r = 0
            for (i = 1; i <= length(n); i++) {
                r = r * 10 + substr(n, i, 1)
                d = int(r / 16); r = r % 16
                if (q != "" || d > 0) q = q d
            }
            hex = substr("0123456789abcdef", r + 1, 1) hex
            n = (q == "") ? "0" : q
        }
        while (length(hex) < 32) hex = "0" hex
        print hex
    }'
}

# reverse_octets HEX: the octets in the other order (debugfs prints a key as stored,
# least significant octet first).
reverse_octets() {
    echo "$1" | sed 's/../& /g' | awk '{ for (i = NF; i >= 1; i--) printf "%s", $i; print "" }'
}

# json_event OUT EVENT: the first EVENT object a swift-att --json printed in OUT.
json_event() {
    grep "\"event\":\"$2\"" "$1" | head -n 1
}

# json_has OBJECT FIELD VALUE: OBJECT (one line of JSON) has "FIELD":VALUE (VALUE as
# written in JSON: true, 16, "\"Just Works\"").
json_has() {
    echo "$1" | grep -q "\"$2\":$3[,}]"
}

# json_string OBJECT FIELD: the string FIELD holds in OBJECT.
json_string() {
    echo "$1" | sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p"
}

# bond_keys BONDS: every LTK the bond file BONDS holds (swift-att bonds list --keys;
# 32 lowercase hex digits, most significant first), one a line.
bond_keys() {
    $SWIFT_ATT bonds list --keys --json --bonds "$1" 2>&1 | tee "$1.list" \
        | grep -o '"key":"[0-9A-Fa-f]*"' | sed 's/"key":"\(.*\)"/\1/' | tr 'A-F' 'a-f'
}

smp_fail_all() {
    for name in $SMP_SCENARIOS; do result "$name" FAIL "$1"; done
}

scenario_kernel_smp() {
    if [ -z "$KERNEL_PORT" ]; then
        smp_fail_all "no virtio-serial port named hci-kernel"
        l2cap_fail_all "no virtio-serial port named hci-kernel"
        return
    fi
    smp_started=$(cut -d' ' -f1 /proc/uptime)
    mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
    : >/tmp/btmgmt.out
    $SWIFT_ATT bridge vhci "h4:$KERNEL_PORT" >/tmp/bridge1.out 2>&1 &
    bridge=$!
    # hci1 is the kernel's once its setup is done and it is on the management index list
    # (until then btmgmt says Invalid Index).
    i=0
    while ! { timeout 5 btmgmt -i hci1 info 2>&1 | grep -q 'addr '; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    # Settings while it is off (a static address can only be set then; the kernel powers
    # a new adapter down once set up), then power on. No "bredr off": Bumble's controller
    # is LE-only, so the kernel answers Not Supported.
    if ! { mgmt static-addr $HCI1_ADDRESS && mgmt le on && mgmt sc on && mgmt bondable on && mgmt io-cap 3 \
        && mgmt power on; }; then
        smp_fail_all "btmgmt could not set hci1 up: $(tail -n 2 /tmp/btmgmt.out | tr '\n' ' ') $(cat /tmp/bridge1.out)"
        l2cap_fail_all "btmgmt could not set hci1 up (see kernel-smp-pair)"
        kill -TERM $bridge; wait $bridge
        return
    fi
    btmgmt -i hci1 info 2>&1 | grep 'settings' | sed 's/^[[:space:]]*/KBENCH HCI1 /'
    agent_start

    smp_medium
    smp_high
    smp_ended=$(cut -d' ' -f1 /proc/uptime)
    # The same hci1, now for the kernel's credit-based channels (no pairing: open links).
    kernel_l2cap

    agent_stop
    kill -TERM $bridge; wait $bridge
    grep -o 'hci1 [0-9A-F:]* User Confirm [0-9]* hint [0-9]*\|User Confirm Reply successful' /tmp/agent.out | sed 's/^/KBENCH AGENT /'
    dmesg | grep 'Bluetooth: hci1' | sed 's/^/KBENCH DMESG /'
    echo "KBENCH MEASURE kernel-smp $(awk -v a="$smp_started" -v b="$smp_ended" 'BEGIN { printf "%.1f", b - a }') s (guest time: hci1 set up, two peripherals, 5 reads, captures decoded)"
}

# kernel-smp-pair, -bond and -low: swift-att with NoInputNoOutput (the default), the
# kernel's hci1 with NoInputNoOutput: LE Secure Connections, Just Works.
smp_medium() {
    $SWIFT_ATT peripheral --database $SMP_DB --transport hci0 --bonds $SMP_BONDS --json --btsnoop /tmp/smp.btsnoop \
        --duration 150 >/tmp/smp.out 2>/tmp/smp.err &
    pid=$!
    if ! wait_for /tmp/smp.out '"event":"advertising"' 100; then
        for name in kernel-smp-pair kernel-smp-bond kernel-smp-low; do
            result $name FAIL "swift-att never advertised: $(cat /tmp/smp.err)"
        done
        stop_peripheral $pid
        return
    fi
    SMP_ADDRESS=$(advertised_address /tmp/smp.out)
    expected=$(hex_of "$(db_text $SMP_ENCRYPTED)")

    # (a) sec-level medium: the kernel pairs (LE Secure Connections, Just Works, bonding),
    # encrypts, and the read returns the value. The kernel lets the read out while the
    # pairing is still under way (dmesg: "security requested but not available": the ATT
    # socket asked before SMP was ready on the link and went ahead), so swift-att refuses
    # it first and gatttool retries once encrypted; the report shows the order.
    gatt "$SMP_ADDRESS" $SMP_ENCRYPTED medium /tmp/gatt-pair.out
    sed 's/^/KBENCH GATTTOOL medium: /' /tmp/gatt-pair.out
    value_pair=$(read_value /tmp/gatt-pair.out)
    handle=$(sed -n 's/^handle: \(0x[0-9a-f]*\).*/\1/p' /tmp/gatt-pair.out)
    disconnections_reach 1
    ltk_kernel=$(kernel_ltk "$SMP_ADDRESS")

    # (b) sec-level medium on a new link: the kernel encrypts with the LTK it stored and
    # swift-att answers from its bond; nobody pairs again.
    gatt "$SMP_ADDRESS" $SMP_ENCRYPTED medium /tmp/gatt-bond.out
    sed 's/^/KBENCH GATTTOOL medium again: /' /tmp/gatt-bond.out
    value_bond=$(read_value /tmp/gatt-bond.out)
    disconnections_reach 2

    # (c) sec-level low: the read goes out unencrypted and swift-att refuses it
    # (Insufficient Encryption). gatttool's ATT layer then raises the link's security to
    # medium by itself and retries, so the kernel encrypts with the bond and the read
    # succeeds; the refusal is seen in the capture, not in gatttool's output. In about
    # one run in six gatttool writes the retry while the kernel still holds the socket
    # for encryption; the kernel drops it (ENOTCONN) and gatttool waits out its 30 s ATT
    # timeout, the link left up. Swift-att has done its part by then, so the read is
    # bounded at 20 s and the result says which way it went.
    gatt "$SMP_ADDRESS" $SMP_ENCRYPTED low /tmp/gatt-low.out 20
    sed 's/^/KBENCH GATTTOOL low: /' /tmp/gatt-low.out
    value_low=$(read_value /tmp/gatt-low.out)
    [ -n "$value_low" ] && disconnections_reach 3

    stop_peripheral $pid
    stopped=$?
    $SWIFT_ATT dump /tmp/smp.btsnoop >/tmp/smp.dump 2>&1
    links_in_capture /tmp/smp.dump >/tmp/smp.links
    sed 's/^/KBENCH CAPTURE /' /tmp/smp.links
    echo "KBENCH LTK hci1: ${ltk_kernel:-none}"
    # swift-att served three links and stopped cleanly on SIGINT.
    served=""
    [ "$stopped" = 0 ] && [ "$(count_of '"event":"connected"' /tmp/smp.out)" = 3 ] \
        && tail -n 1 /tmp/smp.out | grep -q '"event":"stopped","reason":"SIGINT"' && served=yes
    [ -n "$served" ] || sed 's/^/KBENCH SWIFT-ATT /' /tmp/smp.out /tmp/smp.err
    swift_ltk=$(decimal_to_hex "$(link_field 1 ltk)")
    kernel_key=$(reverse_octets "$(echo "$ltk_kernel" | awk '{ print $NF }')")
    asked=$(count_of 'User Confirm [0-9]' /tmp/agent.out)
    same_key=""
    [ -n "$ltk_kernel" ] && [ "$swift_ltk" = "$kernel_key" ] && same_key=yes
    bonded_key=""
    [ "$(link_field 2 ltk)" = "$(link_field 1 ltk)" ] && [ "$(link_field 3 ltk)" = "$(link_field 1 ltk)" ] && bonded_key=yes
    # swift-att's own word (--json): one pairing, Just Works over LE Secure Connections,
    # unauthenticated, bonded; and the key it kept in its bond file is the kernel's.
    paired=$(json_event /tmp/smp.out paired)
    echo "KBENCH SWIFT-ATT paired: ${paired:-none}"
    said_paired=""
    [ "$(count_of '"event":"paired"' /tmp/smp.out)" = 1 ] && json_has "$paired" method '"Just Works"' \
        && json_has "$paired" secureConnections true && json_has "$paired" authenticated false \
        && json_has "$paired" keySize 16 && json_has "$paired" bonded true && said_paired=yes
    kept_key=""
    [ -n "$same_key" ] && bond_keys $SMP_BONDS | grep -qx "$kernel_key" && kept_key=yes
    text=$(db_text $SMP_ENCRYPTED)

    if [ -n "$served" ] && [ "$value_pair" = "$expected" ] && [ "$(link_field 1 pairing)" = 1 ] && [ "$(link_field 1 encrypted)" -ge 1 ] \
        && [ -n "$same_key" ] && [ -n "$said_paired" ] && [ -n "$kept_key" ] && [ "$asked" = 1 ]; then
        result kernel-smp-pair PASS "gatttool --sec-level=medium read $handle = '$text' (as in kernel-smp.json); the kernel paired (LE Secure Connections, Just Works, bonding; its User Confirm answered by btmgmt) and encrypted; swift-att --json: paired, Just Works, unauthenticated, 16 octets, bonded; on the link: $(link_story 1); the kernel's LTK ($(ltk_words "$ltk_kernel")) = swift-att's (capture and bond file) = $swift_ltk"
    else
        result kernel-smp-pair FAIL "read '$value_pair' (expected '$expected'), $(sed -n 's/^link 1: //p' /tmp/smp.links), user confirms $asked, swift-att said '${paired:-nothing}', kernel LTK '${ltk_kernel:-none}' vs swift-att's $swift_ltk (kept in its bond file: ${kept_key:-no}): $(tr '\n' ' ' </tmp/gatt-pair.out)"
    fi
    if [ -n "$served" ] && [ "$value_bond" = "$expected" ] && [ "$(link_field 2 pairing)" = 0 ] && [ "$(link_field 2 encrypted)" -ge 1 ] \
        && [ "$(link_field 2 refused)" = 0 ] && [ -n "$bonded_key" ] && [ "$asked" = 1 ]; then
        result kernel-smp-bond PASS "a new link at --sec-level=medium: the kernel encrypted at once with its stored LTK and swift-att answered from its bond (same key), no second pairing; read '$text'"
    else
        result kernel-smp-bond FAIL "read '$value_bond', $(sed -n 's/^link 2: //p' /tmp/smp.links), user confirms $asked: $(tr '\n' ' ' </tmp/gatt-bond.out)"
    fi
    # swift-att's part of (c): refused the plain read, encrypted with the bond, no pairing.
    low_ok=""
    [ -n "$served" ] && [ "$(link_field 3 refused)" -ge 1 ] && [ "$(link_field 3 pairing)" = 0 ] \
        && [ "$(link_field 3 encrypted)" -ge 1 ] && [ -n "$bonded_key" ] && low_ok=yes
    if [ -n "$low_ok" ] && [ "$value_low" = "$expected" ]; then
        result kernel-smp-low PASS "--sec-level=low: swift-att refused the unencrypted Read By Type (Insufficient Encryption, in its capture); gatttool raised security itself and retried, the kernel encrypted with the bond (no pairing) and the read returned '$text'; on the link: $(link_story 3)"
    elif [ -n "$low_ok" ] && [ -z "$value_low" ] && [ "$(link_story 3)" = "read refused (Insufficient Encryption), encrypted" ]; then
        result kernel-smp-low PASS "--sec-level=low: swift-att refused the unencrypted Read By Type (Insufficient Encryption) and the kernel encrypted with the bond (no pairing), but gatttool's retried read never reached the link (written while the kernel held the socket for encryption: gatttool's race, not swift-att's); gatttool: $(tr '\n' ' ' </tmp/gatt-low.out)"
    else
        result kernel-smp-low FAIL "read '$value_low', $(sed -n 's/^link 3: //p' /tmp/smp.links): $(tr '\n' ' ' </tmp/gatt-low.out)"
    fi
}

# kernel-smp-high: --sec-level=high asks for MITM protection, which Just Works cannot
# give (the kernel fails such a pairing: Authentication Requirements). Both sides get
# DisplayYesNo (swift-att --io display-yesno --yes, hci1 io-cap 1), which over LE Secure
# Connections is Numeric Comparison: each side shows the same six digits and its user
# says yes (btmgmt's agent for the kernel, --yes for swift-att). Read: the authenticated
# characteristic, on a new link too, where the authenticated bond serves without pairing.
smp_high() {
    high_started=$(cut -d' ' -f1 /proc/uptime)
    if ! mgmt io-cap 1; then
        result kernel-smp-high FAIL "btmgmt could not make hci1 DisplayYesNo: $(tail -n 2 /tmp/btmgmt.out | tr '\n' ' ')"
        return
    fi
    confirms_before=$(count_of 'User Confirm [0-9]' /tmp/agent.out)
    $SWIFT_ATT peripheral --database $SMP_DB --transport hci0 --bonds $HIGH_BONDS --io display-yesno --yes --json \
        --btsnoop /tmp/high.btsnoop --duration 100 >/tmp/high.out 2>/tmp/high.err &
    pid=$!
    if ! wait_for /tmp/high.out '"event":"advertising"' 100; then
        result kernel-smp-high FAIL "swift-att --io display-yesno never advertised: $(cat /tmp/high.err)"
        stop_peripheral $pid
        return
    fi
    address=$(advertised_address /tmp/high.out)
    expected=$(hex_of "$(db_text $SMP_AUTHENTICATED)")

    # (d) The kernel pairs with MITM protection, then reads.
    gatt "$address" $SMP_AUTHENTICATED high /tmp/gatt-high.out
    sed 's/^/KBENCH GATTTOOL high: /' /tmp/gatt-high.out
    value_high=$(read_value /tmp/gatt-high.out)
    handle=$(sed -n 's/^handle: \(0x[0-9a-f]*\).*/\1/p' /tmp/gatt-high.out)
    disconnections_reach 1 /tmp/high.out
    ltk_high=$(kernel_ltk "$address")
    # (d') A new link at high: both sides encrypt with the authenticated bond, no pairing.
    gatt "$address" $SMP_AUTHENTICATED high /tmp/gatt-high-again.out
    sed 's/^/KBENCH GATTTOOL high again: /' /tmp/gatt-high-again.out
    value_again=$(read_value /tmp/gatt-high-again.out)
    # No wait for the kernel to drop this link: stopping swift-att disconnects it.

    stop_peripheral $pid
    stopped=$?
    $SWIFT_ATT dump /tmp/high.btsnoop >/tmp/high.dump 2>&1
    links_in_capture /tmp/high.dump >/tmp/high.links
    sed 's/^/KBENCH CAPTURE high /' /tmp/high.links
    echo "KBENCH LTK hci1 high: ${ltk_high:-none}"
    served=""
    [ "$stopped" = 0 ] && [ "$(count_of '"event":"connected"' /tmp/high.out)" = 2 ] \
        && tail -n 1 /tmp/high.out | grep -q '"event":"stopped","reason":"SIGINT"' && served=yes
    [ -n "$served" ] || sed 's/^/KBENCH SWIFT-ATT high /' /tmp/high.out /tmp/high.err

    # The kernel's side: one User Confirm Request since the first peripheral's, a
    # Numeric Comparison (hint 0), and an authenticated LTK in debugfs.
    confirms=$(user_confirms $((confirms_before + 1)))
    kernel_number=$(echo "$confirms" | sed -n '1s/ hint .*//p')
    kernel_hint=$(echo "$confirms" | sed -n '1s/.* hint //p')
    # swift-att's side (--json): the number it was asked to confirm, the pairing it made.
    confirm=$(json_event /tmp/high.out confirm-number)
    swift_number=$(json_string "$confirm" number)
    paired=$(json_event /tmp/high.out paired)
    echo "KBENCH SWIFT-ATT high: ${confirm:-no confirm-number} ${paired:-no paired}"
    said_paired=""
    [ "$(count_of '"event":"paired"' /tmp/high.out)" = 1 ] && json_has "$paired" method '"Numeric Comparison"' \
        && json_has "$paired" secureConnections true && json_has "$paired" authenticated true \
        && json_has "$paired" keySize 16 && json_has "$paired" bonded true && said_paired=yes
    # Both links reached swift-att's authenticated LE Secure Connections level.
    secured=$(grep '"event":"security"' /tmp/high.out | grep -c '"authenticated":true.*"secureConnections":true\|"secureConnections":true.*"authenticated":true')
    # The keys: the kernel's (debugfs, authenticated) = swift-att's on both links
    # (capture) = the one in its bond file.
    kernel_key=$(reverse_octets "$(echo "$ltk_high" | awk '{ print $NF }')")
    swift_ltk=$(decimal_to_hex "$(link_field 1 ltk /tmp/high.links)")
    kernel_authenticated=$(echo "$ltk_high" | awk '{ print $4 }')
    same_key=""
    [ -n "$ltk_high" ] && [ "$kernel_authenticated" = 1 ] && [ "$swift_ltk" = "$kernel_key" ] \
        && [ "$(link_field 2 ltk /tmp/high.links)" = "$(link_field 1 ltk /tmp/high.links)" ] && same_key=yes
    kept_key=""
    bond_keys $HIGH_BONDS | grep -qx "$kernel_key" && grep -q '"authenticated":true' $HIGH_BONDS.list && kept_key=yes
    text=$(db_text $SMP_AUTHENTICATED)

    if [ -n "$served" ] && [ "$value_high" = "$expected" ] && [ "$value_again" = "$expected" ] \
        && [ "$(echo "$confirms" | grep -c hint)" = 1 ] && [ "$kernel_hint" = 0 ] && [ -n "$kernel_number" ] \
        && [ "$kernel_number" = "$swift_number" ] && [ -n "$said_paired" ] && [ "$secured" -ge 2 ] \
        && [ "$(link_field 1 pairing /tmp/high.links)" = 1 ] && [ "$(link_field 2 pairing /tmp/high.links)" = 0 ] \
        && [ "$(link_field 2 refused /tmp/high.links)" = 0 ] && [ -n "$same_key" ] && [ -n "$kept_key" ]; then
        result kernel-smp-high PASS "gatttool --sec-level=high read $handle = '$text' (the authenticated characteristic of kernel-smp.json) from swift-att --io display-yesno --yes; hci1 DisplayYesNo: LE Secure Connections, Numeric Comparison, both sides compared $kernel_number (btmgmt's User Confirm, hint 0; swift-att's confirm-number) and said yes; swift-att --json: paired, Numeric Comparison, authenticated, 16 octets, bonded; on the link: $(link_story 1 /tmp/high.links); the kernel's LTK ($(ltk_words "$ltk_high")) = swift-att's (capture and bond file, authenticated) = $swift_ltk; a new link at high: $(link_story 2 /tmp/high.links), no second pairing"
    else
        result kernel-smp-high FAIL "read '$value_high' then '$value_again' (expected '$expected'), $(sed -n 's/^link 1: //p' /tmp/high.links) / $(sed -n 's/^link 2: //p' /tmp/high.links), kernel confirms '$(echo "$confirms" | tr '\n' ';')' vs swift-att's '${swift_number:-none}', swift-att said '${paired:-nothing}' ($secured authenticated links), kernel LTK '${ltk_high:-none}' vs swift-att's $swift_ltk (kept in its bond file: ${kept_key:-no}): $(tr '\n' ' ' </tmp/gatt-high.out)"
    fi
    echo "KBENCH MEASURE kernel-smp-high $(awk -v a="$high_started" '{ printf "%.1f", $1 - a }' /proc/uptime) s (guest time: DisplayYesNo peripheral up, Numeric Comparison pairing and read, a second link, checks)"
}

# (f) The Linux kernel's own L2CAP as the peer of swift-att's credit-based channels, on
# the kernel-SMP scenarios' hci1 (static address, powered, no bluetoothd): l2test from
# Debian's bluez opens or accepts the kernel's L2CAP sockets, `swift-att l2cap` runs on
# hci0. `l2test -V le_random` makes the socket LE (and the peer's address random), which
# the kernel runs as an LE Credit Based channel; security stays low, so no pairing. Both
# directions carry /l2test-frames.bin (run.sh: 200 frames of 250 octets in l2test's own
# format, a sequence number, the length, 0x7F filling): `l2test -s -b 250 -N 200` sends
# exactly those bytes, so what swift-att writes to standard output must equal the file;
# `l2test -r` checks every SDU it receives against that format and times them, so the file
# sent by swift-att (one SDU per frame, --sdu 250) must pass whole.
#
# Enhanced Credit Based mode: the kernel takes it only with the bluetooth module's
# enable_ecred parameter set, and Debian 12's l2test (BlueZ 5.66) cannot ask for it on LE:
# with -X ext-flowctl it reads L2CAP_OPTIONS, which the kernel refuses on an LE socket
# (EINVAL; BlueZ fixed it in 5.86). So the kernel accepts an Enhanced Credit Based request
# from swift-att on a plain LE l2test listener (the kernel answers the request, whatever
# the listening socket's mode), and the other way, the kernel opening one, is run to show
# l2test's error and reported SKIP.
L2CAP_FRAMES=/l2test-frames.bin
L2CAP_SDU=250
L2CAP_COUNT=200
L2CAP_BONDS=$BONDS/kernel-l2cap.json
L2CAP_SCENARIOS="kernel-l2cap-listen kernel-l2cap-connect kernel-l2cap-ecfc-connect kernel-l2cap-ecfc-listen"
ECRED=/sys/module/bluetooth/parameters/enable_ecred

l2cap_fail_all() {
    for name in $L2CAP_SCENARIOS; do result "$name" FAIL "$1"; done
}

# l2test_said FILE: l2test's log (syslog to standard error) in one line, for a report.
l2test_said() {
    sed 's/^l2test\[[0-9]*\]: //' "$1" | tr '\n' ' ' | tr -s ' ' | cut -c1-400
}

# swift_said FILE: the status swift-att printed on standard error, in one line.
swift_said() {
    sed 's/^swift-att: //' "$1" | tr '\n' ' ' | tr -s ' ' | cut -c1-400
}

# l2test_options FILE: the sizes l2test reported for its socket ("Options [imtu I, omtu O,
# ...]": the MTUs the kernel's channel has each way).
l2test_options() {
    sed -n 's/.*Options \[imtu \([0-9]*\), omtu \([0-9]*\),.*/imtu \1, omtu \2/p' "$1" | head -n 1
}

# channel_line FILE: swift-att's "channel open: ..." status (mode, MTUs, MPSs, credits).
channel_line() {
    sed -n 's/.*channel open: \(.*\)/\1/p' "$1" | sed 's/; Ctrl-C closes$//' | head -n 1
}

# wait_exit PID TENTHS: until PID has exited (then its status), up to TENTHS/10 s; a
# process still running then is stopped as a peripheral is.
wait_exit() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ "$i" -lt "$2" ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$1" 2>/dev/null; then
        stop_peripheral "$1"
        return 124
    fi
    wait "$1"
}

# l2cap_listen NAME PSM FRAMES [SWIFT-ATT OPTIONS] [-- L2TEST OPTIONS]: `swift-att l2cap
# listen PSM --recv-only` (or with --bench --json) on hci0, standard output to
# /tmp/NAME.data; l2test on hci1 connects to it and sends FRAMES frames. Sets L2CAP_RC
# (swift-att's exit), L2TEST_RC, L2CAP_ADDRESS and fills /tmp/NAME.{data,err,l2test}.
l2cap_listen() {
    name=$1 psm=$2 frames=$3
    shift 3
    swift_options=""
    while [ $# -gt 0 ] && [ "$1" != -- ]; do swift_options="$swift_options $1"; shift; done
    [ "$1" = -- ] && shift
    [ -n "$swift_options" ] || swift_options=--recv-only
    # shellcheck disable=SC2086 # one word per option
    $SWIFT_ATT l2cap listen "$psm" --transport hci0 --bonds $L2CAP_BONDS --name "kernel bench $psm" $swift_options \
        </dev/null >/tmp/$name.data 2>/tmp/$name.err &
    pid=$!
    L2CAP_ADDRESS=""
    if wait_for /tmp/$name.err 'listening on' 100; then
        L2CAP_ADDRESS=$(sed -n 's/.*listening on .* as \([0-9A-F:]*\) on .*/\1/p' /tmp/$name.err | head -n 1)
    fi
    if [ -z "$L2CAP_ADDRESS" ]; then
        L2TEST_RC=none
        stop_peripheral $pid
        L2CAP_RC=$?
        return
    fi
    # -g: a pause before l2test's shutdown, or frames still waiting in the kernel for
    # swift-att's credits would be dropped with the channel.
    timeout 90 l2test -s -V le_random -P "$psm" -b $L2CAP_SDU -N "$frames" -g 3000 "$@" "$L2CAP_ADDRESS" \
        >/tmp/$name.l2test 2>&1
    L2TEST_RC=$?
    if [ "$L2TEST_RC" = 0 ]; then
        # swift-att serves one channel: it ends when the kernel closes it.
        wait_exit $pid 150
        L2CAP_RC=$?
    else
        stop_peripheral $pid
        L2CAP_RC=$?
    fi
}

# l2cap_connect NAME PSM MODE: `l2test -r` listens on hci1 (the kernel advertising
# connectable), `swift-att l2cap connect C0:4B:00:00:00:01 PSM --mode MODE --sdu 250`
# sends the frames from standard input. Sets L2CAP_RC, L2TEST_RECEIVED (octets l2test
# counted), L2TEST_MISMATCHES, L2TEST_RATE (kB/s over the time l2test waited for them).
l2cap_connect() {
    name=$1 psm=$2 mode=$3
    # -b: l2test reports (and times) every 20 frames; a partial last report is never printed.
    l2test -r -V le_random -P "$psm" -b $((L2CAP_SDU * 20)) >/tmp/$name.l2test 2>&1 &
    listener=$!
    wait_for /tmp/$name.l2test 'Waiting for connection' 50
    timeout 90 $SWIFT_ATT l2cap connect $HCI1_ADDRESS "$psm" --mode "$mode" --sdu $L2CAP_SDU --transport hci0 \
        --bonds $L2CAP_BONDS --timeout 30 <$L2CAP_FRAMES >/tmp/$name.out 2>/tmp/$name.err
    L2CAP_RC=$?
    # l2test's child ends with the channel ("Disconnect"); its parent listens on.
    wait_for /tmp/$name.l2test 'Disconnect' 100
    kill -TERM $listener 2>/dev/null
    wait $listener 2>/dev/null
    L2TEST_RECEIVED=$(awk '/ bytes in .* sec, / { for (i = 1; i < NF; i++) if ($(i + 1) == "bytes") n += $i } END { print n + 0 }' /tmp/$name.l2test)
    L2TEST_MISMATCHES=$(count_of 'missmatch' /tmp/$name.l2test)
    L2TEST_RATE=$(awk '/ bytes in .* sec, / { for (i = 1; i < NF; i++) { if ($(i + 1) == "bytes") n += $i; if ($(i + 1) == "sec,") t += $i } }
        END { if (t > 0) printf "%.1f", n / t / 1024 }' /tmp/$name.l2test)
}

kernel_l2cap() {
    l2cap_started=$(cut -d' ' -f1 /proc/uptime)
    bytes=$(wc -c <$L2CAP_FRAMES)

    # kernel-l2cap-listen: the kernel opens an LE Credit Based channel to swift-att and
    # sends the frames.
    l2cap_listen kernel-l2cap-listen 128 $L2CAP_COUNT
    got=$(wc -c </tmp/kernel-l2cap-listen.data)
    channel=$(channel_line /tmp/kernel-l2cap-listen.err)
    if [ "$L2TEST_RC" = 0 ] && [ "$L2CAP_RC" = 0 ] && cmp -s $L2CAP_FRAMES /tmp/kernel-l2cap-listen.data \
        && echo "$channel" | grep -q 'LE Credit Based'; then
        result kernel-l2cap-listen PASS "l2test -s -V le_random (the kernel's LE socket on hci1) opened PSM 128 to swift-att l2cap listen at $L2CAP_ADDRESS and sent $L2CAP_COUNT frames of $L2CAP_SDU octets; swift-att wrote all $got octets to standard output, identical to the frames (cmp), and ended with the kernel's close; the channel: $channel; l2test: $(l2test_options /tmp/kernel-l2cap-listen.l2test)"
    else
        result kernel-l2cap-listen FAIL "l2test exit $L2TEST_RC, swift-att exit $L2CAP_RC, $got of $bytes octets received$(cmp $L2CAP_FRAMES /tmp/kernel-l2cap-listen.data 2>&1 | sed 's/^/, /' | head -n 1); swift-att: $(swift_said /tmp/kernel-l2cap-listen.err); l2test: $(l2test_said /tmp/kernel-l2cap-listen.l2test)"
    fi

    # The kernel's rate into swift-att: the same again, 800 frames (200000 octets), into
    # `l2cap listen --bench --json`, which times what it receives and drops it.
    l2cap_listen kernel-l2cap-bench 132 800 --bench --json
    bench=$(grep '"event":"bench"' /tmp/kernel-l2cap-bench.data)
    echo "KBENCH L2CAP-BENCH $bench"
    if [ "$L2TEST_RC" = 0 ] && [ "$L2CAP_RC" = 0 ] && json_has "$bench" octets $((L2CAP_SDU * 800)); then
        echo "KBENCH MEASURE kernel-l2cap-listen $(echo "$bench" | sed -n 's/.*"kBps":\([0-9.]*\).*/\1/p' | awk '{ printf "%.1f", $1 / 1.024 }') kB/s (kB of 1024 octets, as l2test counts them; swift-att l2cap listen --bench --json: $(echo "$bench" | sed 's/.*"octets":\([0-9]*\).*"seconds":\([0-9.]*\).*"sdus":\([0-9]*\).*/\1 \2 \3/' | awk '{ printf "%s octets in %.2f s, %s SDUs", $1, $2, $3 }'), the kernel to swift-att, LE Credit Based)"
    else
        echo "KBENCH MEASURE kernel-l2cap-listen not measured: l2test exit $L2TEST_RC, swift-att exit $L2CAP_RC: ${bench:-$(swift_said /tmp/kernel-l2cap-bench.err)}"
    fi

    # The other way the kernel is the listener: hci1 advertises, connectable, so that
    # swift-att finds it. Not with "btmgmt advertising on": the kernel sees the extended
    # advertising feature bit and advertises on set 0, whose random address it never
    # gives the controller (set 0 is taken to use LE Set Random Address), and Bumble's
    # controller, which needs each set's own, sends nothing (Documentation/KernelBench.md). An instance
    # added through the management socket (set 1) gets its address.
    if ! mgmt add-adv -c 1; then
        for name in kernel-l2cap-connect kernel-l2cap-ecfc-connect; do
            result $name FAIL "btmgmt could not make hci1 advertise: $(tail -n 2 /tmp/btmgmt.out | tr '\n' ' ')"
        done
    else
        # kernel-l2cap-connect: swift-att opens an LE Credit Based channel to l2test -r.
        l2cap_connect kernel-l2cap-connect 129 le
        channel=$(channel_line /tmp/kernel-l2cap-connect.err)
        if [ "$L2CAP_RC" = 0 ] && [ "$L2TEST_RECEIVED" = "$bytes" ] && [ "$L2TEST_MISMATCHES" = 0 ] \
            && echo "$channel" | grep -q 'LE Credit Based'; then
            result kernel-l2cap-connect PASS "swift-att l2cap connect $HCI1_ADDRESS 129 --mode le --sdu $L2CAP_SDU sent the $bytes-octet file to l2test -r -V le_random (the kernel's LE socket on hci1, advertising): l2test received all $L2TEST_RECEIVED octets, every frame's sequence, length and filling as it checks them (no mismatch), ${L2TEST_RATE:-?} kB/s by its clock; the channel: $channel"
            echo "KBENCH MEASURE kernel-l2cap-connect ${L2TEST_RATE:-?} kB/s (l2test -r's clock: $bytes octets in $L2CAP_SDU-octet SDUs, swift-att to the kernel, LE Credit Based)"
        else
            result kernel-l2cap-connect FAIL "swift-att exit $L2CAP_RC, l2test counted $L2TEST_RECEIVED of $bytes octets, $L2TEST_MISMATCHES mismatches; swift-att: $(swift_said /tmp/kernel-l2cap-connect.err); l2test: $(l2test_said /tmp/kernel-l2cap-connect.l2test)"
        fi

        # kernel-l2cap-ecfc-connect: the same in Enhanced Credit Based mode, which the
        # kernel answers only with enable_ecred set.
        ecred_was=$(cat $ECRED 2>/dev/null)
        [ "$ecred_was" = Y ] || echo Y >$ECRED 2>/dev/null
        ecred=$(cat $ECRED 2>/dev/null)
        if [ "$ecred" != Y ]; then
            result kernel-l2cap-ecfc-connect FAIL "could not set $ECRED (was '${ecred_was:-absent}')"
        else
            l2cap_connect kernel-l2cap-ecfc-connect 130 enhanced
            channel=$(channel_line /tmp/kernel-l2cap-ecfc-connect.err)
            if [ "$L2CAP_RC" = 0 ] && [ "$L2TEST_RECEIVED" = "$bytes" ] && [ "$L2TEST_MISMATCHES" = 0 ] \
                && echo "$channel" | grep -q 'Enhanced Credit Based'; then
                result kernel-l2cap-ecfc-connect PASS "enable_ecred $ecred_was -> Y (Debian 12's kernel has it off); swift-att l2cap connect $HCI1_ADDRESS 130 --mode enhanced: the kernel accepted the Enhanced Credit Based request on l2test -r's LE socket, and l2test received all $L2TEST_RECEIVED octets, no mismatch, ${L2TEST_RATE:-?} kB/s; the channel: $channel"
                echo "KBENCH MEASURE kernel-l2cap-ecfc-connect ${L2TEST_RATE:-?} kB/s (l2test -r's clock, as kernel-l2cap-connect, Enhanced Credit Based)"
            else
                result kernel-l2cap-ecfc-connect FAIL "enable_ecred $ecred_was -> $ecred; swift-att exit $L2CAP_RC, l2test counted $L2TEST_RECEIVED of $bytes octets, $L2TEST_MISMATCHES mismatches; swift-att: $(swift_said /tmp/kernel-l2cap-ecfc-connect.err); l2test: $(l2test_said /tmp/kernel-l2cap-ecfc-connect.l2test)"
            fi
        fi
        mgmt remove-adv 1
    fi

    # kernel-l2cap-ecfc-listen: the kernel opening an Enhanced Credit Based channel.
    l2cap_listen kernel-l2cap-ecfc-listen 131 $L2CAP_COUNT -- -X ext-flowctl
    if grep -q "Can't get default L2CAP options" /tmp/kernel-l2cap-ecfc-listen.l2test; then
        result kernel-l2cap-ecfc-listen SKIP "Debian 12's l2test (BlueZ 5.66) cannot open an Enhanced Credit Based channel on LE: with -X ext-flowctl it reads L2CAP_OPTIONS, which the kernel refuses on LE sockets ($(l2test_said /tmp/kernel-l2cap-ecfc-listen.l2test | sed 's/.*\(Can.t get default L2CAP options[^)]*)\).*/\1/')); fixed in BlueZ 5.86. The kernel's side of the mode is covered by kernel-l2cap-ecfc-connect"
    else
        got=$(wc -c </tmp/kernel-l2cap-ecfc-listen.data)
        channel=$(channel_line /tmp/kernel-l2cap-ecfc-listen.err)
        if [ "$L2TEST_RC" = 0 ] && [ "$L2CAP_RC" = 0 ] && cmp -s $L2CAP_FRAMES /tmp/kernel-l2cap-ecfc-listen.data \
            && echo "$channel" | grep -q 'Enhanced Credit Based'; then
            result kernel-l2cap-ecfc-listen PASS "l2test -s -X ext-flowctl opened PSM 131 in Enhanced Credit Based mode and sent $got octets, identical at swift-att (cmp); the channel: $channel"
        else
            result kernel-l2cap-ecfc-listen FAIL "l2test exit $L2TEST_RC, swift-att exit $L2CAP_RC, $got of $bytes octets; swift-att: $(swift_said /tmp/kernel-l2cap-ecfc-listen.err); l2test: $(l2test_said /tmp/kernel-l2cap-ecfc-listen.l2test)"
        fi
    fi
    dmesg | grep -i 'l2cap' | tail -n 5 | sed 's/^/KBENCH DMESG l2cap: /'
    echo "KBENCH MEASURE kernel-l2cap $(awk -v a="$l2cap_started" '{ printf "%.1f", $1 - a }' /proc/uptime) s (guest time: five l2test runs against swift-att l2cap, one of them the rate)"
}

# KBENCH_ONLY (from the kernel command line: run.sh --only) names the scenarios to run,
# comma-separated; hci0 is opened first whatever it names.
if [ -n "$KBENCH_ONLY" ]; then
    scenario_open
    for name in $(echo "$KBENCH_ONLY" | tr ',' ' '); do
        [ "$name" = open ] && continue
        if type "scenario_$name" >/dev/null 2>&1; then "scenario_$name"; else result "$name" FAIL "no scenario_$name in guest-scenarios.sh"; fi
    done
else
    scenario_open
    scenario_round_trip
    scenario_heart_rate
    scenario_notification_pairs
    scenario_errors
    scenario_central
    scenario_kernel_smp
fi
