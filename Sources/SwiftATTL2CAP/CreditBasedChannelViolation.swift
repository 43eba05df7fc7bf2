/// A rule of LE credit-based flow control the peer broke. Core 5.4 Vol 3 Part A §10.1
/// (and §3.4.3 for the K-frame's fields): for each, the receiver shall disconnect the
/// channel, so every violation ends it and asks for `.disconnect`.
public enum CreditBasedChannelViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// A K-frame arrived when the peer had no credits left.
    case frameWithoutCredit
    /// A K-frame's payload (SDU Length included) is longer than this host's MPS.
    case frameLongerThanMPS(length: Int, mps: Int)
    /// The first K-frame of an SDU is too short to hold the 2-octet SDU Length.
    case missingSDULength(length: Int)
    /// The SDU Length announces more than this host's MTU.
    case sduLongerThanMTU(sduLength: Int, mtu: Int)
    /// The K-frames of an SDU carry more octets than its SDU Length announced. (Fewer
    /// cannot be told apart from more to come: the next K-frame continues the SDU, so a
    /// short SDU shows up as a later overflow, or as a partial SDU when the channel ends.)
    case sduLongerThanAnnounced(sduLength: Int, received: Int)
    /// A credit grant took the peer's credits to us above 65535.
    case creditOverflow(held: Int, granted: Int)

    public var description: String {
        switch self {
        case .frameWithoutCredit:
            return "the peer sent a K-frame with no credits left"
        case let .frameLongerThanMPS(length, mps):
            return "the peer sent a K-frame of \(length) octets, over the MPS of \(mps)"
        case let .missingSDULength(length):
            return "the peer began an SDU with a K-frame of \(length) octets, too short for its SDU Length"
        case let .sduLongerThanMTU(sduLength, mtu):
            return "the peer announced an SDU of \(sduLength) octets, over the MTU of \(mtu)"
        case let .sduLongerThanAnnounced(sduLength, received):
            return "the peer's SDU announced \(sduLength) octets but its K-frames carried \(received)"
        case let .creditOverflow(held, granted):
            return "the peer granted \(granted) credits on top of \(held), over the limit of 65535"
        }
    }
}
