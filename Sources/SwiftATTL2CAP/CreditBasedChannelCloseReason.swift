/// Why a credit-based channel ended.
public enum CreditBasedChannelCloseReason: Sendable, Hashable, CustomStringConvertible {
    /// This host closed it (`CreditBasedChannel.close()`).
    case localClose
    /// The peer disconnected it (an L2CAP Disconnection Request).
    case peerDisconnected
    /// The ACL link under it went away.
    case linkLost
    /// The peer broke a flow-control rule; the channel must be disconnected (§10.1).
    case violation(CreditBasedChannelViolation)

    public var description: String {
        switch self {
        case .localClose: return "the channel was closed"
        case .peerDisconnected: return "the peer disconnected the channel"
        case .linkLost: return "the connection was lost"
        case let .violation(violation): return "channel disconnected: \(violation)"
        }
    }
}
