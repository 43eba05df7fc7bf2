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
