# Sourced by scripts that run hosts over Bumble's virtual radio (Tests/bench/demo.sh,
# Examples/run.sh): starts two linked controllers on free ports of 127.0.0.1 for as long as
# the calling script runs.
#
#   source Tests/bench/radio.sh
#   start_radio "$work" 600      # sets port0 and port1, adds the controllers to pids
#
# Expects `python` (the bench venv's) and a `pids` array its caller's cleanup kills.
# The controllers read a FIFO held open on descriptor 3, so they end with the script
# even if its cleanup never runs (controllers.py stops at the end of its input).
start_radio() {
    local work=$1 duration=$2
    read -r port0 port1 < <("$python" -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
for s in socks: s.close()')
    mkfifo "$work/controllers.in"
    "$python" Tests/bench/controllers.py --ports "$port0,$port1" --duration "$duration" \
        < "$work/controllers.in" > "$work/controllers.out" 2>&1 &
    pids+=($!)
    exec 3> "$work/controllers.in"
    for _ in $(seq 100); do grep -q READY "$work/controllers.out" && return 0; sleep 0.1; done
    cat "$work/controllers.out" >&2
    echo "the controllers did not start" >&2
    exit 1
}
