/// One HCI packet as it crosses a transport: its type (the H4 indicator) and its bytes
/// after the indicator. The bytes are usually a view into the transport's receive
/// buffer, so handing a packet up the stack copies nothing.
public struct HCIPacket: Sendable, Hashable {
    /// Command, ACL, SCO, event or ISO.
    public var type: HCIPacketType
    /// The packet after its H4 indicator.
    public var bytes: ArraySlice<UInt8>

    /// A packet of `type`.
    public init(type: HCIPacketType, bytes: ArraySlice<UInt8>) {
        self.type = type
        self.bytes = bytes
    }

    /// The packet with its H4 indicator in front, as written to a UART or TCP stream.
    public var h4Bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 1)
        out.append(type.rawValue)
        out.append(contentsOf: bytes)
        return out
    }
}
