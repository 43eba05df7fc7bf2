import SwiftATTCore

/// Why bytes are not a valid ATT PDU, naming the PDU and what is wrong with it.
///
/// A server answers such a request with Invalid PDU (Core 5.4 Vol 3 Part F §3.4.1.1);
/// a client drops such a response. Typed, so decoding never boxes or allocates an error.
public enum ATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Zero bytes: not even an opcode.
    case empty
    /// An opcode Core 5.4 does not define.
    case unknownOpcode(ATTOpcode)
    /// A PDU type was handed another PDU's bytes.
    case opcodeMismatch(expected: ATTOpcode, found: ATTOpcode)
    /// Fewer bytes than the PDU's fixed fields need.
    case truncated(ATTOpcode, need: Int, have: Int)
    /// A fixed-length PDU whose length is not the one the spec gives.
    case invalidLength(ATTOpcode, expected: Int, have: Int)
    /// An attribute type that is neither a 16-bit nor a 128-bit UUID.
    case invalidUUIDLength(ATTOpcode, byteCount: Int)
    /// A Find Information Response format that is neither 0x01 (16-bit) nor 0x02 (128-bit).
    case invalidFormat(UInt8)
    /// A list entry length outside what the entry's fields allow.
    case invalidEntryLength(ATTOpcode, length: Int, allowed: ClosedRange<Int>)
    /// A list whose byte count is not a whole number of entries.
    case lengthNotMultiple(ATTOpcode, dataLength: Int, entryLength: Int)
    /// A list that must hold at least `minimum` entries holds fewer.
    case tooFewEntries(ATTOpcode, count: Int, minimum: Int)
    /// An attribute value longer than the 512-octet limit (Core 5.4 Vol 3 Part F §3.2.9).
    case valueTooLong(ATTOpcode, length: Int)
    /// Execute Write flags other than 0x00 (cancel) and 0x01 (write).
    case invalidExecuteWriteFlags(UInt8)
    /// A Signed Write Command signature that is not 12 octets.
    case invalidSignatureLength(Int)
    /// A length-prefixed tuple at byte `offset` that runs past the end of the PDU.
    case tupleOverrun(ATTOpcode, offset: Int, need: Int, have: Int)

    public var description: String {
        switch self {
        case .empty:
            return "empty ATT PDU: no opcode"
        case let .unknownOpcode(op):
            return "\(op): not defined by Core 5.4"
        case let .opcodeMismatch(expected, found):
            return "expected \(expected), found \(found)"
        case let .truncated(op, need, have):
            return "\(name(op)) truncated: needs at least \(need) bytes, has \(have)"
        case let .invalidLength(op, expected, have):
            return "\(name(op)) must be exactly \(expected) bytes, has \(have)"
        case let .invalidUUIDLength(op, n):
            return "\(name(op)): attribute type is \(n) bytes; must be 2 (16-bit UUID) or 16 (128-bit UUID)"
        case let .invalidFormat(f):
            return "Find Information Response: format 0x\(String(f, radix: 16)) at byte 1 is neither 0x01 (16-bit UUIDs) nor 0x02 (128-bit UUIDs)"
        case let .invalidEntryLength(op, length, allowed):
            return "\(name(op)): entry length \(length) at byte 1 is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case let .lengthNotMultiple(op, dataLength, entryLength):
            return "\(name(op)): \(dataLength) bytes of list data are not a multiple of the entry length \(entryLength)"
        case let .tooFewEntries(op, count, minimum):
            return "\(name(op)): \(count) entries; at least \(minimum) required"
        case let .valueTooLong(op, length):
            return "\(name(op)): value of \(length) bytes exceeds the 512-byte attribute limit"
        case let .invalidExecuteWriteFlags(f):
            return "Execute Write Request: flags 0x\(String(f, radix: 16)) at byte 1 are neither 0x00 (cancel) nor 0x01 (write)"
        case let .invalidSignatureLength(n):
            return "Signed Write Command: signature is \(n) bytes; must be 12"
        case let .tupleOverrun(op, offset, need, have):
            return "\(name(op)): tuple at byte \(offset) needs \(need) bytes, only \(have) remain"
        }
    }

    private func name(_ op: ATTOpcode) -> String { op.name ?? op.description }
}
