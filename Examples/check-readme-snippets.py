#!/usr/bin/env python3
"""Checks that the Swift examples of README.md and the guides are the ones Examples/HeartRateLogger compiles.

Every ```swift block of README.md and of Documentation/*.md must appear, line for line, in one
of the programs under Examples/HeartRateLogger/ReadmeExamples/ (a complete example is a whole
main.swift; a fragment sits in one, after the declarations it uses), and every such program
must hold a block. Building the example package then compiles exactly what the documentation
shows. Exits 1 naming each block or program that has no partner.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
documents = [root / "README.md"] + sorted((root / "Documentation").glob("*.md"))
snippets = sorted((root / "Examples/HeartRateLogger/ReadmeExamples").glob("*/main.swift"))

blocks = []  # (document:line, the block's lines)
for document in documents:
    text = document.read_text()
    for match in re.finditer(r"^```swift\n(.*?)^```$", text, re.S | re.M):
        line = text.count("\n", 0, match.start()) + 2
        blocks.append((f"{document.relative_to(root)}:{line}", match.group(1).rstrip("\n").split("\n")))


def contains(haystack, needle):
    return any(haystack[i:i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1))


programs = {path: path.read_text().rstrip("\n").split("\n") for path in snippets}
failures = []
used = set()
for place, block in blocks:
    holders = [path for path, lines in programs.items() if contains(lines, block)]
    if holders:
        used.update(holders)
    else:
        failures.append(f"{place}: this Swift example is in no program under Examples/HeartRateLogger/ReadmeExamples "
                        f"(copy it there verbatim, with what it needs declared before it)")
for path in programs:
    if path not in used:
        failures.append(f"{path.relative_to(root)}: holds none of the Swift examples of README.md or Documentation/*.md "
                        f"(the documentation changed?)")
for failure in failures:
    print(failure, file=sys.stderr)
print(f"{len(blocks)} Swift examples in README.md and {len(documents) - 1} guides, {len(programs)} snippet programs: "
      + ("all matched" if not failures else f"{len(failures)} problems"))
sys.exit(1 if failures else 0)
