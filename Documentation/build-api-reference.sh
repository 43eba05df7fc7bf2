#!/usr/bin/env bash
# Builds the API reference of every public module with the toolchain's own docc, and
# fails if docc warns (an unresolved ``symbol`` link, a malformed catalog) or if a
# public symbol has no documentation comment.
#
#     Documentation/build-api-reference.sh            # all public modules
#     Documentation/build-api-reference.sh SwiftATTPDU # some of them
#
# One `swift package dump-symbol-graph` builds the package (debug, as `swift build`
# does, so after CI's debug build it has little or nothing to compile) and extracts each
# module's public symbols; then `docc convert` per module writes a static website to
# .build/api-reference/<Module>.doccarchive (serve the directory, e.g. with
# `python3 -m http.server -d`, and open /documentation/<module>), with the experimental
# documentation coverage. Each module's landing page and Topics are in
# Sources/<Module>/<Module>.docc/<Module>.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# The library products of Package.swift, from the wire up.
all_modules=(
    SwiftATTCore SwiftATTTransport SwiftATTHCI SwiftATTL2CAP SwiftATTPDU SwiftATTSMP
    SwiftATTCrypto SwiftATTSecurity SwiftATTGATT SwiftATTAdvertising SwiftATTHost
    SwiftATT SwiftATTJSON SwiftATTPDUJSON SwiftATTProfiles SwiftATTDatabaseFile
    SwiftATTBondFile SwiftATTLoopback
)
# UNFINISHED: modules whose public symbols are not all documented yet. Their undocumented
# symbols are counted but do not fail the build; a module leaves this list when its last
# symbol is documented, and then stays covered. Empty: every module is finished, and a
# new public symbol without a documentation comment fails CI.
unfinished=(
)

modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=("${all_modules[@]}")
out=.build/api-reference
mkdir -p "$out"

echo "symbol graphs (swift package dump-symbol-graph)"
# It exits non-zero having written every module's graph: it also tries the package's
# test-discovery modules, which a build without tests does not make. A module's graph
# missing is what fails here.
swift package dump-symbol-graph --skip-synthesized-members > "$out/dump-symbol-graph.log" 2>&1 || true
graphs=$(sed -n 's/^Files written to //p' "$out/dump-symbol-graph.log" | tail -n 1)
for module in "${modules[@]}"; do
    if [ -z "$graphs" ] || [ ! -f "$graphs/$module.symbols.json" ]; then
        cat "$out/dump-symbol-graph.log" >&2
        echo "no symbol graph for $module" >&2
        exit 1
    fi
done

failed=()
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || { echo "$module: no catalog at $catalog" >&2; failed+=("$module"); continue; }
    # docc reads every graph in the directory: give it this module's graphs alone (its
    # own symbols, and its extensions of other modules' types, Module@Other).
    rm -rf "$out/symbol-graphs/$module" "$out/$module.doccarchive"
    mkdir -p "$out/symbol-graphs/$module"
    cp "$graphs/$module.symbols.json" "$out/symbol-graphs/$module/"
    cp "$graphs/$module"@*.symbols.json "$out/symbol-graphs/$module/" 2>/dev/null || true

    printf '\n== %s\n' "$module"
    # Inherited docs on: `==`, `hash(into:)`, `description` and a raw-value enum's
    # `init(rawValue:)` say what the standard library's protocol says, and need no
    # comment of their own.
    status=0
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --output-path "$out/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-att.$module" \
        --transform-for-static-hosting \
        --enable-inherited-docs \
        --warnings-as-errors \
        --experimental-documentation-coverage \
        --coverage-summary-level brief \
        > "$out/$module.docc.log" 2>&1 || status=$?
    grep -v -E '^$|Experimental coverage output enabled' "$out/$module.docc.log" || true
    if [ "$status" -ne 0 ] || [ ! -f "$out/$module.doccarchive/documentation-coverage.json" ]; then
        echo "$module: docc failed (its warnings are errors)" >&2
        failed+=("$module")
        continue
    fi

    # Every public symbol written in the source has a documentation comment of its own
    # or one it inherits from the protocol requirement it implements.
    undocumented=$(python3 - "$out/symbol-graphs/$module" "$out/$module.doccarchive/documentation-coverage.json" <<'EOF'
import json, os, sys
graphs, coverage = sys.argv[1], sys.argv[2]
root = os.getcwd() + "/"
lines = []
for name in sorted(os.listdir(graphs)):
    for symbol in json.load(open(os.path.join(graphs, name)))["symbols"]:
        if "docComment" in symbol:
            continue
        location = symbol.get("location")
        where = "(implicit)"
        if location:
            where = location["uri"].removeprefix("file://").removeprefix(root)
            where += ":%d" % (location["position"]["line"] + 1)
        lines.append("%s: %s %s" % (where, symbol["kind"]["displayName"].lower(),
                                    ".".join(symbol["pathComponents"])))
# What docc's coverage counts as having no abstract when the graphs list nothing (a
# comment with no summary line, say).
if not lines:
    for entry in json.load(open(coverage)):
        if entry["kind"]["isSymbol"] and not entry["hasAbstract"]:
            lines.append("(no abstract): " + entry["referencePath"].split("/documentation/", 1)[1])
print("\n".join(lines))
EOF
)
    if [ -n "$undocumented" ]; then
        count=$(printf '%s\n' "$undocumented" | wc -l)
        if [[ " ${unfinished[*]} " == *" $module "* ]]; then
            echo "$module: public symbols without a documentation comment: $count (unfinished: not a failure yet)"
        else
            echo "$module: public symbols without a documentation comment: $count" >&2
            printf '%s\n' "$undocumented" | sed 's/^/  /' >&2
            failed+=("$module")
        fi
    else
        echo "$module: every public symbol documented"
    fi
done

echo
if [ ${#failed[@]} -gt 0 ]; then
    echo "API reference: failed for ${failed[*]}" >&2
    exit 1
fi
echo "API reference: $out/<Module>.doccarchive for ${#modules[@]} modules"
