import SwiftATTCore

/// Why the data of an LE signaling command is not that command: which command, what is
/// wrong, and where.
///
/// The packet around it (code, identifier, length) has already parsed
/// (`LESignalingPacket`), so whoever handles this still knows the identifier to answer
/// with. Only structure fails here: a length the command cannot have, or a reason or
/// result the spec reserves. Values the spec defines an answer for (an MTU below the
/// minimum, a CID outside the dynamic range) decode, and `validate()` reports them.
public enum LESignalingDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A code Core 5.4 does not define for the LE signaling channel: answer Command
    /// Reject "command not understood" (Part A §4.1).
    case unknownCode(UInt8)
    /// The data field is `length` octets; the command's layout allows only `allowed`.
    case invalidLength(code: LESignalingCode, length: Int, allowed: [Int])
    /// A reason or result value the command's table reserves.
    case reservedValue(code: LESignalingCode, field: Field, value: UInt16)

    /// The 2-octet fields whose values the spec enumerates.
    public enum Field: Sendable, Hashable, CustomStringConvertible {
        /// Command Reject's Reason.
        case reason
        /// A response's Result.
        case result

        public var description: String {
            switch self {
            case .reason: return "Reason"
            case .result: return "Result"
            }
        }
    }

    /// The command the malformed data claimed to be, when its code is one Core 5.4 defines.
    public var code: LESignalingCode? {
        switch self {
        case .unknownCode: return nil
        case let .invalidLength(code, _, _), let .reservedValue(code, _, _): return code
        }
    }

    public var description: String {
        switch self {
        case let .unknownCode(code):
            return "LE signaling code \(LESignalingCode.hex(code)) is not an LE command (Core 5.4 Vol 3 Part A §4 Table 4.2)"
        case let .invalidLength(code, length, allowed):
            var text = "\(code): data is \(length) octets, must be \(Self.list(allowed))"
            if let cids = Self.cidCount(code, length) { text += "; it carries \(cids)" }
            return text + " (Core 5.4 Vol 3 Part A \(code.section))"
        case let .reservedValue(code, field, value):
            let octet = Self.offset(of: field, in: code).map { " at data octet \($0)" } ?? ""
            return "\(code): \(field) \(Hex.handle(value))\(octet) is reserved (Core 5.4 Vol 3 Part A \(code.section))"
        }
    }

    /// `10, 12 or 14`.
    private static func list(_ lengths: [Int]) -> String {
        guard let last = lengths.last else { return "nothing" }
        let rest = lengths.dropLast().map(String.init)
        return rest.isEmpty ? "\(last)" : rest.joined(separator: ", ") + " or \(last)"
    }

    /// For the commands that end in a CID list, how many CIDs a wrong length amounts to:
    /// `6 Source CIDs, 1–5 allowed`.
    private static func cidCount(_ code: LESignalingCode, _ length: Int) -> String? {
        let fixed: Int, counts: ClosedRange<Int>, name: String
        switch code {
        case .creditBasedConnectionRequest:
            (fixed, counts, name) = (CreditBasedConnectionRequest.fixedLength, CreditBasedConnectionRequest.sourceCIDCounts, "Source CIDs")
        case .creditBasedConnectionResponse:
            (fixed, counts, name) = (CreditBasedConnectionResponse.fixedLength, CreditBasedConnectionResponse.destinationCIDCounts, "Destination CIDs")
        case .creditBasedReconfigureRequest:
            (fixed, counts, name) = (CreditBasedReconfigureRequest.fixedLength, CreditBasedReconfigureRequest.destinationCIDCounts, "Destination CIDs")
        default:
            return nil
        }
        guard length >= fixed else { return nil }
        let whole = (length - fixed) / 2
        let odd = (length - fixed) % 2 == 1 ? " and an odd octet" : ""
        return "\(whole) \(name)\(odd), \(counts.lowerBound)–\(counts.upperBound) allowed"
    }

    /// Where a reason or result sits in the command's data.
    private static func offset(of field: Field, in code: LESignalingCode) -> Int? {
        switch (field, code) {
        case (.reason, .commandReject): return CommandReject.Field.reason.lowerBound
        case (.result, .connectionParameterUpdateResponse): return ConnectionParameterUpdateResponse.Field.result.lowerBound
        case (.result, .leCreditBasedConnectionResponse): return LECreditBasedConnectionResponse.Field.result.lowerBound
        case (.result, .creditBasedConnectionResponse): return CreditBasedConnectionResponse.Field.result.lowerBound
        case (.result, .creditBasedReconfigureResponse): return CreditBasedReconfigureResponse.Field.result.lowerBound
        default: return nil
        }
    }
}
