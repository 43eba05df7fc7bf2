#!/usr/bin/env bash
# Builds swift-att's libFuzzer targets and runs them.
#
#   Tests/fuzz/run.sh [--runs N] [--seconds S] [--jobs J] [--onone] [--build-only] [target…]
#
# Targets (default: all): att hci-event hci-acl h4 advertising btsnoop l2cap
# le-signaling l2cap-coc gatt-server gatt-client smp. Each runs for N executions or S seconds,
# whichever comes first (default: 100000 executions), starting from its corpus
# (.build-fuzz/corpus/<target>, kept between runs), seeds cut from Fixtures/ by
# seeds.py, and the regression inputs in
# Fixtures/fuzz/<target>/. A table of execs, execs/s, coverage (libFuzzer's cov and ft)
# and crashes follows; the exit status is non-zero if any target crashed, trapped, or
# ASan/LeakSanitizer reported anything. Crash inputs land in .build-fuzz/artifacts/.
# --jobs J runs J targets at once (default 1). --onone builds without optimisation into
# .build-fuzz/onone: a third of the compile time, slower to run; the bounds, overflow
# and precondition traps are all still there, so it suits short runs (CI's smoke step).
#
# Why swiftc and not SwiftPM: each target is the fuzzed modules' sources compiled with
# `swiftc -sanitize=fuzzer,address` plus one harness file whose
# LLVMFuzzerTestOneInput libFuzzer's own main() calls. In Package.swift such targets
# would have no main() in the normal build (or clash with swift-att's), and SwiftPM's
# sanitizer flags apply to the whole graph, including Transport/Host and the test
# targets that the harnesses do not need. Compiling the nine modules (SwiftATTCore,
# SwiftATTPDU, SwiftATTHCI, SwiftATTAdvertising, SwiftATTL2CAP, SwiftATTCrypto,
# SwiftATTGATT, SwiftATTSMP, SwiftATTSecurity) directly takes about a minute on two
# cores, needs nothing from .build/, and rebuilds only what changed. All are pure Swift
# but SwiftATTCrypto, which calls OpenSSL's libcrypto (libssl-dev) through the
# CSwiftATTCrypto module map: every compile is given that module's directory, and
# targets that link it (gatt-server, gatt-client, smp) get -lcrypto.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

out=.build-fuzz
runs=""
seconds=""
build_only=false
jobs=1
optimize=-O
targets=()
while (($#)); do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --onone) optimize=-Onone; shift ;;
        --build-only) build_only=true; shift ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done

# target → harness file and the modules it links, lowest layer first.
declare -A harness=(
    [att]=ATTPDUFuzz [hci-event]=HCIEventFuzz [hci-acl]=ACLDataPacketFuzz [h4]=H4DeframerFuzz
    [advertising]=AdvertisingDataFuzz [btsnoop]=BTSnoopFuzz [l2cap]=L2CAPRecombinerFuzz
    [le-signaling]=LESignalingFuzz [l2cap-coc]=CreditBasedChannelFuzz
    [gatt-server]=GATTServerFuzz [gatt-client]=GATTClientFuzz [smp]=SMPFuzz
)
declare -A modules=(
    [att]="SwiftATTCore SwiftATTPDU" [hci-event]="SwiftATTCore SwiftATTHCI" [hci-acl]="SwiftATTCore SwiftATTHCI"
    [h4]="SwiftATTCore SwiftATTHCI" [advertising]="SwiftATTCore SwiftATTAdvertising" [btsnoop]="SwiftATTCore SwiftATTHCI"
    [l2cap]="SwiftATTCore SwiftATTHCI SwiftATTL2CAP" [le-signaling]="SwiftATTCore SwiftATTHCI SwiftATTL2CAP"
    [l2cap-coc]="SwiftATTCore SwiftATTHCI SwiftATTL2CAP"
    [gatt-server]="SwiftATTCore SwiftATTPDU SwiftATTCrypto SwiftATTGATT"
    [gatt-client]="SwiftATTCore SwiftATTPDU SwiftATTCrypto SwiftATTGATT"
    [smp]="SwiftATTCore SwiftATTSMP SwiftATTCrypto SwiftATTSecurity"
)
# Inputs longer than this are cut; streams (captures, request sequences) get more room.
declare -A max_len=(
    [att]=600 [hci-event]=300 [hci-acl]=600 [h4]=4096 [advertising]=300 [btsnoop]=8192
    [l2cap]=4096 [le-signaling]=300 [l2cap-coc]=4096 [gatt-server]=4096 [gatt-client]=4096 [smp]=2048
)
all_targets=(att hci-event hci-acl h4 advertising btsnoop l2cap le-signaling l2cap-coc gatt-server gatt-client smp)
((${#targets[@]})) || targets=("${all_targets[@]}")
[[ -n "$runs$seconds" ]] || runs=100000
for t in "${targets[@]}"; do
    [[ -n "${harness[$t]:-}" ]] || { echo "unknown target $t (targets: ${all_targets[*]})" >&2; exit 2; }
done

# -O keeps Swift's bounds and overflow checks (only -Ounchecked drops them), so a trap in
# the decoders shows up as a crash; -g gives ASan's reports file and line.
# -package-name as SwiftPM passes it: the modules are one package (no retroactive-conformance warnings).
flags=(-swift-version 6 -package-name swift_att "$optimize" -sanitize=fuzzer,address -parse-as-library
    -I Sources/CSwiftATTCrypto)
# Objects of each optimisation level live apart, so neither rebuild undoes the other.
# At -Onone, -g adds a job wrapping the module for the debugger that writes the same
# object path as the compile; line tables are all ASan's reports need.
build="$out"
if [[ $optimize == -O ]]; then flags+=(-g); else build="$out/onone"; flags+=(-gline-tables-only); fi
mkdir -p "$build/modules" "$build/bin"

declare -A deps=([SwiftATTCore]="" [SwiftATTPDU]="SwiftATTCore" [SwiftATTHCI]="SwiftATTCore"
    [SwiftATTAdvertising]="SwiftATTCore" [SwiftATTL2CAP]="SwiftATTCore SwiftATTHCI"
    [SwiftATTCrypto]="SwiftATTCore" [SwiftATTGATT]="SwiftATTCore SwiftATTPDU SwiftATTCrypto"
    [SwiftATTSMP]="SwiftATTCore" [SwiftATTSecurity]="SwiftATTCore SwiftATTSMP SwiftATTCrypto")

# Quiet the gold linker's "Cannot export local symbol '__asan_…'" notes (harmless).
link_filter() { grep -v "Cannot export local symbol" || true; }

build_module() {
    local name=$1 object="$build/modules/$1.o" stale=false
    local inputs=("Sources/$name")
    for d in ${deps[$name]}; do inputs+=("$build/modules/$d.o"); done
    [[ $name == SwiftATTCrypto ]] && inputs+=(Sources/CSwiftATTCrypto)
    if [[ ! -f "$object" ]] || [[ -n "$(find "${inputs[@]}" -newer "$object" -print -quit)" ]]; then stale=true; fi
    $stale || return 0
    echo "building module $name"
    local sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    swiftc "${flags[@]}" -module-name "$name" -wmo -I "$build/modules" \
        -emit-module -emit-module-path "$build/modules/$name.swiftmodule" \
        -c -o "$object" "${sources[@]}"
}

build_target() {
    local t=$1 binary="$build/bin/$1" file="Tests/fuzz/${harness[$1]}.swift"
    local support=(Tests/fuzz/FuzzInput.swift)
    [[ $t == gatt-* ]] && support+=(Tests/fuzz/FuzzDatabase.swift)
    [[ $t == smp ]] && support+=(Tests/fuzz/SMPFuzzMaterial.swift Tests/fuzz/SMPFuzzWatchedSession.swift
        Tests/fuzz/SMPFuzzManInTheMiddle.swift)
    local objects=() libraries=() m
    for m in ${modules[$t]}; do objects+=("$build/modules/$m.o"); done
    [[ " ${modules[$t]} " == *" SwiftATTCrypto "* ]] && libraries+=(-lcrypto)
    if [[ -f "$binary" ]] && [[ -z "$(find "$file" "${support[@]}" "${objects[@]}" -newer "$binary" -print -quit)" ]]; then
        return 0
    fi
    echo "building target $t"
    swiftc "${flags[@]}" -module-name "fuzz_${t//-/_}" -I "$build/modules" \
        "${support[@]}" "$file" "${objects[@]}" "${libraries[@]}" -o "$binary" 2>&1 | link_filter
    test "${PIPESTATUS[0]}" -eq 0
}

# The modules the chosen targets need: SwiftATTCore, then two chains side by side (each
# module is one single-threaded whole-module compile, these machines have two cores).
# Chains rather than layers: GATT starts as soon as ATT and Crypto (a small module) are
# done instead of waiting for HCI, the longest compile of the middle layer; the Security
# Manager's two (SMP's codec, then the pairing machine over it and Crypto) follow GATT,
# which still leaves that chain the shorter one.
needed=" $(for t in "${targets[@]}"; do echo "${modules[$t]}"; done | tr ' ' '\n' | sort -u | tr '\n' ' ') "
build_chain() {
    local m
    for m in "$@"; do
        if [[ $needed == *" $m "* ]]; then build_module "$m"; fi
    done
}
build_chain SwiftATTCore
build_chain SwiftATTPDU SwiftATTCrypto SwiftATTGATT SwiftATTSMP SwiftATTSecurity &
chain=$!
build_chain SwiftATTHCI SwiftATTAdvertising SwiftATTL2CAP
wait "$chain"
# Harnesses compile and link two at a time (these machines have two cores).
pids=()
for t in "${targets[@]}"; do
    build_target "$t" &
    pids+=($!)
    if ((${#pids[@]} == 2)); then wait "${pids[0]}"; wait "${pids[1]}"; pids=(); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
$build_only && exit 0

python3 Tests/fuzz/seeds.py --out "$out/seeds" >/dev/null

# A fuzzing crash handler of Swift's own would race ASan's and libFuzzer's reports.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1:${ASAN_OPTIONS:-}"
export ASAN_SYMBOLIZER_PATH=/opt/swift/usr/bin/llvm-symbolizer

# One target's run; its row of the table, and what failed, go to $out/logs/<target>.result.
fuzz_target() {
    local t=$1
    local corpus="$out/corpus/$t" artifacts="$out/artifacts/$t/" log="$out/logs/$t.log"
    local regressions="Fixtures/fuzz/$t"
    mkdir -p "$corpus" "$artifacts" "$out/logs"
    local dirs=("$corpus" "$out/seeds/$t")
    [[ -d "$regressions" ]] && dirs+=("$regressions")
    local limit=()
    [[ -n "$runs" ]] && limit+=(-runs="$runs")
    [[ -n "$seconds" ]] && limit+=(-max_total_time="$seconds")
    local status=0
    "$build/bin/$t" "${limit[@]}" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts" "${dirs[@]}" >"$log" 2>&1 || status=$?
    local execs rate last cov ft crashes result
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
    ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
    crashes=$(grep -c -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|SUMMARY: |Fatal error' "$log" || true)
    result=ok
    if ((status != 0 || crashes > 0)); then
        result="FAILED (exit $status): see $log"
        ((crashes > 0)) || crashes=1
    fi
    {
        printf '%-13s %12s %9s %7s %7s %8s %s\n' "$t" "$execs" "$rate" "$cov" "$ft" "$crashes" "$result"
        if [[ $result != ok ]]; then
            grep -E 'ERROR:|SUMMARY:|Fatal error|fuzz invariant|Test unit written' "$log" | head -n 8 | sed 's/^/    /'
        fi
    } >"$out/logs/$t.result"
}

# $jobs targets at a time; the table lists them in the order given.
pids=()
for t in "${targets[@]}"; do
    rm -f "$out/logs/$t.result"
    fuzz_target "$t" &
    pids+=($!)
    if ((${#pids[@]} == jobs)); then wait "${pids[0]}" || true; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid" || true; done

printf '\n%-13s %12s %9s %7s %7s %8s %s\n' target execs "execs/s" cov ft crashes result
failed=0
for t in "${targets[@]}"; do
    if [[ -f "$out/logs/$t.result" ]]; then
        cat "$out/logs/$t.result"
        grep -q ' ok$' "$out/logs/$t.result" || failed=1
    else
        echo "$t: the run left no result (see $out/logs/$t.log)"
        failed=1
    fi
done
exit "$failed"
