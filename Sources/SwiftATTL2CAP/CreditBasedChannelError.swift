/// Why a call on a `CreditBasedChannel` failed.
public enum CreditBasedChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer broke a flow-control rule: the channel has ended, and its next action
    /// is `.disconnect`.
    case violation(CreditBasedChannelViolation)
    /// The channel has ended; nothing more is sent or received on it.
    case closed(CreditBasedChannelCloseReason)
    /// The SDU is longer than the peer's MTU (Core 5.4 Vol 3 Part A §4.22): never sent.
    case sduLongerThanPeerMTU(length: Int, peerMTU: Int)
    /// The send queue is at its limit: wait until `hasRoom(forSDUOf:)` says yes (as
    /// K-frames leave with the peer's credits) and send again.
    case sendQueueFull(queuedSDUs: Int, queuedOctets: Int)

    public var description: String {
        switch self {
        case let .violation(violation): return violation.description
        case let .closed(reason): return reason.description
        case let .sduLongerThanPeerMTU(length, peerMTU):
            return "an SDU of \(length) octets is longer than the peer's MTU of \(peerMTU)"
        case let .sendQueueFull(sdus, octets):
            return "the send queue is full (\(sdus) SDUs, \(octets) octets waiting for credits)"
        }
    }
}
