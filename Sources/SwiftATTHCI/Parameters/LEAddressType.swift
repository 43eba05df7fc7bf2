import SwiftATTCore

/// The address type octet that precedes a peer's address in LE commands and events
/// (Peer_Address_Type, Address_Type, Direct_Address_Type). Core 5.4 Vol 4 Part E §7.8.12,
/// §7.7.65.10, §7.7.65.13.
///
/// The identity types (0x02, 0x03) say the controller resolved a resolvable private
/// address to an identity in its resolving list. Not every field allows every value:
/// 0xFE only appears as an extended report's direct address type, 0xFF for anonymous
/// advertising; the codec accepts any defined value everywhere.
public enum LEAddressType: UInt8, Sendable, Hashable, CaseIterable {
    /// A public device address.
    case `public` = 0x00
    /// A random device address.
    case random = 0x01
    /// A public identity address the controller resolved a private address to.
    case publicIdentity = 0x02
    /// A static random identity address the controller resolved a private address to.
    case randomIdentity = 0x03
    /// A resolvable private address the controller could not resolve.
    case randomUnresolved = 0xFE
    /// No address was sent (anonymous advertising).
    case anonymous = 0xFF

    /// Whether the 48 bits that follow are a public or a random address.
    public var kind: BluetoothAddress.Kind {
        switch self {
        case .public, .publicIdentity: return .public
        case .random, .randomIdentity, .randomUnresolved, .anonymous: return .random
        }
    }

    /// The plain type for an address's kind.
    public init(_ kind: BluetoothAddress.Kind) {
        self = kind == .public ? .public : .random
    }
}
