import SwiftATTCore

/// Why bytes are not valid advertising or scan response data, and where.
///
/// Offsets count from the first byte of the payload and point at the structure's Length
/// octet, so `0201` reads as "the structure at byte 0". Typed, so decoding never boxes or
/// allocates an error. Core 5.4 Vol 3 Part C §11; Core Specification Supplement Part A.
public enum ADDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The Length octet at `offset` claims `length` octets (AD type and data), but only
    /// `remaining` follow it.
    case structureOverrun(offset: Int, length: Int, remaining: Int)
    /// A structure whose data length breaks its type's rule (a Tx Power Level of 2 bytes,
    /// a 16-bit UUID list of 3 bytes…).
    case invalidLength(ADType, offset: Int, length: Int, required: ADLengthRequirement)

    /// Byte offset of the structure at fault.
    public var offset: Int {
        switch self {
        case let .structureOverrun(offset, _, _): return offset
        case let .invalidLength(_, offset, _, _): return offset
        }
    }

    public var description: String {
        switch self {
        case let .structureOverrun(offset, length, remaining):
            return "AD structure at byte \(offset) runs past the end: its length octet says \(length) "
                + "\(length == 1 ? "byte follows" : "bytes follow"), only \(remaining) \(remaining == 1 ? "does" : "do")"
        case let .invalidLength(type, offset, length, required):
            return "\(type.name ?? type.description) at byte \(offset): data is \(length) "
                + "\(length == 1 ? "byte" : "bytes"); must be \(required)"
        }
    }
}
