import SwiftATTCore
import SwiftATTHCI

/// What the loop knows about one LE connection: from its LE (Enhanced) Connection
/// Complete until its Disconnection Complete.
final class ConnectionState {
    let handle: UInt16
    let role: LERole
    let peerAddress: BluetoothAddress

    init(handle: UInt16, role: LERole, peerAddress: BluetoothAddress) {
        self.handle = handle
        self.role = role
        self.peerAddress = peerAddress
    }

    /// The fields of a successful connection-complete event of any kind.
    static func established(by event: HCIEvent) -> (handle: UInt16, role: LERole, peer: BluetoothAddress)? {
        guard case let .leMeta(meta) = event else { return nil }
        switch meta {
        case let .connectionComplete(c) where c.status.isSuccess:
            return (c.connectionHandle, c.role, c.peerAddress)
        case let .enhancedConnectionComplete(c) where c.status.isSuccess:
            return (c.connectionHandle, c.role, c.peerAddress)
        case let .enhancedConnectionCompleteV2(v2) where v2.connection.status.isSuccess:
            return (v2.connection.connectionHandle, v2.connection.role, v2.connection.peerAddress)
        default:
            return nil
        }
    }
}
