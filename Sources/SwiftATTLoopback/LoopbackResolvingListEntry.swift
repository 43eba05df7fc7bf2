import SwiftATTCore
import SwiftATTHCI

/// One entry of an emulated controller's resolving list, as its host programmed it
/// (LE Add Device To Resolving List, LE Set Privacy Mode): what a test reads back with
/// `LoopbackController.resolvingList`.
public struct LoopbackResolvingListEntry: Sendable, Hashable {
    public var peerIdentity: BluetoothAddress
    public var peerIdentityResolvingKey: UInt128
    public var localIdentityResolvingKey: UInt128
    public var privacyMode: LEPrivacyMode

    public init(peerIdentity: BluetoothAddress, peerIdentityResolvingKey: UInt128, localIdentityResolvingKey: UInt128,
                privacyMode: LEPrivacyMode = .network) {
        self.peerIdentity = peerIdentity
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.localIdentityResolvingKey = localIdentityResolvingKey
        self.privacyMode = privacyMode
    }
}
