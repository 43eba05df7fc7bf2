import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTLoopback
import Synchronization
import Testing
import TestSupport

/// Credit-based channels between two hosts on one loopback link: opened both modes,
/// SDUs both ways (segmented and reassembled), refusals, security asked for by the
/// listener and obtained by pairing, back-pressure from a reader that stops, and every
/// way a channel ends.
@Suite struct LoopbackChannelTests {
    typealias Pair = LoopbackPairingTests.SecurePair
    static let psm: SPSM = 0x0080

    /// A pair, a listener on the peripheral, and the central's link.
    struct Setup {
        let pair: Pair
        let peer: Peer
        let listener: L2CAPListener

        static func start(_ parameters: L2CAPChannelParameters = .init()) async throws -> Setup {
            let pair = try await Pair.start()
            let listener = try await pair.peripheral.controller.listen(on: LoopbackChannelTests.psm, parameters: parameters)
            let peer = try await pair.connect()
            return Setup(pair: pair, peer: peer, listener: listener)
        }

        /// Opens from the central; returns both ends.
        func open(_ mode: CreditBasedFlowControlMode = .leCreditBased,
                  parameters: L2CAPChannelParameters = .init()) async throws -> (central: L2CAPChannel, peripheral: L2CAPChannel) {
            let central = try await peer.openChannel(psm: LoopbackChannelTests.psm, mode: mode, parameters: parameters)
            let peripheral = try await first("the accepted channel", in: listener) { $0 }
            return (central, peripheral)
        }
    }

    static func pattern(_ length: Int, seed: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }

    /// Reads `count` SDUs from a channel within the bound.
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

    @Test(arguments: [CreditBasedFlowControlMode.leCreditBased, .enhancedCreditBased])
    func sdusOfEverySizeCrossBothWays(mode: CreditBasedFlowControlMode) async throws {
        let setup = try await Setup.start(.init(mtu: 4000, mps: 100, credits: 8))
        let (central, peripheral) = try await setup.open(mode, parameters: .init(mtu: 3000, mps: 64, credits: 5))
        #expect(central.mode == mode && peripheral.mode == mode)
        #expect(central.peerMTU == 4000 && central.peerMPS == 100 && central.peerInitialCredits == 8)
        #expect(peripheral.peerMTU == 3000 && peripheral.peerMPS == 64 && peripheral.peerInitialCredits == 5)
        #expect(central.peerCID == peripheral.localCID && peripheral.peerCID == central.localCID)
        // Empty, one K-frame, exactly an MPS, many K-frames (more than the window), the MTU.
        let sizes = [0, 1, 62, 98, 99, 500, 2999, 3000]
        let toPeripheral = sizes.enumerated().map { Self.pattern($0.element, seed: $0.offset) }
        let toCentral = sizes.enumerated().map { Self.pattern(min($0.element, 3000), seed: 100 + $0.offset) }
        async let atPeripheral = Self.read(sizes.count, from: peripheral)
        async let atCentral = Self.read(sizes.count, from: central)
        for sdu in toPeripheral { try await central.send(sdu) }
        for sdu in toCentral { try await peripheral.send(sdu) }
        #expect(try await atPeripheral == toPeripheral)
        #expect(try await atCentral == toCentral)
        await setup.pair.stop()
    }

    @Test func anSDUOverThePeersMTUIsRefusedBeforeAnythingIsSent() async throws {
        let setup = try await Setup.start(.init(mtu: 100))
        let (central, peripheral) = try await setup.open()
        await #expect(throws: L2CAPChannelError.sduTooLong(length: 101, peerMTU: 100)) {
            try await central.send(Self.pattern(101, seed: 0))
        }
        try await central.send([1, 2, 3])
        #expect(try await Self.read(1, from: peripheral) == [[1, 2, 3]])
        await setup.pair.stop()
    }

    @Test func anSPSMNobodyListensOnIsRefused() async throws {
        let setup = try await Setup.start()
        await #expect(throws: L2CAPChannelError.refused(.spsmNotSupported)) {
            _ = try await setup.peer.openChannel(psm: 0x0081)
        }
        await #expect(throws: L2CAPChannelError.refusedEnhanced(.spsmNotSupported)) {
            _ = try await setup.peer.openChannels(psm: 0x0081, count: 2)
        }
        // A stopped listener refuses too.
        setup.listener.stop()
        await #expect(throws: L2CAPChannelError.refused(.spsmNotSupported)) {
            _ = try await setup.peer.openChannel(psm: LoopbackChannelTests.psm)
        }
        await setup.pair.stop()
    }

    @Test func aListenerThatNeedsEncryptionGetsItByPairing() async throws {
        let setup = try await Setup.start(.init(security: .encrypted))
        #expect(await setup.peer.securityLevel == .none)
        let (central, peripheral) = try await setup.open()
        #expect(await setup.peer.securityLevel == .encrypted(keySize: 16))
        try await central.send([7])
        #expect(try await Self.read(1, from: peripheral) == [[7]])
        #expect(await setup.pair.centralEvents.pairings(reaching: 1).count == 1)
        await setup.pair.stop()
    }

    @Test func withoutPairingOnRefusalTheRefusalIsTheAnswer() async throws {
        var central = SecurityConfiguration()
        central.pairsOnSecurityError = false
        let pair = try await Pair.start(central: central)
        let listener = try await pair.peripheral.controller.listen(on: Self.psm, parameters: .init(security: .authenticated))
        let peer = try await pair.connect()
        await #expect(throws: L2CAPChannelError.refused(.insufficientAuthentication)) {
            _ = try await peer.openChannel(psm: Self.psm)
        }
        await #expect(throws: L2CAPChannelError.refusedEnhanced(.insufficientAuthentication)) {
            _ = try await peer.openChannels(psm: Self.psm, count: 1)
        }
        listener.stop()
        await pair.stop()
    }

    @Test func fiveEnhancedChannelsInOneRequestEachCarryTheirOwnData() async throws {
        let setup = try await Setup.start()
        let centrals = try await setup.peer.openChannels(psm: Self.psm, count: 5)
        #expect(centrals.count == 5)
        #expect(Set(centrals.map(\.localCID)).count == 5)
        var peripherals: [UInt16: L2CAPChannel] = [:]
        for _ in 0..<5 {
            let accepted = try await first("an accepted channel", in: setup.listener) { $0 }
            peripherals[accepted.peerCID] = accepted
        }
        for (index, channel) in centrals.enumerated() {
            try await channel.send(Self.pattern(1500, seed: index))
        }
        for (index, channel) in centrals.enumerated() {
            let other = try #require(peripherals[channel.localCID])
            #expect(try await Self.read(1, from: other) == [Self.pattern(1500, seed: index)])
        }
        await setup.pair.stop()
    }

    /// A reader that stops holds the writer to the window: with 4 credits of one
    /// K-frame each and a send queue of 2 SDUs, the sixth write waits until the reader
    /// takes SDUs; nothing is lost or reordered.
    @Test func aReaderThatStopsHoldsTheWriterBack() async throws {
        let setup = try await Setup.start(.init(credits: 4, creditBatch: 1))
        let (central, peripheral) = try await setup.open(
            parameters: .init(sendQueueLimit: .init(sdus: 2, octets: 1000)))
        let written = Atomic<Int>(0)
        let writer = Task {
            for index in 0..<20 {
                try await central.send(Self.pattern(10, seed: index))
                written.add(1, ordering: .relaxed)
            }
        }
        // 4 SDUs in the peer's credits, 2 in the queue, the 7th write waits.
        try await eventually("the writer stalls") { written.load(ordering: .relaxed) == 6 }
        try await Task.sleep(for: .milliseconds(100))  // it stays stalled: nothing else frees credits
        #expect(written.load(ordering: .relaxed) == 6)
        let sdus = try await Self.read(20, from: peripheral)
        try await writer.value
        #expect(sdus == (0..<20).map { Self.pattern(10, seed: $0) })
        let sent = try #require(await central.statistics)
        #expect(sent.sentSDUs == 20 && sent.sentOctets == 200 && sent.sentFrames == 20)
        #expect(sent.creditStalls >= 1, "the seventh write waited")
        #expect(sent.creditsReceived >= 16, "the reader's credits came back")
        let received = try #require(await peripheral.statistics)
        #expect(received.receivedSDUs == 20 && received.receivedFrames == 20 && received.creditsGranted >= 16)
        await setup.pair.stop()
    }

    @Test func closingEndsThePeersStreamAfterWhatWasSent() async throws {
        let setup = try await Setup.start()
        let (central, peripheral) = try await setup.open()
        for index in 0..<10 { try await central.send(Self.pattern(3000 / 2, seed: index)) }
        await central.close()
        var received: [[UInt8]] = []
        for try await sdu in peripheral.sdus { received.append(sdu) }
        #expect(received.map(\.count) == Array(repeating: 1500, count: 10))
        #expect(received == (0..<10).map { Self.pattern(1500, seed: $0) }, "the SDUs' contents")
        #expect(peripheral.closeReason == .peerDisconnected)
        #expect(central.closeReason == .localClose)
        await #expect(throws: L2CAPChannelError.closed(.localClose)) { try await central.send([1]) }
        do {
            try await peripheral.send([1])
            Issue.record("a write on a channel the peer closed went")
        } catch {
            #expect(error == .closed(.peerDisconnected) || error == .closed(.linkLost))
        }
        // The CID is free again: a new channel takes it.
        let again = try await setup.peer.openChannel(psm: Self.psm)
        #expect(again.localCID == central.localCID)
        await setup.pair.stop()
    }

    @Test func theLinkGoingDownFailsTheStreamAndTheWriters() async throws {
        let setup = try await Setup.start()
        let (central, peripheral) = try await setup.open()
        let reading = Task { () -> L2CAPChannelError? in
            do throws(L2CAPChannelError) {
                for try await _ in peripheral.sdus {}
                return nil
            } catch {
                return error
            }
        }
        try await setup.peer.disconnect()
        let error = await reading.value
        guard case .disconnected? = error else {
            Issue.record("the stream ended with \(String(describing: error))")
            return
        }
        await #expect(throws: L2CAPChannelError.self) { try await central.send([1]) }
        await setup.pair.stop()
    }

    @Test func aSecondListenerOnTheSameSPSMIsRefused() async throws {
        let setup = try await Setup.start()
        await #expect(throws: L2CAPChannelError.invalidParameters("SPSM 0x0080 already has a listener on this host")) {
            _ = try await setup.pair.peripheral.controller.listen(on: Self.psm)
        }
        await #expect(throws: L2CAPChannelError.self) {
            _ = try await setup.pair.peripheral.controller.listen(on: 0x0100)
        }
        await setup.pair.stop()
    }

    @Test func anEnhancedChannelGrowsItsMTUAndThePeerSendsLargerSDUs() async throws {
        let setup = try await Setup.start()
        let (central, peripheral) = try await setup.open(.enhancedCreditBased, parameters: .init(mtu: 100, mps: 64))
        await #expect(throws: L2CAPChannelError.sduTooLong(length: 500, peerMTU: 100)) {
            try await peripheral.send(Self.pattern(500, seed: 1))
        }
        try await central.reconfigure(mtu: 600, mps: 200)
        #expect(central.mtu == 600 && central.mps == 200)
        try await eventually("the peripheral hears the new sizes") { peripheral.peerMTU == 600 && peripheral.peerMPS == 200 }
        try await peripheral.send(Self.pattern(500, seed: 1))
        #expect(try await Self.read(1, from: central) == [Self.pattern(500, seed: 1)])
        // The MTU only grows; an LE Credit Based channel has no reconfiguration.
        await #expect(throws: L2CAPChannelError.invalidParameters("the MTU may only grow (from 600 to 599 asked)")) {
            try await central.reconfigure(mtu: 599, mps: 200)
        }
        let le = try await setup.peer.openChannel(psm: Self.psm)
        await #expect(throws: L2CAPChannelError.invalidParameters("only an Enhanced Credit Based channel can be reconfigured")) {
            try await le.reconfigure(mtu: 3000, mps: 200)
        }
        await setup.pair.stop()
    }

    /// The peripheral opens toward a listener on the central: either role listens,
    /// either opens.
    @Test func thePeripheralOpensToTheCentralsListener() async throws {
        let pair = try await Pair.start()
        let events = try await pair.peripheralEvents()
        let listener = try await pair.central.controller.listen(on: Self.psm)
        _ = try await pair.connect()
        let handle = try await first("the connection", in: events) { event -> UInt16? in
            if case let .connected(handle, _) = event { return handle }
            return nil
        }
        let opened = try await pair.peripheral.controller.openChannel(on: handle, psm: Self.psm, mode: .enhancedCreditBased)
        let accepted = try await first("the accepted channel", in: listener) { $0 }
        try await opened.send([1, 2, 3])
        #expect(try await Self.read(1, from: accepted) == [[1, 2, 3]])
        try await accepted.send([4])
        #expect(try await Self.read(1, from: opened) == [[4]])
        await pair.stop()
    }
}
