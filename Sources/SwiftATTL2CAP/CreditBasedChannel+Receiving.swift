/// The receive path: K-frames in, SDUs out, and the credits they hold given back as the
/// application consumes them (Core 5.4 Vol 3 Part A §3.4.3, §10.1).
extension CreditBasedChannel {
    /// SDUs delivered that the application has not yet reported consumed.
    public var unconsumedSDUs: Int { unconsumed.count }

    /// Octets of the SDU in reassembly.
    public var reassemblyOctets: Int { reassembly?.bytes.count ?? 0 }

    /// Feeds the information payload of one K-frame that arrived on `localCID`, and
    /// returns the SDU it completes, if any. Every K-frame spends one of the peer's
    /// credits. An SDU in a single K-frame is a view into `payload` (no copy); a longer
    /// one is gathered into a buffer reserved to its SDU Length.
    ///
    /// Throws `.violation` for each rule §10.1 ends the channel for (no credit, longer
    /// than the MPS, no room for the SDU Length, SDU Length over the MTU, more octets
    /// than announced): the channel has ended and `nextAction()` asks to disconnect it.
    /// Throws `.closed` for a K-frame after the channel ended, which changes nothing.
    ///
    /// Each delivered SDU holds its K-frames' credits until `consumed()` reports it read.
    public mutating func receive(_ payload: ArraySlice<UInt8>) throws(CreditBasedChannelError) -> ArraySlice<UInt8>? {
        if let reason = closeReason { throw .closed(reason) }
        guard peerCredits > 0 else { throw violated(.frameWithoutCredit) }
        peerCredits -= 1
        heldCredits += 1
        let mps = Int(configuration.mps)
        guard payload.count <= mps else { throw violated(.frameLongerThanMPS(length: payload.count, mps: mps)) }

        guard var partial = reassembly.take() else {
            // The first K-frame of an SDU.
            let lengthField = KFrame.Field.sduLength
            guard payload.count >= lengthField.count else { throw violated(.missingSDULength(length: payload.count)) }
            let sduLength = Int(payload.littleEndianUInt16(at: lengthField))
            let mtu = Int(configuration.mtu)
            guard sduLength <= mtu else { throw violated(.sduLongerThanMTU(sduLength: sduLength, mtu: mtu)) }
            let data = payload.bytes(at: lengthField.upperBound...)
            guard data.count <= sduLength else {
                throw violated(.sduLongerThanAnnounced(sduLength: sduLength, received: data.count))
            }
            if data.count == sduLength {
                unconsumed.append(1)
                return data
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(sduLength)
            bytes.append(contentsOf: data)
            reassembly = Reassembly(sduLength: sduLength, bytes: bytes, frames: 1)
            releaseReassemblyIfPeerStalled()
            return nil
        }
        // A continuation.
        let received = partial.bytes.count + payload.count
        guard received <= partial.sduLength else {
            reassembly = partial  // reported as dropped when the channel ends
            throw violated(.sduLongerThanAnnounced(sduLength: partial.sduLength, received: received))
        }
        partial.bytes.append(contentsOf: payload)
        partial.frames += 1
        if received == partial.sduLength {
            unconsumed.append(partial.frames)
            return partial.bytes[...]
        }
        reassembly = partial
        releaseReassemblyIfPeerStalled()
        return nil
    }

    /// The application has read the oldest delivered SDU: its K-frames' credits are
    /// released, to go back to the peer from `nextAction()` (a batch at a time). False
    /// when no SDU was waiting to be consumed, or the channel has ended.
    @discardableResult
    public mutating func consumed() -> Bool {
        guard case .open = state, let frames = unconsumed.popFirst() else { return false }
        heldCredits -= frames
        creditsToReturn += frames
        return true
    }

    /// The peer has spent every credit in the middle of an SDU: if the SDU held on to
    /// its frames' credits, an SDU needing more K-frames than the window could never
    /// finish. Its frames' credits are released now; the SDU, bounded by the MTU, is
    /// the one thing held regardless of the application.
    mutating func releaseReassemblyIfPeerStalled() {
        guard peerCredits == 0, var partial = reassembly.take() else { return }
        heldCredits -= partial.frames
        creditsToReturn += partial.frames
        partial.frames = 0
        reassembly = partial
    }
}
