#!/usr/bin/env python3
"""Old code against new in the same run: both benchmarks, before and after a change.

    Benchmarks/compare.py --base REF [--rounds N] [--host-args "ARGS"] [--no-codec] [--no-host]

Builds the two benchmark executables (release, as CI builds them) from REF in a worktree
under .build/compare/ and from the working tree, then runs old and new alternately,
ABBA round by round so that neither always runs on a warmer or busier machine, and prints
the median of each row for both, with new ÷ old: for the codec, decode and encode ns per
PDU; for the host (default arguments: the shared loop, one and eight links, 20 and 244 B,
no Bumble), CPU µs per notification and notifications per CPU-second. Rows where the new
code is more than 10 % worse are marked. Timings on these machines are noisy: read the
ratios, and run again before believing a single marked row.
"""
import argparse
import pathlib
import re
import shutil
import statistics
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
products = ("swift-att-benchmarks", "swift-att-host-benchmarks")


def run(command, cwd=root, capture=False):
    result = subprocess.run(command, cwd=cwd, text=True, capture_output=capture)
    if result.returncode != 0:
        if capture:
            sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"failed: {' '.join(command)}")
    return result.stdout


def build(directory, flags):
    """Builds both products in `directory`; with extra swiftc `flags`, into a scratch path of
    their own so that the usual release build is left as it is."""
    command = ["swift", "build", "-c", "release", "--static-swift-stdlib"]
    scratch = directory / ".build"
    if flags:
        scratch = directory / ".build" / ("flags-" + re.sub(r"[^A-Za-z0-9]+", "-", " ".join(flags)).strip("-"))
        command += ["--scratch-path", str(scratch)] + [f for flag in flags for f in ("-Xswiftc", flag)]
    for product in products:
        run(command + ["--product", product], cwd=directory, capture=True)
    return scratch / "release"


def build_probe(tree, tag):
    """Benchmarks/CodecProbe and the benchmark's PDU mix, built against the codec of
    `tree` (the base commit's worktree or the working tree): one harness for both."""
    module = "SwiftATTPDU" if (tree / "Sources/SwiftATTPDU").exists() else "ATT"
    probe = root / ".build/compare" / f"probe-{tag}"
    sources = probe / "Sources/probe"
    sources.mkdir(parents=True, exist_ok=True)
    (probe / "Package.swift").write_text(
        "// swift-tools-version: 6.0\n"
        "import PackageDescription\n"
        f"let package = Package(name: \"probe\", dependencies: [.package(path: \"{tree}\")],\n"
        f"    targets: [.executableTarget(name: \"probe\", dependencies: [.product(name: \"{module}\", package: \"{tree.name}\")])])\n")
    for name, source in (("main.swift", root / "Benchmarks/CodecProbe/main.swift"),
                         ("PDUMix.swift", root / "Benchmarks/ATTBenchmarks/PDUMix.swift")):
        (sources / name).write_text(source.read_text().replace("import SwiftATTPDU", f"import {module}"))
    run(["swift", "build", "-c", "release"], cwd=probe, capture=True)
    return probe / ".build/release/probe"


def probe_rows(output):
    """{PDU: (decode ns, encode ns)} from the probe's tab-separated lines."""
    rows = {}
    for line in output.splitlines():
        name, decode, encode = line.split("\t")
        rows[name] = (float(decode), float(encode))
    return rows


def instructions_per_decode(binary, name):
    """Instructions one decode of `name` takes, counted by callgrind: the difference
    between runs of 200 000 and 100 000 decodes, so start-up is left out. Repeatable
    whatever the machine is doing."""
    totals = []
    for count in (100_000, 200_000):
        out = root / ".build/compare/callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(binary), name, str(count)],
                       capture_output=True, check=True)
        summary = subprocess.run(["callgrind_annotate", str(out)], capture_output=True, text=True).stdout
        totals.append(int(re.search(r"([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS|([\d,]+)\s+PROGRAM TOTALS", summary)
                          .group(0).split()[0].replace(",", "")))
    return (totals[1] - totals[0]) / 100_000


def columns(line):
    return re.split(r"\s{2,}", line.strip())


def number(text):
    """'2.3 M' → 2.3e6, '623.2 k' → 623200, '0.43' → 0.43."""
    value, _, unit = text.partition(" ")
    return float(value) * {"": 1, "k": 1e3, "M": 1e6}[unit]


def table(output, first_heading):
    """The rows of the table whose heading line starts with `first_heading`, each a dict
    from heading to cell (the Bumble columns, present or not, do not matter)."""
    lines = output.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(first_heading):
            headings = columns(line)
            rows = []
            for row in lines[index + 2:]:
                if not row.strip():
                    break
                rows.append(dict(zip(headings, columns(row))))
            return rows
    return []


def codec_rows(output):
    """{PDU: (decode ns, encode ns)} from the codec table."""
    return {row["PDU"]: (float(row["decode ns"]), float(row["encode ns"])) for row in table(output, "PDU ")}


def host_rows(output):
    """{(value, links, loops): (CPU µs/notif, notif/CPU-s)} from the host table. An older
    binary's "own" rows (a loop thread per host, what hosts started without a loop got
    then) are its "default" rows."""
    return {(row["value B"], row["links"], "default" if row["loops"] == "own" else row["loops"]):
            (float(row["CPU µs/notif"]), number(row["notif/CPU-s"]))
            for row in table(output, "value B ")}


def report(title, headings, samples, worse_if_higher):
    print(f"\n{title}")
    print("| row | " + " | ".join(f"{h} old | {h} new | new÷old" for h in headings) + " |")
    print("|---|" + "--:|--:|--:|" * len(headings))
    marked = 0
    for key in samples["old"]:
        if key not in samples["new"]:
            continue
        cells = []
        for index, higher_is_worse in enumerate(worse_if_higher):
            old = statistics.median(s[index] for s in samples["old"][key])
            new = statistics.median(s[index] for s in samples["new"][key])
            ratio = new / old if old else float("nan")
            worse = ratio > 1.1 if higher_is_worse else ratio < 1 / 1.1
            marked += worse
            cells.append(f"{old:.3g} | {new:.3g} | {ratio:.2f}{' ✗' if worse else ''}")
        name = key if isinstance(key, str) else " ".join(key)
        print(f"| {name} | " + " | ".join(cells) + " |")
    return marked


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--host-args", default="--no-bumble --shared-loop")
    parser.add_argument("--no-codec", action="store_true")
    parser.add_argument("--no-host", action="store_true")
    parser.add_argument("--probe", action="store_true",
                        help="also time the codec with one harness (Benchmarks/CodecProbe) built against both "
                             "versions, and count instructions per decode with callgrind when valgrind is there")
    parser.add_argument("--swiftc-flags", default="",
                        help="extra swiftc flags for both builds (e.g. \"-Xllvm -align-all-functions=6\"), "
                             "to tell a code change from where the linker happened to place the code")
    options = parser.parse_args()

    base = root / ".build/compare" / re.sub(r"[^A-Za-z0-9_.-]", "_", options.base)
    if not base.exists():
        run(["git", "worktree", "add", "--detach", str(base), options.base], capture=True)
    print(f"building {options.base} in {base.relative_to(root)} and the working tree (release)", file=sys.stderr)
    flags = options.swiftc_flags.split()
    binaries = {"old": build(base, flags), "new": build(root, flags)}

    probes = {"old": build_probe(base, "old"), "new": build_probe(root, "new")} if options.probe else {}
    probed = {"old": {}, "new": {}}
    codec = {"old": {}, "new": {}}
    host = {"old": {}, "new": {}}
    for round in range(options.rounds):
        order = ("old", "new") if round % 2 == 0 else ("new", "old")
        for which in order:
            print(f"round {round + 1}/{options.rounds}: {which}", file=sys.stderr)
            if not options.no_codec:
                out = run([str(binaries[which] / products[0])], capture=True)
                for key, value in codec_rows(out).items():
                    codec[which].setdefault(key, []).append(value)
            if probes:
                for key, value in probe_rows(run([str(probes[which])], capture=True)).items():
                    probed[which].setdefault(key, []).append(value)
            if not options.no_host:
                out = run([str(binaries[which] / products[1]), *options.host_args.split()], capture=True)
                for key, value in host_rows(out).items():
                    host[which].setdefault(key, []).append(value)

    marked = 0
    if not options.no_codec:
        marked += report(f"ATT codec, ns per PDU (median of {options.rounds} runs each)",
                         ["decode ns", "encode ns"], codec, [True, True])
    if probes:
        marked += report(f"ATT codec, one harness against both codecs (Benchmarks/CodecProbe), ns per PDU "
                         f"(median of {options.rounds} runs each)", ["decode ns", "encode ns"], probed, [True, True])
        if shutil.which("valgrind"):
            counted = {which: {name: [(instructions_per_decode(probes[which], name),)] for name in probed[which]}
                       for which in ("old", "new")}
            marked += report("ATT codec, instructions per decode (callgrind, Benchmarks/CodecProbe)",
                             ["instructions"], counted, [True])
    if not options.no_host:
        marked += report(f"Host ({options.host_args}), median of {options.rounds} runs each",
                         ["CPU µs/notif", "notif/CPU-s"], host, [True, False])
    print(f"\n{marked} figures more than 10 % worse" if marked else "\nno figure more than 10 % worse")


if __name__ == "__main__":
    main()
