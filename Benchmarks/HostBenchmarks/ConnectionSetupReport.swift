import BenchSupport
import BenchmarkTables
import SwiftATTHCI

/// The connection set-up tables (issue 22, "Connection set-up timed"): swift-att's
/// central beside Bumble's, connecting to the same Bumble peripheral over Bumble's
/// virtual controllers in the same run (ConnectionSetupBench), then where each
/// connection's time went, from both centrals' captures.
struct ConnectionSetupReport {
    let quick: Bool
    let runs: Int
    let withBumble: Bool

    func run() async throws {
        guard withBumble, BumbleHostFigures.available else {
            print("Connection set-up skipped: " + (withBumble ? "no bench venv (run Tests/bench/setup.sh)" : "--no-bumble"))
            return
        }
        let rounds = quick ? 3 : 10
        let warmup = 1
        var sets: [ConnectionSetupBench.SetResult] = []
        for _ in 0..<runs { sets.append(try await ConnectionSetupBench.runSet(rounds: rounds, warmup: warmup)) }
        let swiftATT = sets.flatMap(\.swiftATT)
        let bumble = sets.flatMap(\.bumble)
        let swiftATTCaptured = try sets.flatMap { set in try set.swiftATTCaptured.map { try Connection($0, capture: set.swiftATTCapture) } }
        let bumbleCaptured = try sets.flatMap { set in try set.bumbleCaptured.map { try Connection($0, capture: set.bumbleCapture) } }
        let found = swiftATT.first?.found ?? []
        // Both centrals must have found the same database, or they did different work.
        for timing in swiftATT + bumble where timing.found != found {
            throw ConnectionSetupBenchError.found("a central found \(timing.found) services/characteristics/descriptors, another \(found)")
        }
        print("Connection set-up, timed: from the start of connect(address) — no scan, the peripheral's static random address")
        print("known, LE Create Connection — to \"link\" (connect returned: the LE Connection Complete reached the application), to")
        print("\"usable\" (then ATT_MTU 517 exchanged and Device Name read with Read Using Characteristic UUID, answered), and to")
        print("\"discovered\" (then the database discovered as Peer.discoverDatabase() does: services, included services,")
        print("characteristics, descriptors, Database Hash read, Service Changed's CCCD written). swift-att's Central beside Bumble's")
        print("host as the central (Benchmarks/bumble_connect_benchmark.py, its own process), connecting in turn to the same Bumble")
        print("peripheral (its own process; \(found.count == 3 ? "\(found[0]) services, \(found[1]) characteristics, \(found[2]) descriptors" : "GAP, GATT, DIS, HRS, BAS, custom"), advertising every")
        print("20 ms) over four of Bumble's TCP controllers (LE ACL 251 B), fresh ones for each of \(runs) set(s) of \(warmup) untimed +")
        print("\(rounds) timed connections per central, no capture. Median over the \(swiftATT.count) connections of each; \"sets\" = the lowest–")
        print("highest of the sets' own median ratios; ratio = swift-att ÷ Bumble (below 1: swift-att faster). \"link\" is the")
        print("controller's wait for the peripheral's next advertisement (0–20 ms): the rows \"… after link\" leave it out.")
        print()
        var table = Table(["end point", "swift-att ms", "Bumble ms", "ratio", "sets", "ATT requests swift-att / Bumble"])
        let rows: [(String, (ConnectionSetupBench.Timing) -> Double)] = [
            ("link", { $0.link }),
            ("usable", { $0.usable }),
            ("discovered", { $0.discovered }),
            ("usable after link", { $0.usable - $0.link }),
            ("discovered after link", { $0.discovered - $0.link }),
        ]
        for (name, measure) in rows {
            let s = median(swiftATT.map(measure))
            let b = median(bumble.map(measure))
            let ratios = sets.map { median($0.swiftATT.map(measure)) / median($0.bumble.map(measure)) }
            // The peripheral's count covers a whole connection; up to "usable", the captures'.
            let counts = name.hasPrefix("discovered") ? "\(Self.spread(swiftATT.map(\.requests))) / \(Self.spread(bumble.map(\.requests)))"
                : name.hasPrefix("usable")
                ? "\(Self.spread(swiftATTCaptured.map(\.usable.requests))) / \(Self.spread(bumbleCaptured.map(\.usable.requests)))" : "–"
            table.add([name, format(s * 1000, decimals: 2), format(b * 1000, decimals: 2), format(s / b, decimals: 2) + "×",
                       "\(format(ratios.min()!, decimals: 2))–\(format(ratios.max()!, decimals: 2))×", counts])
        }
        print(table.render())
        print("The procedures are the same; the requests they take are each host's: Bumble's Discover All Characteristics asks")
        print("again past a service's last characteristic even when its value handle ends the service, its Read Using")
        print("Characteristic UUID of the Database Hash asks again after the value, and its subscribe discovers Service Changed's")
        print("descriptors once more; swift-att stops when the handles say nothing is left. Per request, \"discovered after link\":")
        let perRequest = (median(swiftATT.map { ($0.discovered - $0.link) / Double($0.requests) }),
                          median(bumble.map { ($0.discovered - $0.link) / Double($0.requests) }))
        print("swift-att \(format(perRequest.0 * 1e6, decimals: 0)) µs, Bumble \(format(perRequest.1 * 1e6, decimals: 0)) µs (\(format(perRequest.0 / perRequest.1, decimals: 2))×).")
        print()

        print("Where the time goes: the same connections again, run beside those above, each central capturing its own HCI traffic")
        print("(btsnoop, wall-clock µs at its host's HCI boundary; the capture's own cost is in these figures); median of each")
        print("column over the connections (so columns need not add up). \"command\" = start of connect → LE Create Connection sent;")
        print("\"link up\" = → LE Connection Complete received; once the link is up, \"outstanding\" = the time some ATT request was")
        print("awaiting its response (controllers, TCP and the peripheral: the same peer for both), and the rest is the host's:")
        print("\"→ 1st req\" (Connection Complete → first request), \"turnarounds\" (each response → the next request: count × median")
        print("each) and \"tail\" (last response → the application has the result)")
        print()
        var split = Table(["central", "end point", "total ms", "command ms", "link up ms", "→ 1st req ms", "turnarounds ms",
                           "outstanding ms", "tail ms", "host after link up ms"])
        for (name, connections) in [("swift-att", swiftATTCaptured), ("Bumble", bumbleCaptured)] {
            for point in ConnectionSetupBench.EndPoint.allCases {
                let b = connections.map { point == .usable ? $0.usable : $0.discovered }
                let totals = connections.map { point == .usable ? $0.timing.usable : $0.timing.discovered }
                let turnarounds = b.map { $0.turnarounds.reduce(0, +) }
                split.add([name, point == .usable ? "usable" : "discovered", format(median(totals) * 1000, decimals: 2),
                           format(median(b.map(\.commandSent)) * 1000, decimals: 2), format(median(b.map(\.linkUp)) * 1000, decimals: 2),
                           format(median(b.map(\.toFirstRequest)) * 1000, decimals: 2),
                           "\(format(median(turnarounds) * 1000, decimals: 2)) (\(b[0].turnarounds.count) × \(format(median(b.flatMap(\.turnarounds)) * 1e6, decimals: 0)) µs)",
                           "\(format(median(b.map(\.waiting)) * 1000, decimals: 2)) (\(b[0].requests) × \(format(median(b.flatMap(\.outstanding)) * 1e6, decimals: 0)) µs)",
                           format(median(b.map(\.tail)) * 1000, decimals: 2), format(median(b.map(\.hostAfterLink)) * 1000, decimals: 2)])
            }
        }
        print(split.render())
        print("The host's gap before each ATT request in order (#1 after the LE Connection Complete, then after the response")
        print("to the one before), median µs over the captured connections:")
        for (name, connections) in [("swift-att", swiftATTCaptured), ("Bumble", bumbleCaptured)] {
            let gaps = connections.map { [$0.discovered.toFirstRequest] + $0.discovered.turnarounds }
            let positions = gaps.map(\.count).min() ?? 0
            let medians = (0..<positions).map { k in format(median(gaps.map { $0[k] }) * 1e6, decimals: 0) }
            print("  \(name): " + medians.joined(separator: " "))
        }
        for (name, connections) in [("swift-att", swiftATTCaptured), ("Bumble", bumbleCaptured)] {
            var commands: [HCIOpcode: Int] = [:]
            for c in connections { for opcode in c.discovered.otherCommands { commands[opcode, default: 0] += 1 } }
            let listed = commands.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\(HCICommandNames.name(of: $0.key) ?? $0.key.description) × \(format(Double($0.value) / Double(connections.count), decimals: 1))" }
            print("HCI commands \(name)'s host sent between connect and the database discovered, besides LE Create Connection: "
                + (listed.isEmpty ? "none" : listed.joined(separator: ", ") + " per connection"))
        }
    }

    /// One timed connection with its breakdown at each end point.
    struct Connection {
        var timing: ConnectionSetupBench.Timing
        var usable: ConnectionSetupBench.Breakdown
        var discovered: ConnectionSetupBench.Breakdown

        init(_ timing: ConnectionSetupBench.Timing, capture: [BTSnoop.Record]) throws {
            self.timing = timing
            usable = try .init(capture, from: timing.start, to: timing.end(.usable))
            discovered = try .init(capture, from: timing.start, to: timing.end(.discovered))
        }
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// "34", or "33–34" when the connections differ.
    static func spread(_ values: [Int]) -> String {
        guard let low = values.min(), let high = values.max() else { return "–" }
        return low == high ? String(low) : "\(low)–\(high)"
    }
}
