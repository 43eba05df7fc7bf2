import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_REQ: grouping attributes of one type in a range (primary
/// service discovery). Core 5.4 Vol 3 Part F §3.4.4.9.
public struct ReadByGroupTypeRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByGroupTypeRequest
    public var startingHandle: UInt16
    public var endingHandle: UInt16
    /// A 16- or 128-bit UUID; a server supports only grouping types.
    public var attributeGroupType: BluetoothUUID

    public init(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeGroupType = attributeGroupType
    }

    @usableFromInline
    enum Field {
        @usableFromInline static let startingHandle = 1..<3
        @usableFromInline static let endingHandle = 3..<5
        /// A 16-bit UUID (two octets) or a 128-bit one (sixteen), to the end of the PDU.
        @usableFromInline static let attributeGroupType = 5...
        /// The PDU with a 16-bit UUID.
        @usableFromInline static let minimumPDULength = 7
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: Field.minimumPDULength)
        startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
        endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
        attributeGroupType = try ATTWire.uuid(pdu.bytes(at: Field.attributeGroupType), of: Self.opcode)
    }

    public var encodedLength: Int { Field.attributeGroupType.lowerBound + attributeGroupType.encodedLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
        attributeGroupType.encode(into: &writer)
    }
}
