import SwiftATTCore
import SwiftATTHCI

/// What the loop knows about one LE connection: from its LE (Enhanced) Connection
/// Complete until its Disconnection Complete.
final class ConnectionState {
    let handle: UInt16
    let role: LERole
    /// The peer as the event names it: its identity address when the controller
    /// resolved it with its resolving list, the address it connected from otherwise.
    let peerAddress: BluetoothAddress
    /// The resolvable private addresses the link was made from, when the controller
    /// resolved or generated them (LE Enhanced Connection Complete; nil for zeros).
    let peerResolvablePrivateAddress: BluetoothAddress?
    let localResolvablePrivateAddress: BluetoothAddress?

    init(handle: UInt16, role: LERole, peerAddress: BluetoothAddress,
         peerResolvablePrivateAddress: BluetoothAddress? = nil, localResolvablePrivateAddress: BluetoothAddress? = nil) {
        self.handle = handle
        self.role = role
        self.peerAddress = peerAddress
        self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
        self.localResolvablePrivateAddress = localResolvablePrivateAddress
    }

    /// The peer's address on the air, which pairing computes with (Core 5.4 Vol 3 Part
    /// H §2.2.3, §2.2.8: the addresses the link was made from).
    var peerAddressOnAir: BluetoothAddress { peerResolvablePrivateAddress ?? peerAddress }

    /// The identity address the controller resolved the peer to, if it did.
    var resolvedIdentity: BluetoothAddress? { peerResolvablePrivateAddress == nil ? nil : peerAddress }

    /// A successful connection-complete event of any kind, as a connection.
    static func established(by event: HCIEvent) -> ConnectionState? {
        guard case let .leMeta(meta) = event else { return nil }
        switch meta {
        case let .connectionComplete(c) where c.status.isSuccess:
            return ConnectionState(handle: c.connectionHandle, role: c.role, peerAddress: c.peerAddress)
        case let .enhancedConnectionComplete(c) where c.status.isSuccess:
            return enhanced(c)
        case let .enhancedConnectionCompleteV2(v2) where v2.connection.status.isSuccess:
            return enhanced(v2.connection)
        default:
            return nil
        }
    }

    private static func enhanced(_ c: LEEnhancedConnectionComplete) -> ConnectionState {
        // An identity type says the controller resolved the peer (§7.7.65.10); only then
        // is the peer's private address field meaningful.
        let resolved = c.peerAddressType.isResolvedIdentity
        return ConnectionState(
            handle: c.connectionHandle, role: c.role, peerAddress: c.peerAddress,
            peerResolvablePrivateAddress: resolved ? nonZero(c.peerResolvablePrivateAddress) : nil,
            localResolvablePrivateAddress: nonZero(c.localResolvablePrivateAddress))
    }

    private static func nonZero(_ address: BluetoothAddress) -> BluetoothAddress? {
        address.value == 0 ? nil : address
    }

    /// Whether `event` completes an attempt to connect to `address`: the peer it names,
    /// or the private address the controller resolved to it. Failures complete any attempt.
    static func completes(_ event: LEEnhancedConnectionComplete, connectingTo address: BluetoothAddress) -> Bool {
        !event.status.isSuccess || event.peerAddress == address
            || (event.peerResolvablePrivateAddress.value != 0 && event.peerResolvablePrivateAddress == address)
    }
}
