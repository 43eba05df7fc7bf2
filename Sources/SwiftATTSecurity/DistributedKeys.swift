import SwiftATTCore

/// The keys one device handed the other in the key distribution phase.
///
/// Core 5.4 Vol 3 Part H §3.6: in legacy pairing the LTK travels with its EDIV and Rand
/// (which later name it in the LE Long Term Key Request); Secure Connections derives the
/// LTK instead (`PairingResult.longTermKey`) and distributes none. The IRK and identity
/// address come together; the CSRK signs Signed Write Commands.
public struct DistributedKeys: Sendable, Hashable {
    /// A legacy LTK with its EDIV and Rand (Encryption Information, Central Identification).
    public var longTermKey: LongTermKey?
    /// The IRK (Identity Information).
    public var identityResolvingKey: UInt128?
    /// The identity address (Identity Address Information).
    public var identityAddress: BluetoothAddress?
    /// The CSRK (Signing Information).
    public var signatureKey: UInt128?

    /// Keys as distributed; all absent by default.
    public init(longTermKey: LongTermKey? = nil, identityResolvingKey: UInt128? = nil,
                identityAddress: BluetoothAddress? = nil, signatureKey: UInt128? = nil) {
        self.longTermKey = longTermKey
        self.identityResolvingKey = identityResolvingKey
        self.identityAddress = identityAddress
        self.signatureKey = signatureKey
    }

    /// Nothing was distributed.
    public var isEmpty: Bool {
        longTermKey == nil && identityResolvingKey == nil && identityAddress == nil && signatureKey == nil
    }
}

/// A long-term key and the EDIV and Rand that name it (both zero for Secure Connections
/// keys and short-term keys: Core 5.4 Vol 3 Part H §2.4.4.1).
public struct LongTermKey: Sendable, Hashable {
    /// The 128-bit key, cut to the negotiated size.
    public var key: UInt128
    /// The Encrypted Diversifier the central sends in LE Enable Encryption to name the key.
    public var ediv: UInt16
    /// The 64-bit random number that, with `ediv`, names the key.
    public var rand: UInt64

    /// A key with its EDIV and Rand; both zero, as Secure Connections keys have them.
    public init(key: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
    }
}
