import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// The credit-based channel's data path (Core 5.4 Vol 3 Part A §3.4.3, §10.1): K-frames
/// byte for byte, every violation the spec ends a channel for, and the credit policy.
@Suite struct CreditBasedChannelTests {
    /// The channel by reference, so a step and its check fit in one `#expect` (the
    /// macro cannot take a mutating call on a local value).
    @dynamicMemberLookup
    final class Driven {
        var channel: CreditBasedChannel
        init(_ channel: CreditBasedChannel) { self.channel = channel }

        subscript<Value>(dynamicMember keyPath: KeyPath<CreditBasedChannel, Value>) -> Value { channel[keyPath: keyPath] }
        func send(_ sdu: ArraySlice<UInt8>) throws(CreditBasedChannelError) { try channel.send(sdu) }
        func nextFrame() -> KFrame? { channel.nextFrame() }
        func peerGaveCredits(_ credits: UInt16) throws(CreditBasedChannelError) { try channel.peerGaveCredits(credits) }
        func receive(_ payload: ArraySlice<UInt8>) throws(CreditBasedChannelError) -> ArraySlice<UInt8>? {
            try channel.receive(payload)
        }
        func consumed() -> Bool { channel.consumed() }
        func nextAction() -> CreditBasedChannelAction? { channel.nextAction() }
        @discardableResult func close() -> CreditBasedChannel.Discarded { channel.close() }
        @discardableResult func peerDisconnected() -> CreditBasedChannel.Discarded { channel.peerDisconnected() }
        @discardableResult func linkLost() -> CreditBasedChannel.Discarded { channel.linkLost() }
        func hasRoom(forSDUOf length: Int) -> Bool { channel.hasRoom(forSDUOf: length) }
        func answer(toPeerReconfiguringTo mtu: UInt16, mps: UInt16) -> CreditBasedReconfigureResult {
            channel.answer(toPeerReconfiguringTo: mtu, mps: mps)
        }
        @discardableResult func peerReconfigured(mtu: UInt16, mps: UInt16) -> CreditBasedReconfigureResult {
            channel.peerReconfigured(mtu: mtu, mps: mps)
        }
        func receiveSizes(mtu: UInt16, mps: UInt16) throws(CreditBasedChannelError) {
            try channel.receiveSizes(mtu: mtu, mps: mps)
        }
    }

    static func channel(mtu: UInt16 = 100, mps: UInt16 = 23, peerMTU: UInt16 = 100, peerMPS: UInt16 = 23,
                        peerCredits: UInt16 = 10, window: UInt16 = 10, batch: UInt16? = nil,
                        queue: CreditBasedChannelConfiguration.SendQueueLimit = .init()) -> Driven {
        let configuration = CreditBasedChannelConfiguration(
            localCID: 0x0040, peerCID: 0x0041, mtu: mtu, mps: mps, peerMTU: peerMTU, peerMPS: peerMPS,
            peerInitialCredits: peerCredits, creditPolicy: CreditReturnPolicy(window: window, batch: batch),
            sendQueueLimit: queue)
        return Driven(try! CreditBasedChannel(configuration))
    }

    /// A first K-frame: the SDU Length, then `data`.
    static func first(_ sduLength: Int, _ data: [UInt8]) -> ArraySlice<UInt8> {
        ([UInt8(sduLength & 0xFF), UInt8(sduLength >> 8)] + data)[...]
    }

    /// Receives, expecting the channel to end for `violation` and ask to disconnect once.
    static func expectViolation(_ violation: CreditBasedChannelViolation, on channel: Driven,
                                receiving payload: ArraySlice<UInt8>) {
        #expect(throws: CreditBasedChannelError.violation(violation)) { _ = try channel.receive(payload) }
        #expect(channel.state == .closing(.violation(violation)))
        #expect(channel.nextAction() == .disconnect(.violation(violation)))
        #expect(channel.nextAction() == nil)
        #expect(channel.state == .closed(.violation(violation)))
    }

    // MARK: K-frames on the wire

    /// A 30-octet SDU to a peer whose MPS is 23: a first K-frame of 23 octets (SDU Length
    /// 0x001E and 21 octets), then a continuation of the other 9 — each a basic frame to
    /// the peer's CID 0x0041.
    @Test func goldenSegmentation() throws {
        let channel = Self.channel()
        let sdu = (0..<30).map { UInt8($0) }
        try channel.send(sdu[...])
        let first = try #require(channel.nextFrame())
        #expect(first.basicFrame() == [
            0x17, 0x00, 0x41, 0x00, 0x1E, 0x00,
            0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A,
            0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14,
        ])
        #expect(!first.completesSDU && first.encodedLength == 23)
        let second = try #require(channel.nextFrame())
        #expect(second.basicFrame() == [0x09, 0x00, 0x41, 0x00, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D])
        #expect(second.completesSDU && second.sduLength == nil)
        #expect(channel.nextFrame() == nil)
        #expect(channel.sendCredits == 8 && channel.queuedSDUs == 0 && channel.queuedOctets == 0)

        // The receiving side, fed the same payloads, gets the SDU back.
        let peer = Self.channel(mtu: 100, mps: 23)
        #expect(try peer.receive(Array(first.basicFrame().dropFirst(4))[...]) == nil)
        #expect(try peer.receive(Array(second.basicFrame().dropFirst(4))[...]).map(Array.init) == sdu)
    }

    /// The K-frame a segment leaves in is a view of the queued SDU, and the fragmenter
    /// writes it into an ACL packet with its basic header.
    @Test func framesAreViewsWrittenStraightIntoACLPackets() throws {
        let channel = Self.channel()
        let sdu: [UInt8] = [0xAA, 0xBB, 0xCC]
        try channel.send(sdu[...])
        let frame = try #require(channel.nextFrame())
        sdu.withUnsafeBufferPointer { storage in
            frame.segment.withUnsafeBufferPointer { view in #expect(view.baseAddress == storage.baseAddress) }
        }
        var packets: [[UInt8]] = []
        L2CAPFragmenter.encodePackets(channel: frame.channel, payload: frame, handle: 0x0040, bufferLength: 27) {
            packets.append(Array($0))
        }
        #expect(packets == [[0x40, 0x00, 0x09, 0x00, 0x05, 0x00, 0x41, 0x00, 0x03, 0x00, 0xAA, 0xBB, 0xCC]])
    }

    /// An SDU in one K-frame is delivered as a view of the frame, not a copy.
    @Test func singleFrameSDUIsAView() throws {
        let channel = Self.channel()
        let payload: [UInt8] = [0x03, 0x00, 0x01, 0x02, 0x03]
        let sdu = try #require(try channel.receive(payload[...]))
        #expect(Array(sdu) == [1, 2, 3])
        payload.withUnsafeBufferPointer { storage in
            sdu.withUnsafeBufferPointer { view in #expect(view.baseAddress == storage.baseAddress! + 2) }
        }
    }

    /// §3.4.3 bounds the SDU Length by the MTU and sets no minimum: an empty SDU is a
    /// K-frame holding only its SDU Length, sent and received.
    @Test func emptySDU() throws {
        let channel = Self.channel()
        try channel.send([])
        let frame = try #require(channel.nextFrame())
        #expect(frame.basicFrame() == [0x02, 0x00, 0x41, 0x00, 0x00, 0x00] && frame.completesSDU)
        #expect(channel.queuedSDUs == 0 && channel.sendCredits == 9)
        #expect(try channel.receive([0x00, 0x00]).map(Array.init) == [])
        #expect(channel.unconsumedSDUs == 1)
    }

    /// An SDU that fills a first K-frame to the MPS exactly, and one a single octet
    /// longer, which needs a continuation of one octet.
    @Test func segmentBoundaries() throws {
        let channel = Self.channel(peerMPS: 23)
        try channel.send(Array(repeating: 1, count: 21)[...])
        try channel.send(Array(repeating: 2, count: 22)[...])
        #expect(channel.nextFrame()?.encodedLength == 23)
        #expect(channel.nextFrame()?.encodedLength == 23)
        let last = try #require(channel.nextFrame())
        #expect(last.encodedLength == 1 && last.completesSDU)
    }

    /// A continuation with no octets is not forbidden: it costs a credit and adds nothing.
    @Test func emptyContinuationCostsACredit() throws {
        let channel = Self.channel()
        #expect(try channel.receive(Self.first(3, [1])) == nil)
        #expect(try channel.receive([]) == nil)
        #expect(try channel.receive([2, 3]).map(Array.init) == [1, 2, 3])
        #expect(channel.peerCredits == 7 && channel.heldCredits == 3)
    }

    // MARK: Sending: limits and credits

    @Test func sduLongerThanPeerMTUIsRefused() throws {
        let channel = Self.channel(peerMTU: 40)
        #expect(throws: CreditBasedChannelError.sduLongerThanPeerMTU(length: 41, peerMTU: 40)) {
            try channel.send(Array(repeating: 0, count: 41)[...])
        }
        try channel.send(Array(repeating: 0, count: 40)[...])
        #expect(channel.isOpen && channel.queuedSDUs == 1)
    }

    /// Frames wait for credits, the queue is bounded in SDUs and octets, and one SDU
    /// always fits an empty queue.
    @Test func backPressure() throws {
        let channel = Self.channel(peerCredits: 0, queue: .init(sdus: 3, octets: 50))
        try channel.send(Array(repeating: 1, count: 90)[...])
        #expect(!channel.hasRoom(forSDUOf: 0))
        #expect(throws: CreditBasedChannelError.sendQueueFull(queuedSDUs: 1, queuedOctets: 90)) { try channel.send([]) }
        #expect(channel.nextFrame() == nil)
        try channel.peerGaveCredits(3)
        for _ in 0..<3 { #expect(channel.nextFrame() != nil) }
        #expect(channel.nextFrame() == nil && channel.queuedOctets == 90 - 21 - 23 - 23)
        #expect(channel.hasRoom(forSDUOf: 27) && !channel.hasRoom(forSDUOf: 28))
        try channel.send(Array(repeating: 2, count: 27)[...])
        try channel.send([])
        #expect(channel.queuedSDUs == 3 && !channel.hasRoom(forSDUOf: 0))
        try channel.peerGaveCredits(10)
        var frames = 0
        while let frame = channel.nextFrame() {
            frames += 1
            #expect(frame.encodedLength <= 23)
        }
        #expect(frames == 1 + 2 + 1 && channel.queuedSDUs == 0 && channel.queuedOctets == 0 && channel.sendCredits == 6)
    }

    /// §10.1: credits held above 65535 end the channel.
    @Test func creditOverflow() throws {
        let channel = Self.channel(peerCredits: 65000)
        try channel.peerGaveCredits(535)
        #expect(channel.sendCredits == 65535)
        #expect(throws: CreditBasedChannelError.violation(.creditOverflow(held: 65535, granted: 1))) {
            try channel.peerGaveCredits(1)
        }
        #expect(channel.nextAction() == .disconnect(.violation(.creditOverflow(held: 65535, granted: 1))))
        #expect(channel.nextFrame() == nil)
        // A grant that crossed the disconnection is ignored.
        try channel.peerGaveCredits(1)
    }

    // MARK: Receiving: every violation

    @Test func frameLongerThanMPS() {
        let channel = Self.channel(mps: 23)
        Self.expectViolation(.frameLongerThanMPS(length: 24, mps: 23), on: channel,
                             receiving: Self.first(22, Array(repeating: 0, count: 22)))
    }

    @Test func continuationLongerThanMPS() throws {
        let channel = Self.channel(mtu: 100, mps: 23)
        #expect(try channel.receive(Self.first(60, Array(repeating: 0, count: 21))) == nil)
        Self.expectViolation(.frameLongerThanMPS(length: 24, mps: 23), on: channel,
                             receiving: Array(repeating: 0, count: 24)[...])
    }

    @Test func sduLongerThanMTU() {
        let channel = Self.channel(mtu: 40)
        Self.expectViolation(.sduLongerThanMTU(sduLength: 41, mtu: 40), on: channel, receiving: Self.first(41, [1]))
    }

    @Test(arguments: [[UInt8](), [0x05]])
    func firstFrameWithoutSDULength(payload: [UInt8]) {
        let channel = Self.channel()
        Self.expectViolation(.missingSDULength(length: payload.count), on: channel, receiving: payload[...])
    }

    @Test func moreOctetsThanAnnouncedInOneFrame() {
        let channel = Self.channel()
        Self.expectViolation(.sduLongerThanAnnounced(sduLength: 5, received: 6), on: channel,
                             receiving: Self.first(5, [1, 2, 3, 4, 5, 6]))
    }

    @Test func moreOctetsThanAnnouncedOverFrames() throws {
        let channel = Self.channel()
        #expect(try channel.receive(Self.first(30, Array(repeating: 0, count: 21))) == nil)
        Self.expectViolation(.sduLongerThanAnnounced(sduLength: 30, received: 31), on: channel,
                             receiving: Array(repeating: 0, count: 10)[...])
    }

    /// Fewer octets than announced, then a new SDU: the new first K-frame is read as
    /// the continuation it claims to be (nothing marks a K-frame as first), so the short
    /// SDU comes to light when the octets overflow its SDU Length.
    @Test func fewerOctetsThanAnnouncedThenANewSDU() throws {
        let channel = Self.channel()
        #expect(try channel.receive(Self.first(30, Array(repeating: 0, count: 20))) == nil)
        #expect(try channel.receive(Self.first(5, [1, 2, 3, 4, 5])) == nil)   // 27 of 30
        Self.expectViolation(.sduLongerThanAnnounced(sduLength: 30, received: 34), on: channel,
                             receiving: Self.first(5, [1, 2, 3, 4, 5]))
        #expect(channel.discarded.partialSDUOctets == 27)
    }

    /// A K-frame with no credit left ends the channel (§10.1). The window of 2 is spent
    /// by two SDUs the application has not consumed.
    @Test func frameWithoutCredit() throws {
        let channel = Self.channel(window: 2)
        #expect(try channel.receive(Self.first(1, [1])) != nil)
        #expect(try channel.receive(Self.first(1, [2])) != nil)
        #expect(channel.peerCredits == 0 && channel.nextAction() == nil)
        Self.expectViolation(.frameWithoutCredit, on: channel, receiving: Self.first(1, [3]))
    }

    // MARK: Credits back to the peer

    /// Credits come back as SDUs are consumed, in batches; whatever is ready goes at
    /// once to a peer with none left.
    @Test func creditsReturnAsConsumedInBatches() throws {
        let channel = Self.channel(mtu: 100, mps: 23, window: 8, batch: 4)
        for i in 0..<3 { #expect(try channel.receive(Self.first(1, [UInt8(i)])) != nil) }
        // A two-frame SDU holds two credits.
        #expect(try channel.receive(Self.first(25, Array(repeating: 9, count: 21))) == nil)
        #expect(try channel.receive([1, 2, 3, 4])?.count == 25)
        #expect(channel.peerCredits == 3 && channel.heldCredits == 5 && channel.nextAction() == nil)
        // Arrival alone returns nothing; consuming three single-frame SDUs is under a batch.
        for _ in 0..<3 { #expect(channel.consumed()) }
        #expect(channel.creditsToReturn == 3 && channel.nextAction() == nil)
        #expect(channel.consumed())
        #expect(channel.nextAction() == .grantCredits(5))
        #expect(channel.nextAction() == nil)
        #expect(channel.peerCredits == 8 && channel.heldCredits == 0)
        #expect(!channel.consumed())

        // The peer spends the window; one consumed SDU goes back at once.
        for i in 0..<8 { #expect(try channel.receive(Self.first(1, [UInt8(i)])) != nil) }
        #expect(channel.consumed())
        #expect(channel.nextAction() == .grantCredits(1))
        #expect(channel.consumed() && channel.nextAction() == nil)
    }

    /// An SDU needing more K-frames than the window: when the peer runs out mid-SDU, the
    /// SDU's frames are returned at once, or it could never complete.
    @Test func sduLongerThanTheWindowCompletes() throws {
        let channel = Self.channel(mtu: 200, mps: 23, window: 2, batch: 2)
        #expect(try channel.receive(Self.first(100, Array(repeating: 0, count: 21))) == nil)
        #expect(channel.nextAction() == nil)
        #expect(try channel.receive(Array(repeating: 1, count: 23)[...]) == nil)
        #expect(channel.nextAction() == .grantCredits(2))
        #expect(try channel.receive(Array(repeating: 2, count: 23)[...]) == nil)
        #expect(try channel.receive(Array(repeating: 3, count: 23)[...]) == nil)
        #expect(channel.nextAction() == .grantCredits(2))
        #expect(try channel.receive(Array(repeating: 4, count: 10)[...])?.count == 100)
        #expect(channel.peerCredits == 1 && channel.heldCredits == 1 && channel.nextAction() == nil)
        // The peer still holds a credit: one consumed SDU waits for a batch.
        #expect(channel.consumed() && channel.creditsToReturn == 1 && channel.nextAction() == nil)
    }

    // MARK: The end

    @Test func localCloseDropsEverythingAndAsksToDisconnectOnce() throws {
        let channel = Self.channel(peerCredits: 1)
        try channel.send(Array(repeating: 1, count: 50)[...])
        try channel.send([1, 2, 3])
        #expect(channel.nextFrame() != nil)
        #expect(try channel.receive(Self.first(1, [7])) != nil)
        #expect(try channel.receive(Self.first(40, [1, 2, 3])) == nil)
        let discarded = channel.close()
        #expect(discarded.unsentSDUs == 2 && discarded.unsentOctets == 29 + 3)
        #expect(discarded.partialSDUOctets == 3 && discarded.unconsumedSDUs == 1)
        #expect(channel.discarded == discarded)
        #expect(channel.nextAction() == .disconnect(.localClose))
        #expect(channel.nextAction() == nil)
        #expect(channel.close() == CreditBasedChannel.Discarded())
        #expect(channel.nextAction() == nil)
        #expect(channel.queuedSDUs == 0 && channel.queuedOctets == 0 && channel.reassemblyOctets == 0)
    }

    @Test func framesAfterDisconnection() throws {
        let channel = Self.channel()
        #expect(try channel.receive(Self.first(30, [1, 2])) == nil)
        #expect(channel.peerDisconnected().partialSDUOctets == 2)
        #expect(channel.nextAction() == nil)
        #expect(throws: CreditBasedChannelError.closed(.peerDisconnected)) { _ = try channel.receive(Self.first(1, [1])) }
        #expect(throws: CreditBasedChannelError.closed(.peerDisconnected)) { try channel.send([1]) }
        #expect(channel.nextFrame() == nil && !channel.consumed())
        #expect(channel.state == .closed(.peerDisconnected))
        let lost = Self.channel()
        lost.linkLost()
        #expect(lost.closeReason == .linkLost && lost.nextAction() == nil)
    }

    // MARK: Configuration

    @Test func configurationIsChecked() {
        func invalid(_ change: (inout CreditBasedChannelConfiguration) -> Void) -> CreditBasedChannelConfiguration.Invalid? {
            var configuration = CreditBasedChannelConfiguration(
                localCID: 0x40, peerCID: 0x7F, mtu: 23, mps: 23, peerMTU: 65535, peerMPS: 65533, peerInitialCredits: 0)
            change(&configuration)
            do { _ = try CreditBasedChannel(configuration); return nil } catch { return error }
        }
        #expect(invalid { _ in } == nil)
        #expect(invalid { $0.peerCID = 0x80 } == .cidOutOfRange(0x80))
        #expect(invalid { $0.localCID = 0x04 } == .cidOutOfRange(0x04))
        #expect(invalid { $0.mtu = 22 } == .mtuTooSmall(22))
        #expect(invalid { $0.peerMPS = 65534 } == .mpsOutOfRange(65534))
        #expect(invalid { $0.mps = 22 } == .mpsOutOfRange(22))
        #expect(invalid { $0.creditPolicy = CreditReturnPolicy(window: 0) } == .windowEmpty)
        #expect(invalid { $0.creditPolicy = CreditReturnPolicy(window: 4, batch: 5) } == .batchOutOfRange(batch: 5, window: 4))
        #expect(invalid { $0.sendQueueLimit.sdus = 0 } == .sendQueueLimitNotPositive)
        #expect(CreditReturnPolicy(window: 1).batch == 1 && CreditReturnPolicy(window: 65535).batch == 32767)
    }

    // MARK: Reconfiguration

    /// The peer's new sizes apply from the next K-frame: an SDU half sent goes on in
    /// K-frames of the new MPS, and SDUs up to the new MTU are taken.
    @Test func thePeersNewSizesApplyFromTheNextFrame() throws {
        let channel = Self.channel(peerMTU: 100, peerMPS: 80)
        try channel.send((0..<100).map { UInt8($0) }[...])
        #expect(channel.nextFrame()?.encodedLength == 80)
        #expect(channel.peerReconfigured(mtu: 200, mps: 64) == .success)
        #expect(channel.nextFrame()?.encodedLength == 22)
        try channel.send([UInt8](repeating: 1, count: 200)[...])
        #expect(channel.nextFrame()?.encodedLength == 64)
        #expect(throws: CreditBasedChannelError.sduLongerThanPeerMTU(length: 201, peerMTU: 200)) {
            try channel.send([UInt8](repeating: 1, count: 201)[...])
        }
        #expect(channel.configuration.peerMTU == 200 && channel.configuration.peerMPS == 64)
    }

    /// What §4.28 refuses changes nothing: a smaller MTU (an SDU queued by the old one
    /// must still go; fixture `crash-peer-reconfigure-shrinks-mtu` of the `l2cap-coc`
    /// fuzz target, which took MTU 0 and then handed out a K-frame announcing 3 octets),
    /// sizes outside Enhanced Credit Based mode's ranges (an MPS of 1 once made
    /// `nextFrame()` trap), and any request once the channel has ended.
    @Test(arguments: [
        (UInt16(99), UInt16(80), CreditBasedReconfigureResult.mtuReductionNotAllowed),
        (0, 80, .otherUnacceptableParameters), (63, 80, .otherUnacceptableParameters),
        (100, 1, .otherUnacceptableParameters), (100, 63, .otherUnacceptableParameters),
        (100, 65534, .otherUnacceptableParameters),
        (100, 64, .success), (65535, 65533, .success),
    ])
    func thePeersReconfigurationIsAnsweredAsSection4_28Says(mtu: UInt16, mps: UInt16, answer: CreditBasedReconfigureResult) throws {
        let channel = Self.channel(peerMTU: 100, peerMPS: 80)
        try channel.send([1, 2, 3])
        let before = channel.configuration
        #expect(channel.answer(toPeerReconfiguringTo: mtu, mps: mps) == answer)
        #expect(channel.peerReconfigured(mtu: mtu, mps: mps) == answer)
        if answer == .success {
            #expect(channel.configuration.peerMTU == mtu && channel.configuration.peerMPS == mps)
        } else {
            #expect(channel.configuration == before)
        }
        #expect(channel.nextFrame() == KFrame(channel: 0x0041, sduLength: 3, segment: [1, 2, 3], completesSDU: true))
        channel.close()
        #expect(channel.peerReconfigured(mtu: 300, mps: 100) == .invalidDestinationCID)
    }

    /// This host's new sizes judge the next frame received.
    @Test func ourNewSizesJudgeTheNextFrame() throws {
        let channel = Self.channel(mtu: 100, mps: 23)
        Self.expectViolation(.frameLongerThanMPS(length: 24, mps: 23), on: Self.channel(mtu: 100, mps: 23),
                             receiving: Self.first(22, [UInt8](repeating: 0, count: 22)))
        try channel.receiveSizes(mtu: 300, mps: 40)
        #expect(try channel.receive(Self.first(38, [UInt8](repeating: 0, count: 38)))?.count == 38)
        Self.expectViolation(.sduLongerThanMTU(sduLength: 301, mtu: 300), on: channel, receiving: Self.first(301, []))
    }

    /// This host asked for MTU 200 (taking 100 or 200 until the answer); the peer began
    /// a 150-octet SDU, then refused. Back at MTU 100 the SDU could only reach the
    /// application longer than the MTU: the channel ends as its first K-frame would have
    /// under MTU 100, and asks to disconnect. Fixture
    /// `crash-refused-reconfigure-under-reassembly` of the `l2cap-coc` fuzz target.
    @Test func aRefusedReconfigurationUnderAnSDUTheOldMTUCannotHoldEndsTheChannel() throws {
        let channel = Self.channel(mtu: 100, mps: 100)
        try channel.receiveSizes(mtu: 200, mps: 100)
        #expect(try channel.receive(Self.first(150, [UInt8](repeating: 7, count: 98))) == nil)
        let violation = CreditBasedChannelViolation.sduLongerThanMTU(sduLength: 150, mtu: 100)
        #expect(throws: CreditBasedChannelError.violation(violation)) { try channel.receiveSizes(mtu: 100, mps: 100) }
        #expect(channel.state == .closing(.violation(violation)) && channel.discarded.partialSDUOctets == 98)
        #expect(channel.nextAction() == .disconnect(.violation(violation)))
        #expect(throws: CreditBasedChannelError.closed(.violation(violation))) {
            _ = try channel.receive([UInt8](repeating: 7, count: 52)[...])
        }
        // An SDU the old MTU holds goes on: only the sizes change.
        let holding = Self.channel(mtu: 100, mps: 100)
        try holding.receiveSizes(mtu: 200, mps: 100)
        #expect(try holding.receive(Self.first(100, [UInt8](repeating: 7, count: 98))) == nil)
        try holding.receiveSizes(mtu: 100, mps: 100)
        #expect(try holding.receive([7, 7][...])?.count == 100)
        #expect(holding.isOpen)
    }
}
