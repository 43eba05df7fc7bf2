/// The first octet of every Security Manager Protocol PDU: which command it is.
///
/// Core 5.4 Vol 3 Part H §3.3. Every command has one fixed length (`pduLength`), so the
/// code alone says how many octets a well-formed PDU has. Codes 0x00 and 0x0F–0xFF are
/// reserved: §3.3 has a receiver ignore a PDU that carries one (`SMPDecodingError.unknownCode`).
/// The same codes and lengths serve the LE channel (CID 0x0006) and BR/EDR's (CID 0x0007).
public enum SMPCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Pairing Request (§3.5.1): the initiator's features.
    case pairingRequest = 0x01
    /// Pairing Response (§3.5.2): the responder's features.
    case pairingResponse = 0x02
    /// Pairing Confirm (§3.5.3): a commitment to the random value sent next.
    case pairingConfirm = 0x03
    /// Pairing Random (§3.5.4): the random value committed to.
    case pairingRandom = 0x04
    /// Pairing Failed (§3.5.5), with its reason.
    case pairingFailed = 0x05
    /// Encryption Information (§3.6.2): a legacy Long Term Key.
    case encryptionInformation = 0x06
    /// Central Identification (§3.6.3): the EDIV and Rand that name a legacy LTK.
    case centralIdentification = 0x07
    /// Identity Information (§3.6.4): the Identity Resolving Key.
    case identityInformation = 0x08
    /// Identity Address Information (§3.6.5): the public or static random identity address.
    case identityAddressInformation = 0x09
    /// Signing Information (§3.6.6): the Connection Signature Resolving Key.
    case signingInformation = 0x0A
    /// Security Request (§3.6.7): a peripheral asks the central to pair or encrypt.
    case securityRequest = 0x0B
    /// Pairing Public Key (§3.5.6): a P-256 public key (LE Secure Connections).
    case pairingPublicKey = 0x0C
    /// Pairing DHKey Check (§3.5.7): proof of the shared DHKey (LE Secure Connections).
    case pairingDHKeyCheck = 0x0D
    /// Pairing Keypress Notification (§3.5.8): progress of the user's passkey entry.
    case pairingKeypressNotification = 0x0E

    /// The exact length of a PDU with this code, code octet included: the code plus the
    /// fixed parameters of the command's section (§3.5.1–§3.5.8, §3.6.2–§3.6.7).
    public var pduLength: Int {
        switch self {
        case .pairingRequest, .pairingResponse: return 7
        case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation,
             .signingInformation, .pairingDHKeyCheck: return 17
        case .pairingFailed, .securityRequest, .pairingKeypressNotification: return 2
        case .centralIdentification: return 11
        case .identityAddressInformation: return 8
        case .pairingPublicKey: return 65
        }
    }

    /// The spec's name for the command, as §3.5 and §3.6 title it ("Pairing DHKey Check").
    public var name: String {
        switch self {
        case .pairingRequest: return "Pairing Request"
        case .pairingResponse: return "Pairing Response"
        case .pairingConfirm: return "Pairing Confirm"
        case .pairingRandom: return "Pairing Random"
        case .pairingFailed: return "Pairing Failed"
        case .encryptionInformation: return "Encryption Information"
        case .centralIdentification: return "Central Identification"
        case .identityInformation: return "Identity Information"
        case .identityAddressInformation: return "Identity Address Information"
        case .signingInformation: return "Signing Information"
        case .securityRequest: return "Security Request"
        case .pairingPublicKey: return "Pairing Public Key"
        case .pairingDHKeyCheck: return "Pairing DHKey Check"
        case .pairingKeypressNotification: return "Pairing Keypress Notification"
        }
    }

    /// `Pairing Request (0x01)`.
    public var description: String { "\(name) (\(SMPHex.octet(rawValue)))" }
}
