/// The Result of a Connection Parameter Update Response. Core 5.4 Vol 3 Part A §4.21
///. 0x0002–0xFFFF are reserved and fail to decode.
public enum ConnectionParameterUpdateResult: UInt16, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The central will start the LE Connection Update procedure.
    case accepted = 0x0000
    /// The central refused the parameters.
    case rejected = 0x0001

    /// The name the spec gives the result.
    public var name: String {
        switch self {
        case .accepted: return "Connection Parameters accepted"
        case .rejected: return "Connection Parameters rejected"
        }
    }

    public var description: String { name }
}
