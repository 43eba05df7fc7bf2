import SwiftATTCore

/// The keys one device handed the other in the key distribution phase.
///
/// Core 5.4 Vol 3 Part H §3.6: in legacy pairing the LTK travels with its EDIV and Rand
/// (which later name it in the LE Long Term Key Request); Secure Connections derives the
/// LTK instead (`PairingResult.longTermKey`) and distributes none. The IRK and identity
/// address come together; the CSRK signs Signed Write Commands.
public struct DistributedKeys: Sendable, Hashable {
    public var longTermKey: LongTermKey?
    public var identityResolvingKey: UInt128?
    public var identityAddress: BluetoothAddress?
    public var signatureKey: UInt128?

    public init(longTermKey: LongTermKey? = nil, identityResolvingKey: UInt128? = nil,
                identityAddress: BluetoothAddress? = nil, signatureKey: UInt128? = nil) {
        self.longTermKey = longTermKey
        self.identityResolvingKey = identityResolvingKey
        self.identityAddress = identityAddress
        self.signatureKey = signatureKey
    }

    public var isEmpty: Bool {
        longTermKey == nil && identityResolvingKey == nil && identityAddress == nil && signatureKey == nil
    }
}

/// A long-term key and the EDIV and Rand that name it (both zero for Secure Connections
/// keys and short-term keys: Core 5.4 Vol 3 Part H §2.4.4.1).
public struct LongTermKey: Sendable, Hashable {
    public var key: UInt128
    public var ediv: UInt16
    public var rand: UInt64

    public init(key: UInt128, ediv: UInt16 = 0, rand: UInt64 = 0) {
        self.key = key
        self.ediv = ediv
        self.rand = rand
    }
}
