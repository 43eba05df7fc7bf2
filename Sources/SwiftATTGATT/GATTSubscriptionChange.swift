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

    /// The client whose subscription changed.
    public let connection: GATTServer.ConnectionID
    /// The characteristic subscribed to.
    public let characteristic: GATTCharacteristic
    /// The value's handle.
    public let valueHandle: UInt16
    /// The configuration now in force (empty: unsubscribed).
    public let configuration: GATTClientConfiguration
    /// Why it changed.
    public let cause: Cause
}
