/// Why a signaling command was rejected: the Reason of Command Reject. Core 5.4 Vol 3
/// Part A §4.1. 0x0003–0xFFFF are reserved and fail to decode.
public enum CommandRejectReason: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Command not understood.
    case commandNotUnderstood = 0x0000
    /// Signaling MTU exceeded.
    case signalingMTUExceeded = 0x0001
    /// Invalid CID in request.
    case invalidCIDInRequest = 0x0002

    /// The name the spec gives the reason.
    public var name: String {
        switch self {
        case .commandNotUnderstood: return "Command not understood"
        case .signalingMTUExceeded: return "Signaling MTU exceeded"
        case .invalidCIDInRequest: return "Invalid CID in request"
        }
    }

    /// What the reason means, in one clause.
    public var summary: String {
        switch self {
        case .commandNotUnderstood: return "the peer does not support the command, or could not parse it"
        case .signalingMTUExceeded: return "the command was longer than the peer's signaling MTU"
        case .invalidCIDInRequest: return "the request named a channel that is not open on this link"
        }
    }

    /// The octets of Reason Data the reason carries: none, the actual MTU,
    /// or the two endpoint CIDs.
    public var dataLength: Int {
        switch self {
        case .commandNotUnderstood: return 0
        case .signalingMTUExceeded: return 2
        case .invalidCIDInRequest: return 4
        }
    }

    public var description: String { "\(name): \(summary)" }
}
