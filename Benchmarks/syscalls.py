#!/usr/bin/env python3
"""System calls and time per HCI command round trip: swift-att against a C program.

    Benchmarks/syscalls.py [--transport tcp|hci0] [--count N] [--runs N]

`swift-att info --round-trips N` and the C baseline (Tests/kernel/hci_baseline.c) each
send N Read BD_ADDR commands one after another. Over TCP (the default) they talk to one
of Bumble's virtual controllers (Tests/bench/controllers.py, started here); with
`--transport hci0`, to the machine's adapter (root, a kernel with Bluetooth: the kernel
bench runs this inside its guest).

System calls are counted with `strace -f -c` (every thread) for N and for 10 N round
trips; the difference divided by 9 N is what one round trip costs, start-up and shutdown
cancelling out. Times come from runs without strace: the median of each program's own
median over --runs runs, and swift-att ÷ C.
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

from bumble_controller import root, start_controller


def build(options):
    """The release swift-att (as CI builds it) and the C baseline, compiled with the
    toolchain's clang."""
    subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "swift-att"],
                   cwd=root, check=True, capture_output=True)
    swift_att = root / ".build/release/swift-att"
    baseline = root / ".build/hci_baseline"
    subprocess.run(["clang", "-O2", "-Wall", "-o", str(baseline), str(root / "Tests/kernel/hci_baseline.c")],
                   check=True)
    return swift_att, baseline


def command(program, kind, transport, count):
    if kind == "swift-att":
        return [str(program), "info", "--transport", transport, "--round-trips", str(count), "--bonds", bonds_path]
    return [str(program), "round-trip", transport, str(count)]


def counted(argv):
    """{syscall: calls} of one run under strace -f -c."""
    with tempfile.NamedTemporaryFile(suffix=".strace") as out:
        subprocess.run(["strace", "-f", "-c", "-o", out.name, *argv], check=True, capture_output=True)
        calls = {}
        for line in pathlib.Path(out.name).read_text().splitlines():
            fields = line.split()
            # % time, seconds, usecs/call, calls, [errors], syscall
            if len(fields) >= 5 and re.fullmatch(r"[\d.]+", fields[0]) and fields[-1] != "total":
                calls[fields[-1]] = int(fields[3])
        return calls


def median_ms(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    match = re.search(r"round trip: median ([\d.]+) ms, min ([\d.]+) ms", out)
    if not match:
        sys.exit(f"no round trip in the output of {' '.join(argv)}: {out!r}")
    return float(match.group(1)), float(match.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--transport", default="tcp", choices=["tcp", "hci0"])
    parser.add_argument("--count", type=int, default=200, help="round trips in the short run (10× in the long one)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--port", type=int, default=9191)
    options = parser.parse_args()
    swift_att, baseline = build(options)
    controller = None
    if options.transport == "tcp":
        controller = start_controller(options.port, 900)
        transport = f"tcp:127.0.0.1:{options.port}"
    else:
        transport = "hci0"
    try:
        rows = []
        for kind, program in (("swift-att", swift_att), ("C", baseline)):
            short = counted(command(program, kind, transport, options.count))
            long = counted(command(program, kind, transport, options.count * 10))
            per_trip = {name: (long.get(name, 0) - short.get(name, 0)) / (options.count * 9)
                        for name in set(short) | set(long)}
            per_trip = {name: n for name, n in per_trip.items() if n >= 0.05}
            times = [median_ms(command(program, kind, transport, options.count)) for _ in range(options.runs)]
            rows.append((kind, sum(per_trip.values()), per_trip,
                         statistics.median(t[0] for t in times), min(t[1] for t in times)))
    finally:
        if controller:
            controller.terminate()
            controller.wait()
    print(f"HCI command round trip over {transport} (Read BD_ADDR; system calls from strace -f -c, "
          f"{options.count} and {options.count * 10} round trips differenced; times: median of {options.runs} runs' medians)")
    print()
    print(f"{'program':<10} {'syscalls/trip':>13}  {'median ms':>9}  {'min ms':>6}  breakdown")
    for kind, total, per_trip, median, minimum in rows:
        breakdown = ", ".join(f"{name} {n:.2f}" for name, n in sorted(per_trip.items(), key=lambda kv: -kv[1]))
        print(f"{kind:<10} {total:>13.2f}  {median:>9.3f}  {minimum:>6.3f}  {breakdown}")
    swift_row, c_row = rows
    print()
    print(f"swift-att ÷ C: median {swift_row[3] / c_row[3]:.2f}×, system calls {swift_row[1] / c_row[1]:.2f}×")


bonds_path = os.path.join(tempfile.gettempdir(), f"swift-att-syscalls-{os.getpid()}.json")

if __name__ == "__main__":
    main()
