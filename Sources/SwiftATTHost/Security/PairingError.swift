import SwiftATTGATT
import SwiftATTSecurity

/// Why `Peer.pair()` (or an automatic pairing before a retried request) failed.
public enum PairingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Security Manager's failure, either way.
    case failed(PairingFailure)
    /// Encryption with the stored bond failed, and pairing again was not allowed.
    case encryptionFailed(status: UInt8)
    /// The link is gone.
    case disconnected
    /// The host stopped.
    case controllerStopped(ControllerError)
    /// `Peer.require` (or `Central.connect(security:)`) encrypted or paired, and the link
    /// still falls short: the peer, or this host's IO capability, allowed no more.
    case insufficientSecurity(reached: GATTSecurityLevel, required: AttributePermissions.Access)

    public var description: String {
        switch self {
        case let .failed(failure): return failure.description
        case let .encryptionFailed(status):
            return "encryption with the stored bond failed (HCI status 0x\(String(status, radix: 16, uppercase: true))): the peer may have lost its keys; remove the bond and pair again"
        case .disconnected: return "the link dropped before pairing finished"
        case let .controllerStopped(error): return "pairing failed: \(error)"
        case let .insufficientSecurity(reached, required):
            return "the link is \(reached), short of what was asked: \(required)"
        }
    }
}
