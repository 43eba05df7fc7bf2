/// The bits of a Client Characteristic Configuration descriptor: what one client has
/// subscribed to. Core 5.4 Vol 3 Part G §3.3.3.3, Table 3.14.
public struct GATTClientConfiguration: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Notifications: the server pushes the value unconfirmed.
    public static let notification = GATTClientConfiguration(rawValue: 0x0001)
    /// Indications: the server pushes the value and waits for a confirmation.
    public static let indication = GATTClientConfiguration(rawValue: 0x0002)

    /// The two octets of the descriptor value.
    public var encoded: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}
