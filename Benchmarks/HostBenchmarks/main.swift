#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import BenchmarkTables
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTTransport

// The full-stack host benchmark (Documentation/Benchmarks.md). Run with
// `swift run -c release swift-att-host-benchmarks`; `--quick` for a smoke run of a few
// seconds; `--no-bumble` to skip the columns that need the bench's Python venv;
// `--only LENGTH/LINKS` for one case of the loopback table; `--pairing-only` for the
// pairing tables alone (PairingReport); `--crypto-only` for its table of crypto calls alone;
// `--channels-only` for the credit-based channel tables (ChannelReport); `--eatt-only` for
// the Enhanced ATT tables (EATTReport); `--connect-only` for the connection set-up tables
// (ConnectionSetupReport); `--allocations-only` for the heap allocations per notification
// (ReceiveAllocations).

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print("""
    usage: swift-att-host-benchmarks [--quick] [--no-bumble] [--only LENGTH/LINKS]
                                     [--default-loop | --shared-loop | --per-host | --split] [--buffers N]
                                     [--count N] [--runs N] [--ceiling-only] [--pairing-only | --no-pairing]
                                     [--crypto-only] [--channels-only | --no-channels] [--eatt-only | --no-eatt]
                                     [--connect-only | --no-connect] [--allocations-only] [--commands-only]
      --quick        one short run per case (a smoke test of a few seconds)
      --no-bumble    skip the Bumble columns and the runs over Bumble's controllers
      --only 20/1    one case of the loopback table (value length / links)
      --default-loop, --shared-loop, --per-host, --split
                     one way of placing hosts and tasks on threads (default: all four)
      --buffers N    the loopback controllers' LE ACL buffer count (default 64)
      --count N      notifications measured per case on the loopback link (default 400000;
                     4000 with --quick), shared among the links
      --runs N       runs per figure, the median reported (default 5; 1 with --quick)
      --ceiling-only only the runs over Bumble's controllers against the raw link
      --pairing-only only the pairing tables (LE Secure Connections, in one process and
                     over Bumble's controllers); --no-pairing leaves them out
      --crypto-only  only the table of SwiftATTCrypto's calls (the last of the pairing tables)
      --channels-only only the credit-based channel tables (ChannelReport); --no-channels leaves them out
      --eatt-only    only the Enhanced ATT tables (EATTReport); --no-eatt leaves them out
      --connect-only only the connection set-up tables (ConnectionSetupReport); --no-connect leaves them out
      --allocations-only only the heap allocations per notification sent and received (ReceiveAllocations)
      --commands-only  only the host's CPU time and allocations per HCI command round trip (CommandRoundTrips)
    """)
    exit(0)
}

/// The argument that follows `flag` on the command line, if any.
func value(after flag: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: flag), arguments.indices.contains(i + 1) else { return nil }
    return arguments[i + 1]
}

let quick = CommandLine.arguments.contains("--quick")
let withBumble = !CommandLine.arguments.contains("--no-bumble")
let ceilingOnly = CommandLine.arguments.contains("--ceiling-only")
let runs = value(after: "--runs").flatMap { Int($0) }.map { max(1, $0) } ?? (quick ? 1 : 5)
let pairing = PairingReport(quick: quick, runs: runs, withBumble: withBumble)
if CommandLine.arguments.contains("--crypto-only") {
    try pairing.printCryptoCalls(sessionSide: nil)
    exit(0)
}
if CommandLine.arguments.contains("--pairing-only") {
    try await pairing.run()
    exit(0)
}
let channelReport = ChannelReport(quick: quick, runs: runs, withBumble: withBumble)
if CommandLine.arguments.contains("--channels-only") {
    try await channelReport.run()
    exit(0)
}
/// Heap allocations per notification on each side: HeapProbe's count on each side's
/// loop thread, split loops, one link (ReceiveAllocations).
func printAllocationsPerNotification() async throws {
    print("Heap allocations per notification, counted by HeapProbe's malloc on each side's loop thread (split loops,")
    print("one link, the loopback controllers): received = HCI to the application's stream; sent = updateValue to HCI;")
    print("each side's count includes the emulated controllers' work on its thread: the Number Of Completed Packets")
    print("events (NOCP), built on the receiving thread in buffers the hosts hand back (none in the steady state)")
    print()
    var allocations = Table(["value B", "notifications", "allocs/received notif", "allocs/sent notif", "NOCP events/notif"])
    for length in [20, 244] {
        let f = try await ReceiveAllocations.measure(valueLength: length, count: quick ? 4_000 : 40_000)
        allocations.add([String(length), String(f.notifications), format(f.receiverPerNotification, decimals: 2),
                         format(f.senderPerNotification, decimals: 2), format(f.completedPacketsEventsPerNotification, decimals: 3)])
    }
    print(allocations.render())
}
/// The host's own cost of an HCI command round trip (CommandRoundTrips).
func printCommandRoundTrips() async throws {
    print("HCI command round trips through the host, Read BD_ADDR answered in-process by the loopback controller,")
    print("the caller's task on the host's loop: CPU time and heap allocations of that one thread per trip")
    print()
    let f = try await CommandRoundTrips.measure(count: quick ? 20_000 : 200_000, runs: quick ? 3 : 5)
    var table = Table(["round trips", "CPU µs/trip", "allocs/trip"])
    table.add([String(f.trips), format(f.cpuMicrosecondsPerTrip, decimals: 2), format(f.allocationsPerTrip, decimals: 2)])
    print(table.render())
}
if CommandLine.arguments.contains("--commands-only") {
    try await printCommandRoundTrips()
    exit(0)
}
if CommandLine.arguments.contains("--allocations-only") {
    try await printAllocationsPerNotification()
    exit(0)
}
let eattReport = EATTReport(quick: quick, runs: runs, withBumble: withBumble)
if CommandLine.arguments.contains("--eatt-only") {
    try await eattReport.run()
    exit(0)
}
let connectReport = ConnectionSetupReport(quick: quick, runs: runs, withBumble: withBumble)
if CommandLine.arguments.contains("--connect-only") {
    try await connectReport.run()
    exit(0)
}

struct Case {
    let valueLength: Int
    let connections: Int
}
let allCases = [Case(valueLength: 20, connections: 1), Case(valueLength: 244, connections: 1),
                Case(valueLength: 20, connections: 8), Case(valueLength: 244, connections: 8)]
// `--only 20/1` measures one case (value length / links), for profiling.
let only = value(after: "--only")
// `--buffers N`: the loopback controllers' LE ACL buffer count (default 64, what Bumble's
// controllers report in the peer measurement below).
let bufferCount = value(after: "--buffers").flatMap { Int($0) } ?? 64
// Each case runs in every `LoopLayout`; `--default-loop`, `--shared-loop`, `--per-host` or
// `--split` runs one.
let layouts: [LoopLayout] = CommandLine.arguments.contains("--shared-loop") ? [.shared]
    : CommandLine.arguments.contains("--default-loop") ? [.default]
    : CommandLine.arguments.contains("--per-host") ? [.perHost]
    : CommandLine.arguments.contains("--split") ? [.split] : LoopLayout.allCases
// `--count N`: notifications measured per case (all links together) on the loopback link.
let loopbackCount = value(after: "--count").flatMap { Int($0) } ?? (quick ? 4_000 : 400_000)
let cases = ceilingOnly ? [] : allCases.filter { c in only.map { $0 == "\(c.valueLength)/\(c.connections)" } ?? true }

/// swift-att over the loopback link: the median of `runs` runs of `count` values.
func loopback(_ c: Case, count: Int, layout: LoopLayout) async throws -> Sample {
    var samples: [Sample] = []
    for _ in 0..<runs {
        let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: bufferCount)
        let bench = try await NotificationBench.start(
            peripheral: link.addController().specification,
            centrals: (0..<c.connections).map { _ in link.addController().specification },
            valueLength: c.valueLength, layout: layout)
        samples.append(await bench.run(warmup: count / 10, count: count))
        await bench.stop()
        precondition(link.statistics.bufferOverflows == 0, "a host overran the loopback controller's buffers")
    }
    return Sample.median(samples)
}

var swiftSamples: [(Case, LoopLayout, Sample)] = []
if !ceilingOnly {
    print("Host throughput: notifications from one swift-att peripheral to N swift-att centrals over the")
    print("in-process loopback controllers (LE ACL 251 B × \(bufferCount) buffers, ATT_MTU 517), median of \(runs) run(s);")
    print("loops: \"default\" = what hosts started without a loop get (the process's shared loop), tasks on the global")
    print("executor; \"shared\" = one HostEventLoop for all hosts and tasks;")
    print("\"per-host\" = a HostEventLoop per host, each with the task that feeds or drains it; \"split\" = one")
    print("HostEventLoop for the sending host and one for all the receiving hosts, each with its tasks")
    print()
    var table = Table(["value B", "links", "loops", "notifications", "wall s", "notif/s", "CPU µs/notif", "notif/CPU-s"])
    for layout in layouts {
        for c in cases {
            let count = loopbackCount / c.connections
            let s = try await loopback(c, count: count, layout: layout)
            swiftSamples.append((c, layout, s))
            table.add([String(c.valueLength), String(c.connections), layout.rawValue, String(s.delivered), format(s.wallSeconds, decimals: 3),
                       formatRate(s.perSecond), format(s.cpuMicrosecondsEach, decimals: 2), formatRate(s.perCPUSecond)])
        }
    }
    print(table.render())
}

// Heap allocations per notification on each side (ReceiveAllocations).
if !ceilingOnly && only == nil && ReceiveAllocations.available {
    print()
    try await printAllocationsPerNotification()
}

// One host at a time: with a loop per host, each thread's CPU time is one host's cost.
let perHost = swiftSamples.compactMap { c, layout, s in s.hostCPUSeconds.map { (c, layout, s, $0) } }
if !perHost.isEmpty {
    print()
    print("Each side on its own (per-host and split loops): the CPU time of the sending host's thread, and of the")
    print("receiving hosts' thread(s) together, per notification: everything the hosts do, from the application's")
    print("updateValue to HCI, or from HCI to the application's stream, with their share of the loopback controller")
    print("and the wake-ups between threads; \"rest\" is the process's other CPU time (the benchmark's main task)")
    print()
    var hosts = Table(["value B", "links", "loops", "sender µs/notif", "sender notif/CPU-s", "receiver µs/notif", "receiver notif/CPU-s", "rest µs/notif"])
    for (c, layout, s, h) in perHost {
        let n = Double(s.delivered)
        hosts.add([String(c.valueLength), String(c.connections), layout.rawValue, format(h.sender * 1e6 / n, decimals: 2), formatRate(n / h.sender),
                   format(h.receivers * 1e6 / n, decimals: 2), formatRate(n / h.receivers),
                   format((s.cpuSeconds - h.sender - h.receivers) * 1e6 / n, decimals: 2)])
    }
    print(hosts.render())
}

// Bumble's host doing the same work, in the same run.
if !ceilingOnly { print() }
if !withBumble || !BumbleHostFigures.available {
    print("Bumble columns skipped: " + (withBumble ? "no bench venv (run Tests/bench/setup.sh)" : "--no-bumble"))
} else {
    if !ceilingOnly {
        let bumbleCount = quick ? 300 : 2_000
        let bumble = try BumbleHostFigures.measure(lengths: [20, 244], connections: [1, 8], count: bumbleCount, warmup: bumbleCount / 10)
        print("The same exchange between two Bumble hosts (Bumble \(bumbleCount) values per link, one Python process over")
        print("Bumble's LocalLink, LE ACL 251 B, ATT_MTU 247); ratio = swift-att ÷ Bumble")
        print()
        var versus = Table(["value B", "links", "loops", "swift-att notif/CPU-s", "Bumble notif/CPU-s", "ratio per core",
                            "swift-att notif/s", "Bumble notif/s", "ratio wall"])
        for (c, layout, s) in swiftSamples {
            guard let b = bumble["\(c.valueLength)/\(c.connections)"] else { continue }
            versus.add([String(c.valueLength), String(c.connections), layout.rawValue, formatRate(s.perCPUSecond), formatRate(b.perCPUSecond),
                        format(s.perCPUSecond / b.perCPUSecond) + "×", formatRate(s.perSecond), formatRate(b.perSecond),
                        format(s.perSecond / b.perSecond) + "×"])
        }
        print(versus.render())
        print()
    }

    // Over Bumble's virtual controllers: the controller process is the ceiling. The hosts
    // run both ways: as started without a loop (`default`: the process's loop, the tasks
    // on Swift's pool), and one `HostEventLoop` for both and their tasks (`shared`).
    print("Over Bumble's virtual controllers (two TCP controllers, LE ACL 251 B): swift-att host to host against a")
    print("raw ACL pump (no host) through fresh controllers in the same run, median of \(runs) set(s) of runs")
    print()
    let overCount = quick ? 1_000 : 20_000
    let ceilingLayouts: [LoopLayout] = [.default, .shared]
    var ceiling = Table(["value B", "loops", "raw link pkts/s", "swift-att notif/s", "share of ceiling", "pairs' shares"])
    for length in [20, 244] {
        var raw: [Sample] = []
        var hosted: [[Sample]] = ceilingLayouts.map { _ in [] }
        for _ in 0..<runs {
            let rawBench = try await BumbleBench(controllers: 2, leACLLength: 251)
            var pump = try RawACLPump(senderPort: rawBench.ports[0], receiverPort: rawBench.ports[1])
            raw.append(try pump.run(valueLength: length, warmup: overCount / 10, count: overCount))
            pump.close()
            rawBench.stop()

            for (i, layout) in ceilingLayouts.enumerated() {
                let hostBench = try await BumbleBench(controllers: 2, leACLLength: 251)
                let bench = try await NotificationBench.start(
                    peripheral: .tcpClient(host: "127.0.0.1", port: hostBench.ports[0]),
                    centrals: [.tcpClient(host: "127.0.0.1", port: hostBench.ports[1])], valueLength: length, layout: layout)
                hosted[i].append(await bench.run(warmup: overCount / 10, count: overCount))
                await bench.stop()
                hostBench.stop()
            }
        }
        let r = raw.map(\.perSecond).sorted()[runs / 2]
        for (i, layout) in ceilingLayouts.enumerated() {
            let h = hosted[i].map(\.perSecond).sorted()[runs / 2]
            // Each pair's own share too (the raw run and the hosted one right after it):
            // the spread says how much of the figure is the Python controller's pace
            // moving between runs.
            let shares = zip(hosted[i], raw).map { 100 * $0.perSecond / $1.perSecond }
            ceiling.add([String(length), layout.rawValue, formatRate(r), formatRate(h), format(100 * h / r) + " %",
                         "\(format(shares.min()!))–\(format(shares.max()!)) %"])
        }
    }
    print(ceiling.render())
}

if !ceilingOnly && only == nil && !CommandLine.arguments.contains("--no-channels") {
    print()
    try await channelReport.run()
}

if !ceilingOnly && only == nil && !CommandLine.arguments.contains("--no-eatt") {
    print()
    try await eattReport.run()
}

if !ceilingOnly && only == nil && !CommandLine.arguments.contains("--no-connect") {
    print()
    try await connectReport.run()
}

// Pairing last: it needs no case of the tables above (`--only`, `--ceiling-only` leave it out).
if !ceilingOnly && only == nil && !CommandLine.arguments.contains("--no-pairing") {
    print()
    try await pairing.run()
}
