import BenchSupport
import BenchmarkTables
import SwiftATTCore
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTTransport

/// LE Secure Connections pairing, measured (Documentation/Benchmarks.md, "Pairing"): one link
/// paired again and again, so that the figures are pairing's and not a connection's.
///
/// In one process: two `PairingSession`s back to back (the state machine and its crypto,
/// no host), two swift-att hosts over the loopback controllers, and two Bumble hosts over
/// Bumble's `LocalLink`. Over Bumble's virtual controllers (TCP, one Python controller
/// process): swift-att with swift-att, swift-att with a Bumble peripheral, and Bumble with
/// Bumble, each host of those in a process or thread of its own so that each side's CPU
/// time is its own.
struct PairingReport {
    let quick: Bool
    let runs: Int
    let withBumble: Bool

    /// Pairings measured per round (Just Works; Passkey Entry takes half as many).
    var sessionCount: Int { quick ? 20 : 400 }
    var loopbackCount: Int { quick ? 20 : 200 }
    var bumbleLocalCount: Int { quick ? 10 : 100 }
    var overControllersCount: Int { quick ? 5 : 40 }

    /// Fewer Passkey Entry pairings: each makes twenty rounds of confirm and random values.
    func count(_ n: Int, _ method: BenchPairingMethod) -> Int { method == .passkeyEntry ? max(5, n / 2) : n }

    func run() async throws {
        try await inProcess()
        print()
        if !withBumble || !BumbleHostFigures.available {
            print("Pairing over Bumble's controllers skipped: " + (withBumble ? "no bench venv (run Tests/bench/setup.sh)" : "--no-bumble"))
        } else {
            try await overBumbleControllers()
        }
    }

    // MARK: In one process

    private func inProcess() async throws {
        var rows: [(pair: String, method: BenchPairingMethod, PairingFigures)] = []
        for (label, method, reusing) in [("PairingSession × 2, no host", BenchPairingMethod.justWorks, false),
                                         ("PairingSession × 2, key pairs reused", .justWorks, true),
                                         ("PairingSession × 2, no host", .passkeyEntry, false)] {
            let n = count(sessionCount, method)
            let rounds = try (0..<runs).map { round in
                try PairingSessionBench.run(method, reusingKeyPairs: reusing, warmup: round == 0 ? n / 10 : 0, count: n)
            }
            rows.append((label, method, PairingFigures(rounds: rounds)))
        }
        for shared in [false, true] {
            for method in BenchPairingMethod.allCases {
                var rounds: [PairingSample] = []
                for _ in 0..<runs { rounds.append(try await loopbackRound(method, sharingALoop: shared)) }
                rows.append((shared ? "swift-att hosts, loopback, one loop" : "swift-att hosts, loopback link", method, PairingFigures(rounds: rounds)))
            }
        }
        var bumble: [BenchPairingMethod: PairingFigures] = [:]
        if withBumble && BumbleHostFigures.available {
            let measured = try BumbleLocalPairingFigures.measure(
                rounds: runs, justWorks: bumbleLocalCount, passkeyEntry: count(bumbleLocalCount, .passkeyEntry),
                warmup: max(2, bumbleLocalCount / 10))
            for method in BenchPairingMethod.allCases {
                guard let rounds = measured[method] else { continue }
                bumble[method] = PairingFigures(rounds: rounds)
                rows.append(("Bumble hosts, LocalLink (one process)", method, PairingFigures(rounds: rounds)))
            }
        }

        print("LE Secure Connections pairing in one process: one link paired again and again (bonding; each side")
        print("distributes its identity), median of \(runs) round(s). PairingSession × 2: the two state machines handing")
        print("each other PDUs on one thread, each side's CPU the sum of its own calls (\"rest\": the harness). swift-att")
        print("hosts: each on a HostEventLoop of its own over the loopback controllers, each side's CPU its loop thread's")
        print("(\"rest\": the process's other threads), or both hosts on one loop (the process's CPU only). Bumble hosts:")
        print("one Python process, one CPU figure for both hosts and both controllers. \"Bumble ÷\": Bumble's CPU per")
        print("pairing over this row's, same method")
        print()
        var table = Table(["pair", "method", "pairings/round", "pairings/s", "ms/pairing", "central µs", "peripheral µs",
                           "rest µs", "total CPU µs", "Bumble ÷"])
        for (pair, method, f) in rows {
            let ratio = bumble[method].flatMap { b in f.processMicroseconds.flatMap { p in b.processMicroseconds.map { $0 / p } } }
            table.add([pair, method.rawValue, String(f.rounds.first?.pairings ?? 0), formatRate(f.perSecond),
                       format(f.medianWallMilliseconds, decimals: 3), micro(f.centralMicroseconds), micro(f.peripheralMicroseconds),
                       micro(f.restMicroseconds), micro(f.processMicroseconds),
                       pair.hasPrefix("Bumble") ? "" : ratio.map { format($0) + "×" } ?? "–"])
        }
        print(table.render())

        let sessionSide = rows.first.flatMap { _, _, f in f.centralMicroseconds.flatMap { c in f.peripheralMicroseconds.map { (c + $0) / 2 } } }
        print()
        try printCryptoCalls(sessionSide: sessionSide)
    }

    /// The crypto a side of a Just Works pairing makes, call by call, beside that side's
    /// whole `PairingSession` (`sessionSide`, µs): the rest is the state machine and the
    /// PDU codec.
    func printCryptoCalls(sessionSide: Double?) throws {
        let calls = try CryptoCallBench.run(iterations: quick ? 200 : 5_000)
        print("The cryptographic calls one at a time (SwiftATTCrypto on OpenSSL's libcrypto; CPU time per call, the best of")
        print("three batches) and what one side of a Just Works pairing makes of them, beside the PairingSession side above")
        print()
        var table = Table(["call", "µs/call", "per Just Works side", "µs a side"])
        var sum = 0.0
        for call in calls {
            let side = call.microseconds * Double(call.perJustWorksSide)
            sum += side
            table.add([call.name, format(call.microseconds, decimals: 2), String(call.perJustWorksSide), call.perJustWorksSide == 0 ? "" : format(side)])
        }
        table.add(["all of them", "", "", format(sum)])
        if let sessionSide { table.add(["PairingSession, one side (Just Works, median)", "", "", format(sessionSide)]) }
        print(table.render())
    }

    /// Two swift-att hosts over a fresh loopback link, each on a loop of its own or both
    /// on one: one round of pairings.
    private func loopbackRound(_ method: BenchPairingMethod, sharingALoop: Bool) async throws -> PairingSample {
        let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: 64)
        let shared = sharingALoop ? try HostEventLoop(name: "pair-both") : nil
        let responder = try await SwiftATTPairingHosts.peripheral(link.addController().specification, method: method, on: shared)
        let initiator = try await SwiftATTPairingHosts.central(link.addController().specification, method: method,
                                                               connectingTo: responder.peripheral.info.randomAddress, on: shared)
        let n = count(loopbackCount, method)
        let sample = try await pairingRound(initiator, responder, warmup: max(2, n / 10), count: n)
        await initiator.close()
        await responder.close()
        return sample
    }

    // MARK: Over Bumble's controllers

    /// The pairs over Bumble's controllers, in the table's order.
    private enum OverControllers: CaseIterable {
        case swiftATTBoth, swiftATTWithBumble, bumbleBoth
    }

    private func overBumbleControllers() async throws {
        var samples: [OverControllers: [PairingSample]] = [:]
        for _ in 0..<runs {
            for (pair, sample) in try await overControllersRound() { samples[pair, default: []].append(sample) }
        }
        let figures = samples.mapValues(PairingFigures.init(rounds:))
        guard let bumble = figures[.bumbleBoth] else { return }

        let n = overControllersCount
        print("The same pairing (Just Works) over Bumble's virtual controllers: six on one LocalLink in one Python process,")
        print("each host joined to its own over TCP (H4, LE ACL 251 B), fresh per round, \(n) pairings a pair a round,")
        print("median of \(runs) round(s). Each host on a thread (swift-att: its HostEventLoop) or in a process (Bumble) of")
        print("its own; its CPU per pairing is that thread's or process's. Wall time: a pairing's median, from the central's")
        print("Pairing Request to the later side's completion; \"range\": the rounds' medians; \"÷\": Bumble with Bumble's")
        print("figure over this row's")
        print()
        var table = Table(["central", "peripheral", "ms/pairing", "range", "wall ÷", "central µs", "÷", "peripheral µs", "÷"])
        func ratio(_ bumbleFigure: Double?, _ figure: Double?) -> String {
            guard let b = bumbleFigure, let f = figure else { return "–" }
            return format(b / f) + "×"
        }
        for pair in OverControllers.allCases {
            guard let f = figures[pair] else { continue }
            let (central, peripheral) = switch pair {
            case .swiftATTBoth: ("swift-att", "swift-att")
            case .swiftATTWithBumble: ("swift-att", "Bumble")
            case .bumbleBoth: ("Bumble", "Bumble")
            }
            let (low, high) = f.wallMillisecondsRange
            table.add([central, peripheral, format(f.medianWallMilliseconds, decimals: 2), "\(format(low, decimals: 2))–\(format(high, decimals: 2))",
                       ratio(bumble.medianWallMilliseconds, f.medianWallMilliseconds),
                       micro(f.centralMicroseconds), ratio(bumble.centralMicroseconds, f.centralMicroseconds),
                       micro(f.peripheralMicroseconds), ratio(bumble.peripheralMicroseconds, f.peripheralMicroseconds)])
        }
        print(table.render())
    }

    /// One round of each pair over one fresh controller process: controllers 0 and 1
    /// join the swift-att hosts, 2 and 3 the Bumble peripheral and the swift-att central,
    /// 4 and 5 the Bumble hosts. Every process is started and every link is up before
    /// the first pair is measured, and the pairs are measured one after another.
    private func overControllersRound() async throws -> [(OverControllers, PairingSample)] {
        let bench = try await BumbleBench(controllers: 6, leACLLength: 251)
        defer { bench.stop() }
        let tcp = bench.ports.map { TransportSpecification.tcpClient(host: "127.0.0.1", port: $0) }
        let method = BenchPairingMethod.justWorks
        // Static random addresses for the Bumble hosts (BENCH.md quirk 2).
        let peripheralAddress = BluetoothAddress(0xC0_5A_17_00_05_02, kind: .random)
        let otherPeripheralAddress = BluetoothAddress(0xC0_5A_17_00_05_04, kind: .random)
        let centralAddress = BluetoothAddress(0xC0_5A_17_00_05_05, kind: .random)
        // The Python processes start together: most of their start-up is importing Bumble.
        let bumblePeripheral = try BumblePairingPeers.peripheral(bench, controller: 2, address: peripheralAddress.description, method: method)
        defer { bumblePeripheral.peer.stop() }
        let otherPeripheral = try BumblePairingPeers.peripheral(bench, controller: 4, address: otherPeripheralAddress.description, method: method)
        defer { otherPeripheral.peer.stop() }
        let bumbleCentral = try BumblePairingPeers.central(bench, controller: 5, address: centralAddress.description,
                                                           target: otherPeripheralAddress.description, method: method)
        defer { bumbleCentral.peer.stop() }
        try await bumblePeripheral.advertising()
        try await otherPeripheral.advertising()
        try await bumbleCentral.connected()

        let swiftPeripheral = try await SwiftATTPairingHosts.peripheral(tcp[0], method: method)
        let swiftCentral = try await SwiftATTPairingHosts.central(tcp[1], method: method, connectingTo: swiftPeripheral.peripheral.info.randomAddress)
        let guest = try await SwiftATTPairingHosts.central(tcp[3], method: method, connectingTo: peripheralAddress)
        let n = overControllersCount
        let warmup = max(2, n / 10)
        var results: [(OverControllers, PairingSample)] = []
        results.append((.swiftATTBoth, try await pairingRound(swiftCentral, swiftPeripheral, warmup: warmup, count: n)))
        results.append((.swiftATTWithBumble, try await pairingRound(guest, bumblePeripheral, warmup: warmup, count: n)))
        results.append((.bumbleBoth, try await pairingRound(bumbleCentral, otherPeripheral, warmup: warmup, count: n)))
        await swiftCentral.close()
        await guest.close()
        await swiftPeripheral.close()
        return results
    }

    private func micro(_ value: Double?) -> String { value.map { format($0, decimals: 1) } ?? "–" }
}
