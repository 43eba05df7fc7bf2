import SwiftATTCore

/// ATT_FIND_BY_TYPE_VALUE_REQ: handles of attributes with a 16-bit type and a given
/// value (how a client finds a primary service by UUID). Core 5.4 Vol 3 Part F §3.4.3.3.
public struct FindByTypeValueRequest: ATTPDUCodable {
    @inlinable public static var opcode: ATTOpcode { .findByTypeValueRequest }
    /// The first handle of the range searched.
    public var startingHandle: UInt16
    /// The last handle of the range searched, inclusive.
    public var endingHandle: UInt16
    /// The attribute type, always a 16-bit UUID in this PDU.
    public var attributeType: UInt16
    /// The value to match, compared octet for octet.
    public var attributeValue: ArraySlice<UInt8>

    /// A request for the attributes of 16-bit `attributeType` whose value is `attributeValue`,
    /// between the two handles.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: UInt16, attributeValue: ArraySlice<UInt8>) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
        self.attributeValue = attributeValue
    }

    @usableFromInline
    enum Field {
        @inlinable static var startingHandle: Range<Int> { 1..<3 }
        @inlinable static var endingHandle: Range<Int> { 3..<5 }
        @inlinable static var attributeType: Range<Int> { 5..<7 }
        @inlinable static var attributeValue: PartialRangeFrom<Int> { 7... }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: Field.attributeValue.lowerBound)
        startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
        endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
        attributeType = pdu.littleEndianUInt16(at: Field.attributeType)
        attributeValue = pdu.bytes(at: Field.attributeValue)
        try ATTWire.checkValue(attributeValue, of: Self.opcode)
    }

    public var encodedLength: Int { Field.attributeValue.lowerBound + attributeValue.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
        writer.write(attributeType)
        writer.write(attributeValue)
    }
}

extension FindByTypeValueRequest {
    /// ATT_FIND_BY_TYPE_VALUE_REQ decoded from borrowed bytes (`ATTBorrowedPDU`): the value
    /// is the range of them it covers.
    public struct Borrowed: ATTBorrowedPDU {
        public typealias Owned = FindByTypeValueRequest
        /// The first handle of the range searched.
        public let startingHandle: UInt16
        /// The last handle of the range searched, inclusive.
        public let endingHandle: UInt16
        /// The 16-bit attribute type to match.
        public let attributeType: UInt16
        /// Where the value to match lies in the PDU.
        public let attributeValue: Range<Int>

        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            try ATTWire.check(pdu, is: Owned.opcode, atLeast: Field.attributeValue.lowerBound)
            startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
            endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
            attributeType = pdu.littleEndianUInt16(at: Field.attributeType)
            attributeValue = pdu.range(of: Field.attributeValue)
            try ATTWire.checkBorrowedValueLength(attributeValue.count, of: Owned.opcode)
        }

        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> FindByTypeValueRequest {
            FindByTypeValueRequest(
                startingHandle: startingHandle, endingHandle: endingHandle, attributeType: attributeType,
                attributeValue: pdu.bytes(at: attributeValue))
        }
    }
}
