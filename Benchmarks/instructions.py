#!/usr/bin/env python3
"""Instructions per HCI command round trip: swift-att against a C program, counted.

    Benchmarks/instructions.py [--count N] [--critical-path] [--notifications N] [--received N] [--decode N]
                               [--no-build]

Timings on these machines move by a fifth between runs; an instruction count does not,
so it is what this project's command-path changes are measured by (Benchmarks.md's
instruction table). `swift-att info --round-trips N` and the C baseline
(Tests/kernel/hci_baseline.c) each send Read BD_ADDR commands one after another to one of
Bumble's virtual controllers over TCP (Tests/bench/controllers.py, started here), under
valgrind's callgrind (user space, every thread of the process), for N and for 5 N round
trips: the difference divided by 4 N is what one round trip costs, start-up and shutdown
cancelling out.

--critical-path also traces every instruction and memory access of N round trips of each
program (valgrind's lackey; slow: about a minute for swift-att) and splits the trace
where `poll` and `send` are entered: from `poll` to `send` is what runs between the
answer's arrival and the next command's write — the part that lengthens the round trip
when the controller waits on the program — and from `send` to the next `poll` what
overlaps the controller's work. For each: instructions and distinct 4 KiB pages touched
(code and data), the median over the steady state.

--notifications N also counts what one notification sent costs: `swift-att peripheral
transfer` under callgrind sends N, then 5 N, 20-byte notifications to a Bumble central
(Tests/bench/bumble_peer.py, subscribed to the transfer characteristic) over two linked
controllers, and is stopped once it reports the transfer complete; the difference over
4 N is the cost of one, start-up, connection and shutdown cancelling out.

--received N counts what one notification received costs, the other way round: `swift-att
central transfer` under callgrind receives a text of N, then 5 N, 20-octet lines from `swift-att
peripheral transfer` (not under valgrind) and exits at the end-of-message marker; the
chunks are ATT_MTU-3 octets (the central exchanges ATT_MTU), and the difference is divided
by the difference in notifications the central counted.

--decode N counts a line of `swift-att decode att - --json`, the command a capture's PDUs
are piped through: N and 5 N lines of a mix of well-formed PDUs, differenced.

Needs valgrind (Debian: apt-get install valgrind) and the bench's venv
(Tests/bench/setup.sh).
"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bumble_controller import root, start_controller, start_controllers, venv_python


def build():
    """The release swift-att (as CI builds it) and the C baseline (static, so that its
    poll and send are its own code and found in its symbol table)."""
    subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "swift-att"],
                   cwd=root, check=True, capture_output=True)
    baseline = root / ".build/hci_baseline-static"
    subprocess.run(["clang", "-O2", "-Wall", "-static", "-o", str(baseline), str(root / "Tests/kernel/hci_baseline.c")],
                   check=True)
    return root / ".build/release/swift-att", baseline


def valgrind(tool_options, argv):
    """valgrind with `tool_options` running `argv`, and the environment it runs in: with
    valgrind_sigsuspend.c preloaded (Debian's valgrind aborts on the sigsuspend that parks
    a Swift program's main thread; the file says why). Built once, beside the other
    builds."""
    shim = root / ".build/valgrind_sigsuspend.so"
    source = root / "Benchmarks/valgrind_sigsuspend.c"
    if not shim.exists() or shim.stat().st_mtime < source.stat().st_mtime:
        shim.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["clang", "-O2", "-Wall", "-shared", "-fPIC", "-o", str(shim), str(source)], check=True)
    environment = dict(os.environ)
    environment["LD_PRELOAD"] = " ".join(filter(None, [str(shim), environment.get("LD_PRELOAD")]))
    return ["valgrind", *tool_options, *argv], environment


def command(program, kind, transport, count, bonds):
    if kind == "swift-att":
        return [str(program), "info", "--transport", transport, "--round-trips", str(count), "--bonds", bonds]
    return [str(program), "round-trip", transport, str(count)]


def callgrind_count(out, what):
    """The total callgrind wrote to `out` as the process ended; exits naming `what` if
    it wrote none."""
    for line in pathlib.Path(out).read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    sys.exit(f"instructions.py: callgrind wrote no total for {what}")


def callgrind_total(argv):
    """The instructions callgrind counted over the whole run (every thread)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        run, environment = valgrind(["--tool=callgrind", f"--callgrind-out-file={out}"], argv)
        finished = subprocess.run(run, env=environment, capture_output=True, text=True)
        if finished.returncode != 0:
            sys.exit(f"instructions.py: {' '.join(argv)} under callgrind exited {finished.returncode}:\n"
                     + "\n".join(finished.stderr.splitlines()[-15:]))
        return callgrind_count(out, " ".join(argv))


class Symbols:
    """Function start addresses of one ELF file, from nm (dynamic symbols if asked)."""

    def __init__(self, path, dynamic=False):
        out = subprocess.run(["nm", "-n", "--defined-only", *(["-D"] if dynamic else []), str(path)],
                             check=True, capture_output=True, text=True).stdout
        self.by_name = {}
        for line in out.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in "tTwWiI":
                self.by_name.setdefault(fields[2].split("@")[0], int(fields[0], 16))

    def address(self, *names):
        for name in names:
            if name in self.by_name:
                return self.by_name[name]
        return None


def mapping_base(pid, path_suffix):
    """Where the file ending in `path_suffix` is mapped (offset 0) in process `pid`."""
    try:
        for line in pathlib.Path(f"/proc/{pid}/maps").read_text().splitlines():
            fields = line.split()
            if len(fields) >= 6 and fields[5].endswith(path_suffix) and int(fields[2], 16) == 0:
                return int(fields[0].split("-")[0], 16)
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


def lackey_trace(argv, program, log):
    """Runs `argv` under lackey, tracing every access into `log`; returns the entry
    addresses of poll and send as the traced process has them. A dynamically linked
    program's come from libc's mapping, read from the process while it runs."""
    run, environment = valgrind(["--tool=lackey", "--trace-mem=yes", f"--log-file={log}"], argv)
    process = subprocess.Popen(run, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    own = Symbols(program)
    entries = None
    libc_path = None
    if own.address("poll", "__poll") is None:
        libc_path = subprocess.run(["sh", "-c", f"ldd {program} | awk '/libc.so/ {{print $3}}'"],
                                   capture_output=True, text=True).stdout.strip()
    # valgrind maps the program at its own fixed base (position-independent code moves):
    # read the program's and libc's mappings from the running process.
    deadline = time.monotonic() + 60
    program_base = libc_base = None
    while process.poll() is None and time.monotonic() < deadline:
        program_base = mapping_base(process.pid, os.path.basename(program))
        libc_base = mapping_base(process.pid, os.path.basename(libc_path)) if libc_path else 0
        if program_base is not None and libc_base is not None:
            break
        time.sleep(0.05)
    process.wait()
    if process.returncode != 0 or program_base is None or libc_base is None:
        sys.exit(f"lackey could not trace {' '.join(argv)} (exit {process.returncode})")
    if libc_path:
        libc = Symbols(libc_path, dynamic=True)
        entries = (libc_base + libc.address("poll", "__poll"), libc_base + libc.address("send", "__send"),
                   libc_base + libc.address("write", "__write"))
    else:
        offset = program_base if is_position_independent(program) else 0
        entries = (offset + own.address("poll", "__poll"), offset + (own.address("send", "__send") or -1),
                   offset + own.address("write", "__write", "__libc_write"))
    return entries


def is_position_independent(path):
    out = subprocess.run(["readelf", "-h", str(path)], capture_output=True, text=True).stdout
    return "DYN" in out


def critical_path(log, entries, skip_fraction=0.25):
    """(from poll to the write, from the write to poll): median instructions and pages."""
    poll, *writes = entries
    segments = {"answer → write": [], "write → poll": []}
    label, instructions, pages = None, 0, set()
    with open(log, errors="replace") as trace:
        for line in trace:
            if len(line) < 4 or line[0] not in " I":
                continue
            try:
                address = int(line[3:].split(",", 1)[0], 16)
            except ValueError:
                continue
            if line[0] == "I":
                if address == poll or address in writes:
                    if label:
                        segments[label].append((instructions, len(pages)))
                    label = "answer → write" if address == poll else "write → poll"
                    instructions, pages = 0, set()
                instructions += 1
            pages.add(address >> 12)
    result = {}
    for name, values in segments.items():
        steady = values[int(len(values) * skip_fraction):-5] or values
        if not steady:
            return None
        result[name] = (statistics.median(v[0] for v in steady), statistics.median(v[1] for v in steady))
    return result


TRANSFER_DATA = "08590F7E-DB05-467E-8757-72F6FAEB13D4"


def transfer_instructions(swift_att, ports, chunks, scratch, bonds):
    """callgrind's total for `swift-att peripheral transfer` sending `chunks` 20-byte
    notifications (and the end-of-message marker) to a Bumble central subscribed to the
    transfer characteristic: the peripheral is stopped with SIGINT once it reports the
    transfer complete, and callgrind writes its count as the process exits."""
    text = transfer_file(scratch, chunks)
    out = os.path.join(scratch, "callgrind.transfer")
    run, environment = valgrind(["--tool=callgrind", f"--callgrind-out-file={out}"],
                                [str(swift_att), "peripheral", "transfer", "--transport", f"tcp:127.0.0.1:{ports[0]}",
                                 "--file", text, "--json", "--bonds", bonds, "--duration", "600"])
    peripheral = subprocess.Popen(run, env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    central = None
    try:
        address = None
        for line in peripheral.stdout:
            event = json.loads(line)
            if event.get("event") == "advertising":
                address = event["address"]
                central = subprocess.Popen([str(venv_python), str(root / "Tests/bench/bumble_peer.py"),
                                            "--port", str(ports[1]), "--address", "C0:B0:00:00:00:75",
                                            "central", "--target", address, "--subscribe", TRANSFER_DATA],
                                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
            elif event.get("event") == "transfer-complete":
                if event.get("bytes") != chunks * 20:
                    sys.exit(f"instructions.py: the transfer sent {event.get('bytes')} bytes, not {chunks * 20}")
                break
        else:
            sys.exit("instructions.py: the peripheral ended before its transfer completed")
        peripheral.send_signal(signal.SIGINT)
        peripheral.wait(timeout=120)
    finally:
        for process in (central, peripheral):
            if process and process.poll() is None:
                process.kill()
                process.wait()
    return callgrind_count(out, "the transfer")


def transfer_file(scratch, chunks):
    """A text of `chunks` 20-byte lines: one notification each in a transfer at the
    default ATT_MTU."""
    text = os.path.join(scratch, f"transfer-{chunks}.txt")
    with open(text, "w") as f:
        f.write("".join(f"{i % 100000:05d} transfer data\n" for i in range(chunks)))  # 20 bytes each
    return text


def received_instructions(swift_att, ports, chunks, scratch, bonds):
    """callgrind's total for `swift-att central transfer` receiving a text of `chunks`
    lines from `swift-att peripheral transfer` (not under valgrind), and the number of
    notifications it came in (the central's ATT_MTU sets their size). Fresh controllers
    for each run (a Bumble controller keeps advertising after its host has gone: the next
    run's central could find the last one's peripheral); the central finds the peripheral
    by its service, prints the text at the end-of-message marker and exits."""
    text = transfer_file(scratch, chunks)
    controllers = start_controllers(ports, 600)
    # The peripheral's lines go to a file: a pipe no one reads once it advertises would
    # fill and hold the peripheral's output, and with it the transfer.
    lines = os.path.join(scratch, "peripheral.out")
    with open(lines, "w") as output:
        peripheral = subprocess.Popen([str(swift_att), "peripheral", "transfer", "--transport",
                                       f"tcp:127.0.0.1:{ports[0]}", "--file", text, "--json", "--bonds",
                                       os.path.join(scratch, "peripheral-bonds.json"), "--duration", "600"],
                                      stdout=output, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while '"event":"advertising"' not in pathlib.Path(lines).read_text():
            if peripheral.poll() is not None or time.monotonic() > deadline:
                sys.exit("instructions.py: the peripheral never advertised")
            time.sleep(0.1)
        out = os.path.join(scratch, "callgrind.received")
        run, environment = valgrind(["--tool=callgrind", f"--callgrind-out-file={out}"],
                                    [str(swift_att), "central", "transfer", "--transport", f"tcp:127.0.0.1:{ports[1]}",
                                     "--json", "--bonds", bonds])
        central = subprocess.run(run, env=environment, capture_output=True, text=True, timeout=1200)
        received = [json.loads(line) for line in central.stdout.splitlines() if '"event":"transfer"' in line]
        if central.returncode != 0 or not received or received[0].get("bytes") != chunks * 20:
            sys.exit(f"instructions.py: the central's transfer of {chunks * 20} bytes failed (exit {central.returncode}):\n"
                     + "\n".join(line for line in central.stderr.splitlines()[-15:] if not line.startswith("==")))
    finally:
        peripheral.send_signal(signal.SIGINT)
        try:
            peripheral.wait(timeout=30)
        except subprocess.TimeoutExpired:
            peripheral.kill()
            peripheral.wait()
        controllers.terminate()
        controllers.wait()
    return callgrind_count(out, "the central's transfer"), received[0]["chunks"]


# A mix of well-formed ATT PDUs as a capture has them, one per line for `decode att -`.
DECODE_MIX = ["1b1000" + f"{i:02x}" * 20 for i in range(8)] + [
    "0a1700", "0b" + "41" * 20, "100100ffff0028", "110601000500001806000d000118", "080100ffff0328",
    "0112030005", "02f000", "03f000", "1210000102", "5210000102", "0401001000"]


def decode_instructions(swift_att, lines, scratch):
    """callgrind's total for `swift-att decode att - --json` reading `lines` lines of
    DECODE_MIX (in turn), every one decoded (nothing on standard error)."""
    text = os.path.join(scratch, f"pdus-{lines}.txt")
    with open(text, "w") as f:
        f.write("".join(DECODE_MIX[i % len(DECODE_MIX)] + "\n" for i in range(lines)))
    out = os.path.join(scratch, "callgrind.decode")
    run, environment = valgrind(["--tool=callgrind", f"--callgrind-out-file={out}"],
                                [str(swift_att), "decode", "att", "-", "--json"])
    with open(text) as stdin:
        finished = subprocess.run(run, env=environment, stdin=stdin, capture_output=True, text=True)
    decoded = finished.stdout.count("\n")
    if finished.returncode != 0 or decoded != lines:
        sys.exit(f"instructions.py: decode att - decoded {decoded} of {lines} lines (exit {finished.returncode})")
    return callgrind_count(out, "decode att")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=250, help="round trips in the short run (5× in the long one)")
    parser.add_argument("--critical-path", action="store_true", help="also trace N round trips of each with lackey")
    parser.add_argument("--no-build", action="store_true", help="use the release swift-att already built")
    parser.add_argument("--port", type=int, default=9193)
    parser.add_argument("--notifications", type=int, default=0, metavar="N",
                        help="also count a notification sent: transfers of N and 5 N 20-byte chunks")
    parser.add_argument("--decode", type=int, default=0, metavar="N",
                        help="also count a line of `decode att - --json`: N and 5 N lines differenced")
    parser.add_argument("--received", type=int, default=0, metavar="N",
                        help="also count a notification received: the central's side of such transfers")
    options = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("instructions.py: valgrind not found (Debian: apt-get install valgrind)")
    if options.no_build:
        swift_att, baseline = root / ".build/release/swift-att", root / ".build/hci_baseline-static"
        subprocess.run(["clang", "-O2", "-Wall", "-static", "-o", str(baseline),
                        str(root / "Tests/kernel/hci_baseline.c")], check=True)
    else:
        swift_att, baseline = build()
    controller = start_controller(options.port, 1800)
    transport = f"tcp:127.0.0.1:{options.port}"
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        bonds = os.path.join(scratch, "bonds.json")
        try:
            for kind, program in (("swift-att", swift_att), ("C", baseline)):
                # A first run makes swift-att's identity in the bond file (key generation),
                # which the counted runs then only read.
                subprocess.run(command(program, kind, transport, 1, bonds), check=True, capture_output=True)
                short = callgrind_total(command(program, kind, transport, options.count, bonds))
                long = callgrind_total(command(program, kind, transport, options.count * 5, bonds))
                per_trip = (long - short) / (options.count * 4)
                path = None
                if options.critical_path:
                    log = os.path.join(scratch, f"{kind}.lackey")
                    entries = lackey_trace(command(program, kind, transport, options.count, bonds), program, log)
                    path = critical_path(log, entries)
                    os.remove(log)
                rows.append((kind, per_trip, path))
        finally:
            controller.terminate()
            controller.wait()
    print(f"Instructions per HCI command round trip over {transport} (Read BD_ADDR; callgrind, every thread, "
          f"{options.count} and {options.count * 5} round trips differenced)")
    print()
    print(f"{'program':<10} {'instructions/trip':>17}")
    for kind, per_trip, _ in rows:
        print(f"{kind:<10} {per_trip:>17,.0f}")
    print(f"\nswift-att ÷ C: {rows[0][1] / rows[1][1]:.1f}×")
    if options.notifications:
        n = options.notifications
        ports = (options.port + 1, options.port + 2)
        controllers = start_controllers(ports, 1800)
        try:
            with tempfile.TemporaryDirectory() as scratch:
                bonds = os.path.join(scratch, "bonds.json")
                # A first, short transfer makes the peripheral's identity in the bond file.
                transfer_instructions(swift_att, ports, 10, scratch, bonds)
                short = transfer_instructions(swift_att, ports, n, scratch, bonds)
                long = transfer_instructions(swift_att, ports, n * 5, scratch, bonds)
        finally:
            controllers.terminate()
            controllers.wait()
        print(f"\nInstructions per notification sent (`peripheral transfer`, 20-byte notifications to a Bumble "
              f"central over TCP; callgrind, every thread, {n} and {n * 5} notifications differenced): "
              f"{(long - short) / (n * 4):,.0f}")
    if options.received:
        n = options.received
        ports = (options.port + 3, options.port + 4)
        with tempfile.TemporaryDirectory() as scratch:
            bonds = os.path.join(scratch, "bonds.json")
            received_instructions(swift_att, ports, 10, scratch, bonds)  # makes the central's identity
            short, short_notifications = received_instructions(swift_att, ports, n, scratch, bonds)
            long, long_notifications = received_instructions(swift_att, ports, n * 5, scratch, bonds)
        notifications = long_notifications - short_notifications
        print(f"\nInstructions per notification received (`central transfer` of {n * 20} and {n * 100} octets from "
              f"`peripheral transfer` over TCP, in {short_notifications} and {long_notifications} notifications of "
              f"ATT_MTU-3 octets; callgrind, every thread of the central, differenced): "
              f"{(long - short) / notifications:,.0f}")
    if options.decode:
        n = options.decode
        with tempfile.TemporaryDirectory() as scratch:
            short = decode_instructions(swift_att, n, scratch)
            long = decode_instructions(swift_att, n * 5, scratch)
        print(f"\nInstructions per line of `decode att - --json` (a mix of {len(DECODE_MIX)} well-formed ATT PDUs; "
              f"callgrind, {n} and {n * 5} lines differenced): {(long - short) / (n * 4):,.0f}")
    if options.critical_path:
        print(f"\nWhere a round trip's instructions run (lackey, {options.count} round trips; medians of the steady state):")
        print(f"{'program':<10} {'segment':<16} {'instructions':>12} {'4 KiB pages':>11}")
        for kind, _, path in rows:
            if path is None:
                print(f"{kind:<10} (the trace had no poll/write entries to split at)")
                continue
            for name, (instructions, pages) in path.items():
                print(f"{kind:<10} {name:<16} {instructions:>12,.0f} {pages:>11.0f}")


if __name__ == "__main__":
    main()
