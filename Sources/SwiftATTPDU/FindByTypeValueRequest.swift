import SwiftATTCore

/// ATT_FIND_BY_TYPE_VALUE_REQ: handles of attributes with a 16-bit type and a given
/// value (how a client finds a primary service by UUID). Core 5.4 Vol 3 Part F §3.4.3.3.
public struct FindByTypeValueRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.findByTypeValueRequest
    public var startingHandle: UInt16
    public var endingHandle: UInt16
    /// The attribute type, always a 16-bit UUID in this PDU.
    public var attributeType: UInt16
    public var attributeValue: ArraySlice<UInt8>

    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: UInt16, attributeValue: ArraySlice<UInt8>) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
        self.attributeValue = attributeValue
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 7)
        startingHandle = pdu.littleEndianUInt16(at: 1)
        endingHandle = pdu.littleEndianUInt16(at: 3)
        attributeType = pdu.littleEndianUInt16(at: 5)
        attributeValue = pdu.bytes(from: 7)
        try ATTWire.checkValue(attributeValue, of: Self.opcode)
    }

    public var encodedLength: Int { 7 + attributeValue.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
        writer.write(attributeType)
        writer.write(attributeValue)
    }
}
