/// The Result of a Credit Based Connection Response: how the up to five channels of one
/// Enhanced Credit Based request fared. Core 5.4 Vol 3 Part A §4.26.
///
/// "All" results apply to every channel asked for; "some" results leave the channels
/// whose Destination CID is not 0x0000 open. 0x0001, 0x0003 and 0x0010–0xFFFF are
/// reserved and fail to decode. An `Error`, so the channel layer can throw a refusal.
public enum CreditBasedConnectionResult: UInt16, Sendable, Hashable, CaseIterable, Error, CustomStringConvertible {
    /// All connections successful.
    case success = 0x0000
    /// All refused: SPSM not supported.
    case spsmNotSupported = 0x0002
    /// Some refused: insufficient resources available.
    case insufficientResources = 0x0004
    /// All refused: insufficient authentication.
    case insufficientAuthentication = 0x0005
    /// All refused: insufficient authorization.
    case insufficientAuthorization = 0x0006
    /// All refused: encryption key size too short.
    case insufficientEncryptionKeySize = 0x0007
    /// All refused: insufficient encryption.
    case insufficientEncryption = 0x0008
    /// Some refused: invalid Source CID.
    case invalidSourceCID = 0x0009
    /// Some refused: Source CID already allocated.
    case sourceCIDAlreadyAllocated = 0x000A
    /// All refused: unacceptable parameters.
    case unacceptableParameters = 0x000B
    /// All refused: invalid parameters.
    case invalidParameters = 0x000C
    /// All pending, no further information available.
    case pendingNoFurtherInformation = 0x000D
    /// All pending: authentication pending.
    case pendingAuthentication = 0x000E
    /// All pending: authorization pending.
    case pendingAuthorization = 0x000F

    /// The name the spec gives the result.
    public var name: String {
        switch self {
        case .success: return "All connections successful"
        case .spsmNotSupported: return "All connections refused – SPSM not supported"
        case .insufficientResources: return "Some connections refused – insufficient resources available"
        case .insufficientAuthentication: return "All connections refused – insufficient authentication"
        case .insufficientAuthorization: return "All connections refused – insufficient authorization"
        case .insufficientEncryptionKeySize: return "All connections refused – insufficient encryption key size"
        case .insufficientEncryption: return "All connections refused – insufficient encryption"
        case .invalidSourceCID: return "Some connections refused – invalid Source CID"
        case .sourceCIDAlreadyAllocated: return "Some connections refused – Source CID already allocated"
        case .unacceptableParameters: return "All connections refused – unacceptable parameters"
        case .invalidParameters: return "All connections refused – invalid parameters"
        case .pendingNoFurtherInformation: return "All connections pending – no further information available"
        case .pendingAuthentication: return "All connections pending – authentication pending"
        case .pendingAuthorization: return "All connections pending – authorization pending"
        }
    }

    /// What the result means for the user, in one clause.
    public var summary: String {
        switch self {
        case .success: return "every channel asked for is open"
        case .spsmNotSupported: return "no service listens on that SPSM on the peer"
        case .insufficientResources: return "the peer could not open every channel asked for; those with a Destination CID are open"
        case .insufficientAuthentication: return "the service needs an authenticated (MITM-protected) pairing first"
        case .insufficientAuthorization: return "the peer's user or application did not authorize the connection"
        case .insufficientEncryptionKeySize: return "the link's encryption key is shorter than the service requires; pair again with a longer key"
        case .insufficientEncryption: return "the service needs the link encrypted first"
        case .invalidSourceCID: return "a requested channel identifier is outside the LE dynamic range; the others are open"
        case .sourceCIDAlreadyAllocated: return "a requested channel identifier is already in use on this link; the others are open"
        case .unacceptableParameters: return "the MTU, MPS or another parameter is outside what the peer accepts"
        case .invalidParameters: return "the request was malformed"
        case .pendingNoFurtherInformation: return "the peer will answer again later"
        case .pendingAuthentication: return "the peer will answer once authentication is done"
        case .pendingAuthorization: return "the peer will answer once its user or application authorizes the connection"
        }
    }

    /// No channel opened: every Destination CID is to be ignored.
    public var refusesAll: Bool {
        switch self {
        case .spsmNotSupported, .insufficientAuthentication, .insufficientAuthorization,
             .insufficientEncryptionKeySize, .insufficientEncryption, .unacceptableParameters, .invalidParameters:
            return true
        case .success, .insufficientResources, .invalidSourceCID, .sourceCIDAlreadyAllocated,
             .pendingNoFurtherInformation, .pendingAuthentication, .pendingAuthorization:
            return false
        }
    }

    /// Not an answer yet: another response with the same identifier follows.
    public var isPending: Bool {
        switch self {
        case .pendingNoFurtherInformation, .pendingAuthentication, .pendingAuthorization: return true
        default: return false
        }
    }

    /// The results a link with more security could turn into success.
    public var needsSecurity: Bool {
        switch self {
        case .insufficientAuthentication, .insufficientEncryptionKeySize, .insufficientEncryption: return true
        default: return false
        }
    }

    public var description: String { "\(name): \(summary)" }
}
