#!/bin/busybox sh
# The kernel bench's scenarios, run once hci0 exists (guest-init.sh). Each prints one
#   KBENCH RESULT <name> PASS|FAIL|SKIP <detail>
# line; "KBENCH NEED <what> <address>" asks the host to start a Bumble central against
# a swift-att peripheral advertising here; "KBENCH MEASURE <name> <value> <unit>" is a figure.
# Every wait is bounded.

SWIFT_ATT=/bin/swift-att

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
    $SWIFT_ATT info --transport hci0 --round-trips 200 >/tmp/info.out 2>/tmp/info.err
    rc=$?
    sed 's/^/KBENCH INFO /' /tmp/info.out
    if [ $rc = 0 ] && grep -q '^Controller on hci0$' /tmp/info.out \
        && grep -q 'Public address:  F0:F0:F0:F0:00:01' /tmp/info.out \
        && grep -q 'HCI version:     5.0' /tmp/info.out \
        && grep -q 'LE ACL buffers:  64 × 27 bytes' /tmp/info.out \
        && grep -q '^HCI round trip: median ' /tmp/info.out; then
        result open-hci0 PASS "reset, BD_ADDR F0:F0:F0:F0:00:01, HCI 5.0, 64 x 27-byte LE buffers"
    else
        result open-hci0 FAIL "exit $rc: $(cat /tmp/info.err)"
    fi
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

# (b) swift-att peripheral heart-rate over hci0; a Bumble central on the host subscribes.
# Meanwhile (c, EBUSY) a second process opening hci0 is told who holds it.
scenario_heart_rate() {
    $SWIFT_ATT peripheral heart-rate --transport hci0 --interval 100 --json --duration 60 >/tmp/hr.out 2>/tmp/hr.err &
    pid=$!
    if ! wait_for /tmp/hr.out '"event":"advertising"' 100; then
        result peripheral-heart-rate FAIL "never advertised: $(cat /tmp/hr.err)"
        result error-ebusy FAIL "no peripheral to hold hci0"
        stop_peripheral $pid
        return
    fi
    address=$(advertised_address /tmp/hr.out)
    echo "KBENCH NEED heart-rate-central $address"

    $SWIFT_ATT info --transport hci0 >/tmp/busy.out 2>/tmp/busy.err
    rc=$?
    $SWIFT_ATT adapters >/tmp/busy-adapters.out 2>&1
    if [ $rc = 3 ] && grep -q '^swift-att: error: hci0 is in use by another process (usually bluetoothd): stop it with .systemctl stop bluetooth. or power the adapter off with .btmgmt -i hci0 power off., then retry$' /tmp/busy.err \
        && grep -q '^hci0  .* another program on the HCI user channel$' /tmp/busy-adapters.out; then
        result error-ebusy PASS "$(cat /tmp/busy.err)"
    else
        result error-ebusy FAIL "exit $rc: $(cat /tmp/busy.err) / $(cat /tmp/busy-adapters.out)"
    fi

    # The central subscribes; six measurements go out (one every 100 ms).
    if wait_for /tmp/hr.out '"event":"subscribed".*"2A37"' 300 && \
        i=0 && while [ "$(count_of '"event":"sent"' /tmp/hr.out)" -lt 6 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done && \
        [ "$(count_of '"event":"sent"' /tmp/hr.out)" -ge 6 ]; then
        sent=ok
    else
        sent=""
    fi
    stop_peripheral $pid
    rc=$?
    if [ -n "$sent" ] && [ $rc = 0 ] && grep -q '"event":"connected"' /tmp/hr.out && tail -n 1 /tmp/hr.out | grep -q '"event":"stopped","reason":"SIGINT"'; then
        result peripheral-heart-rate PASS "advertised as $address, central connected and subscribed, $(count_of '"event":"sent"' /tmp/hr.out) measurements sent, stopped on SIGINT"
    else
        result peripheral-heart-rate FAIL "exit $rc, sent=$(count_of '"event":"sent"' /tmp/hr.out): $(tail -n 3 /tmp/hr.out | tr '\n' ' ') $(cat /tmp/hr.err)"
    fi
}

# Notification rate over the kernel path: transfer sends /transfer.txt in 20-byte
# notifications, each as soon as the last was accepted; the host's central times them.
scenario_notification_rate() {
    $SWIFT_ATT peripheral transfer --transport hci0 --file /transfer.txt --json --duration 120 >/tmp/tr.out 2>/tmp/tr.err &
    pid=$!
    if ! wait_for /tmp/tr.out '"event":"advertising"' 100; then
        result notification-rate FAIL "never advertised: $(cat /tmp/tr.err)"
        stop_peripheral $pid
        return
    fi
    echo "KBENCH NEED transfer-central $(advertised_address /tmp/tr.out)"
    wait_for /tmp/tr.out '"event":"transfer-complete"' 900
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

# (c) The other error paths, for real.
scenario_errors() {
    # A user without CAP_NET_ADMIN.
    su -s /bin/sh nobody -c "$SWIFT_ATT info --transport hci0" >/tmp/perm.out 2>/tmp/perm.err
    rc=$?
    if [ $rc = 3 ] && grep -q "^swift-att: error: opening hci0 needs root or CAP_NET_ADMIN: run with sudo, or grant the binary the capability with 'sudo setcap cap_net_admin+ep \$(which swift-att)'$" /tmp/perm.err; then
        result error-eperm PASS "$(cat /tmp/perm.err)"
    else
        result error-eperm FAIL "exit $rc: $(cat /tmp/perm.err)"
    fi

    # An adapter that does not exist: the message lists the ones that do.
    $SWIFT_ATT info --transport hci7 >/tmp/nodev.out 2>/tmp/nodev.err
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
    $SWIFT_ATT info --transport hci0 >/tmp/rfkill.out 2>/tmp/rfkill.err
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
    central() { $SWIFT_ATT central "$@" --transport hci0 --timeout 20; }
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

scenario_open
scenario_heart_rate
scenario_notification_rate
scenario_errors
scenario_central
