#!/usr/bin/env python3
"""`swift-att dump` against tshark on the same large capture, in the same run.

    Benchmarks/dump_benchmark.py [--records N] [--runs N] [--no-build] [--keep FILE]

Builds swift-att (release), then writes a capture of N records (default 200 000) made of
the records of Fixtures/captures/*.btsnoop repeated in order, with timestamps carried on
so that time only moves forward. Then times, --runs times each (ABAB…, median), with
standard output to /dev/null:

    swift-att dump FILE            text
    swift-att dump --json FILE     one JSON object per record
    tshark -V -r FILE              every packet's full dissection, text
    tshark -T json -r FILE         the same as JSON

and prints wall and CPU seconds, records per second, peak resident memory (`/usr/bin/time`)
and tshark's time ÷ swift-att's, wall and CPU (the CPU ratio is steadier on a shared
machine). tshark comes from Debian's package:

    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
    DEBIAN_FRONTEND=noninteractive apt-get install -y tshark
"""
import argparse
import os
import pathlib
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

root = pathlib.Path(__file__).resolve().parent.parent
fixtures = sorted((root / "Fixtures/captures").glob("*.btsnoop"))


def records(path):
    """(header fields, packet) for every record of a btsnoop file."""
    data = path.read_bytes()
    assert data[:8] == b"btsnoop\0", path
    offset = 16
    while offset < len(data):
        original, included, flags, drops, ts = struct.unpack_from(">IIIIq", data, offset)
        packet = data[offset + 24 : offset + 24 + included]
        yield original, flags, drops, ts, packet
        offset += 24 + included


def write_capture(path, count):
    """`count` records: the fixtures' records over and over, time running on."""
    source = [r for f in fixtures for r in records(f)]
    with open(path, "wb") as out:
        out.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        first = source[0][3]
        span = source[-1][3] - first + 1000
        for i in range(count):
            original, flags, drops, ts, packet = source[i % len(source)]
            lap = i // len(source)
            out.write(struct.pack(">IIIIq", original, len(packet), flags, drops, ts + lap * span))
            out.write(packet)


def timed(command):
    """Wall seconds, CPU seconds (user + system) and peak RSS in KiB of one run,
    standard output discarded."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%M %U %S"] + command,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr}")
        kib, user, system = report.read().strip().splitlines()[-1].split()
    return elapsed, float(user) + float(system), int(kib)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-build", action="store_true", help="use .build/release/swift-att as it is")
    parser.add_argument("--keep", help="write the capture here and keep it")
    options = parser.parse_args()

    if not shutil.which("tshark"):
        sys.exit("tshark is not installed (see this script's --help)")
    if not options.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "swift-att"], cwd=root, check=True)
    swift_att = str(root / ".build/release/swift-att")

    directory = tempfile.TemporaryDirectory()
    capture = options.keep or os.path.join(directory.name, "large.btsnoop")
    write_capture(capture, options.records)
    size = os.path.getsize(capture)

    rows = {
        "swift-att dump": [swift_att, "dump", capture],
        "swift-att dump --json": [swift_att, "dump", "--json", capture],
        "tshark -V": ["tshark", "-V", "-r", capture],
        "tshark -T json": ["tshark", "-T", "json", "-r", capture],
    }
    times = {name: [] for name in rows}
    cpu = {name: [] for name in rows}
    peaks = {name: [] for name in rows}
    for _ in range(options.runs):
        for name, command in rows.items():
            seconds, cpu_seconds, kib = timed(command)
            times[name].append(seconds)
            cpu[name].append(cpu_seconds)
            peaks[name].append(kib)

    print(f"capture: {options.records} records, {size / 1e6:.1f} MB "
          f"({len(fixtures)} fixtures repeated); median of {options.runs} runs")
    print(f"{'command':<24}{'wall s':>10}{'CPU s':>10}{'records/s':>14}{'peak RSS MiB':>14}")
    median = {name: statistics.median(values) for name, values in times.items()}
    median_cpu = {name: statistics.median(values) for name, values in cpu.items()}
    for name in rows:
        print(f"{name:<24}{median[name]:>10.3f}{median_cpu[name]:>10.3f}{options.records / median[name]:>14,.0f}"
              f"{max(peaks[name]) / 1024:>14.1f}")
    print()
    print("tshark ÷ swift-att (wall, CPU):")
    for ours, theirs in [("swift-att dump", "tshark -V"), ("swift-att dump --json", "tshark -T json"),
                         ("swift-att dump --json", "tshark -V")]:
        print(f"  {theirs} ÷ {ours}: {median[theirs] / median[ours]:.1f}×, "
              f"{median_cpu[theirs] / median_cpu[ours]:.1f}×")


if __name__ == "__main__":
    main()
