import SwiftATTCore

/// What a GATT server keeps for a bonded client from one connection to the next, as a
/// value its owner can store with the bond and hand to the server of a later run
/// (`GATTServer.bondedClient(_:)`, `GATTServer.restoreBondedClient(_:for:)`).
///
/// For a client with a trusted relationship the Client Characteristic Configuration
/// values last across connections (Core 5.4 Vol 3 Part G §3.3.3.3), so does its
/// change-awareness (§2.5.2.1), and a change to the database made while it was away is
/// indicated when it comes back (§7.1). Handles mean something only in one database, so
/// each subscription names its characteristic by value handle and by UUID, and the
/// whole is recorded against the Database Hash (§7.3): a server that starts with another
/// database keeps what still means the same and tells the client the rest changed.
public struct GATTBondedClient: Sendable, Hashable {
    /// One Client Characteristic Configuration value the client wrote.
    public struct Subscription: Sendable, Hashable {
        /// The handle of the characteristic's value.
        public var valueHandle: UInt16
        /// The characteristic's UUID, to tell whether `valueHandle` names the same
        /// characteristic in another database.
        public var characteristic: BluetoothUUID
        /// Never empty: a client that unsubscribed has no entry.
        public var configuration: GATTClientConfiguration

        /// A subscription of `configuration` to the value at `valueHandle`.
        public init(valueHandle: UInt16, characteristic: BluetoothUUID, configuration: GATTClientConfiguration) {
            self.valueHandle = valueHandle
            self.characteristic = characteristic
            self.configuration = configuration
        }
    }

    /// In value-handle order, at most one per handle.
    public var subscriptions: [Subscription]
    /// The Client Supported Features value the client wrote (Part G §7.2); `[0]` until it
    /// writes one.
    public var clientSupportedFeatures: [UInt8]
    /// Whether the client knows the database as it is (Part G §2.5.2.1).
    public var changeAware: Bool
    /// The handles a Service Changed indication must still cover when the client next
    /// connects: changed while it was away, or indicated and not confirmed before the
    /// link went down. `nil` when nothing is owed.
    public var serviceChangeOwed: ClosedRange<UInt16>?
    /// The Database Hash (Part G §7.3) of the database the handles are in.
    public var databaseHash: UInt128

    /// What the server keeps for a bonded client; the defaults are a client that has subscribed to
    /// nothing and knows the database.
    public init(subscriptions: [Subscription] = [], clientSupportedFeatures: [UInt8] = [0], changeAware: Bool = true,
                serviceChangeOwed: ClosedRange<UInt16>? = nil, databaseHash: UInt128) {
        self.subscriptions = subscriptions
        self.clientSupportedFeatures = clientSupportedFeatures
        self.changeAware = changeAware
        self.serviceChangeOwed = serviceChangeOwed
        self.databaseHash = databaseHash
    }
}
