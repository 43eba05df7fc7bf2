import SwiftATTCore

/// One ATT PDU type: parses its own bytes and emits them again.
///
/// `init(parsing:)` takes the whole PDU, opcode first, as a slice of the caller's bytes.
/// It validates every length once, then keeps views into those bytes: a decoded value or
/// list shares the input's storage, so decoding copies and allocates nothing. Encoding
/// (from `ByteEncodable`) writes exactly `encodedLength` bytes into a buffer the caller
/// owns. For every valid PDU, `encoded()` returns exactly the bytes that were parsed.
///
/// Each type names where its fields lie, by the octets they cover, in a `Field` enum
/// (a shape's in `ATTPDUShapes.swift`, a list entry's inside the entry type), so no
/// parser counts bytes.
public protocol ATTPDUCodable: ByteEncodable, Sendable, Hashable {
    /// The opcode this type parses and emits.
    static var opcode: ATTOpcode { get }
    /// Parses one whole PDU, opcode included.
    init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError)
}

extension ATTPDUCodable {
    /// Parses one whole PDU held in an array.
    @inlinable
    public init(parsing pdu: [UInt8]) throws(ATTDecodingError) {
        try self.init(parsing: pdu[...])
    }
}

/// Limits the codec enforces, from Core 5.4 Vol 3 Part F.
public enum ATTLimits {
    /// §3.2.9: no attribute value is longer than 512 octets.
    public static let maximumAttributeValueLength = 512
    /// §3.2.8 / Part G §5.2.1: the LE default and minimum ATT_MTU.
    public static let defaultMTU = 23
    /// §3.3.1: the authentication signature of a Signed Write Command.
    public static let signatureLength = 12
}

/// Length checks shared by every PDU's parser. Each throws the error that names the PDU.
@usableFromInline
enum ATTWire {
    @inlinable
    static func check(_ pdu: ArraySlice<UInt8>, is opcode: ATTOpcode) throws(ATTDecodingError) {
        guard let first = pdu.first else { throw .empty }
        guard first == opcode.rawValue else {
            throw .opcodeMismatch(expected: opcode, found: ATTOpcode(first))
        }
    }

    /// The PDU has this opcode and exactly `length` bytes.
    @inlinable
    static func check(_ pdu: ArraySlice<UInt8>, is opcode: ATTOpcode, length: Int) throws(ATTDecodingError) {
        try check(pdu, is: opcode)
        guard pdu.count == length else {
            if pdu.count < length { throw .truncated(opcode, need: length, have: pdu.count) }
            throw .invalidLength(opcode, expected: length, have: pdu.count)
        }
    }

    /// The PDU has this opcode and at least `minimum` bytes.
    @inlinable
    static func check(_ pdu: ArraySlice<UInt8>, is opcode: ATTOpcode, atLeast minimum: Int) throws(ATTDecodingError) {
        try check(pdu, is: opcode)
        guard pdu.count >= minimum else {
            throw .truncated(opcode, need: minimum, have: pdu.count)
        }
    }

    /// An attribute value within the 512-octet limit.
    @inlinable
    static func checkValue(_ value: ArraySlice<UInt8>, of opcode: ATTOpcode) throws(ATTDecodingError) {
        try checkValueLength(value.count, of: opcode)
    }

    /// An attribute value of `length` octets is within the 512-octet limit.
    @inlinable
    static func checkValueLength(_ length: Int, of opcode: ATTOpcode) throws(ATTDecodingError) {
        guard length <= ATTLimits.maximumAttributeValueLength else {
            throw .valueTooLong(opcode, length: length)
        }
    }

    /// A 16- or 128-bit attribute type.
    @inlinable
    static func uuid(_ bytes: ArraySlice<UInt8>, of opcode: ATTOpcode) throws(ATTDecodingError) -> BluetoothUUID {
        guard bytes.count == 2 || bytes.count == 16, let uuid = BluetoothUUID(littleEndianBytes: bytes) else {
            throw .invalidUUIDLength(opcode, byteCount: bytes.count)
        }
        return uuid
    }
}
