import BenchSupport
import BenchmarkTables
import Foundation
import SwiftATTLoopback
import SwiftATTTransport
import TestSupport

/// The Enhanced ATT tables (Documentation/Benchmarks.md, "Enhanced ATT host to
/// host"): a
/// discovery-heavy GATT workload from five tasks over the one unenhanced bearer, then
/// with five Enhanced bearers beside it (EATTBench), swift-att host to host beside
/// Bumble's host to host (Benchmarks/bumble_eatt_benchmark.py) in the same run: over
/// the in-process links first (host cost, no latency), then over Bumble's virtual
/// controllers, where each round trip crosses TCP and the Python controller process.
struct EATTReport {
    let quick: Bool
    let runs: Int
    let withBumble: Bool

    static let tasks = 5
    static let bearers = 5
    static let bumbleScript = Repository.url("Benchmarks/bumble_eatt_benchmark.py")

    /// One set of runs: the median of each case, one bearer then Enhanced.
    struct Figures {
        var oneBearer: EATTBench.Result
        var enhanced: EATTBench.Result
        /// Median seconds of a whole-database discovery, one bearer then Enhanced
        /// (swift-att only).
        var discovery: (oneBearer: Double, enhanced: Double)? = nil
    }

    /// A case's line from the Bumble script.
    struct BumbleCase: Decodable {
        var bearers: Int
        var procedures: Int
        var requests: Int
        var enhanced: Int
        var wall: Double
        var cpu: Double
    }

    var available: Bool { withBumble && BumbleHostFigures.available }

    func run() async throws {
        let units = quick ? 16 : 480
        let bumbleUnits = quick ? 8 : 80
        let perUnit = EATTBench.proceduresPerUnit
        print("GATT over Enhanced ATT: a swift-att central working through a swift-att peripheral's database")
        print("(\(EATTBench.services) services × \(EATTBench.characteristics) characteristics, each with a User Description, every other one a CCCD)")
        print("from \(Self.tasks) tasks, a unit of work being one service: Discover All Characteristics, then Discover All")
        print("Characteristic Descriptors and Read Characteristic Value of each characteristic (\(perUnit) procedures, one after the other).")
        print("\"1\" = the unenhanced bearer alone (ATT_MTU 517); \"\(Self.bearers)+1\" = \(Self.bearers) Enhanced bearers opened beside it on the same")
        print("paired link (MTU 517, MPS 247). proc/s = procedures completed per second of wall time; per CPU-s = per second of the")
        print("process's CPU time. In-process: over the loopback controllers (LE ACL 251 B × 64 buffers), \(units * perUnit) procedures per")
        print("case; Bumble: two Bumble hosts over its LocalLink in one Python process, \(bumbleUnits * perUnit) procedures per case. Median of \(runs) run(s).")
        print()
        var swift: [EATTBench.Result] = []
        var swiftEnhanced: [EATTBench.Result] = []
        var swiftDiscovery: [(oneBearer: Double, enhanced: Double)] = []
        for _ in 0..<runs {
            let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: 64)
            let figures = try await measure(peripheral: link.addController().specification,
                                            central: link.addController().specification, units: units)
            swift.append(figures.oneBearer)
            swiftEnhanced.append(figures.enhanced)
            if let discovery = figures.discovery { swiftDiscovery.append(discovery) }
        }
        var inProcess = Figures(oneBearer: .median(swift), enhanced: .median(swiftEnhanced))
        inProcess.discovery = Self.medianDiscovery(swiftDiscovery)
        let bumbleInProcess = available ? try bumble(units: bumbleUnits, transports: []) : nil
        print(table(inProcess, bumbleInProcess?.figures).render())
        print()
        printContextSwitches(inProcess)
        printDiscovery(inProcess)
        try await printRoundTrips(bumble: bumbleInProcess?.requestsPerUnit)
        guard available else {
            print("Bumble columns and the runs over Bumble's controllers skipped: "
                + (withBumble ? "no bench venv (run Tests/bench/setup.sh)" : "--no-bumble"))
            return
        }

        let overUnits = quick ? 4 : 80
        print()
        print("Over Bumble's virtual controllers (two TCP controllers, LE ACL 251 B, fresh ones for each run of each stack):")
        print("every request and response crosses TCP and the Python controller process. \(overUnits * perUnit) procedures per case, both")
        print("stacks; Bumble's two hosts in one Python process. Median of \(runs) run(s).")
        print()
        var over: [EATTBench.Result] = []
        var overEnhanced: [EATTBench.Result] = []
        var overDiscovery: [(oneBearer: Double, enhanced: Double)] = []
        var bumbleOver: [Figures] = []
        for _ in 0..<runs {
            let bench = try await BumbleBench(controllers: 2, leACLLength: 251)
            let figures = try await measure(peripheral: .tcpClient(host: "127.0.0.1", port: bench.ports[0]),
                                            central: .tcpClient(host: "127.0.0.1", port: bench.ports[1]), units: overUnits)
            bench.stop()
            over.append(figures.oneBearer)
            overEnhanced.append(figures.enhanced)
            if let discovery = figures.discovery { overDiscovery.append(discovery) }
            let bumbleBench = try await BumbleBench(controllers: 2, leACLLength: 251)
            bumbleOver.append(try bumble(units: overUnits, transports: bumbleBench.ports, runs: 1).figures)
            bumbleBench.stop()
        }
        var overFigures = Figures(oneBearer: .median(over), enhanced: .median(overEnhanced))
        overFigures.discovery = Self.medianDiscovery(overDiscovery)
        let bumbleOverFigures = Figures(oneBearer: .median(bumbleOver.map(\.oneBearer)), enhanced: .median(bumbleOver.map(\.enhanced)))
        print(table(overFigures, bumbleOverFigures).render())
        print()
        printContextSwitches(overFigures)
        printDiscovery(overFigures)

        print()
        print("What Enhanced ATT gives each stack: the \(Self.bearers)+1 case ÷ the one-bearer case, from the medians above")
        print()
        var speedUp = Table(["link", "swift-att wall", "swift-att per core", "Bumble wall", "Bumble per core"])
        for (name, s, b) in [("in-process", inProcess, bumbleInProcess?.figures), ("Bumble's controllers", overFigures, bumbleOverFigures)] {
            var row = [name, format(s.enhanced.perSecond / s.oneBearer.perSecond) + "×",
                       format(s.enhanced.perCPUSecond / s.oneBearer.perCPUSecond) + "×"]
            if let b {
                row += [format(b.enhanced.perSecond / b.oneBearer.perSecond) + "×",
                        format(b.enhanced.perCPUSecond / b.oneBearer.perCPUSecond) + "×"]
            } else {
                row += ["–", "–"]
            }
            speedUp.add(row)
        }
        print(speedUp.render())
    }

    /// One set of hosts: the one-bearer case, then the Enhanced bearers opened and the
    /// Enhanced case, each after one untimed round over every service.
    func measure(peripheral: TransportSpecification, central: TransportSpecification, units: Int,
                 capturePath: String? = nil) async throws -> Figures {
        let bench = try await EATTBench.start(peripheral: peripheral, central: central, capturePath: capturePath)
        let warmup = capturePath == nil ? EATTBench.services : 0
        let oneBearer = try await bench.run(tasks: Self.tasks, units: units, warmup: warmup)
        let discoveries = quick ? 2 : 9
        let discoveryOne = capturePath == nil ? try await bench.discoverWhole(times: discoveries) : nil
        try await bench.openBearers(Self.bearers)
        let enhanced = try await bench.run(tasks: Self.tasks, units: units, warmup: warmup)
        let discoveryEnhanced = capturePath == nil ? try await bench.discoverWhole(times: discoveries) : nil
        await bench.stop()
        var figures = Figures(oneBearer: oneBearer, enhanced: enhanced)
        if let discoveryOne, let discoveryEnhanced { figures.discovery = (discoveryOne, discoveryEnhanced) }
        return figures
    }

    /// Both cases' rows, Bumble's columns beside swift-att's when there are figures.
    func table(_ s: Figures, _ b: Figures?) -> Table {
        var table = Table(["bearers", "procedures", "swift-att proc/s", "proc/CPU-s", "Bumble proc/s", "Bumble proc/CPU-s",
                           "ratio per core", "ratio wall"])
        for (name, mine, theirs) in [("1", s.oneBearer, b?.oneBearer), ("\(Self.bearers)+1", s.enhanced, b?.enhanced)] {
            var row = [name, String(mine.procedures), formatRate(mine.perSecond), formatRate(mine.perCPUSecond)]
            if let theirs {
                row += [formatRate(theirs.perSecond), formatRate(theirs.perCPUSecond),
                        format(mine.perCPUSecond / theirs.perCPUSecond) + "×", format(mine.perSecond / theirs.perSecond) + "×"]
            } else {
                row += ["–", "–", "–", "–"]
            }
            table.add(row)
        }
        return table
    }

    /// Bumble's figures for the same workload: the median of `runs` runs of the script
    /// (over its LocalLink, or over the controllers at `transports`), and the ATT
    /// requests its server counted per unit in each case.
    func bumble(units: Int, transports: [UInt16], runs: Int? = nil) throws
        -> (figures: Figures, requestsPerUnit: (oneBearer: Double, enhanced: Double)) {
        var arguments = [Self.bumbleScript.path, "--bearers", "1", "--bearers", String(Self.bearers),
                         "--units", String(units), "--tasks", String(Self.tasks),
                         "--services", String(EATTBench.services), "--characteristics", String(EATTBench.characteristics)]
        for port in transports { arguments += ["--transport", "tcp-client:127.0.0.1:\(port)"] }
        var oneBearer: [BumbleCase] = []
        var enhanced: [BumbleCase] = []
        for _ in 0..<(runs ?? self.runs) {
            let output = try PythonRun.run(arguments)
            for line in output.split(separator: "\n") where line.hasPrefix("{") {
                let result = try JSONDecoder().decode(BumbleCase.self, from: Data(line.utf8))
                if result.bearers == 1 { oneBearer.append(result) } else { enhanced.append(result) }
            }
        }
        guard !oneBearer.isEmpty, !enhanced.isEmpty else { throw EATTBenchError.found("no figures from \(Self.bumbleScript.lastPathComponent)") }
        func median(_ cases: [BumbleCase]) -> EATTBench.Result {
            .median(cases.map { EATTBench.Result(procedures: $0.procedures, wallSeconds: $0.wall, cpuSeconds: $0.cpu) })
        }
        let perUnit = (oneBearer: Double(oneBearer[0].requests) / Double(units), enhanced: Double(enhanced[0].requests) / Double(units))
        return (Figures(oneBearer: median(oneBearer), enhanced: median(enhanced)), perUnit)
    }

    /// The medians of each case's discovery times over the runs.
    static func medianDiscovery(_ runs: [(oneBearer: Double, enhanced: Double)]) -> (oneBearer: Double, enhanced: Double)? {
        guard !runs.isEmpty else { return nil }
        return (runs.map(\.oneBearer).sorted()[runs.count / 2], runs.map(\.enhanced).sorted()[runs.count / 2])
    }

    /// How long swift-att's whole-database discovery took on one bearer and with the
    /// Enhanced bearers, which it runs step by step with each step's procedures at once.
    func printDiscovery(_ s: Figures) {
        guard let discovery = s.discovery else { return }
        print("swift-att's discoverDatabase() of the whole database, 1 / \(Self.bearers)+1: "
            + "\(format(discovery.oneBearer * 1000, decimals: 2)) / \(format(discovery.enhanced * 1000, decimals: 2)) ms "
            + "(\(format(discovery.oneBearer / discovery.enhanced))× as fast with the bearers; median)")
    }

    /// The swift-att process's voluntary context switches per procedure in each case:
    /// how often a thread slept and was woken for one.
    func printContextSwitches(_ s: Figures) {
        func each(_ r: EATTBench.Result) -> String { format(Double(r.contextSwitches ?? 0) / Double(r.procedures), decimals: 2) }
        print("swift-att's voluntary context switches per procedure, 1 / \(Self.bearers)+1: \(each(s.oneBearer)) / \(each(s.enhanced))")
    }

    /// The ATT round trips a unit took in each stack: swift-att's from the central's
    /// capture of one more, untimed, run of one round; Bumble's from its server's count.
    func printRoundTrips(bumble: (oneBearer: Double, enhanced: Double)?) async throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-eatt-bench-\(getpid()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: 64)
        _ = try await measure(peripheral: link.addController().specification, central: link.addController().specification,
                              units: EATTBench.services, capturePath: capture)
        let counts = try EATTBench.workloadRequests(inCapture: [UInt8](Data(contentsOf: URL(fileURLWithPath: capture))))
        let units = Double(EATTBench.services)
        var line = "ATT requests per unit (\(EATTBench.proceduresPerUnit) procedures), one bearer / \(Self.bearers)+1: swift-att "
            + "\(format(Double(counts.oneBearer) / units)) / \(format(Double(counts.enhanced) / units)) (the central's capture of an extra run)"
        if let requests = bumble {
            line += ", Bumble \(format(requests.oneBearer)) / \(format(requests.enhanced)) (its server's count)"
        }
        print(line)
    }
}
