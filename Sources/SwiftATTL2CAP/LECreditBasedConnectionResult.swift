/// The Result of an LE Credit Based Connection Response: whether the channel was opened,
/// and if not, why. Core 5.4 Vol 3 Part A §4.23.
///
/// 0x0001, 0x0003 and 0x000C–0xFFFF are reserved; a response carrying one fails to
/// decode (`LESignalingDecodingError.reservedValue`). An `Error`, so the channel layer can
/// end an open by throwing the refusal it received.
public enum LECreditBasedConnectionResult: UInt16, Sendable, Hashable, CaseIterable, Error, CustomStringConvertible {
    /// Connection successful.
    case success = 0x0000
    /// Refused: SPSM not supported.
    case spsmNotSupported = 0x0002
    /// Refused: no resources available.
    case noResourcesAvailable = 0x0004
    /// Refused: insufficient authentication (pairing would help).
    case insufficientAuthentication = 0x0005
    /// Refused: insufficient authorization.
    case insufficientAuthorization = 0x0006
    /// Refused: encryption key size too short.
    case insufficientEncryptionKeySize = 0x0007
    /// Refused: insufficient encryption (encrypting would help).
    case insufficientEncryption = 0x0008
    /// Refused: invalid Source CID.
    case invalidSourceCID = 0x0009
    /// Refused: Source CID already allocated.
    case sourceCIDAlreadyAllocated = 0x000A
    /// Refused: unacceptable parameters.
    case unacceptableParameters = 0x000B

    /// The name the spec gives the result.
    public var name: String {
        switch self {
        case .success: return "Connection successful"
        case .spsmNotSupported: return "Connection refused – SPSM not supported"
        case .noResourcesAvailable: return "Connection refused – no resources available"
        case .insufficientAuthentication: return "Connection refused – insufficient authentication"
        case .insufficientAuthorization: return "Connection refused – insufficient authorization"
        case .insufficientEncryptionKeySize: return "Connection refused – insufficient encryption key size"
        case .insufficientEncryption: return "Connection refused – insufficient encryption"
        case .invalidSourceCID: return "Connection refused – invalid Source CID"
        case .sourceCIDAlreadyAllocated: return "Connection refused – Source CID already allocated"
        case .unacceptableParameters: return "Connection refused – unacceptable parameters"
        }
    }

    /// What the result means for the user, in one clause.
    public var summary: String {
        switch self {
        case .success: return "the channel is open"
        case .spsmNotSupported: return "no service listens on that SPSM on the peer"
        case .noResourcesAvailable: return "the peer cannot open another channel now"
        case .insufficientAuthentication: return "the service needs an authenticated (MITM-protected) pairing first"
        case .insufficientAuthorization: return "the peer's user or application did not authorize the connection"
        case .insufficientEncryptionKeySize: return "the link's encryption key is shorter than the service requires; pair again with a longer key"
        case .insufficientEncryption: return "the service needs the link encrypted first"
        case .invalidSourceCID: return "the requester's channel identifier is outside the LE dynamic range"
        case .sourceCIDAlreadyAllocated: return "the requester's channel identifier is already in use on this link"
        case .unacceptableParameters: return "the MTU, MPS or another parameter is outside what the peer accepts"
        }
    }

    /// The results a link with more security could turn into success: the requester
    /// pairs or encrypts and asks again, as the GATT client does for ATT's errors.
    public var needsSecurity: Bool {
        switch self {
        case .insufficientAuthentication, .insufficientEncryptionKeySize, .insufficientEncryption: return true
        default: return false
        }
    }

    /// `Connection refused – SPSM not supported: no service listens on that SPSM on the peer`.
    public var description: String { "\(name): \(summary)" }
}
