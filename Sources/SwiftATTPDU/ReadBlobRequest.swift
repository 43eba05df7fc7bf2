import SwiftATTCore

/// ATT_READ_BLOB_REQ: read a long value from an offset. Core 5.4 Vol 3 Part F §3.4.4.5.
public struct ReadBlobRequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .readBlobRequest }
    /// The attribute whose value is read.
    public var handle: UInt16
    /// Where in the value to start.
    public var valueOffset: UInt16

    /// A request for `handle`'s value from `valueOffset` on.
    public init(handle: UInt16, valueOffset: UInt16) {
        self.handle = handle
        self.valueOffset = valueOffset
    }

    @usableFromInline
    enum Field {
        @inlinable static var attributeHandle: Range<Int> { 1..<3 }
        @inlinable static var valueOffset: Range<Int> { 3..<5 }
        @inlinable static var pduLength: Int { 5 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        handle = pdu.littleEndianUInt16(at: Field.attributeHandle)
        valueOffset = pdu.littleEndianUInt16(at: Field.valueOffset)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        handle = pdu.littleEndianUInt16(at: Field.attributeHandle)
        valueOffset = pdu.littleEndianUInt16(at: Field.valueOffset)
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(valueOffset)
    }
}
