import BenchSupport
import Foundation
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTTransport
import Synchronization
import Testing
import TestSupport

/// swift-att's credit-based channels against Bumble's (Tests/bench/bumble_l2cap.py,
/// Bumble 0.0.236's L2CAP), both modes, each side opening, over Bumble's virtual
/// controllers.
///
/// Bumble enforces little as a receiver (frames over its MPS or without credit are
/// delivered; BENCH.md), so the script reports each such frame as a "violation": the
/// tests check there are none, which is what shows swift-att keeps to the peer's MPS and
/// credits. Bumble also returns credits as frames arrive; its "--hold" keeps them, for
/// back-pressure.
@Suite(.serialized) struct BumbleChannelTests {
    static let bumbleAddress = "C0:B0:00:00:00:31"
    static let psm: SPSM = 0x0080

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func pattern(_ length: Int, seed: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ seed) }
    }

    /// Bumble listening on controller 0 with `options`; a swift-att central on
    /// controller 1 connected to it.
    struct CentralSide {
        let bench: BumbleBench
        let bumble: BumblePeer
        let central: Central
        let peer: Peer

        static func start(_ options: [String]) async throws -> CentralSide {
            let bench = try await BumbleBench(controllers: 2)
            let bumble = try BumblePeer(bench: bench, controller: 0, address: bumbleAddress,
                                        arguments: ["listen", "--psm", "0x80"] + options, script: "bumble_l2cap.py")
            _ = try await bumble.next("ready")
            let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
            let peer = try await central.connect(try #require(BluetoothAddress(bumbleAddress, kind: .random)))
            _ = try await bumble.next("connected")
            return CentralSide(bench: bench, bumble: bumble, central: central, peer: peer)
        }

        /// What Bumble received, per its "stats".
        func received() async throws -> [String: Any] {
            bumble.send("stats")
            return try await bumble.next("received")
        }

        /// Bumble's reports up to its answer to "stats": none may be a violation.
        func expectNoViolation(sourceLocation: SourceLocation = #_sourceLocation) async throws {
            bumble.send("stats")
            let reports = try await bumble.collect(until: "received")
            let violations = reports.filter { $0["event"] as? String == "violation" }
            #expect(violations.isEmpty, "Bumble saw \(violations)", sourceLocation: sourceLocation)
        }

        func stop() async {
            await central.close()
            bumble.stop()
            bench.stop()
        }
    }

    /// Reads `count` SDUs within the bound.
    static func read(_ count: Int, from channel: L2CAPChannel) async throws -> [[UInt8]] {
        try #require(try await withTimeout(.seconds(30)) {
            var sdus: [[UInt8]] = []
            for try await sdu in channel.sdus {
                sdus.append(sdu)
                if sdus.count == count { break }
            }
            return sdus
        })
    }

    // MARK: swift-att opens

    @Test(arguments: [CreditBasedFlowControlMode.leCreditBased, .enhancedCreditBased])
    func swiftATTOpensAChannelToBumbleAndItsSDUsComeBackWhole(mode: CreditBasedFlowControlMode) async throws {
        // Bumble: SDUs to 1000 octets in K-frames of 100 (so ours segment), echoing.
        let side = try await CentralSide.start(["--echo", "--quiet", "--mtu", "1000", "--mps", "100", "--credits", "8"])
        let channel = try await side.peer.openChannel(psm: Self.psm, mode: mode, parameters: .init(mtu: 1200, mps: 200, credits: 12))
        let opened = try await side.bumble.next("channel-open")
        #expect(opened["mode"] as? String == (mode == .leCreditBased ? "le" : "enhanced"))
        #expect(opened["peer_cid"] as? Int == Int(channel.localCID) && opened["cid"] as? Int == Int(channel.peerCID))
        #expect(opened["peer_mtu"] as? Int == 1200 && opened["peer_mps"] as? Int == 200)
        #expect(channel.peerMTU == 1000 && channel.peerMPS == 100 && channel.peerInitialCredits == 8)
        let sdus = [1, 98, 99, 100, 500, 1000].enumerated().map { Self.pattern($0.element, seed: $0.offset) }
        async let echoed = Self.read(sdus.count, from: channel)
        for sdu in sdus { try await channel.send(sdu) }
        #expect(try await echoed == sdus)
        // Many more than either window, both ways at once.
        let bulk = (0..<60).map { Self.pattern(1000, seed: 7 * $0) }
        async let back = Self.read(bulk.count, from: channel)
        for sdu in bulk { try await channel.send(sdu) }
        #expect(try await back == bulk)
        try await side.expectNoViolation()
        await channel.close()
        _ = try await side.bumble.next("channel-closed")
        await side.stop()
    }

    @Test func anSPSMBumbleDoesNotServeIsRefused() async throws {
        let side = try await CentralSide.start([])
        await #expect(throws: L2CAPChannelError.refused(.spsmNotSupported)) {
            _ = try await side.peer.openChannel(psm: 0x0081)
        }
        await side.stop()
    }

    /// Bumble refuses for want of encryption (its script does, as a server requiring it
    /// would): swift-att pairs and asks again.
    @Test func aChannelRefusedForSecurityOpensAfterPairing() async throws {
        let side = try await CentralSide.start(["--require", "encryption"])
        #expect(await side.peer.securityLevel == .none)
        let channel = try await side.peer.openChannel(psm: Self.psm)
        let refused = try await side.bumble.next("refused")
        #expect(refused["result"] as? Int == 5)
        _ = try await side.bumble.next("channel-open")
        #expect(await side.peer.securityLevel.isEncrypted)
        try await channel.send([0x42])
        let sdu = try await side.bumble.next("sdu")
        #expect(sdu["hex"] as? String == "42")
        await side.stop()
    }

    /// Bumble holds its credits: the writer stops after the peer's 3 credits and a send
    /// queue of 2, and goes on exactly as far as the credits Bumble then gives allow.
    @Test func bumbleHoldingItsCreditsHoldsTheWriterBack() async throws {
        let side = try await CentralSide.start(["--hold", "--credits", "3", "--quiet"])
        let channel = try await side.peer.openChannel(
            psm: Self.psm, parameters: .init(sendQueueLimit: .init(sdus: 2, octets: 10_000)))
        _ = try await side.bumble.next("channel-open")
        let written = Atomic<Int>(0)
        let writer = Task {
            for index in 0..<10 {
                try await channel.send(Self.pattern(20, seed: index))
                written.add(1, ordering: .relaxed)
            }
        }
        try await eventually("5 writes taken") { written.load(ordering: .relaxed) == 5 }
        // The three credited SDUs are sent by now but may still be on the way to Bumble.
        try await eventually("3 SDUs at Bumble") { ((try? await side.received())?["sdus"] as? Int) == 3 }
        #expect(written.load(ordering: .relaxed) == 5, "nothing freed room")
        side.bumble.send("credits 0 2")
        try await eventually("2 more writes taken") { written.load(ordering: .relaxed) == 7 }
        try await eventually("5 SDUs at Bumble") { ((try? await side.received())?["sdus"] as? Int) == 5 }
        side.bumble.send("release 0")
        try await writer.value
        try await eventually("all 10 at Bumble") { ((try? await side.received())?["sdus"] as? Int) == 10 }
        let stats = try await side.received()
        #expect(stats["octets"] as? Int == 200)
        let statistics = try #require(await channel.statistics)
        #expect(statistics.creditStalls >= 1)
        try await side.expectNoViolation()
        await side.stop()
    }

    // MARK: Bumble opens

    /// A swift-att peripheral listening on controller 0; Bumble connects from controller
    /// 1 and opens `channels` channels in `mode`.
    struct PeripheralSide {
        let bench: BumbleBench
        let bumble: BumblePeer
        let peripheral: Peripheral
        let listener: L2CAPListener

        static func start(mode: String, channels: Int = 1, parameters: L2CAPChannelParameters = .init(),
                          bumble options: [String] = []) async throws -> PeripheralSide {
            let bench = try await BumbleBench(controllers: 2)
            let database = try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: "l2cap", appearance: 0))
            let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]),
                                                        database: database)
            let listener = try await peripheral.controller.listen(on: BumbleChannelTests.psm, parameters: parameters)
            try await peripheral.startAdvertising(data: [0x02, 0x01, 0x06])
            let bumble = try BumblePeer(bench: bench, controller: 1, address: bumbleAddress,
                                        arguments: ["connect", "--target", peripheral.info.randomAddress.description,
                                                    "--psm", "0x80", "--mode", mode, "--channels", String(channels)] + options,
                                        script: "bumble_l2cap.py")
            return PeripheralSide(bench: bench, bumble: bumble, peripheral: peripheral, listener: listener)
        }

        func stop() async {
            await peripheral.close()
            bumble.stop()
            bench.stop()
        }
    }

    @Test(arguments: ["le", "enhanced"])
    func bumbleOpensChannelsToSwiftATTAndBothWaysCarry(mode: String) async throws {
        let count = mode == "le" ? 1 : 3
        let side = try await PeripheralSide.start(mode: mode, channels: count, parameters: .init(mtu: 600, mps: 120, credits: 10),
                                                  bumble: ["--mtu", "700", "--mps", "90"])
        var channels: [L2CAPChannel] = []
        for _ in 0..<count {
            channels.append(try await first("an accepted channel", in: side.listener) { $0 })
        }
        var opened: [Int: [String: Any]] = [:]
        for _ in 0..<count {
            let event = try await side.bumble.next("channel-open")
            opened[event["index"] as? Int ?? -1] = event
        }
        for channel in channels {
            #expect(channel.mode == (mode == "le" ? .leCreditBased : .enhancedCreditBased))
            #expect(channel.peerMTU == 700 && channel.peerMPS == 90)
        }
        // Bumble → swift-att: one SDU per channel by index, then a bulk transfer on the first.
        for index in 0..<count { side.bumble.send("send \(index) \(Self.hex(Self.pattern(300, seed: index)))") }
        for channel in channels {
            let index = try #require(opened.first { ($0.value["cid"] as? Int) == Int(channel.peerCID) }?.key)
            #expect(try await Self.read(1, from: channel) == [Self.pattern(300, seed: index)])
        }
        side.bumble.send("bulk 0 60000 600")
        let first = try #require(channels.first { channel in (opened[0]?["cid"] as? Int) == Int(channel.peerCID) })
        let bulk = try await Self.read(100, from: first)
        #expect(bulk.map(\.count) == Array(repeating: 600, count: 100))
        _ = try await side.bumble.next("bench-done")
        // swift-att → Bumble, over the channel Bumble indexes 0.
        let reply = Self.pattern(700, seed: 99)
        try await first.send(reply)
        let sdu = try await side.bumble.next("sdu") { $0["length"] as? Int == 700 }
        #expect(sdu["index"] as? Int == 0)
        side.bumble.send("stats")
        let reports = try await side.bumble.collect(until: "received")
        #expect(reports.filter { $0["event"] as? String == "violation" }.isEmpty, "Bumble saw a violation")
        // Bumble closes: the stream ends cleanly.
        side.bumble.send("close 0")
        let rest = try #require(try await withTimeout(.seconds(15)) { () -> Int in
            var n = 0
            for try await _ in first.sdus { n += 1 }
            return n
        })
        #expect(rest == 0)
        #expect(first.closeReason == .peerDisconnected)
        await side.stop()
    }

    /// swift-att's listener needs encryption: Bumble is refused with Insufficient
    /// Authentication (no key yet), pairs, and is let in.
    @Test func aListenerThatNeedsEncryptionRefusesBumbleUntilItPairs() async throws {
        let side = try await PeripheralSide.start(mode: "le", parameters: .init(security: .encrypted))
        let failed = try await side.bumble.next("channel-failed")
        #expect(failed["result"] as? Int == Int(LECreditBasedConnectionResult.insufficientAuthentication.rawValue))
        side.bumble.send("pair")
        _ = try await side.bumble.next("paired")
        side.bumble.send("open")
        _ = try await side.bumble.next("channel-open")
        let channel = try await first("the accepted channel", in: side.listener) { $0 }
        #expect(channel.mode == .leCreditBased)
        await side.stop()
    }
}
