/// Splits a UART (H4) byte stream into HCI packets. Core 5.4 Vol 4 Part A §2.
///
/// TCP and serial transports deliver bytes in arbitrary chunks; each packet is an
/// indicator octet, a type-specific header holding the length, and that many octets.
/// There is no way to resynchronise after a bad indicator, so one is a fatal typed
/// error for the stream. Memory is bounded by the largest packet a header can announce
/// (ACL: 4 + 65535 octets). Packets are views into the deframer's buffer: a packet
/// handled before the next `append` costs no copy (one kept longer makes that `append`
/// copy the buffer, which is safe).
public struct H4Deframer: Sendable {
    @usableFromInline var buffer: [UInt8] = []
    @usableFromInline var start = 0

    /// A deframer that has seen nothing.
    public init() {}

    /// Bytes received but not yet part of a complete packet.
    public var pendingByteCount: Int { buffer.count - start }

    /// Appends received bytes. Inlinable: transports call it from another module, where
    /// a generic member runs unspecialized.
    @inlinable
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, `nil` if more bytes are needed, or a typed error for a
    /// stream that cannot be framed.
    public mutating func next() throws(HCIDecodingError) -> HCIPacket? {
        guard let (type, total) = try Self.frame(buffer, at: start) else { return nil }
        let bytes = buffer[(start + 1)..<(start + total)]
        start += total
        return HCIPacket(type: type, bytes: bytes)
    }

    /// Hands every complete packet buffered to `body`, in order, as `next()` in a loop
    /// would; a partial one stays for the next `append`, and a stream that cannot be
    /// framed throws after the packets before it. No optional packet on the way: an
    /// optional this size is destroyed through its type's value witnesses (its metadata
    /// looked up, a generic enum destroy), some 90 instructions a packet. `body` must not
    /// touch this deframer.
    public mutating func forEachPacket(_ body: (HCIPacket) -> Void) throws(HCIDecodingError) {
        try Self.deliver(buffer, from: &start, body)
    }

    /// `append(chunk)` then `forEachPacket(body)`, for the bytes one read returned: while
    /// nothing is buffered (the common case: a read ends where a packet ends), packets
    /// are handed out as views of `chunk` itself, and only a partial packet at its end
    /// is copied in. Copying every chunk into the buffer first cost some 250
    /// instructions a packet. A packet a `body` keeps then holds `chunk`'s storage (a
    /// transport's read buffer, which its next read copies if so). A stream that cannot
    /// be framed throws after the packets before it, the rest of `chunk` kept as
    /// `append` would have kept it.
    public mutating func feed(_ chunk: ArraySlice<UInt8>, _ body: (HCIPacket) -> Void) throws(HCIDecodingError) {
        guard start == buffer.count else {
            append(chunk)
            return try forEachPacket(body)
        }
        var offset = chunk.startIndex
        do {
            try Self.deliver(chunk, from: &offset, body)
        } catch {
            append(chunk[offset...])
            throw error
        }
        if offset < chunk.endIndex { append(chunk[offset...]) }
    }

    /// Hands `body` each complete packet of `bytes` from `offset` on, as a view of them,
    /// and moves `offset` past it: what `forEachPacket` does with the buffer and `feed`
    /// with a chunk.
    private static func deliver<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, from offset: inout Int, _ body: (HCIPacket) -> Void
    ) throws(HCIDecodingError) where Bytes.Index == Int, Bytes.SubSequence == ArraySlice<UInt8> {
        while let (type, total) = try frame(bytes, at: offset) {
            let packet = HCIPacket(type: type, bytes: bytes[(offset + 1)..<(offset + total)])
            offset += total
            body(packet)
        }
    }

    /// The type and whole length (indicator included) of the packet at `start` in
    /// `bytes`, `nil` while it is incomplete.
    private static func frame<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at start: Int
    ) throws(HCIDecodingError) -> (HCIPacketType, Int)? where Bytes.Index == Int {
        let available = bytes.endIndex - start
        guard available > 0 else { return nil }
        let indicator = bytes[start]
        guard let type = HCIPacketType(rawValue: indicator) else { throw .unknownPacketType(indicator) }
        let headerLength: Int
        switch type {
        case .command: headerLength = 3
        case .aclData, .isoData: headerLength = 4
        case .synchronousData: headerLength = 3
        case .event: headerLength = 2
        }
        guard available >= 1 + headerLength else { return nil }
        let h = start + 1
        let payloadLength: Int
        switch type {
        case .command, .synchronousData: payloadLength = Int(bytes[h + 2])
        case .event: payloadLength = Int(bytes[h + 1])
        case .aclData: payloadLength = Int(bytes[h + 2]) | Int(bytes[h + 3]) << 8
        case .isoData: payloadLength = (Int(bytes[h + 2]) | Int(bytes[h + 3]) << 8) & 0x3FFF
        }
        let total = 1 + headerLength + payloadLength
        guard available >= total else { return nil }
        return (type, total)
    }
}
