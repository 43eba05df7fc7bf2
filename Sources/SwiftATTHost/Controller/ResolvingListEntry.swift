import SwiftATTCore
import SwiftATTSecurity

/// One entry of the controller's resolving list, as LE Add Device To Resolving List
/// gives it (Core 5.4 Vol 4 Part E §7.8.38): a bonded peer's identity address and IRK,
/// and this host's IRK (zero without an identity).
public struct ResolvingListEntry: Sendable, Hashable {
    /// A public or static random address.
    public var peerIdentity: BluetoothAddress
    /// The peer's IRK, with which the controller resolves its private addresses.
    public var peerIdentityResolvingKey: UInt128
    /// This host's IRK, from which the controller makes its private addresses for the peer.
    public var localIdentityResolvingKey: UInt128

    /// An entry for a bonded peer.
    public init(peerIdentity: BluetoothAddress, peerIdentityResolvingKey: UInt128, localIdentityResolvingKey: UInt128) {
        self.peerIdentity = peerIdentity
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.localIdentityResolvingKey = localIdentityResolvingKey
    }

    /// The entries `bonds` ask for, in the order the bonds were made: each peer that
    /// gave an IRK and an identity address (a bond filed under the resolvable private
    /// address it paired from has no identity to put in the list).
    static func entries(for bonds: [Bond], localIRK: UInt128?) -> [ResolvingListEntry] {
        bonds.compactMap { bond in
            guard let irk = bond.peerIdentityResolvingKey, irk != 0,
                  bond.peer.kind == .public || bond.peer.randomSubtype == .static else { return nil }
            return ResolvingListEntry(peerIdentity: bond.peer, peerIdentityResolvingKey: irk, localIdentityResolvingKey: localIRK ?? 0)
        }
    }
}
