import SwiftATTHCI
import SwiftATTL2CAP

/// Why opening, using or closing a credit-based channel failed.
public enum L2CAPChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer refused an LE Credit Based Connection Request with this result.
    case refused(LECreditBasedConnectionResult)
    /// The peer refused a Credit Based Connection Request (Enhanced Credit Based Flow
    /// Control) with this result.
    case refusedEnhanced(CreditBasedConnectionResult)
    /// The peer answered the request with Command Reject: it does not do credit-based
    /// channels (or not this kind).
    case rejected(CommandRejectReason)
    /// The peer refused a Credit Based Reconfigure Request with this result.
    case reconfigurationRefused(CreditBasedReconfigureResult)
    /// The peer did not answer the signaling request in time.
    case timedOut(Duration)
    /// The parameters asked for cannot be sent, or the peer's answer carried values a
    /// channel cannot run with.
    case invalidParameters(String)
    /// The peer's answer did not follow the signaling rules (the wrong number of
    /// channels, a CID outside the dynamic range or already in use).
    case invalidResponse(String)
    /// The channel was refused for want of security and pairing did not bring it.
    case securityFailed(LECreditBasedConnectionResult, reason: String)
    /// No connection with this handle, or it went away.
    case disconnected(HCIStatus?)
    /// The channel has ended: closed here, by the peer, or for a rule the peer broke.
    case closed(CreditBasedChannelCloseReason)
    /// An SDU longer than the peer's MTU: never sent.
    case sduTooLong(length: Int, peerMTU: Int)
    /// The calling task was cancelled.
    case cancelled
    /// The host stopped.
    case controllerStopped(ControllerError)

    public var description: String {
        switch self {
        case let .refused(result): return "the peer refused the channel: \(result)"
        case let .refusedEnhanced(result): return "the peer refused the channels: \(result)"
        case let .rejected(reason): return "the peer rejected the request: \(reason)"
        case let .reconfigurationRefused(result): return "the peer refused the new sizes: \(result)"
        case let .timedOut(timeout): return "the peer did not answer within \(timeout)"
        case let .invalidParameters(text): return "invalid channel parameters: \(text)"
        case let .invalidResponse(text): return "the peer's answer is invalid: \(text)"
        case let .securityFailed(result, reason): return "the peer asked for security (\(result.name)) and securing the link failed: \(reason)"
        case let .disconnected(status?): return "the connection went away (\(status))"
        case .disconnected(nil): return "not connected"
        case let .closed(reason): return reason.description
        case let .sduTooLong(length, peerMTU): return "an SDU of \(length) octets is longer than the peer's MTU of \(peerMTU)"
        case .cancelled: return "cancelled"
        case let .controllerStopped(error): return "the controller stopped: \(error)"
        }
    }
}
