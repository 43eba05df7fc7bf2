import SwiftATTL2CAP

/// Target `l2cap-coc`: one credit-based channel fed what a hostile peer and a careless
/// application can do — K-frame payloads of any shape, credit grants of any size, SDUs
/// to send, reads, and the channel's end — interleaved with well-formed K-frames from a
/// second channel playing the peer, so reassembly runs deep as well as failing early.
///
/// Both sides also reconfigure the channel (Enhanced Credit Based mode, Part A
/// §4.27–4.28): the peer announces sizes of any value, which the channel answers as §4.28
/// says; this host grows its own as `L2CAPChannel.reconfigure` does (the old and new
/// sizes taken until the answer), and the peer takes them, or not, and accepts or refuses
/// them — in any order, as a hostile peer may.
///
/// Input: four octets choosing the channel's MTU, MPS, window and batch, and the
/// credits the peer granted; then per step a control octet (low three bits: what
/// happens; for step 7, the next three: which end or reconfiguration step) and, for some
/// steps, a record, a 16-bit value or an octet choosing new sizes.
///
/// The channel never traps, and keeps its promises after every step: credits held from
/// the peer within 0–65535; while open, the peer's credits, the credits held and those
/// ready to return add up to the window; every SDU delivered, and the one in reassembly,
/// is within the MTU in force; every K-frame handed out is within the peer's MPS in force
/// and its first states an SDU within the peer's MTU; the peer's reconfiguration gets
/// §4.28's answer (a smaller MTU refused), applied on success only; a violation ends the
/// channel and asks to disconnect exactly once; an ended channel holds nothing and
/// delivers nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCreditBasedChannel(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let sizes: [UInt16] = [23, 24, 40, 100, 247, 512, 2048, 65533]
    let windows: [UInt16] = [1, 2, 3, 8, 64, 1000, 32768, 65535]
    let choice = input.byte() ?? 0
    let mtu = sizes[Int(choice & 7)] &+ (choice & 0x80 != 0 ? 2 : 0)  // 65535 too
    let mps = sizes[Int(choice >> 3 & 7)]
    let windowChoice = input.byte() ?? 0
    let window = windows[Int(windowChoice & 7)]
    let batch = max(1, min(window, UInt16(windowChoice >> 3) &* (window / 31 + 1)))
    let peerCredits = input.uint16() ?? 1
    let peerChoice = input.byte() ?? 0
    let peerMTU = sizes[Int(peerChoice & 7)]
    let peerMPS = sizes[Int(peerChoice >> 3 & 7)]

    let limit = CreditBasedChannelConfiguration.SendQueueLimit(sdus: 4, octets: 8192)
    guard var channel = try? CreditBasedChannel(CreditBasedChannelConfiguration(
        localCID: 0x0040, peerCID: 0x0041, mtu: mtu, mps: mps, peerMTU: peerMTU, peerMPS: peerMPS,
        peerInitialCredits: peerCredits, creditPolicy: CreditReturnPolicy(window: window, batch: batch),
        sendQueueLimit: limit)) else {
        require(false, "a valid configuration was refused")
        return 0
    }
    // The peer's end: its K-frames are well formed, whatever the input makes it send.
    guard var peer = try? CreditBasedChannel(CreditBasedChannelConfiguration(
        localCID: 0x0041, peerCID: 0x0040, mtu: peerMTU, mps: peerMPS, peerMTU: mtu, peerMPS: mps,
        peerInitialCredits: window, creditPolicy: CreditReturnPolicy(window: 8), sendQueueLimit: limit)) else {
        require(false, "the peer's configuration was refused")
        return 0
    }
    var disconnectsAsked = 0
    // This host's receive sizes as its application knows them, and a reconfiguration of
    // them waiting for the peer's answer.
    var reported = (mtu: mtu, mps: mps)
    var asked: (mtu: UInt16, mps: UInt16, peerApplied: Bool)?

    func deliver(_ payload: ArraySlice<UInt8>) {
        let wasOpen = channel.isOpen
        let mtu = channel.configuration.mtu
        do {
            if let sdu = try channel.receive(payload) {
                require(sdu.count <= Int(mtu), "an SDU of \(sdu.count) octets over the MTU \(mtu)")
                require(wasOpen, "an ended channel delivered an SDU")
            }
        } catch {
            switch error {
            case .violation:
                require(wasOpen && channel.state == .closing(.violation(violation(error))), "a violation did not end the channel")
            case .closed:
                require(!wasOpen, "an open channel said it was closed")
            case .sduLongerThanPeerMTU, .sendQueueFull:
                require(false, "receive threw a send error: \(error)")
            }
            blackHole(error.description)
        }
    }

    // This host's sizes change; going back below an SDU in reassembly's announced length
    // (a refusal after the peer sent by the new sizes) is the one thing that ends it.
    func receiveSizes(mtu: UInt16, mps: UInt16) {
        let wasOpen = channel.isOpen
        do {
            try channel.receiveSizes(mtu: mtu, mps: mps)
        } catch {
            let ended = violation(error)
            guard case let .sduLongerThanMTU(sduLength, limit) = ended else {
                require(false, "new receive sizes ended the channel for \(ended)")
                return
            }
            require(wasOpen && channel.state == .closing(.violation(ended)), "new receive sizes did not end the channel")
            require(limit == Int(mtu) && sduLength > limit, "ended for an SDU of \(sduLength) under the MTU \(mtu)")
        }
        require(channel.configuration.mtu == mtu && channel.configuration.mps == mps, "the new receive sizes were not taken")
    }

    while let control = input.byte() {
        switch control & 7 {
        case 0:
            guard let payload = input.record() else { break }
            deliver(offsetSlice(payload))
        case 1:
            guard let credits = input.uint16() else { break }
            do { try channel.peerGaveCredits(credits) } catch { blackHole(error.description) }
        case 2:
            _ = channel.consumed()
        case 3:
            guard let sdu = input.record() else { break }
            let room = channel.hasRoom(forSDUOf: sdu.count)
            do {
                try channel.send(sdu[...])
                require(room && sdu.count <= Int(channel.configuration.peerMTU), "send took an SDU it had no room for")
            } catch {
                blackHole(error.description)
            }
        case 4:
            // Hand out up to the control's high bits' worth of K-frames.
            for _ in 0..<Int(control >> 3) {
                guard let frame = channel.nextFrame() else { break }
                let peerMPS = channel.configuration.peerMPS, peerMTU = channel.configuration.peerMTU
                require(frame.encodedLength <= Int(peerMPS), "a K-frame of \(frame.encodedLength) octets over the peer's MPS \(peerMPS)")
                require(frame.channel == 0x0041, "a K-frame to the wrong CID")
                if let length = frame.sduLength { require(length <= peerMTU, "an SDU of \(length) over the peer's MTU \(peerMTU)") }
                blackHole(frame.basicFrame())
            }
        case 5:
            while let action = channel.nextAction() {
                switch action {
                case let .grantCredits(credits):
                    require(credits > 0 && channel.peerCredits <= Int(window), "granted past the window")
                    try? peer.peerGaveCredits(credits)
                case .disconnect:
                    disconnectsAsked += 1
                }
            }
        case 6:
            // The peer sends a well-formed SDU.
            guard let sdu = input.record() else { break }
            try? peer.send(sdu[...])
            while let frame = peer.nextFrame() { deliver(frame.encoded()[...]) }
        default:
            switch control >> 3 & 7 {
            case 0: channel.close()
            case 1: channel.peerDisconnected()
            case 2: channel.linkLost()
            case 3: try? peer.peerGaveCredits(UInt16(control >> 6))
            case 4:
                // The peer announces new sizes it receives (its Credit Based Reconfigure Request).
                // §4.28's answer, worked out here from the spec's numbers: refused on an ended
                // channel, for sizes outside 64–65535 and 64–65533, and for a smaller MTU; a
                // refusal changes nothing.
                guard let sizes = input.byte() else { break }
                let before = channel.configuration
                let mtu = resized(before.peerMTU, sizes & 15), mps = resized(before.peerMPS, sizes >> 4)
                let expected: CreditBasedReconfigureResult =
                    !channel.isOpen ? .invalidDestinationCID
                    : mtu < 64 || mps < 64 || mps > 65533 ? .otherUnacceptableParameters
                    : mtu < before.peerMTU ? .mtuReductionNotAllowed : .success
                let answer = channel.peerReconfigured(mtu: mtu, mps: mps)
                require(answer == expected, "the peer's reconfiguration to \(mtu)/\(mps) from \(before.peerMTU)/\(before.peerMPS) answered \(answer), not \(expected)")
                var after = before
                if answer == .success {
                    (after.peerMTU, after.peerMPS) = (mtu, mps)
                    try? peer.receiveSizes(mtu: mtu, mps: mps)  // it receives nothing here
                }
                require(channel.configuration == after, "the peer's reconfiguration left \(channel.configuration)")
            case 5:
                // This host asks to receive new sizes: as `L2CAPChannel.reconfigure`, the MTU
                // only grows and the MPS stays in Enhanced mode's range; until the answer the
                // larger of the old and new sizes are taken.
                guard let sizes = input.byte(), asked == nil, channel.isOpen else { break }
                let mtu = resized(reported.mtu, sizes & 15), mps = resized(reported.mps, sizes >> 4)
                guard mtu >= reported.mtu, CreditBasedFlowControlMode.enhancedCreditBased.mpsRange.contains(mps) else { break }
                receiveSizes(mtu: max(reported.mtu, mtu), mps: max(reported.mps, mps))
                asked = (mtu, mps, false)
            case 6:
                // The peer takes this host's new sizes: it sends by them from now on, answered or not.
                guard let request = asked, !request.peerApplied else { break }
                peer.peerReconfigured(mtu: request.mtu, mps: request.mps)
                asked?.peerApplied = true
            default:
                // The peer's answer (bit 6: a refusal): the new sizes, or back to the old.
                guard let request = asked else { break }
                asked = nil
                if control & 0x40 == 0 {
                    reported = (request.mtu, request.mps)
                }
                receiveSizes(mtu: reported.mtu, mps: reported.mps)
            }
        }
        check(channel, window: window, limit: limit)
    }
    while let action = channel.nextAction() {
        if case .disconnect = action { disconnectsAsked += 1 }
    }
    switch channel.state {
    case .open: require(disconnectsAsked == 0, "an open channel asked to disconnect")
    case .closed(.localClose), .closed(.violation): require(disconnectsAsked == 1, "asked to disconnect \(disconnectsAsked) times")
    case .closed: require(disconnectsAsked == 0, "disconnection asked for a channel the peer ended")
    case .closing: require(false, "still closing after every action was taken")
    }
    return 0
}

/// A size a reconfiguration asks for, chosen by `nibble` around the `current` one: the
/// same, one less or more, half, double, and the edges of the ranges §4.22 and §4.27 allow.
private func resized(_ current: UInt16, _ nibble: UInt8) -> UInt16 {
    switch nibble & 15 {
    case 0: return current
    case 1: return current &- 1
    case 2: return current == .max ? current : current + 1
    case 3: return current / 2
    case 4: return current > .max / 2 ? .max : current * 2
    case 5: return 23
    case 6: return 22
    case 7: return 64
    case 8: return 63
    case 9: return 65533
    case 10: return 65534
    case 11: return 65535
    case 12: return 0
    case 13: return 1
    case 14: return 2
    default: return current &+ 100
    }
}

private func violation(_ error: CreditBasedChannelError) -> CreditBasedChannelViolation {
    guard case let .violation(violation) = error else { fatalError("not a violation") }
    return violation
}

private func check(_ channel: CreditBasedChannel, window: UInt16, limit: CreditBasedChannelConfiguration.SendQueueLimit) {
    require((0...65535).contains(channel.sendCredits), "\(channel.sendCredits) credits held from the peer")
    require(channel.peerCredits >= 0 && channel.heldCredits >= 0 && channel.creditsToReturn >= 0, "negative credits")
    require(channel.reassemblyOctets <= Int(channel.configuration.mtu), "reassembly past the MTU")
    require(channel.queuedSDUs <= limit.sdus, "\(channel.queuedSDUs) SDUs queued past the limit")
    if channel.isOpen {
        require(channel.peerCredits + channel.heldCredits + channel.creditsToReturn == Int(window),
                "credits \(channel.peerCredits) + \(channel.heldCredits) + \(channel.creditsToReturn) ≠ window \(window)")
    } else {
        require(channel.queuedSDUs == 0 && channel.queuedOctets == 0 && channel.reassemblyOctets == 0
                    && channel.unconsumedSDUs == 0 && channel.heldCredits == 0, "an ended channel holds data")
    }
}
