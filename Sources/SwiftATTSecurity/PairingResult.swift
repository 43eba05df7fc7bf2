/// What a finished pairing produced: how it was authenticated and the keys to bond with.
///
/// Core 5.4 Vol 3 Part H §2.3.6 and §3.6. For the link's security level after pairing,
/// `authenticated` and `keySize` are what the GATT server checks its permissions against.
public struct PairingResult: Sendable, Hashable {
    /// The association model that authenticated the pairing.
    public var method: PairingMethod
    /// LE Secure Connections (otherwise LE legacy pairing).
    public var secureConnections: Bool
    /// The key is protected against a man in the middle (any method but Just Works).
    public var authenticated: Bool
    /// The negotiated encryption key size, 7–16 octets.
    public var keySize: Int
    /// Both sides asked to bond: the keys are meant to be stored.
    public var bonding: Bool
    /// The key that encrypts this link from now on when the central reconnects: the
    /// derived LTK for Secure Connections, the responder's distributed LTK for legacy
    /// pairing (`nil` when legacy pairing distributed none: the link then stays encrypted
    /// with the short-term key until it drops).
    public var longTermKey: LongTermKey?
    /// Keys this device sent.
    public var localKeys: DistributedKeys
    /// Keys the peer sent.
    public var peerKeys: DistributedKeys

    /// A result as the session reports it.
    public init(method: PairingMethod, secureConnections: Bool, authenticated: Bool, keySize: Int,
                bonding: Bool, longTermKey: LongTermKey?, localKeys: DistributedKeys, peerKeys: DistributedKeys) {
        self.method = method
        self.secureConnections = secureConnections
        self.authenticated = authenticated
        self.keySize = keySize
        self.bonding = bonding
        self.longTermKey = longTermKey
        self.localKeys = localKeys
        self.peerKeys = peerKeys
    }
}
