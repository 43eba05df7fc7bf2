import SwiftATTCore
import SwiftATTGATT
import SwiftATTSecurity

/// What happened to a link's security, for `Controller.securityEvents()`.
public enum SecurityEvent: Sendable, Hashable {
    /// The link is encrypted now, or its key changed (connection handle, new level).
    case levelChanged(UInt16, GATTSecurityLevel)
    /// Pairing finished on a link; `bond` is what was stored (nil without bonding).
    case paired(UInt16, PairingResult, bond: Bond?)
    /// Pairing on a link failed.
    case pairingFailed(UInt16, PairingFailure)
    /// Encrypting with a stored bond failed (the peer lost its key, typically); the bond
    /// is kept, and pairing again replaces it.
    case encryptionFailed(UInt16, HCIStatusCode)
    /// A bond made on a link (with the peer named) is in memory, and encrypts this
    /// host's links with that peer until it stops, but its storage failed to keep it:
    /// the next run will not know the peer.
    case bondNotSaved(UInt16, BluetoothAddress, SecurityStorageError)
}

/// An HCI status code as a number, so that this module's public events do not make
/// every user import the HCI codec.
public typealias HCIStatusCode = UInt8
