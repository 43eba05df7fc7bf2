import SwiftATTL2CAP

/// Target `l2cap-coc`: one credit-based channel fed what a hostile peer and a careless
/// application can do — K-frame payloads of any shape, credit grants of any size, SDUs
/// to send, reads, and the channel's end — interleaved with well-formed K-frames from a
/// second channel playing the peer, so reassembly runs deep as well as failing early.
///
/// Input: four octets choosing the channel's MTU, MPS, window and batch, and the
/// credits the peer granted; then per step a control octet (low three bits: what
/// happens) and, for some steps, a record or a 16-bit value.
///
/// The channel never traps, and keeps its promises after every step: credits held from
/// the peer within 0–65535; while open, the peer's credits, the credits held and those
/// ready to return add up to the window; every SDU delivered is within the MTU; every
/// K-frame handed out is within the peer's MPS and its first states an SDU within the
/// peer's MTU; a violation ends the channel and asks to disconnect exactly once; an
/// ended channel holds nothing and delivers nothing.
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

    func deliver(_ payload: ArraySlice<UInt8>) {
        let wasOpen = channel.isOpen
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
                require(room && sdu.count <= Int(peerMTU), "send took an SDU it had no room for")
            } catch {
                blackHole(error.description)
            }
        case 4:
            // Hand out up to the control's high bits' worth of K-frames.
            for _ in 0..<Int(control >> 3) {
                guard let frame = channel.nextFrame() else { break }
                require(frame.encodedLength <= Int(peerMPS), "a K-frame of \(frame.encodedLength) octets over the peer's MPS")
                require(frame.channel == 0x0041, "a K-frame to the wrong CID")
                if let length = frame.sduLength { require(length <= peerMTU, "an SDU over the peer's MTU") }
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
            switch control >> 3 & 3 {
            case 0: channel.close()
            case 1: channel.peerDisconnected()
            case 2: channel.linkLost()
            default: try? peer.peerGaveCredits(UInt16(control >> 5))
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
