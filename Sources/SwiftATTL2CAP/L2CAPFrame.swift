/// A complete L2CAP basic-mode frame (B-frame) on one connection: its channel and
/// payload. Core 5.4 Vol 3 Part A §3.1.
public struct L2CAPFrame: Sendable, Hashable {
    /// The ACL connection handle it arrived on or leaves by.
    public var connectionHandle: UInt16
    /// The destination channel identifier.
    public var channel: UInt16
    /// The information payload: a view into the ACL data when the frame came in one piece.
    public var payload: ArraySlice<UInt8>

    /// A frame for `channel` on connection `connectionHandle`.
    public init(connectionHandle: UInt16, channel: UInt16, payload: ArraySlice<UInt8>) {
        self.connectionHandle = connectionHandle
        self.channel = channel
        self.payload = payload
    }
}
