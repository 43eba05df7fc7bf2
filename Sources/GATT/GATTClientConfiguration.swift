/// The bits of a Client Characteristic Configuration descriptor: what one client has
/// subscribed to. Core 5.4 Vol 3 Part G §3.3.3.3, Table 3.14.
public struct GATTClientConfiguration: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let notification = GATTClientConfiguration(rawValue: 0x0001)
    public static let indication = GATTClientConfiguration(rawValue: 0x0002)

    /// The two octets of the descriptor value.
    public var encoded: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}

/// A client's subscription to a characteristic changed.
public struct GATTSubscriptionChange: Sendable {
    /// Why it changed.
    public enum Cause: Sendable, Hashable {
        /// The client wrote the Client Characteristic Configuration descriptor.
        case written
        /// A bonded client reconnected and its stored configuration applies again.
        case restored
        /// The client disconnected (a bonded client's configuration is kept for later).
        case disconnected
        /// The database was replaced and the characteristic is gone or moved.
        case databaseChanged
    }

    public let connection: GATTServer.ConnectionID
    public let characteristic: GATTCharacteristic
    public let valueHandle: UInt16
    /// The configuration now in force (empty: unsubscribed).
    public let configuration: GATTClientConfiguration
    public let cause: Cause
}
