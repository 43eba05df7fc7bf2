import SwiftATTHCI

/// Reassembles L2CAP frames from ACL fragments, per connection handle.
///
/// Core 5.4 Vol 3 Part A §7.2: the first fragment of a frame carries its 4-byte basic
/// header (length, channel); continuations carry only data. A frame that arrives whole
/// is returned as a view into the ACL packet, with no copy. Partial frames are held per
/// handle, never beyond `maximumPayloadLength`, and anything malformed is dropped with a
/// reason the caller can log: a bad fragment never traps, and never grows memory.
public struct L2CAPRecombiner: Sendable {
    /// Why a fragment (and the partial frame it belonged to) was thrown away.
    public enum DropReason: Error, Hashable, Sendable, CustomStringConvertible {
        /// A continuation fragment with no frame in progress on that handle.
        case continuationWithoutStart(handle: UInt16)
        /// A first fragment while another frame was still incomplete (the old one is lost).
        case startBeforePreviousCompleted(handle: UInt16, missing: Int)
        /// A frame announcing more payload than this host accepts.
        case frameTooLong(handle: UInt16, length: Int, limit: Int)
        /// More bytes than the header announced.
        case longerThanAnnounced(handle: UInt16, announced: Int, received: Int)

        public var description: String {
            switch self {
            case let .continuationWithoutStart(h):
                return "handle 0x\(String(h, radix: 16)): continuation fragment with no frame in progress, dropped"
            case let .startBeforePreviousCompleted(h, missing):
                return "handle 0x\(String(h, radix: 16)): new frame started with \(missing) bytes of the previous one missing; previous dropped"
            case let .frameTooLong(h, length, limit):
                return "handle 0x\(String(h, radix: 16)): frame announces \(length) payload bytes, limit is \(limit); dropped"
            case let .longerThanAnnounced(h, announced, received):
                return "handle 0x\(String(h, radix: 16)): frame announced \(announced) payload bytes but \(received) arrived; dropped"
            }
        }
    }

    /// A frame in progress. Until its 4-byte header has arrived (a fragment may end
    /// inside it), `bytes` holds the header bytes so far and `expected` is nil.
    struct Partial: Sendable {
        var channel: UInt16 = 0
        var expected: Int?
        var bytes: [UInt8]
    }

    /// The largest payload accepted; a larger announced length is dropped at once.
    public let maximumPayloadLength: Int
    var partials: [UInt16: Partial] = [:]

    /// Payloads up to `maximumPayloadLength` bytes (the default fits an ATT_MTU of 517
    /// with room for LE credit-based channels' SDUs of a typical size).
    public init(maximumPayloadLength: Int = 2048) {
        self.maximumPayloadLength = maximumPayloadLength
    }

    /// How many handles have a frame in progress.
    public var pendingCount: Int { partials.count }

    /// Octets of partial frames held, all handles together. Each partial frame's storage
    /// is its announced length, never above `maximumPayloadLength`.
    public var bufferedByteCount: Int { partials.values.reduce(0) { $0 + $1.bytes.count } }

    /// Forgets a connection's partial frame (on disconnection).
    public mutating func reset(handle: UInt16) {
        partials[handle] = nil
    }

    /// Where a frame that one ACL packet carries whole sits in the packet's bytes.
    public struct WholeFrame: Sendable, Hashable {
        /// The ACL connection handle.
        public var handle: UInt16
        /// The destination channel identifier.
        public var channel: UInt16
        /// The frame's payload, as indices into the packet's bytes.
        public var payload: Range<Int>

        /// Where a whole frame sits.
        public init(handle: UInt16, channel: UInt16, payload: Range<Int>) {
            self.handle = handle
            self.channel = channel
            self.payload = payload
        }
    }

    /// The frame an encoded ACL data packet (4-octet header, no H4 indicator) carries
    /// whole, when no frame is in progress on any handle: exactly the frame `push`
    /// would return for it, with no drop. Nil for anything else (a fragment, a short or
    /// malformed packet, a frame too long, or any frame in progress), which the caller
    /// then parses and `push`es.
    ///
    /// The host's receive path for a stream of small frames: it builds no
    /// `ACLDataPacket`, `Outcome` or slice, each of which costs a retain and a release.
    public func wholeFrame(in packet: ArraySlice<UInt8>) -> WholeFrame? {
        guard partials.isEmpty, packet.count >= 8, Int(packet.littleEndianUInt16(at: 2)) == packet.count - 4 else { return nil }
        let header = packet.littleEndianUInt16(at: 0)
        // Packet_Boundary_Flag 0b01 is a continuation; the other three start a frame.
        guard (header >> 12) & 0b11 != ACLDataPacket.PacketBoundary.continuing.rawValue else { return nil }
        let length = Int(packet.littleEndianUInt16(at: 4))
        guard length == packet.count - 8, length <= maximumPayloadLength else { return nil }
        return WholeFrame(handle: header & 0x0FFF, channel: packet.littleEndianUInt16(at: 6),
                          payload: (packet.startIndex + 8)..<packet.endIndex)
    }

    /// What one ACL packet produced: a completed frame, a dropped one, both (a new
    /// frame that starts while an older one is incomplete), or neither (more to come).
    public struct Outcome: Sendable, Hashable {
        /// The frame the packet completed, if it completed one.
        public var frame: L2CAPFrame?
        /// Why a frame was dropped, if one was.
        public var dropped: DropReason?
    }

    /// Feeds one ACL packet. After a drop the recombiner is ready for the next frame on
    /// that handle; a drop never affects other handles.
    public mutating func push(_ packet: ACLDataPacket) -> Outcome {
        let handle = packet.handle
        let data = packet.data
        guard packet.packetBoundary.isStart else {
            return Outcome(continuation(data, handle: handle), lost: nil)
        }
        var lost: DropReason? = nil
        // Usually no frame is in progress anywhere: then no lookup at all.
        if !partials.isEmpty, let old = partials.removeValue(forKey: handle) {
            lost = .startBeforePreviousCompleted(handle: handle, missing: (old.expected ?? 4) - old.bytes.count)
        }
        return Outcome(start(data, handle: handle), lost: lost)
    }

    private mutating func start(_ data: ArraySlice<UInt8>, handle: UInt16) -> Result<L2CAPFrame?, DropReason> {
        guard data.count >= 4 else {
            partials[handle] = Partial(bytes: Array(data))
            return .success(nil)
        }
        let length = Int(data.littleEndianUInt16(at: 0))
        let channel = data.littleEndianUInt16(at: 2)
        guard length <= maximumPayloadLength else {
            return .failure(.frameTooLong(handle: handle, length: length, limit: maximumPayloadLength))
        }
        let present = data.count - 4
        if present == length {
            return .success(L2CAPFrame(connectionHandle: handle, channel: channel, payload: data.bytes(from: 4)))
        }
        guard present < length else {
            return .failure(.longerThanAnnounced(handle: handle, announced: length, received: present))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        bytes.append(contentsOf: data.bytes(from: 4))
        partials[handle] = Partial(channel: channel, expected: length, bytes: bytes)
        return .success(nil)
    }

    private mutating func continuation(_ data: ArraySlice<UInt8>, handle: UInt16) -> Result<L2CAPFrame?, DropReason> {
        guard var partial = partials.removeValue(forKey: handle) else {
            return .failure(.continuationWithoutStart(handle: handle))
        }
        guard let expected = partial.expected else {
            // Still collecting the header: restart as if it had come in one piece.
            return start((partial.bytes + data)[...], handle: handle)
        }
        let total = partial.bytes.count + data.count
        guard total <= expected else {
            return .failure(.longerThanAnnounced(handle: handle, announced: expected, received: total))
        }
        partial.bytes.append(contentsOf: data)
        if total == expected {
            return .success(L2CAPFrame(connectionHandle: handle, channel: partial.channel, payload: partial.bytes[...]))
        }
        partials[handle] = partial
        return .success(nil)
    }
}

extension L2CAPRecombiner.Outcome {
    /// A step's result, reporting an earlier loss (`lost`) ahead of the step's own drop.
    init(_ result: Result<L2CAPFrame?, L2CAPRecombiner.DropReason>, lost: L2CAPRecombiner.DropReason?) {
        switch result {
        case let .success(frame): self.init(frame: frame, dropped: lost)
        case let .failure(reason): self.init(frame: nil, dropped: lost ?? reason)
        }
    }
}
