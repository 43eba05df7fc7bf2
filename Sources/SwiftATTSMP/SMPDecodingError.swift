/// Why octets are not a valid Security Manager Protocol PDU: which command, which field,
/// which value.
///
/// Every SMP command has one exact length (Core 5.4 Vol 3 Part H §3.3 and each command's
/// section), so a PDU is malformed when it is empty, carries a reserved code, has any
/// other length, or has a parameter outside the values its section defines. Typed, so
/// decoding throws without boxing or allocating.
public enum SMPDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero octets: not even a code.
    case empty
    /// A code Core 5.4 reserves (0x00, 0x0F–0xFF).
    case unknownCode(UInt8)
    /// A PDU longer or shorter than its command's fixed length (`SMPCode.pduLength`).
    case invalidLength(code: SMPCode, expected: Int, actual: Int)
    /// A parameter whose value the command's section reserves or rules out.
    case reservedValue(code: SMPCode, field: Field, value: UInt8)

    /// The one-octet parameters that can hold a value Core 5.4 does not allow.
    public enum Field: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Pairing Request/Response: 0x00–0x04 defined (§3.5.1).
        case ioCapability
        /// Pairing Request/Response: 0x00 or 0x01 (§3.5.1).
        case oobDataFlag
        /// Pairing Request/Response: 7–16 octets (§3.5.1).
        case maximumEncryptionKeySize
        /// Pairing Failed: 0x01–0x0F defined (§3.5.5).
        case reason
        /// Identity Address Information: 0x00 public or 0x01 random (§3.6.5).
        case addressType
        /// Pairing Keypress Notification: 0x00–0x04 defined (§3.5.8).
        case notificationType

        /// The field's name in the spec's figures: "Maximum Encryption Key Size".
        public var description: String {
            switch self {
            case .ioCapability: return "IO Capability"
            case .oobDataFlag: return "OOB data flag"
            case .maximumEncryptionKeySize: return "Maximum Encryption Key Size"
            case .reason: return "Reason"
            case .addressType: return "AddrType"
            case .notificationType: return "Notification Type"
            }
        }

        /// Where the field sits in its PDU (octet 0 is the code).
        public var octet: Int {
            switch self {
            case .ioCapability, .reason, .addressType, .notificationType: return 1
            case .oobDataFlag: return 2
            case .maximumEncryptionKeySize: return 4
            }
        }

        /// The values the field may hold, as the error message states them.
        var allowed: String {
            switch self {
            case .ioCapability, .notificationType: return "0x00–0x04 are defined"
            case .oobDataFlag: return "0x00 (absent) or 0x01 (present)"
            case .maximumEncryptionKeySize: return "must be 7–16"
            case .reason: return "0x01–0x0f are defined"
            case .addressType: return "0x00 (public) or 0x01 (random)"
            }
        }
    }

    /// The reason to send back in Pairing Failed when a received PDU does not decode.
    ///
    /// Table 3.7 (§3.5.5) gives Invalid Parameters for a command whose length is invalid or
    /// whose parameter is out of range: every case here but a reserved code, which maps to
    /// Command Not Supported. Check `isIgnoredOnReceipt` first: §3.3 has a receiver ignore
    /// a PDU with a reserved code, which is what Linux does (Zephyr answers Command Not
    /// Supported). And never answer a Pairing Failed with another one: `code` says which
    /// command was malformed. (Linux answers a Maximum Encryption Key Size below 7 with
    /// Encryption Key Size instead; Table 3.7 keeps that reason for a negotiated key that is
    /// too short, and a value outside 7–16 is a parameter out of range.)
    public var pairingFailureReason: PairingFailureReason {
        switch self {
        case .unknownCode: return .commandNotSupported
        case .empty, .invalidLength, .reservedValue: return .invalidParameters
        }
    }

    /// The PDU carried a reserved code, and §3.3 says a receiver ignores it: no answer.
    public var isIgnoredOnReceipt: Bool {
        if case .unknownCode = self { return true }
        return false
    }

    /// The command the malformed PDU claimed to be, when its code is one Core 5.4 defines.
    public var code: SMPCode? {
        switch self {
        case .empty, .unknownCode: return nil
        case let .invalidLength(code, _, _), let .reservedValue(code, _, _): return code
        }
    }

    public var description: String {
        switch self {
        case .empty:
            return "empty SMP PDU: no code octet"
        case let .unknownCode(code):
            return "SMP code \(SMPHex.octet(code)) is reserved: Core 5.4 defines 0x01–0x0e, and a receiver ignores the PDU (Vol 3 Part H §3.3)"
        case let .invalidLength(code, expected, actual):
            return "\(code) must be exactly \(expected) octets, has \(actual)"
        case let .reservedValue(code, field, value):
            let shown = field == .maximumEncryptionKeySize ? "\(value)" : SMPHex.octet(value)
            return "\(code): \(field) \(shown) at octet \(field.octet) is not allowed; \(field.allowed)"
        }
    }
}
