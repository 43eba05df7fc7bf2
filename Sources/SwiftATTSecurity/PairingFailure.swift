import SwiftATTSMP

/// Why a pairing ended without keys.
///
/// Core 5.4 Vol 3 Part H §3.5.5 (Pairing Failed, either way) and §3.4 (the SMP timeout:
/// after it no SMP PDU may be sent on the link again until it reconnects).
public enum PairingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// This device sent Pairing Failed with this reason.
    case sent(PairingFailureReason)
    /// The peer sent Pairing Failed with this reason.
    case received(PairingFailureReason)
    /// 30 s passed without the next SMP PDU.
    case timedOut
    /// The controller could not encrypt the link with the new key (the Encryption Change
    /// status, an HCI error code).
    case encryptionFailed(status: UInt8)
    /// The link dropped mid-pairing.
    case disconnected

    /// The Pairing Failed reason, either way.
    public var reason: PairingFailureReason? {
        switch self {
        case let .sent(r), let .received(r): return r
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case let .sent(r): return "pairing failed: \(r) (sent by this device)"
        case let .received(r): return "pairing failed: \(r) (sent by the peer)"
        case .timedOut: return "pairing timed out: the peer did not answer for 30 s"
        case let .encryptionFailed(status):
            return "pairing failed: the controller could not encrypt the link (HCI status 0x\(String(status, radix: 16, uppercase: true)))"
        case .disconnected: return "pairing failed: the link dropped"
        }
    }
}
