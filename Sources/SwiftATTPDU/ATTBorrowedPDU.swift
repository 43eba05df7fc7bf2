import SwiftATTCore

/// One ATT PDU type decoded from borrowed bytes: a `Span<UInt8>` of the caller's buffer.
///
/// The slice decoder (`ATTPDUCodable.init(parsing:)`) keeps its byte fields as views of
/// the input, and an `ArraySlice` view holds its array's storage: making one, copying it
/// and dropping it each cost reference counting, and the decoded PDU can outlive the
/// call. The borrowed decode instead reads from a `Span`, which owns nothing, and keeps
/// each byte field (a value, a list) as the `Range<Int>` of the span it covers, counted
/// from the span's first byte. The result is a few integers: copying it is copying
/// those, and decoding retains, releases and allocates nothing.
///
/// Swift 6.3 cannot yet return a value that holds a `Span` without the experimental
/// `Lifetimes` feature (a function or initialiser "cannot return a ~Escapable result"),
/// so the ranges stand in for views; `span.extracting(pdu.value)` turns one back into a
/// `Span` of the same bytes, and `owned(in:)` into the slice decoder's PDU.
///
/// A PDU type without byte fields (Read Request, Error Response, …) is its own borrowed
/// form: it decodes from a span to itself. The others have a nested `Borrowed` type with
/// the same field names. Validation and errors are the slice decoder's, case for case
/// (tests compare the two on every fixture and on mutated inputs). Equality compares
/// the fields and ranges, not the bytes the ranges cover: two decodes of different
/// buffers are equal when their layouts are.
public protocol ATTBorrowedPDU: Sendable, Hashable {
    /// The slice decoder's type for the same PDU.
    associatedtype Owned: ATTPDUCodable
    /// Parses one whole PDU, opcode included, from borrowed bytes.
    init(parsing pdu: Span<UInt8>) throws(ATTDecodingError)
    /// The PDU as the slice decoder makes it, its byte fields views of `pdu`: the same
    /// bytes this was decoded from, for a PDU that must outlive the buffer's span.
    func owned(in pdu: ArraySlice<UInt8>) -> Owned
}

extension ATTBorrowedPDU where Owned == Self {
    /// A PDU without byte fields owns nothing: it is already the slice decoder's PDU.
    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Self { self }
}

/// The length checks of `ATTWire` for borrowed bytes, throwing the same errors.
///
/// Each check marks its passing branch `_fastPath`: the optimiser otherwise lays a
/// throw out as the fall-through and the valid PDU's path jumps over every one of them,
/// and in `ATTPDU.Borrowed(parsing:)` those jumps are a good part of a decode.
extension ATTWire {
    @inlinable @inline(__always)
    static func check(_ pdu: Span<UInt8>, is opcode: ATTOpcode) throws(ATTDecodingError) {
        guard _fastPath(!pdu.isEmpty) else { throw .empty }
        let first = pdu[0]
        guard _fastPath(first == opcode.rawValue) else {
            throw .opcodeMismatch(expected: opcode, found: ATTOpcode(first))
        }
    }

    /// The PDU has this opcode and exactly `length` bytes.
    @inlinable @inline(__always)
    static func check(_ pdu: Span<UInt8>, is opcode: ATTOpcode, length: Int) throws(ATTDecodingError) {
        try check(pdu, is: opcode)
        guard _fastPath(pdu.count == length) else {
            if pdu.count < length { throw .truncated(opcode, need: length, have: pdu.count) }
            throw .invalidLength(opcode, expected: length, have: pdu.count)
        }
    }

    /// The PDU has this opcode and at least `minimum` bytes.
    @inlinable @inline(__always)
    static func check(_ pdu: Span<UInt8>, is opcode: ATTOpcode, atLeast minimum: Int) throws(ATTDecodingError) {
        try check(pdu, is: opcode)
        guard _fastPath(pdu.count >= minimum) else {
            throw .truncated(opcode, need: minimum, have: pdu.count)
        }
    }

    /// An attribute value of `length` octets is within the 512-octet limit.
    @inlinable @inline(__always)
    static func checkBorrowedValueLength(_ length: Int, of opcode: ATTOpcode) throws(ATTDecodingError) {
        guard _fastPath(length <= ATTLimits.maximumAttributeValueLength) else {
            throw .valueTooLong(opcode, length: length)
        }
    }

    /// A 16- or 128-bit attribute type: the bytes of `pdu` from `field.lowerBound` on.
    @inlinable
    static func uuid(_ pdu: Span<UInt8>, at field: PartialRangeFrom<Int>, of opcode: ATTOpcode) throws(ATTDecodingError) -> BluetoothUUID {
        let count = pdu.count &- field.lowerBound
        switch count {
        case 2: return BluetoothUUID(pdu.littleEndianUInt16(at: field.lowerBound))
        case 16: return BluetoothUUID(uuid128: pdu.littleEndianUInt128(at: field.lowerBound))
        default: throw .invalidUUIDLength(opcode, byteCount: count)
        }
    }
}
