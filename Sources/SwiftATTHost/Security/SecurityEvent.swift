import SwiftATTCore
import SwiftATTGATT
import SwiftATTSecurity

/// What happened to a link's security, for `Controller.securityEvents()`: which link,
/// which peer, and the change.
public struct SecurityEvent: Sendable, Hashable {
    /// The connection handle; `noConnection` for a peer that is not connected (a
    /// `.bondStateNotSaved` written while it was away).
    public var handle: UInt16
    /// The peer's address on this link (the bond's identity address once pairing has
    /// told it, for `.paired`).
    public var peer: BluetoothAddress
    /// What changed.
    public var change: Change

    /// What can happen to a link's security or a bond.
    public enum Change: Sendable, Hashable {
        /// The link is encrypted now, or its key changed: the new level.
        case levelChanged(GATTSecurityLevel)
        /// Pairing finished; `bond` is what was stored (nil without bonding).
        case paired(PairingResult, bond: Bond?)
        /// Pairing failed.
        case pairingFailed(PairingFailure)
        /// Encrypting with a stored bond failed (the peer lost its key, typically); the
        /// bond is kept, and pairing again replaces it.
        case encryptionFailed(HCIStatusCode)
        /// A bond made on the link is in memory, and encrypts this host's links with the
        /// peer until it stops, but its storage failed to keep it: the next run will not
        /// know the peer.
        case bondNotSaved(SecurityStorageError)
        /// What changed in the bond as the host ran — its sign counters, what the GATT
        /// server keeps for the peer (subscriptions, change-awareness) — could not be
        /// written. It holds in memory, and the write is tried again with the next
        /// change and when the host stops; a run after a stop without that write would
        /// start from the state written before.
        case bondStateNotSaved(SecurityStorageError)
    }

    /// The `handle` of an event about a peer that is not connected: connection handles
    /// go up to 0x0EFF (Core 5.4 Vol 4 Part E §5.4.2).
    public static let noConnection: UInt16 = 0xFFFF

    /// An event about `peer` on link `handle`.
    public init(handle: UInt16, peer: BluetoothAddress, change: Change) {
        self.handle = handle
        self.peer = peer
        self.change = change
    }
}

/// An HCI status code as a number, so that this module's public events do not make
/// every user import the HCI codec.
public typealias HCIStatusCode = UInt8
