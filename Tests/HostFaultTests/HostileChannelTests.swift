import SwiftATTCore
import SwiftATTHost
import SwiftATTL2CAP
import Testing
import TestSupport

/// A hostile central against a swift-att peripheral's credit-based channels, end to end:
/// raw signaling and K-frames from a `RawPeer` on the loopback link. Every rule §10.1
/// ends a channel for ends it — the application's stream throws the violation, the
/// peripheral sends the Disconnection Request — and nothing else on the link is
/// disturbed: the GATT server answers, and other channels carry on.
@Suite struct HostileChannelTests {
    static let psm: SPSM = 0x0080
    /// The raw peer's end of its first channel.
    static let rawCID: UInt16 = 0x0040
    /// What the peripheral's listener takes: SDUs to 100 octets, K-frames to 50, 4 credits.
    static let parameters = L2CAPChannelParameters(mtu: 100, mps: 50, credits: 4, creditBatch: 1)

    struct Setup {
        let target: HostileCentralTarget
        let listener: L2CAPListener

        static func start() async throws -> Setup {
            let target = try await HostileCentralTarget.start()
            let listener = try await target.peripheral.controller.listen(on: psm, parameters: parameters)
            return Setup(target: target, listener: listener)
        }

        var raw: RawPeer { target.raw }

        func signal(_ command: LESignalingCommand, identifier: UInt8 = 1) throws {
            try target.signal(command, identifier: identifier)
        }

        func nextSignal(_ what: String) async throws -> LESignalingFrame { try await target.nextSignal(what) }

        /// The next signaling command the peripheral sends that `match` picks, passing
        /// over others (credits the peripheral returns meanwhile stay for later waits).
        func nextSignal<T: Sendable>(_ what: String, _ match: @escaping @Sendable (LESignalingFrame) -> T?) async throws -> T {
            try await raw.next(what) { inbound -> T? in
                guard case let .frame(frame) = inbound, frame.channel == L2CAPChannelIdentifier.leSignaling,
                      let signal = try? LESignalingFrame(parsing: frame.payload) else { return nil }
                return match(signal)
            }
        }

        /// The payload lengths of the K-frames the peripheral sends on the raw peer's
        /// `cid`, until they add up to `total` octets.
        func frameLengths(on cid: UInt16, totalling total: Int) async throws -> [Int] {
            var lengths: [Int] = []
            while lengths.reduce(0, +) < total {
                lengths.append(try await raw.next("a K-frame on 0x\(String(cid, radix: 16))") { inbound -> Int? in
                    guard case let .frame(frame) = inbound, frame.channel == cid else { return nil }
                    return frame.payload.count
                })
            }
            return lengths
        }

        /// A K-frame payload as given, on `cid`.
        func kFrame(_ payload: [UInt8], on cid: UInt16) throws {
            try raw.sendACL(RawPeer.frame(channel: cid, length: payload.count) + payload)
        }

        /// A whole SDU in one K-frame.
        func sdu(_ data: [UInt8], on cid: UInt16) throws {
            try kFrame(le(data.count) + data, on: cid)
        }

        /// Opens an LE Credit Based channel from the raw peer; returns the peripheral's
        /// CID and its accepted channel.
        func open(sourceCID: UInt16 = HostileChannelTests.rawCID, credits: UInt16 = 10) async throws -> (cid: UInt16, channel: L2CAPChannel) {
            try signal(.leCreditBasedConnectionRequest(.init(spsm: psm, sourceCID: sourceCID, mtu: 200, mps: 100,
                                                             initialCredits: credits)))
            let answer = try await nextSignal("the LE Credit Based Connection Response")
            guard case let .leCreditBasedConnectionResponse(response) = answer.command, response.result == .success else {
                throw TimedOut(what: "a successful response, got \(answer)")
            }
            #expect(response.mtu == 100 && response.mps == 50 && response.initialCredits == 4)
            let channel = try await first("the accepted channel", in: listener) { $0 }
            return (response.destinationCID, channel)
        }

        /// The peripheral disconnects the channel: its request is answered, as a peer
        /// would.
        func expectDisconnectionRequest(for cid: UInt16, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let frame = try await nextSignal("the Disconnection Request")
            #expect(frame.command == .disconnectionRequest(.init(destinationCID: HostileChannelTests.rawCID, sourceCID: cid)),
                    sourceLocation: sourceLocation)
            try signal(.disconnectionResponse(.init(destinationCID: HostileChannelTests.rawCID, sourceCID: cid)),
                       identifier: frame.identifier)
        }
    }

    /// What the application's stream ends with, within the bound.
    static func ending(of channel: L2CAPChannel) async throws -> (sdus: [[UInt8]], error: L2CAPChannelError?) {
        try #require(try await withTimeout(.seconds(30)) { () -> ([[UInt8]], L2CAPChannelError?) in
            var sdus: [[UInt8]] = []
            do throws(L2CAPChannelError) {
                for try await sdu in channel.sdus { sdus.append(sdu) }
                return (sdus, nil)
            } catch {
                return (sdus, error)
            }
        })
    }

    static func violation(_ violation: CreditBasedChannelViolation) -> L2CAPChannelError {
        .closed(.violation(violation))
    }

    @Test func aKFrameLongerThanTheMPSEndsTheChannel() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open()
        try setup.kFrame(le(49) + [UInt8](repeating: 7, count: 49), on: cid)
        try await setup.expectDisconnectionRequest(for: cid)
        #expect(try await Self.ending(of: channel).error == Self.violation(.frameLongerThanMPS(length: 51, mps: 50)))
        try await setup.target.expectLinkWorks()
        await setup.target.stop()
    }

    @Test func anSDULongerThanTheMTUEndsTheChannel() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open()
        try setup.kFrame(le(101) + [1, 2, 3], on: cid)
        try await setup.expectDisconnectionRequest(for: cid)
        #expect(try await Self.ending(of: channel).error == Self.violation(.sduLongerThanMTU(sduLength: 101, mtu: 100)))
        try await setup.target.expectLinkWorks()
        await setup.target.stop()
    }

    @Test func moreOctetsThanTheSDULengthAnnouncedEndTheChannel() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open()
        try setup.kFrame(le(10) + [1, 2, 3, 4, 5], on: cid)
        try setup.kFrame([6, 7, 8, 9, 10, 11], on: cid)
        try await setup.expectDisconnectionRequest(for: cid)
        #expect(try await Self.ending(of: channel).error == Self.violation(.sduLongerThanAnnounced(sduLength: 10, received: 11)))
        await setup.target.stop()
    }

    /// The application reads nothing: after the 4 credits' SDUs, a fifth K-frame has no
    /// credit. The four arrive, then the violation.
    @Test func aKFrameWithoutCreditEndsTheChannelAfterWhatWasCredited() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open()
        for n in 0..<5 { try setup.sdu([UInt8(n)], on: cid) }
        try await setup.expectDisconnectionRequest(for: cid)
        let (sdus, error) = try await Self.ending(of: channel)
        #expect(sdus == [[0], [1], [2], [3]])
        #expect(error == Self.violation(.frameWithoutCredit))
        await setup.target.stop()
    }

    @Test func creditsPast65535EndTheChannel() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open(credits: 10)
        try setup.signal(.flowControlCreditIndication(.init(cid: Self.rawCID, credits: 65_530)), identifier: 2)
        try await setup.expectDisconnectionRequest(for: cid)
        #expect(try await Self.ending(of: channel).error == Self.violation(.creditOverflow(held: 10, granted: 65_530)))
        await #expect(throws: Self.violation(.creditOverflow(held: 10, granted: 65_530))) { try await channel.send([1]) }
        await setup.target.stop()
    }

    /// Frames for a CID nobody opened, and a disconnection of one, change nothing.
    @Test func unknownCIDsAreDroppedAndRejected() async throws {
        let setup = try await Setup.start()
        let (cid, channel) = try await setup.open()
        try setup.sdu([9, 9], on: 0x0070)
        try setup.signal(.disconnectionRequest(.init(destinationCID: 0x0071, sourceCID: 0x0045)), identifier: 7)
        let reject = try await setup.nextSignal("the Command Reject")
        #expect(reject == LESignalingFrame(identifier: 7, command: .commandReject(.invalidCIDInRequest(localCID: 0x0071, remoteCID: 0x0045))))
        // The same destination with another peer's CID is not this channel either.
        try setup.signal(.disconnectionRequest(.init(destinationCID: cid, sourceCID: 0x0045)), identifier: 8)
        #expect(try await setup.nextSignal("the second Command Reject").identifier == 8)
        try setup.sdu([1, 2, 3], on: cid)
        let received = try await first("the SDU", in: channel.sdus) { $0 }
        #expect(received == [1, 2, 3])
        try await setup.target.expectLinkWorks()
        await setup.target.stop()
    }

    /// A rule of §10.1 the raw peer breaks on a channel.
    enum Breach: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case frameLongerThanMPS, sduLongerThanMTU, frameWithoutCredit, creditOverflow

        var testDescription: String { rawValue }

        /// Breaks the rule on the peripheral's channel `cid` (the raw peer's end: `rawCID`).
        func commit(_ setup: Setup, on cid: UInt16) throws {
            switch self {
            case .frameLongerThanMPS: try setup.kFrame(le(49) + [UInt8](repeating: 7, count: 49), on: cid)
            case .sduLongerThanMTU: try setup.kFrame(le(101) + [1, 2, 3], on: cid)
            case .frameWithoutCredit: for n in 0..<5 { try setup.sdu([UInt8(n)], on: cid) }
            case .creditOverflow:
                try setup.signal(.flowControlCreditIndication(.init(cid: HostileChannelTests.rawCID, credits: 65_530)), identifier: 2)
            }
        }

        /// What the channel's reader gets.
        var violation: CreditBasedChannelViolation {
            switch self {
            case .frameLongerThanMPS: return .frameLongerThanMPS(length: 51, mps: 50)
            case .sduLongerThanMTU: return .sduLongerThanMTU(sduLength: 101, mtu: 100)
            case .frameWithoutCredit: return .frameWithoutCredit
            case .creditOverflow: return .creditOverflow(held: 10, granted: 65_530)
            }
        }
    }

    /// Two channels on one link; the raw peer breaks a rule on the first. That one ends
    /// with the violation and is disconnected; the second carries SDUs both ways before,
    /// during and after, beyond its initial credits (so its credits keep coming back), and
    /// stays open.
    @Test(arguments: Breach.allCases)
    func aViolationOnOneChannelLeavesTheOtherMoving(_ breach: Breach) async throws {
        let setup = try await Setup.start()
        let (brokenCID, broken) = try await setup.open()
        let goodRawCID: UInt16 = 0x0041
        let (goodCID, good) = try await setup.open(sourceCID: goodRawCID)
        let inbound = (0..<9).map { n in [UInt8](repeating: UInt8(n), count: 1 + n * 5) }
        let outbound = (0..<4).map { n in [UInt8](repeating: 0xA0 + UInt8(n), count: 60 + n) }
        // The peripheral's application reads the good channel throughout.
        let reading = Task { () throws -> [[UInt8]] in
            var sdus: [[UInt8]] = []
            for try await sdu in good.sdus {
                sdus.append(sdu)
                if sdus.count == inbound.count { break }
            }
            return sdus
        }
        // The raw peer sends within the credits the peripheral gives (4 to start with).
        var credits = Int(Self.parameters.credits)
        func sendInbound(_ sdu: [UInt8]) async throws {
            while credits == 0 {
                credits += Int(try await setup.nextSignal("credits for the good channel") { signal -> UInt16? in
                    guard case let .flowControlCreditIndication(indication) = signal.command, indication.cid == goodCID else { return nil }
                    return indication.credits
                })
            }
            try setup.sdu(sdu, on: goodCID)
            credits -= 1
        }
        func expectOutbound(_ sdu: [UInt8]) async throws {
            try await good.send(sdu)
            let payload = try await setup.raw.next("an SDU on the good channel") { inbound -> [UInt8]? in
                guard case let .frame(frame) = inbound, frame.channel == goodRawCID else { return nil }
                return Array(frame.payload)
            }
            #expect(payload == le(sdu.count) + sdu)
        }

        try await sendInbound(inbound[0])
        try await expectOutbound(outbound[0])
        try breach.commit(setup, on: brokenCID)
        try await sendInbound(inbound[1])
        let (identifier, request) = try await setup.nextSignal("the Disconnection Request") { signal -> (UInt8, DisconnectionRequest)? in
            guard case let .disconnectionRequest(request) = signal.command else { return nil }
            return (signal.identifier, request)
        }
        #expect(request == DisconnectionRequest(destinationCID: Self.rawCID, sourceCID: brokenCID))
        try setup.signal(.disconnectionResponse(.init(destinationCID: Self.rawCID, sourceCID: brokenCID)), identifier: identifier)
        #expect(try await Self.ending(of: broken).error == Self.violation(breach.violation))

        for sdu in inbound[2...] { try await sendInbound(sdu) }
        for sdu in outbound[1...] { try await expectOutbound(sdu) }
        let received = try #require(try await withTimeout(.seconds(30)) { try await reading.value })
        #expect(received == inbound)
        #expect(good.closeReason == nil)
        let statistics = try #require(await good.statistics)
        #expect(statistics.receivedSDUs == inbound.count && statistics.sentSDUs == outbound.count)
        try await setup.target.expectLinkWorks()
        await setup.target.stop()
    }

    /// §4.27–4.28: a reconfiguration of several channels at once may not shrink their
    /// MPS (result 0x0002) and changes nothing; one of a single channel may.
    @Test func aReconfigurationThatShrinksTheMPSOfSeveralChannelsIsRefused() async throws {
        let setup = try await Setup.start()
        let rawCIDs: [UInt16] = [0x0040, 0x0041]
        try setup.signal(.creditBasedConnectionRequest(.init(spsm: Self.psm, mtu: 200, mps: 100, initialCredits: 10,
                                                             sourceCIDs: rawCIDs)))
        let answer = try await setup.nextSignal("the Credit Based Connection Response")
        guard case let .creditBasedConnectionResponse(response) = answer.command, response.result == .success,
              response.destinationCIDs.count == 2 else {
            Issue.record("refused: \(answer)")
            return
        }
        let one = try await first("the first accepted channel", in: setup.listener) { $0 }
        let two = try await first("the second accepted channel", in: setup.listener) { $0 }
        let channels = [one, two].sorted { $0.peerCID < $1.peerCID }
        #expect(channels.map(\.peerCID) == rawCIDs)

        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 200, mps: 80, destinationCIDs: rawCIDs)), identifier: 9)
        #expect(try await setup.nextSignal("the answer") ==
                LESignalingFrame(identifier: 9, command: .creditBasedReconfigureResponse(.init(result: .mpsReductionNotAllowed))))
        #expect(channels.allSatisfy { $0.peerMTU == 200 && $0.peerMPS == 100 })
        // Still sent in K-frames of the old MPS.
        let sdu = [UInt8](repeating: 3, count: 150)
        try await channels[0].send(sdu)
        #expect(try await setup.frameLengths(on: rawCIDs[0], totalling: 152) == [100, 52])

        // Growing the MTU of both keeping their MPS is fine, and so is shrinking one's MPS.
        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 250, mps: 100, destinationCIDs: rawCIDs)), identifier: 10)
        #expect(try await setup.nextSignal("the answer").command == .creditBasedReconfigureResponse(.init(result: .success)))
        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 250, mps: 80, destinationCIDs: [rawCIDs[0]])), identifier: 11)
        #expect(try await setup.nextSignal("the answer").command == .creditBasedReconfigureResponse(.init(result: .success)))
        #expect(channels[0].peerMTU == 250 && channels[0].peerMPS == 80)
        #expect(channels[1].peerMTU == 250 && channels[1].peerMPS == 100)
        try await channels[0].send(sdu)
        #expect(try await setup.frameLengths(on: rawCIDs[0], totalling: 152) == [80, 72])
        try await channels[1].send(sdu)
        #expect(try await setup.frameLengths(on: rawCIDs[1], totalling: 152) == [100, 52])
        await setup.target.stop()
    }

    static func refusal(_ setup: Setup) async throws -> LESignalingCommand {
        try await setup.nextSignal("the refusal").command
    }

    @Test func aSourceCIDInUseOrOutOfRangeIsRefused() async throws {
        let refusal = Self.refusal
        let setup = try await Setup.start()
        // Kept: a channel nobody holds is closed.
        let (_, channel) = try await setup.open()
        try setup.signal(.leCreditBasedConnectionRequest(.init(spsm: Self.psm, sourceCID: Self.rawCID, mtu: 200, mps: 100,
                                                               initialCredits: 1)), identifier: 3)
        do { let got = try await refusal(setup); #expect(got == .leCreditBasedConnectionResponse(.refused(.sourceCIDAlreadyAllocated))) }
        try setup.signal(.leCreditBasedConnectionRequest(.init(spsm: Self.psm, sourceCID: 0x0004, mtu: 200, mps: 100,
                                                               initialCredits: 1)), identifier: 4)
        do { let got = try await refusal(setup); #expect(got == .leCreditBasedConnectionResponse(.refused(.invalidSourceCID))) }
        try setup.signal(.creditBasedConnectionRequest(.init(spsm: Self.psm, mtu: 200, mps: 100, initialCredits: 1,
                                                             sourceCIDs: [0x0041, 0x0041])), identifier: 5)
        do { let got = try await refusal(setup); #expect(got == .creditBasedConnectionResponse(.refused(.sourceCIDAlreadyAllocated, count: 2))) }
        try setup.signal(.creditBasedConnectionRequest(.init(spsm: 0x0099, mtu: 200, mps: 100, initialCredits: 1,
                                                             sourceCIDs: [0x0042])), identifier: 6)
        do { let got = try await refusal(setup); #expect(got == .creditBasedConnectionResponse(.refused(.spsmNotSupported, count: 1))) }
        #expect(channel.closeReason == nil)
        await setup.target.stop()
    }

    /// A reconfiguration that shrinks the MTU is refused and changes nothing; one that
    /// grows it lets the peripheral send larger SDUs.
    @Test func aReconfigurationThatShrinksTheMTUIsRefused() async throws {
        let setup = try await Setup.start()
        try setup.signal(.creditBasedConnectionRequest(.init(spsm: Self.psm, mtu: 200, mps: 100, initialCredits: 10,
                                                             sourceCIDs: [Self.rawCID])))
        let answer = try await setup.nextSignal("the Credit Based Connection Response")
        guard case let .creditBasedConnectionResponse(response) = answer.command, response.result == .success else {
            Issue.record("refused: \(answer)")
            return
        }
        let channel = try await first("the accepted channel", in: setup.listener) { $0 }
        #expect(channel.mode == .enhancedCreditBased && channel.peerMTU == 200)
        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 100, mps: 100, destinationCIDs: [Self.rawCID])), identifier: 9)
        #expect(try await setup.nextSignal("the answer") == LESignalingFrame(identifier: 9, command: .creditBasedReconfigureResponse(.init(result: .mtuReductionNotAllowed))))
        #expect(channel.peerMTU == 200)
        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 300, mps: 100, destinationCIDs: [0x0077])), identifier: 10)
        #expect(try await setup.nextSignal("the answer").command == .creditBasedReconfigureResponse(.init(result: .invalidDestinationCID)))
        try setup.signal(.creditBasedReconfigureRequest(.init(mtu: 300, mps: 120, destinationCIDs: [Self.rawCID])), identifier: 11)
        #expect(try await setup.nextSignal("the answer").command == .creditBasedReconfigureResponse(.init(result: .success)))
        #expect(channel.peerMTU == 300 && channel.peerMPS == 120)
        // 250 octets now fit, in K-frames of at most 120.
        try await channel.send([UInt8](repeating: 5, count: 250))
        let frames = try await setup.raw.next("the first K-frame") { inbound -> Int? in
            guard case let .frame(frame) = inbound, frame.channel == Self.rawCID else { return nil }
            return frame.payload.count
        }
        #expect(frames == 120)
        await setup.target.stop()
    }

    /// The peripheral asks for a larger MTU; the peer begins an SDU by it, then refuses.
    /// Back at MTU 100 the SDU could only reach the application longer than the channel's
    /// MTU: the channel ends as its first K-frame would have under MTU 100, and is
    /// disconnected (the `l2cap-coc` fuzz target's `crash-refused-reconfigure-under-reassembly`).
    @Test func aRefusalAfterTheFirstKFrameOfAnSDUByTheNewMTUEndsTheChannel() async throws {
        let setup = try await Setup.start()
        try setup.signal(.creditBasedConnectionRequest(.init(spsm: Self.psm, mtu: 200, mps: 100, initialCredits: 10,
                                                             sourceCIDs: [Self.rawCID])))
        let answer = try await setup.nextSignal("the Credit Based Connection Response")
        guard case let .creditBasedConnectionResponse(response) = answer.command, response.result == .success,
              let cid = response.destinationCIDs.first else {
            Issue.record("refused: \(answer)")
            return
        }
        let channel = try await first("the accepted channel", in: setup.listener) { $0 }
        #expect(channel.mtu == 100)
        let reconfiguring = Task { () -> L2CAPChannelError? in
            do throws(L2CAPChannelError) {
                try await channel.reconfigure(mtu: 200, mps: 64)
                return nil
            } catch {
                return error
            }
        }
        let request = try await setup.nextSignal("the Credit Based Reconfigure Request")
        #expect(request.command == .creditBasedReconfigureRequest(.init(mtu: 200, mps: 64, destinationCIDs: [cid])))
        try setup.kFrame(le(150) + [UInt8](repeating: 7, count: 48), on: cid)
        try setup.signal(.creditBasedReconfigureResponse(.init(result: .otherUnacceptableParameters)), identifier: request.identifier)
        #expect(await reconfiguring.value == .reconfigurationRefused(.otherUnacceptableParameters))
        try await setup.expectDisconnectionRequest(for: cid)
        #expect(try await Self.ending(of: channel).error == Self.violation(.sduLongerThanMTU(sduLength: 150, mtu: 100)))
        #expect(channel.mtu == 100)
        try await setup.target.expectLinkWorks()
        await setup.target.stop()
    }

    /// A channel the application dropped is disconnected, as a dropped notification
    /// stream unsubscribes: its CID does not stay open, crediting a peer nobody reads for.
    @Test func aChannelNobodyHoldsIsDisconnected() async throws {
        let setup = try await Setup.start()
        let (cid, _) = try await setup.open()
        try await setup.expectDisconnectionRequest(for: cid)
        // Its CID is free for the next channel.
        let (again, channel) = try await setup.open(sourceCID: 0x0041)
        #expect(again == cid)
        #expect(channel.closeReason == nil)
        await setup.target.stop()
    }
}
