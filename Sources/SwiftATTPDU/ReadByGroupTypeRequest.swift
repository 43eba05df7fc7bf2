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

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 7)
        startingHandle = pdu.littleEndianUInt16(at: 1)
        endingHandle = pdu.littleEndianUInt16(at: 3)
        attributeGroupType = try ATTWire.uuid(pdu.bytes(from: 5), of: Self.opcode)
    }

    public var encodedLength: Int { 5 + attributeGroupType.encodedLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
        attributeGroupType.encode(into: &writer)
    }
}
