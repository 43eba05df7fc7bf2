import SwiftATTCore

/// Why a `PairingConfiguration` could never pair as asked. Found before any link is
/// touched (`PairingConfiguration.validate()`), so a typo in a key size or a passkey
/// is a clear error at start-up instead of every pairing failing later with a reason
/// the peer chose.
public enum PairingConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Key sizes are 7–16 octets (Core 5.4 Vol 3 Part H §2.3.4).
    case keySizeOutOfRange(UInt8)
    /// The shortest key accepted is longer than the longest offered.
    case minimumAboveMaximum(minimum: UInt8, maximum: UInt8)
    /// The identity handed out must be a public or static random address (§3.6.5).
    case identityNotAnIdentityAddress(BluetoothAddress)
    /// An all-zero IRK would let anyone make addresses that resolve to this device.
    case zeroIdentityResolvingKey
    /// A passkey is six decimal digits, 000000–999999 (§2.3.5.3).
    case passkeyOutOfRange(UInt32)

    public var description: String {
        switch self {
        case let .keySizeOutOfRange(size):
            return "key size \(size) is outside 7–16 octets"
        case let .minimumAboveMaximum(minimum, maximum):
            return "the minimum key size \(minimum) is above the maximum \(maximum)"
        case let .identityNotAnIdentityAddress(address):
            return "\(address) cannot be an identity address (it must be public, or static random with random bits neither all 0 nor all 1)"
        case .zeroIdentityResolvingKey:
            return "the identity resolving key is all zeros, which anyone could resolve"
        case let .passkeyOutOfRange(passkey):
            return "passkey \(passkey) has more than six digits"
        }
    }
}

extension PairingConfiguration {
    /// Checks the values a pairing would send or rely on; throws the first that could
    /// never work. A configuration that passes may still meet a peer it cannot pair
    /// with, but never fails on its own account.
    public func validate() throws(PairingConfigurationError) {
        for size in [minimumKeySize, maximumKeySize] where !(7...16).contains(size) {
            throw .keySizeOutOfRange(size)
        }
        guard minimumKeySize <= maximumKeySize else {
            throw .minimumAboveMaximum(minimum: minimumKeySize, maximum: maximumKeySize)
        }
        if let identity {
            guard identity.address.isIdentityAddress else { throw .identityNotAnIdentityAddress(identity.address) }
            guard identity.identityResolvingKey != 0 else { throw .zeroIdentityResolvingKey }
        }
        if let fixedPasskey, fixedPasskey > 999_999 { throw .passkeyOutOfRange(fixedPasskey) }
    }
}
