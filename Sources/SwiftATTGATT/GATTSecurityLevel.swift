/// How well a connection is protected, as the Security Manager left it.
///
/// The server compares it with an attribute's `AttributePermissions.Access` on every
/// access. Core 5.4 Vol 3 Part C §10.2 (LE security mode 1: no security, unauthenticated
/// pairing with encryption, authenticated pairing with encryption).
public enum GATTSecurityLevel: Sendable, Hashable {
    /// Not encrypted.
    case none
    /// Encrypted with a key from unauthenticated pairing (Just Works), `keySize` octets (7–16).
    case encrypted(keySize: Int)
    /// Encrypted with a key from authenticated (MITM-protected) pairing, `keySize` octets.
    case authenticated(keySize: Int)
    /// Encrypted with a key from authenticated LE Secure Connections pairing: security
    /// mode 1 level 4 when `keySize` is 16 (Part C §10.2.1).
    case secureConnections(keySize: Int)

    /// The link is encrypted, whatever the key's origin.
    public var isEncrypted: Bool {
        if case .none = self { return false }
        return true
    }

    /// The key came from authenticated (MITM-protected) pairing.
    public var isAuthenticated: Bool {
        switch self {
        case .authenticated, .secureConnections: return true
        case .none, .encrypted: return false
        }
    }

    /// Authenticated LE Secure Connections with a 128-bit key (mode 1 level 4).
    public var isSecureConnectionsLevel: Bool {
        if case .secureConnections(16) = self { return true }
        return false
    }

    /// The encryption key size in octets; 0 when the link is not encrypted.
    public var keySize: Int {
        switch self {
        case .none: return 0
        case let .encrypted(n), let .authenticated(n), let .secureConnections(n): return n
        }
    }
}
