/// The send path: SDUs in, K-frames out as the peer's credits allow (Core 5.4 Vol 3
/// Part A §3.4.3, §10.1).
extension CreditBasedChannel {
    /// SDUs queued and not fully handed out as K-frames (one partly sent counts).
    public var queuedSDUs: Int { waiting.count + (current == nil ? 0 : 1) }

    /// Whether `send` takes an SDU of `length` octets now. An async writer waits while
    /// this is false: K-frames leaving with the peer's credits make room.
    public func hasRoom(forSDUOf length: Int) -> Bool {
        let limit = configuration.sendQueueLimit
        return queuedSDUs == 0 || (queuedSDUs < limit.sdus && queuedOctets + length <= limit.octets)
    }

    /// Queues an SDU to send. It leaves in K-frames from `nextFrame()`: the first with
    /// the SDU Length, each within the peer's MPS, one credit each. The SDU's storage is
    /// kept, not copied, until its last K-frame is out. An empty SDU is one K-frame
    /// holding only its SDU Length (§3.4.3 sets no lower bound; note Bumble's receiver
    /// waits for more after an SDU Length of 0).
    public mutating func send(_ sdu: ArraySlice<UInt8>) throws(CreditBasedChannelError) {
        if let reason = closeReason { throw .closed(reason) }
        guard sdu.count <= Int(configuration.peerMTU) else {
            throw .sduLongerThanPeerMTU(length: sdu.count, peerMTU: Int(configuration.peerMTU))
        }
        guard hasRoom(forSDUOf: sdu.count) else { throw .sendQueueFull(queuedSDUs: queuedSDUs, queuedOctets: queuedOctets) }
        if current == nil {
            current = sdu
            currentStarted = false
        } else {
            waiting.append(sdu)
        }
        queuedOctets += sdu.count
    }

    /// The next K-frame to send, spending one credit; nil when nothing is queued, no
    /// credit is left, or the channel has ended. Send them in the order returned.
    public mutating func nextFrame() -> KFrame? {
        guard case .open = state, sendCredits > 0, let remaining = current else { return nil }
        let peerMPS = Int(configuration.peerMPS)
        let frame: KFrame
        if currentStarted {
            let segment = remaining.prefix(peerMPS)
            frame = KFrame(channel: configuration.peerCID, sduLength: nil, segment: segment,
                           completesSDU: segment.count == remaining.count)
        } else {
            let segment = remaining.prefix(peerMPS - KFrame.Field.sduLength.count)
            frame = KFrame(channel: configuration.peerCID, sduLength: UInt16(remaining.count), segment: segment,
                           completesSDU: segment.count == remaining.count)
        }
        sendCredits -= 1
        queuedOctets -= frame.segment.count
        if frame.completesSDU {
            current = waiting.popFirst()
            currentStarted = false
        } else {
            current = remaining.dropFirst(frame.segment.count)
            currentStarted = true
        }
        return frame
    }

    /// The peer granted `credits` more (its LE Flow Control Credit Indication).
    /// Waiting K-frames may go: call `nextFrame()`. Held credits above 65535 are a
    /// credit overflow (§10.1): the channel ends and asks to be disconnected. A grant
    /// after the channel ended is ignored (it may have crossed the disconnection).
    public mutating func peerGaveCredits(_ credits: UInt16) throws(CreditBasedChannelError) {
        guard case .open = state else { return }
        guard sendCredits + Int(credits) <= Int(UInt16.max) else {
            throw violated(.creditOverflow(held: sendCredits, granted: Int(credits)))
        }
        sendCredits += Int(credits)
    }
}
