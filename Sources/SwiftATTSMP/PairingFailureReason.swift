/// Why pairing stopped: the Reason octet of Pairing Failed.
///
/// Core 5.4 Vol 3 Part H §3.5.5 Table 3.7 defines 0x01–0x0F; 0x00 and 0x10–0xFF are
/// reserved, and a Pairing Failed carrying one fails to decode. An `Error`, so the pairing
/// machine can end a procedure by throwing the reason it sent or received, and the command
/// line can print `description` as it stands.
public enum PairingFailureReason: UInt8, Sendable, Hashable, CaseIterable, Error, CustomStringConvertible {
    /// The user cancelled passkey entry, or entered none.
    case passkeyEntryFailed = 0x01
    /// Out-of-band data was expected and is not available.
    case oobNotAvailable = 0x02
    /// The pairing cannot meet the security the side sending this requires (with these IO
    /// capabilities, say).
    case authenticationRequirements = 0x03
    /// The confirm value did not match the random value: a wrong passkey, or an attacker.
    case confirmValueFailed = 0x04
    /// This device does not pair.
    case pairingNotSupported = 0x05
    /// The encryption key would be shorter than this side accepts.
    case encryptionKeySize = 0x06
    /// The SMP command is not supported.
    case commandNotSupported = 0x07
    /// Pairing failed for a reason no other code names.
    case unspecifiedReason = 0x08
    /// Too soon after a failed attempt: this side throttles repeated pairing
    /// (`PairingAttemptThrottle` in SwiftATTSecurity).
    case repeatedAttempts = 0x09
    /// A command's length or a parameter is invalid.
    case invalidParameters = 0x0A
    /// The DHKey Check value did not match: LE Secure Connections' last check failed.
    case dhKeyCheckFailed = 0x0B
    /// The user said the numbers shown in Numeric Comparison do not match.
    case numericComparisonFailed = 0x0C
    /// BR/EDR pairing is under way on the same link, so LE pairing is refused.
    case brEdrPairingInProgress = 0x0D
    /// A key derived over the other transport (cross-transport key derivation) is not allowed.
    case crossTransportKeyDerivationNotAllowed = 0x0E
    /// The device refuses the key the peer distributed (an IRK it already holds, say).
    case keyRejected = 0x0F

    /// The name Table 3.7 gives the reason: "Confirm Value Failed".
    public var name: String {
        switch self {
        case .passkeyEntryFailed: return "Passkey Entry Failed"
        case .oobNotAvailable: return "OOB Not Available"
        case .authenticationRequirements: return "Authentication Requirements"
        case .confirmValueFailed: return "Confirm Value Failed"
        case .pairingNotSupported: return "Pairing Not Supported"
        case .encryptionKeySize: return "Encryption Key Size"
        case .commandNotSupported: return "Command Not Supported"
        case .unspecifiedReason: return "Unspecified Reason"
        case .repeatedAttempts: return "Repeated Attempts"
        case .invalidParameters: return "Invalid Parameters"
        case .dhKeyCheckFailed: return "DHKey Check Failed"
        case .numericComparisonFailed: return "Numeric Comparison Failed"
        case .brEdrPairingInProgress: return "BR/EDR Pairing In Progress"
        case .crossTransportKeyDerivationNotAllowed: return "Cross-transport Key Derivation/Generation Not Allowed"
        case .keyRejected: return "Key Rejected"
        }
    }

    /// What the reason means for the user, in one clause: "the confirm value did not match".
    public var summary: String {
        switch self {
        case .passkeyEntryFailed: return "the passkey was not entered, or entry was cancelled"
        case .oobNotAvailable: return "the out-of-band data pairing needs is not available"
        case .authenticationRequirements:
            return "the security asked for cannot be met with the two devices' input and output capabilities"
        case .confirmValueFailed: return "the confirm value did not match"
        case .pairingNotSupported: return "the device does not support pairing"
        case .encryptionKeySize: return "the encryption key would be too short for the device's security requirements"
        case .commandNotSupported: return "the device does not support the SMP command it received"
        case .unspecifiedReason: return "pairing failed for a reason the device did not give"
        case .repeatedAttempts:
            return "too little time has passed since the last pairing or security request; wait before trying again"
        case .invalidParameters: return "a command had the wrong length or a parameter out of range"
        case .dhKeyCheckFailed: return "the DHKey check value did not match"
        case .numericComparisonFailed: return "the numbers shown for comparison did not match, or the user rejected them"
        case .brEdrPairingInProgress: return "pairing over BR/EDR is already in progress"
        case .crossTransportKeyDerivationNotAllowed:
            return "the key cannot be derived from the other transport's key"
        case .keyRejected: return "the device rejected a key it was sent"
        }
    }

    /// `Confirm Value Failed: the confirm value did not match`.
    public var description: String { "\(name): \(summary)" }
}
