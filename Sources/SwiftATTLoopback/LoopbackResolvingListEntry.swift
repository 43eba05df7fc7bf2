import SwiftATTCore
import SwiftATTHCI

/// One entry of an emulated controller's resolving list, as its host programmed it
/// (LE Add Device To Resolving List, LE Set Privacy Mode): what a test reads back with
/// `LoopbackController.resolvingList`.
public struct LoopbackResolvingListEntry: Sendable, Hashable {
    /// The peer's identity address.
    public var peerIdentity: BluetoothAddress
    /// The peer's IRK, which resolves its resolvable private addresses.
    public var peerIdentityResolvingKey: UInt128
    /// The local IRK, from which the controller makes this host's private addresses for the
    /// peer.
    public var localIdentityResolvingKey: UInt128
    /// Network or device privacy for the peer (LE Set Privacy Mode).
    public var privacyMode: LEPrivacyMode

    /// An entry as LE Add Device To Resolving List programs it, in network privacy mode
    /// unless the host set otherwise.
    public init(peerIdentity: BluetoothAddress, peerIdentityResolvingKey: UInt128, localIdentityResolvingKey: UInt128,
                privacyMode: LEPrivacyMode = .network) {
        self.peerIdentity = peerIdentity
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.localIdentityResolvingKey = localIdentityResolvingKey
        self.privacyMode = privacyMode
    }
}
