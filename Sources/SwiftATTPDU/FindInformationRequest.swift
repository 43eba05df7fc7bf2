import SwiftATTCore

/// ATT_FIND_INFORMATION_REQ: handles and types in a range. Core 5.4 Vol 3 Part F §3.4.3.1.
public struct FindInformationRequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .findInformationRequest }
    /// The first handle of the range searched.
    public var startingHandle: UInt16
    /// The last handle of the range searched, inclusive.
    public var endingHandle: UInt16

    /// A request for the types of the attributes between the two handles.
    public init(startingHandle: UInt16, endingHandle: UInt16) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }

    @usableFromInline
    enum Field {
        @inlinable static var startingHandle: Range<Int> { 1..<3 }
        @inlinable static var endingHandle: Range<Int> { 3..<5 }
        @inlinable static var pduLength: Int { 5 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
        endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
        endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
    }
}
