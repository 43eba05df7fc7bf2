import SwiftATTSMP

/// Phase 3's bookkeeping: the keys still expected from the peer, in the order Core 5.4
/// Vol 3 Part H §3.6.1 sends them, and what has arrived and been sent.
struct KeyDistributionState: Sendable {
    var expected: [SMPCode] = []
    var received = DistributedKeys()
    var sent = DistributedKeys()
    /// A legacy LTK waits for its Central Identification before it is complete.
    var pendingLongTermKey: UInt128?
    /// The identity key waits for its address.
    var pendingIdentityKey: UInt128?

    /// The PDUs that carry `keys`, in distribution order.
    static func codes(for keys: KeyDistribution) -> [SMPCode] {
        var codes: [SMPCode] = []
        if keys.contains(.encryptionKey) { codes += [.encryptionInformation, .centralIdentification] }
        if keys.contains(.identityKey) { codes += [.identityInformation, .identityAddressInformation] }
        if keys.contains(.signingKey) { codes.append(.signingInformation) }
        return codes
    }
}
