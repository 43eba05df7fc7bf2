/// The Result of a Credit Based Reconfigure Response. Core 5.4 Vol 3 Part A §4.28.
/// 0x0005–0xFFFF are reserved and fail to decode. An `Error`, so the channel layer can
/// throw a refusal.
public enum CreditBasedReconfigureResult: UInt16, Sendable, Hashable, CaseIterable, Error, CustomStringConvertible {
    /// Reconfiguration successful.
    case success = 0x0000
    /// Refused: reduction in size of MTU not allowed.
    case mtuReductionNotAllowed = 0x0001
    /// Refused: reduction in size of MPS not allowed for more than one channel at a time.
    case mpsReductionNotAllowed = 0x0002
    /// Refused: one or more Destination CIDs invalid.
    case invalidDestinationCID = 0x0003
    /// Refused: other unacceptable parameters.
    case otherUnacceptableParameters = 0x0004

    /// The name the spec gives the result.
    public var name: String {
        switch self {
        case .success: return "Reconfiguration successful"
        case .mtuReductionNotAllowed: return "Reconfiguration failed – reduction in size of MTU not allowed"
        case .mpsReductionNotAllowed:
            return "Reconfiguration failed – reduction in size of MPS not allowed for more than one channel at a time"
        case .invalidDestinationCID: return "Reconfiguration failed – one or more Destination CIDs invalid"
        case .otherUnacceptableParameters: return "Reconfiguration failed – other unacceptable parameters"
        }
    }

    /// What the result means for the user, in one clause.
    public var summary: String {
        switch self {
        case .success: return "the channels take the new MTU and MPS"
        case .mtuReductionNotAllowed: return "a channel's MTU may only grow"
        case .mpsReductionNotAllowed: return "a smaller MPS may be asked for on one channel at a time only"
        case .invalidDestinationCID: return "a channel named is not open on this link"
        case .otherUnacceptableParameters: return "the MTU or MPS is outside what Enhanced Credit Based mode allows"
        }
    }

    public var description: String { "\(name): \(summary)" }
}
