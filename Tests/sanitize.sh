#!/usr/bin/env bash
# Runs swift-att's tests under AddressSanitizer and ThreadSanitizer.
#
#   Tests/sanitize.sh [address] [thread] [--unit-only] [--filter REGEX]
#
# Sanitizers (default: both, address first) each build the package and its tests with
# `--sanitize=…` into their own scratch directory (.build-asan, .build-tsan), so the
# normal .build stays as it is, then run `swift test` there in three passes, because
# Swift Testing runs every test at once on Swift's cooperative pool, one thread per
# core, and instrumented code is slow. First the codec and other in-process suites,
# all at once; then those that run hosts over the loopback link (HostFaultTests,
# SwiftATTLoopbackTests), whose waits have wall-clock deadlines: run with the first,
# they lost whole seconds to the CPU-bound tests holding the pool. Last, the two that
# start Bumble and the swift-att binary (IntegrationTests, CommandLineTests), whose
# instrumented subprocesses are slow: apart, so that their waits are not starved by
# the CPU-bound tests. (They await their subprocesses rather than block a pool thread;
# when they blocked, this pass had to run one test at a time.) --unit-only runs the
# first two passes; --filter REGEX narrows every pass. The last pass runs at most four
# tests at a time (Swift Testing's --experimental-maximum-parallelization-width). Any sanitizer report fails the run: ASan aborts the test process at its
# first report (halt_on_error=1), TSan reports every race and goes on; the reports are
# printed. Exits non-zero if any run failed.
#
# Why these options: Swift's own crash handler is switched off so the sanitizer's report
# is the one printed; LeakSanitizer stays on (ASan's default on Linux) with the
# suppressions in Tests/sanitizers/lsan.supp, and TSan's in tsan.supp (it cannot see
# Synchronization.Mutex), each explained there. SWIFT_ATT_SANITIZER
# tells the few tests that assert speed (back-pressure that shows only while swift-att
# outruns Bumble) or read glibc's malloc statistics that they run instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

sanitizers=()
filter=()
unit_only=0
# Swift Testing matches --filter and --skip against "Module.Suite/test()".
host_suites='(HostFaultTests|SwiftATTLoopbackTests)\.'
subprocess_suites='(CommandLineTests|IntegrationTests)\.'
while (($#)); do
    case "$1" in
        address|thread) sanitizers+=("$1"); shift ;;
        --unit-only) unit_only=1; shift ;;
        --filter) filter=(--filter "$2"); shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
((${#sanitizers[@]})) || sanitizers=(address thread)

export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/Tests/sanitizers/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
# TSan goes on past a report, so one run lists them all (each fails the run below).
export TSAN_OPTIONS="halt_on_error=0:suppressions=$PWD/Tests/sanitizers/tsan.supp:${TSAN_OPTIONS:-}"

failed=0
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build-${sanitizer:0:1}san"
    log="$scratch/sanitize-test.log"
    # Under TSan, the loops' work queues tell it the order their Mutex makes (HandOffOrder).
    defines=()
    if [[ $sanitizer == thread ]]; then defines=(-Xswiftc -DSWIFT_ATT_THREAD_SANITIZER); fi
    echo "== $sanitizer: build ($scratch)"
    swift build --build-tests --sanitize="$sanitizer" "${defines[@]}" --scratch-path "$scratch" 2>&1 | tail -n 2
    test "${PIPESTATUS[0]}" -eq 0
    started=$SECONDS
    status=0
    : >"$log"
    passes=(in-process hosts)
    ((unit_only)) || passes+=(subprocesses)
    for pass in "${passes[@]}"; do
        environment=(SWIFT_ATT_SANITIZER="$sanitizer")
        case $pass in
            in-process) args=(--skip "^($host_suites|$subprocess_suites)") ;;
            hosts) args=(--skip "^(?!$host_suites)") ;;
            # At most four at a time: each test of these starts instrumented swift-att
            # processes and Bumble's Pythons, and run all at once on two cores they
            # starved one another past their own timeouts (a minute with nothing done).
            subprocesses) args=(--skip "^(?!$subprocess_suites)" --experimental-maximum-parallelization-width 4) ;;
        esac
        echo "== $sanitizer: swift test ${filter[*]} ${args[*]}"
        set +e
        env "${environment[@]}" swift test --skip-build --sanitize="$sanitizer" "${defines[@]}" --scratch-path "$scratch" \
            "${filter[@]}" "${args[@]}" >>"$log" 2>&1
        ((status |= $?))
        set -e
        grep -E "^(✔|✘) Test run" "$log" | tail -n 1 || true
    done
    reports="$scratch/sanitizer-reports.txt"
    grep -E -A40 "ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer" "$log" >"$reports" || true
    if [[ -s "$reports" ]]; then
        head -n 80 "$reports"
        status=1
    fi
    grep -E "^✘ Test .* recorded an issue" "$log" | head -n 20 || true
    echo "== $sanitizer: $( ((status == 0)) && echo passed || echo "FAILED (see $log)") in $((SECONDS - started)) s"
    ((status == 0)) || failed=1
done
exit "$failed"
