extension HCICommandPacket {
    /// The most bytes a command takes framed for H4: the packet type, the three-byte
    /// header and at most 255 parameter bytes.
    public static let maximumH4Length = 1 + 3 + 255

    /// Calls `body` with the packet as H4 frames it (type 0x01, then the command,
    /// Core 5.4 Vol 4 Part A §2), in a buffer on the stack.
    ///
    /// What a transport that writes H4 (a byte stream, the kernel's HCI socket) sends for
    /// a command: one buffer, made without touching the heap, where encoding into an
    /// array and copying that into the transport's own cost two array resets and two
    /// copies (a few hundred instructions of a command round trip, measured with
    /// callgrind). Parameters longer than 255 octets, which no command builds, are cut
    /// at 255, as `encode(into:)` writes their length.
    @inlinable
    public func withH4Bytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let count = min(parameters.count, 255)
        return try withUnsafeTemporaryAllocation(byteCount: Self.maximumH4Length, alignment: 1) { buffer throws(E) in
            buffer[0] = HCIPacketType.command.rawValue
            buffer[1] = UInt8(truncatingIfNeeded: opcode.rawValue)
            buffer[2] = UInt8(truncatingIfNeeded: opcode.rawValue >> 8)
            buffer[3] = UInt8(truncatingIfNeeded: count)
            parameters.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[4..<(4 + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<count]))
            }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<(4 + count)]))
        }
    }
}
